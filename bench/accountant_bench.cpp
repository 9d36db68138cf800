// The privacy accountant on the point-mass channels of the finite mechanisms (what ps.accountant(s, {k}) runs),
// against the every-pair LDP-curve search it replaced, measured in the same run.
// Prints, per mechanism and k: the whole report (LDP curve on the default 101-point grid, capacity, bounds), the
// LDP curve alone, and the baseline's LDP curve; the baseline is timed on `kBaselinePoints` of the 101 points
// and scaled (it is linear in the number of points) so k = 1000 does not take minutes.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "analysis/accountant.hpp"
#include "analysis/channel.hpp"
#include "mechanisms/mechanism.hpp"
#include "../tests/native/every_pair_ldp_curve.hpp"
#include "timing.hpp"

namespace {

using privsample_bench::median_seconds;
using privsample_bench::sink;

constexpr int kBaselinePoints = 1;  // its cost is the same at every ε' (no pruning)

}  // namespace

int main() {
  using namespace privsample;
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // one line per result, also through a pipe
  std::printf("Accountant on the k point masses (median wall time; baseline = every-pair LDP curve, scaled from %d "
              "of 101 points)\n",
              kBaselinePoints);
  std::printf("%-12s %6s %14s %14s %16s %10s\n", "mechanism", "k", "report", "LDP curve", "baseline curve",
              "speed-up");
  std::mt19937_64 rng(7);
  for (const char* name : {"minimax", "linear-approx", "local", "mollifier"}) {
    for (const std::size_t k : {std::size_t{10}, std::size_t{100}, std::size_t{400}, std::size_t{1000}}) {
      MechanismOptions o;
      o.epsilon = 1.0;
      std::string mechanism = name;
      if (mechanism == "linear-approx") {
        mechanism = "linear";
        o.delta = 1e-6;
      }
      if (mechanism == "local" || mechanism == "mollifier") {
        std::gamma_distribution<double> g(0.5, 1.0);
        std::vector<double> masses(k);
        double total = 0.0;
        for (double& v : masses) total += v = g(rng) + 1e-3;
        for (double& v : masses) v /= total;
        if (mechanism == "local") {
          o.prior = masses;
          o.gamma = 3.0;
        } else {
          o.reference = masses;
        }
      }
      const Mechanism m = make_finite_mechanism(mechanism, o);
      const ChannelMatrix w = channel_matrix(m, point_mass_inputs(m, k));
      const AccountantReport report = accountant_report(w, std::nullopt, {});
      const privsample_bench::Repetitions few{1, 1.0, 5};
      const double t_report = median_seconds([&] { sink = accountant_report(w, std::nullopt, {}).capacity.upper; }, few);
      const double t_curve = median_seconds([&] { sink = ldp_curve(w, report.epsilons).front(); }, few);
      std::vector<double> subset;
      for (int i = 0; i < kBaselinePoints; ++i) subset.push_back(report.epsilons[static_cast<std::size_t>(50 + i)]);
      const auto baseline = [&] { sink = privsample_reference::every_pair_ldp_curve(w, subset).front(); };
      const double t_baseline = median_seconds(baseline, {1, 0.0, 1}) * 101.0 / kBaselinePoints;
      std::printf("%-12s %6zu %11.1f ms %11.1f ms %13.1f ms %9.0fx\n", name, k, 1e3 * t_report, 1e3 * t_curve,
                  1e3 * t_baseline, t_baseline / t_curve);
    }
  }
  return 0;
}
