// The native half of `npm run bench -- side-by-side` (bench/side-by-side.mjs runs it and prints its rows beside the
// JavaScript ones). Per (k, ε), on one Dirichlet(0.5) histogram, timed in turns (timing.hpp):
//   dist      MinimaxSampler(ε).distribution(hist): the call a user makes (a new vector each call)
//   into      the same into a buffer the caller keeps (distribution_into)
//   solver    clip_normalise_into a kept buffer, on the already normalised p (the solver alone, what the API is
//             measured against)
//   normalise normalized_pmf_into a kept buffer (the API's own rules: the checked histogram, an exact total, each
//             p_x = h_x/Σh rounded once), the part of the API's time that is not the solver's
//   pass      one pass (Σ over the input in eight accumulators: the floor of anything that reads every entry once)
//   authors   a C++ port of Park et al.'s numpy loop (bisection on r, q = clip(p/r; ℓ, u) materialised per step,
//             stop at np.isclose(Σq, 1)); its steps and the largest relative error of its q are printed too
//   sample    one sample() (the release path: the fixed schedule, the release plan, one draw), at the k of --sample
// Output: one line per row, whitespace-separated `key=value` fields, times in seconds (the JS side formats them).
// `--memory MODE K`: one call at k = K after the input is allocated, and the growth of peak RSS it caused, for MODE
// dist | into | solver (a process per mode: peak RSS only grows).
// `--api [largest k] [seconds per row]`: distribution_into against the solver alone and against the route it took
// before the solver normalised in its first pass (normalized_pmf_into, then clip_normalise_into in the same buffer,
// the same bits), the three timed in turns, k = 10^3 upwards; one line per row, `api` fields.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <sys/resource.h>

#include "park_inputs.hpp"
#include "privsample.hpp"
#include "timing.hpp"

namespace {

using privsample_bench::dirichlet_half;
using privsample_bench::one_pass;
using privsample_bench::sink;
using privsample_bench::sum_in_lanes;

struct Approximate {
  std::vector<double> q;
  int steps = 0;
};

// Park et al.'s loop as published (numpy): r = (low + high)/2; q = np.clip(p / r, lo, hi); stop when
// np.isclose(q.sum(), 1), else move an end of [1, (e^ε + k − 1)/e^ε]. One reused vector, one fused pass per step.
void authors(const std::vector<double>& p, double lo, double hi, double r_max, Approximate& out) {
  double r_low = 1.0;
  double r_high = r_max;
  out.q.resize(p.size());
  for (out.steps = 1; out.steps <= 200; ++out.steps) {
    const double r = 0.5 * (r_low + r_high);
    const double total = sum_in_lanes(p.size(), [&](std::size_t i) { return out.q[i] = std::clamp(p[i] / r, lo, hi); });
    if (std::fabs(total - 1.0) <= 1e-8 + 1e-5) break;
    (total > 1.0 ? r_low : r_high) = r;
  }
}

double peak_rss_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) * 1024.0;
}

int memory_mode(const std::string& mode, std::size_t k) {
  std::mt19937_64 rng(7);
  const std::vector<double> hist = dirichlet_half(k, false, rng);
  const privsample::MinimaxSampler sampler(0.1);
  const privsample::FiniteBox box = privsample::finite_minimax_box(k, 0.1);
  std::vector<double> out;
  if (mode == "into") out.assign(k, 0.0);  // the caller's buffer, touched before the call like any kept buffer
  const double before = peak_rss_bytes();
  if (mode == "dist") {
    sink = sampler.distribution(hist)[0];
  } else if (mode == "into") {
    sampler.distribution_into(hist, out);
    sink = out[0];
  } else if (mode == "solver") {
    sink = privsample::clip_normalise(hist, privsample::UniformBox{k, box.floor, box.ceiling}).q[0];
  } else {
    std::fprintf(stderr, "unknown memory mode %s\n", mode.c_str());
    return 2;
  }
  const double after = peak_rss_bytes();
  std::printf("memory mode=%s k=%zu before=%.0f after=%.0f input=%.0f\n", mode.c_str(), k, before, after,
              static_cast<double>(k * sizeof(double)));
  return 0;
}

int api_mode(std::size_t largest, double budget) {
  std::mt19937_64 rng(20261127);
  for (std::size_t k = 1000; k <= largest; k *= 10) {
    const std::vector<double> hist = dirichlet_half(k, false, rng);
    const std::vector<double> p = privsample::normalized_pmf(hist);
    std::vector<double> out(k), former(k), solved(k);
    for (const double epsilon : {0.1, 1.0, 5.0}) {
      const privsample::MinimaxSampler sampler(epsilon);
      const privsample::FiniteBox box = privsample::finite_minimax_box(k, epsilon);
      const privsample::UniformBox uniform{k, box.floor, box.ceiling};
      const auto before = [&] {
        privsample::normalized_pmf_into(hist, former);
        (void)privsample::clip_normalise_into(former, uniform, former);
      };
      before();
      sampler.distribution_into(hist, out);
      if (!std::equal(out.begin(), out.end(), former.begin(), former.end())) {
        std::fprintf(stderr, "distribution_into differs from the former route at k = %zu, eps = %g\n", k, epsilon);
        return 1;
      }
      privsample_bench::Repetitions reps{7, budget, 400, false};
      const auto t = privsample_bench::interleaved_median_seconds(
          reps, 20e-6,
          [&] {
            sampler.distribution_into(hist, out);
            sink = out[0];
          },
          [&] {
            before();
            sink = former[0];
          },
          [&] {
            (void)privsample::clip_normalise_into(p, uniform, solved);
            sink = solved[0];
          });
      std::printf("api k=%zu eps=%g into=%.9g former=%.9g solver=%.9g\n", k, epsilon, t[0], t[1], t[2]);
      std::fflush(stdout);
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 4 && std::strcmp(argv[1], "--memory") == 0) {
    return memory_mode(argv[2], static_cast<std::size_t>(std::atof(argv[3])));
  }
  if (argc >= 2 && std::strcmp(argv[1], "--api") == 0) {
    return api_mode(argc >= 3 ? static_cast<std::size_t>(std::atof(argv[2])) : 10'000'000,
                    argc >= 4 ? std::atof(argv[3]) : 0.6);
  }
  const std::size_t largest = argc >= 2 ? static_cast<std::size_t>(std::atof(argv[1])) : 10'000'000;
  const double budget = argc >= 3 ? std::atof(argv[2]) : 0.6;
  std::mt19937_64 rng(20261127);
  privsample::SeededRandom bits(20261127);
  for (std::size_t k = 100; k <= largest; k *= 10) {
    const std::vector<double> hist = dirichlet_half(k, false, rng);
    const std::vector<double> p = privsample::normalized_pmf(hist);
    std::vector<double> out(k);
    std::vector<double> solved(k);
    for (const double epsilon : {0.1, 1.0, 5.0}) {
      const privsample::MinimaxSampler sampler(epsilon);
      const privsample::FiniteBox box = privsample::finite_minimax_box(k, epsilon);
      const privsample::UniformBox uniform{k, box.floor, box.ceiling};
      const double r_max = (std::exp(epsilon) + static_cast<double>(k) - 1.0) / std::exp(epsilon);
      const std::vector<double> exact = sampler.distribution(hist);
      sampler.distribution_into(hist, out);
      if (!std::equal(out.begin(), out.end(), exact.begin())) {
        std::fprintf(stderr, "distribution_into differs from distribution at k = %zu, eps = %g\n", k, epsilon);
        return 1;
      }
      Approximate approx;
      privsample_bench::Repetitions reps{5, budget, 400, false};
      const auto t = privsample_bench::interleaved_median_seconds(
          reps, 20e-6, [&] { sink = sampler.distribution(hist)[0]; },
          [&] {
            sampler.distribution_into(hist, out);
            sink = out[0];
          },
          [&] {
            (void)privsample::clip_normalise_into(p, uniform, solved);
            sink = solved[0];
          },
          [&] { sink = one_pass(p); }, [&] { authors(p, box.floor, box.ceiling, r_max, approx); },
          [&] {
            privsample::normalized_pmf_into(hist, solved);
            sink = solved[0];
          });
      double error = 0.0;
      for (std::size_t i = 0; i < k; ++i) error = std::max(error, std::fabs(approx.q[i] - exact[i]) / exact[i]);
      std::printf("row k=%zu eps=%g dist=%.9g into=%.9g solver=%.9g pass=%.9g authors=%.9g normalise=%.9g steps=%d "
                  "error=%.3g\n",
                  k, epsilon, t[0], t[1], t[2], t[3], t[4], t[5], approx.steps, error);
      std::fflush(stdout);
    }
    // One release per call, against distribution() on the same input (ε = 1).
    if (k >= 10'000) {
      const privsample::MinimaxSampler sampler(1.0);
      privsample_bench::Repetitions reps{3, budget, 100, false};
      const auto t = privsample_bench::interleaved_median_seconds(
          reps, 20e-6, [&] { sink = static_cast<double>(sampler.sample(hist, bits)); },
          [&] { sink = sampler.distribution(hist)[0]; });
      std::printf("sample k=%zu eps=1 sample=%.9g dist=%.9g\n", k, t[0], t[1]);
      std::fflush(stdout);
    }
  }
  return 0;
}
