// clip-normalise against itself at another commit, in one process (npm run bench -- clip-normalise-ab [commit]
// [largest k]; scripts/bench-clip-ab.sh builds the other commit's core with its namespace renamed and links it here).
// Park's finite box at ε ∈ {0.1, 1, 5}, k = 10^3 … largest, three inputs per k (park_inputs.hpp): dense and sparse
// as clip_normalise_bench has them (Dirichlet(0.5) over all atoms or ~1% of them) and cube = u³ + 1e-12 (flat-topped:
// many masses near the largest). The two solvers are timed in turns (interleaved_median_seconds: A, B, A, B, …), so
// that the host's drift falls on both; the ratio current / baseline below 1 means the current code is faster. Run it
// with the same commit on both sides to see the spread of a ratio that should be 1 (bench/README.md). Each row also
// says whether the two answers are the same bit for bit, and if not how far apart.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "park_inputs.hpp"
#include "solver/clip_normalise.hpp"
#include "privsample.hpp"
#include "timing.hpp"

std::vector<double> baseline_clip_normalise(std::span<const double> p, double lo, double hi);

int main(int argc, char** argv) {
  const std::string baseline = argc > 1 ? argv[1] : "baseline";
  const double largest = argc > 2 ? std::atof(argv[2]) : 1e6;
  std::printf("clip-normalise, this tree against %s, native, in one process (median per call of batches in turns)\n",
              baseline.c_str());
  std::printf("%9s %6s %4s %12s %12s %8s  %s\n", "k", "input", "eps", "baseline", "current", "cur/base", "answers");
  double sink = 0.0;
  for (double kd = 1e3; kd <= largest * 1.0001; kd *= 10) {
    const auto k = static_cast<std::size_t>(kd);
    for (const int shape : {0, 1, 2}) {
      std::mt19937_64 rng(20261126 + k + static_cast<std::size_t>(shape));
      const std::vector<double> p =
          shape == 2 ? privsample_bench::flat_topped(k, rng) : privsample_bench::dirichlet_half(k, shape == 1, rng);
      for (const double epsilon : {0.1, 1.0, 5.0}) {
        const privsample::FiniteBox box = privsample::finite_minimax_box(k, epsilon);
        const double lo = box.floor;
        const double hi = box.ceiling;
        const std::vector<double> a = baseline_clip_normalise(p, lo, hi);
        const std::vector<double> b = privsample::clip_normalise(p, privsample::UniformBox{k, lo, hi}).q;
        std::size_t differ = 0;
        double farthest = 0.0;
        for (std::size_t i = 0; i < k; ++i) {
          if (a[i] != b[i]) {
            ++differ;
            farthest = std::max(farthest, std::fabs(a[i] - b[i]) / a[i]);
          }
        }
        const privsample_bench::Repetitions turns{15, 1.5, 40, false};
        const auto times = privsample_bench::interleaved_median_seconds(
            turns, 2e-3, [&] { sink += baseline_clip_normalise(p, lo, hi)[k / 2]; },
            [&] { sink += privsample::clip_normalise(p, privsample::UniformBox{k, lo, hi}).q[k / 2]; });
        char answers[96];
        if (differ == 0) {
          std::snprintf(answers, sizeof answers, "same bits");
        } else {
          std::snprintf(answers, sizeof answers, "%zu values differ, by up to %.1e relative", differ, farthest);
        }
        const char* input = shape == 0 ? "dense" : shape == 1 ? "sparse" : "cube";
        std::printf("%9zu %6s %4g %9.2f us %9.2f us %7.2fx  %s\n", k, input, epsilon, times[0] * 1e6, times[1] * 1e6,
                    times[1] / times[0], answers);
      }
    }
  }
  return sink == 12345.0 ? 1 : 0;
}
