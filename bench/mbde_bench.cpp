// Times the MBDE baseline (Husain et al., as run in Park et al.'s experiments; docs/baselines/mbde.md)
// with its reduced preset — the one the demo and `ps.mbde` default to — against the exact clip sampler on the
// same grid, in the same run, and prints median times and the ratio:
//   1-D   a two-mode Gaussian mixture on [−4, 4], 200 cells (the paper's Fig. 4 setting), ε = 1
//   2-D   the Gaussian ring on [−3, 3]², 100 × 100 cells, ε = 0.5 (the paper's Fig. 1 setting, coarser grid)
// Baseline: MinimaxOnCells::distribution on the same density (1-D: the paper's envelope; 2-D: a broad
// Gaussian reference with c2 = 4). Target: the reduced preset under 10 s in WebAssembly.
// Build natively (build/native/mbde_bench) and with em++ (build/wasm/mbde_bench.cjs, run by node).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "privsample.hpp"
#include "baselines/mbde.hpp"
#include "base/randomness.hpp"
#include "timing.hpp"

namespace {

using privsample_bench::sink;

// Median wall time of `body` over exactly `repetitions` runs (MBDE runs are long: few runs suffice).
template <class Body>
double median_seconds(int repetitions, Body&& body) {
  const auto runs = static_cast<std::size_t>(repetitions);
  return privsample_bench::median_seconds(body, {runs, 0.0, runs});
}

// Times MBDE on density p (mbde_runs runs, seed 1 each) and the clip sampler's distribution of p (50 runs) on the
// same grid at the same ε, and prints both with their ratio.
template <class Grid>
void compare(const char* label, const Grid& grid, const std::vector<double>& p, double epsilon,
             const privsample::MinimaxOnCells& clip, int mbde_runs, const privsample::MbdeSettings& settings) {
  const double mbde_seconds = median_seconds(mbde_runs, [&] {
    privsample::SeededRandom bits(1);
    sink = privsample::mbde(grid, p, epsilon, settings, bits).density[0];
  });
  const double clip_seconds = median_seconds(50, [&] { sink = clip.distribution(p)[0]; });
  std::printf("%-34s %12.1f ms %12.3f ms %12.0fx\n", label, 1e3 * mbde_seconds, 1e3 * clip_seconds,
              mbde_seconds / clip_seconds);
}

}  // namespace

int main() {
  using namespace privsample;
  const MbdeSettings settings = MbdeSettings::reduced();
  std::printf("MBDE (reduced preset) against the exact clip sampler on the same grid (median wall time)\n");
  std::printf("%-34s %15s %15s %13s\n", "setting", "MBDE", "clip sampler", "MBDE/clip");

  {
    const Grid1D grid{-4.0, 4.0, 200};
    const std::vector<double> means{-1.0, 0.8};
    const std::vector<double> weights{0.4, 0.6};
    const std::vector<double> p = gaussian_mixture(grid, means, weights, 1.0);
    const std::vector<double> envelope = gaussian_mixture_envelope(grid);
    const MinimaxOnCells clip(1.0, envelope, 0.0, 1.0);
    compare("1-D mixture, 200 cells, eps = 1", grid, p, 1.0, clip, 5, settings);
  }
  {
    const Grid2D grid{-3.0, 3.0, 100, -3.0, 3.0, 100};
    const std::vector<double> ring = gaussian_ring(grid);
    const std::vector<Point2D> centre{{0.0, 0.0}};
    const std::vector<double> one{1.0};
    const std::vector<double> reference = gaussian_mixture(grid, centre, one, 1.5);
    const MinimaxOnCells clip(0.5, reference, 0.0, 4.0);
    compare("2-D ring, 100 x 100 cells, eps = 0.5", grid, ring, 0.5, clip, 3, settings);
  }
  return 0;
}
