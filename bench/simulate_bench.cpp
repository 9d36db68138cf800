// Times the simulation of N = 10^6 point-mass users (simulate.hpp) for every finite mechanism at k = 10^4 and 10^5
// (and any k given on the command line), against baselines measured in the same run, and prints ratios:
//   fast              release_point_masses: the released counts alone (the mechanism's point-mass law, one three-way
//                     multinomial per item and two spreads; laplace-projection: its own O(1) draw per user);
//   simulate          the whole call ps.simulate makes: the users' items, the counts, the estimates and the errors;
//   per-user law      a hand-written loop drawing each user's release from the same point-mass law, O(1) per user
//                     after O(k) tables (what the fast path replaces; none for laplace-projection, which has no law);
//   per-user sample   what a loop over users calling the sampler does: prepare + one draw for every user's point
//                     mass (O(k) each), timed on a few users and scaled to N.
// Population: uniform over the k items (about N/k holders per item: every item is a class). ε = 1; seeded bits.
// Usage: simulate_bench [k ...]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/simulate.hpp"
#include "base/draw.hpp"
#include "base/randomness.hpp"
#include "mechanisms/mechanism.hpp"
#include "model/discrete_draws.hpp"
#include "timing.hpp"
#include "../tests/native/mechanism_examples.hpp"

namespace {

using privsample_bench::sink;

// At least 3 runs (a simulation takes long), within about 1 s.
template <class Body>
double median_seconds(Body&& body) {
  return privsample_bench::median_seconds(body, {3, 1.0, 50});
}

// One user's release drawn from the point-mass law, O(1) after the tables (the per-user law baseline).
std::vector<double> per_user_law(const privsample::PointMassLaw& law, std::span<const double> items,
                                 privsample::RandomBits& bits) {
  using namespace privsample;
  const std::size_t k = items.size();
  double floor_mass = 0.0;
  double lift_mass = 0.0;
  for (const double v : law.floor) floor_mass += v;
  for (const double v : law.lift) lift_mass += v;
  const std::optional<CumulativeTable> floor =
      floor_mass > 0.0 ? std::optional<CumulativeTable>(std::in_place, law.floor) : std::nullopt;
  const std::optional<CumulativeTable> lift =
      lift_mass > 0.0 ? std::optional<CumulativeTable>(std::in_place, law.lift) : std::nullopt;
  std::vector<double> counts(k, 0.0);
  for (std::size_t x = 0; x < k; ++x) {
    const double lifted = law.theta.empty() ? 0.0 : law.theta[x] * lift_mass;
    for (double i = 0.0; i < items[x]; i += 1.0) {
      const double u = uniform01(bits) * (law.spike[x] + floor_mass + lifted);
      if (u < law.spike[x]) counts[x] += 1.0;
      else if (u < law.spike[x] + floor_mass || !lift) counts[floor->draw(bits)] += 1.0;
      else counts[lift->draw(bits)] += 1.0;
    }
  }
  return counts;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace privsample;
  std::vector<std::size_t> ks;
  for (int i = 1; i < argc; ++i) ks.push_back(static_cast<std::size_t>(std::strtoull(argv[i], nullptr, 10)));
  if (ks.empty()) ks = {10'000, 100'000};
  constexpr std::size_t kUsers = 1'000'000;
  std::printf("N = %zu point-mass users, uniform population over k items, eps = 1; median wall times in ms\n", kUsers);
  std::printf("%-24s %7s %9s %9s %12s %13s %10s %11s\n", "mechanism", "k", "fast", "simulate", "per-user law",
              "per-user smp", "law/fast", "smp/simul");
  for (const std::size_t k : ks) {
    const std::vector<double> population(k, 1.0);
    for (const auto& [label, options] : privsample_test::mechanism_examples(k, 1.0)) {
      const Mechanism mechanism = make_finite_mechanism(label.substr(0, label.find(' ')), options);
      SeededRandom bits(2026);
      std::vector<double> items;
      for (const auto c : multinomial(bits, kUsers, population)) items.push_back(static_cast<double>(c));

      const double fast = median_seconds([&] { sink = sink + release_point_masses(mechanism, items, bits)[0]; });
      SimulationOptions so;
      so.users = kUsers;
      const double whole = median_seconds([&] { sink = sink + simulate(mechanism, population, so, bits).counts[0]; });
      double law_seconds = NAN;
      if (const std::optional<PointMassLaw> law = point_mass_law(mechanism, k)) {
        law_seconds = median_seconds([&] { sink = sink + per_user_law(*law, items, bits)[0]; });
      }
      // Per-user sample on the first holders of spread-out items, enough for about 0.2 s, scaled to N.
      const double mass = guarantee(mechanism).notion == PrivacyNotion::record_dp ? guarantee(mechanism).records : 1.0;
      std::vector<double> input(k, 0.0);
      std::size_t calls = 0;
      const auto one_user = [&] {
        const std::size_t x = (calls++ * 7919) % k;
        input[x] = mass;
        sink = sink + static_cast<double>(sample_many(mechanism, input, 1, bits)[0]);
        input[x] = 0.0;
      };
      const auto t0 = std::chrono::steady_clock::now();
      one_user();
      const double single = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const std::size_t users = std::clamp<std::size_t>(static_cast<std::size_t>(0.2 / std::max(single, 1e-9)), 10,
                                                        kUsers);
      const double per_sample =
          median_seconds([&] { for (std::size_t i = 0; i < users; ++i) one_user(); }) * static_cast<double>(kUsers) /
          static_cast<double>(users);
      std::printf("%-24s %7zu %9.1f %9.1f %12.1f %13.0f %10.1f %11.0f\n", label.c_str(), k, 1e3 * fast, 1e3 * whole,
                  1e3 * law_seconds, 1e3 * per_sample, law_seconds / fast, per_sample / whole);
      std::fflush(stdout);
    }
  }
  return 0;
}
