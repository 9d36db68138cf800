// Times the exact clip-normalise against three baselines measured in the same run, and prints ratios:
//   one pass    Σp over the input in eight accumulators (as numpy sums): the floor of any method that reads every
//               probability once;
//   bisect-60   60 halvings of the papers' bracket [1, (e^ε+k−1)/e^ε] on r, each evaluating Σ clip(p/r; ℓ, u),
//               then q: as exact as privsample's answer up to the summation error, and the cost of that route;
//   authors     a C++ port of the papers' numpy code: the same bisection, but q = clip(p/r; ℓ, u) is materialised
//               each step (in one fused pass, summed as numpy sums: faster than the numpy original) and the loop
//               stops as soon as np.isclose(Σq, 1) (|Σq − 1| <= 1e-8 + 1e-5, numpy's default atol and rtol).
//               Its answer is approximate; the bench prints how far: |Σq − 1|, the largest relative error of a q_x
//               against the exact answer, and how far q/Σq (what a sampler must draw from) leaves the box [ℓ, u]
//               that the ε guarantee rests on (max of q̃/u − 1 and ℓ/q̃ − 1).
// Inputs per k: Park's finite box ℓ = 1/(e^ε+k−1), u = e^ε·ℓ at ε ∈ {0.1, 1, 5}; dense = Dirichlet(0.5) over all k
// atoms, sparse = Dirichlet(0.5) over a random 1% of them (at least one). Median wall time per call, the four
// methods timed in turns (bench/timing.hpp) so that ratios hold when the host's speed drifts during the run.
// Peak memory at the largest k: the growth of the process's peak RSS (native) or of the WASM heap during the
// first clip_normalise call at that k (the input is already allocated; q itself is 8·k bytes).
// Build natively (build/native/clip_normalise_bench) and with em++ (…/clip_normalise_bench.cjs, run by node).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#ifdef __EMSCRIPTEN__
#include <emscripten/heap.h>
#else
#include <sys/resource.h>
#endif

#include "solver/clip_normalise.hpp"
#include "privsample.hpp"
#include "park_inputs.hpp"
#include "timing.hpp"

namespace {

using privsample_bench::dirichlet_half;
using privsample_bench::one_pass;
using privsample_bench::sink;
using privsample_bench::sum_in_lanes;

std::vector<double> bisection(const std::vector<double>& p, double lo, double hi, double r_max) {
  double r_low = 1.0;
  double r_high = r_max;
  const auto mass = [&](double r) {
    return sum_in_lanes(p.size(), [&](std::size_t i) { return std::clamp(p[i] / r, lo, hi); });
  };
  for (int step = 0; step < 60; ++step) {
    const double r = 0.5 * (r_low + r_high);
    if (mass(r) > 1.0) {
      r_low = r;
    } else {
      r_high = r;
    }
  }
  std::vector<double> q(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) q[i] = std::clamp(p[i] / r_high, lo, hi);
  return q;
}

struct Approximate {
  std::vector<double> q;
  int steps = 0;
};

// The papers' loop: r = (low + high)/2; q = np.clip(p / r, lo, hi); stop when np.isclose(q.sum(), 1);
// otherwise move the bracket end. numpy allocates q each step; this port reuses one vector (as a careful numpy
// user would with out=) and fuses the step into one pass, summed like numpy's sum: faster than the original.
Approximate authors_bisection(const std::vector<double>& p, double lo, double hi, double r_max) {
  double r_low = 1.0;
  double r_high = r_max;
  Approximate out;
  out.q.resize(p.size());
  for (out.steps = 1; out.steps <= 200; ++out.steps) {
    const double r = 0.5 * (r_low + r_high);
    const double total =
        sum_in_lanes(p.size(), [&](std::size_t i) { return out.q[i] = std::clamp(p[i] / r, lo, hi); });
    if (std::fabs(total - 1.0) <= 1e-8 + 1e-5 * 1.0) break;
    (total > 1.0 ? r_low : r_high) = r;
  }
  return out;
}

double peak_memory_bytes() {
#ifdef __EMSCRIPTEN__
  return static_cast<double>(emscripten_get_heap_size());
#else
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) * 1024.0;
#endif
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t largest = argc > 1 ? static_cast<std::size_t>(std::atof(argv[1])) : 10'000'000;
  std::mt19937_64 rng(2024);
#ifdef __EMSCRIPTEN__
  std::printf("clip-normalise bench, WebAssembly (median wall time per call, microseconds)\n");
#else
  std::printf("clip-normalise bench, native (median wall time per call, microseconds)\n");
#endif
  std::printf("%9s %6s %4s %12s %12s %12s %12s %8s %8s %6s %9s %9s %9s\n", "k", "input", "eps", "privsample",
              "one pass", "bisect-60", "authors", "ps/pass", "ps/auth", "steps", "auth|S-1|", "auth q err",
              "auth box");
  double memory_before = 0.0;
  double memory_after = 0.0;
  for (std::size_t k = 100; k <= largest; k *= 10) {
    for (const bool sparse : {false, true}) {
      const std::vector<double> p = dirichlet_half(k, sparse, rng);
      for (const double epsilon : {0.1, 1.0, 5.0}) {
        const privsample::FiniteBox box = privsample::finite_minimax_box(k, epsilon);
        const privsample::UniformBox uniform{k, box.floor, box.ceiling};
        const double r_max = 1.0 + static_cast<double>(k - 1) * std::exp(-epsilon);
        if (k == largest && !sparse && epsilon == 0.1) memory_before = peak_memory_bytes();
        const auto exact = privsample::clip_normalise(p, uniform);
        if (k == largest && !sparse && epsilon == 0.1) memory_after = peak_memory_bytes();
        // Checked before timing: q inside the box exactly, Σq = 1 within 1e-12.
        long double total = 0.0L;
        std::size_t outside = 0;
        for (const double v : exact.q) {
          total += v;
          outside += (v < box.floor || v > box.ceiling) ? 1 : 0;
        }
        if (outside > 0 || std::fabs(static_cast<double>(total - 1.0L)) > 1e-12) {
          std::fprintf(stderr, "k = %zu, eps = %g: %zu atoms outside the box, sum - 1 = %g\n", k, epsilon, outside,
                       static_cast<double>(total - 1.0L));
          return 1;
        }
        // The authors' answer, measured against the exact one.
        const Approximate authors = authors_bisection(p, box.floor, box.ceiling, r_max);
        const std::vector<double>& approx = authors.q;
        const int steps = authors.steps;
        long double approx_total = 0.0L;
        for (const double v : approx) approx_total += v;
        double q_error = 0.0;
        double box_excess = 0.0;
        for (std::size_t i = 0; i < k; ++i) {
          q_error = std::max(q_error, std::fabs(approx[i] - exact.q[i]) / exact.q[i]);
          const double normalised = static_cast<double>(approx[i] / approx_total);
          box_excess = std::max({box_excess, normalised / box.ceiling - 1.0, box.floor / normalised - 1.0});
        }
        // The four timed in turns (timing.hpp), each after one untimed call (the first call at a new size pays for
        // the allocator's first mapping of its output): at least 5 rounds, up to about 0.8 s per row.
        const auto [t_exact, t_pass, t_authors, t_bisect] = privsample_bench::interleaved_median_seconds(
            {5, 0.8, 2000}, 20e-6, [&] { sink = sink + privsample::clip_normalise(p, uniform).q[0]; },
            [&] { sink = sink + one_pass(p); },
            [&] { sink = sink + authors_bisection(p, box.floor, box.ceiling, r_max).q[0]; },
            [&] { sink = sink + bisection(p, box.floor, box.ceiling, r_max)[0]; });
        std::printf("%9zu %6s %4g %9.3f us %9.3f us %9.1f us %9.2f us %7.2fx %7.2fx %6d %9.1e %9.1e %9.1e\n", k,
                    sparse ? "sparse" : "dense", epsilon, t_exact * 1e6, t_pass * 1e6, t_bisect * 1e6,
                    t_authors * 1e6, t_exact / t_pass, t_exact / t_authors, steps,
                    std::fabs(static_cast<double>(approx_total - 1.0L)), q_error, box_excess);
        std::fflush(stdout);
      }
    }
  }
  std::printf("peak memory of one clip_normalise call at k = %zu (dense, eps = 0.1): %.1f MB growth (%s %.1f MB -> "
              "%.1f MB; q alone is %.1f MB, the input p %.1f MB)\n",
              largest, (memory_after - memory_before) / 1e6,
#ifdef __EMSCRIPTEN__
              "WASM heap",
#else
              "peak RSS",
#endif
              memory_before / 1e6, memory_after / 1e6, 8.0 * static_cast<double>(largest) / 1e6,
              8.0 * static_cast<double>(largest) / 1e6);
  return 0;
}
