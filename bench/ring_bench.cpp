// Times one privatization of Park et al.'s 2-D Gaussian ring (docs/experiments.md#park-fig-1-gaussian-ring: 3 modes, σ² = 0.5,
// radius 1, the grid [−3, 3]² with 500 × 500 cells, ε = 0.5), stage by stage, against baselines measured in the
// same run, and prints median times and ratios:
//   ring          the ring's exact cell masses (gaussian_ring: erf differences, products over the axes)
//   envelope      the paper's envelope h̃(x) = exp(−[max(0, ‖x‖ − 1)]²/(2σ²))/(2πσ²) as cell masses (5 × 5
//                 Gauss–Legendre per cell), the reference of the clip sampler with c1 = 0
//   sampler       MinimaxOnCells construction (class normalisation, the box b·h … b·e^ε·h)
//   clip          its distribution(p): the exact clip-normalise over the 250,000 cells
//   draw          one released point (a cell from q with exact ratios, then a uniform point inside it)
// Baselines: one pass (Σp over the cells in eight accumulators, timing.hpp: the floor of anything that reads every
// cell once) and a 60-step bisection on r over [r1, r2] with the same box, each step evaluating
// Σ clip(p/r; b·h, b·e^ε·h), then q — what the papers' code does (there with 2-D adaptive quadrature inside every
// step: 664 s for this privatization, docs/experiments.md#park-fig-1-gaussian-ring).
// Build natively (build/native/ring_bench) and with em++ (build/wasm/ring_bench.cjs, run by node).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <vector>

#include "privsample.hpp"
#include "base/randomness.hpp"
#include "timing.hpp"

namespace {

using privsample_bench::median_seconds;
using privsample_bench::sink;

constexpr double kVariance = 0.5;

double envelope_density(double x, double y) {
  const double d = std::max(0.0, std::hypot(x, y) - 1.0);
  return std::exp(-d * d / (2.0 * kVariance)) / (2.0 * std::numbers::pi * kVariance);
}

// Mass of N(m, σ²) on [a, b].
double normal_mass(double a, double b, double m, double sigma) {
  return 0.5 * (std::erfc((a - m) / (sigma * std::numbers::sqrt2)) - std::erfc((b - m) / (sigma * std::numbers::sqrt2)));
}

std::vector<double> bisection(const std::vector<double>& p, const std::vector<double>& lo, const std::vector<double>& hi,
                              double r_low, double r_high) {
  const auto mass = [&](double r) {
    return privsample_bench::sum_in_lanes(p.size(),
                                          [&](std::size_t i) { return std::clamp(p[i] / r, lo[i], hi[i]); });
  };
  for (int step = 0; step < 60; ++step) {
    const double r = 0.5 * (r_low + r_high);
    (mass(r) > 1.0 ? r_low : r_high) = r;
  }
  std::vector<double> q(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) q[i] = std::clamp(p[i] / r_high, lo[i], hi[i]);
  return q;
}

}  // namespace

int main() {
  using namespace privsample;
  const Grid2D grid{-3.0, 3.0, 500, -3.0, 3.0, 500};
  const double epsilon = 0.5;
  const double sigma = std::sqrt(kVariance);
  // Every component N(μ, σ²I) with ‖μ‖ <= 1 keeps at least m of its mass on the grid (the least is at an axis point
  // of the unit circle), so the truncated, renormalised ring has cell masses <= h̃/m: the class is c1 = 0, c2 = 1/m.
  const double m = normal_mass(-3.0, 3.0, 1.0, sigma) * normal_mass(-3.0, 3.0, 0.0, sigma);
  const double c2 = 1.0 / m;

  // Check before timing: the ring is in the class, Σq = 1, q within the box, agreement with the bisection.
  const std::vector<double> p = gaussian_ring(grid);
  const std::vector<double> h = cell_masses(grid, envelope_density);
  const MinimaxOnCells sampler(epsilon, h, 0.0, c2);
  if (!in_class(sampler.density_class(), p)) {
    std::fprintf(stderr, "the ring is not in the envelope's class\n");
    return 1;
  }
  const std::vector<double> q = sampler.distribution(p);
  const DensityClass& cls = sampler.density_class();
  const ContinuousConstants& k = sampler.constants();
  std::vector<double> lo(p.size());
  std::vector<double> hi(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) {
    lo[i] = k.b * cls.h[i];
    hi[i] = k.ceiling * cls.h[i];
  }
  const double r_low = k.r1;
  const double r_high = std::max(k.r2, 1.0);
  const std::vector<double> q_bisect = bisection(p, lo, hi, r_low, r_high);
  long double total = 0.0L;
  double worst = 0.0;
  double outside = 0.0;
  for (std::size_t i = 0; i < q.size(); ++i) {
    total += q[i];
    worst = std::max(worst, std::fabs(q[i] - q_bisect[i]) / q[i]);
    outside = std::max({outside, lo[i] - q[i], q[i] - hi[i]});
  }
  if (std::fabs(static_cast<double>(total) - 1.0) > 1e-12 || worst > 1e-6 || outside > 0.0) {
    std::fprintf(stderr, "check failed: sum - 1 = %g, |q - q_bisection|/q = %g, outside the box by %g\n",
                 static_cast<double>(total - 1.0L), worst, outside);
    return 1;
  }

  SecureRandom bits;
  const double t_ring = median_seconds([&] { sink = sink + gaussian_ring(grid)[0]; });
  const double t_envelope = median_seconds([&] { sink = sink + cell_masses(grid, envelope_density)[0]; });
  const double t_sampler = median_seconds([&] { sink = sink + MinimaxOnCells(epsilon, h, 0.0, c2).constants().b; });
  const double t_clip = median_seconds([&] { sink = sink + sampler.distribution(p)[0]; });
  const double t_draw = median_seconds([&] { sink = sink + draw_point(grid, q, bits)[0]; });
  const double t_total = median_seconds([&] {
    const std::vector<double> ring = gaussian_ring(grid);
    const MinimaxOnCells s(epsilon, cell_masses(grid, envelope_density), 0.0, c2);
    sink = sink + draw_point(grid, s.distribution(ring), bits)[0];
  });
  const double t_user = median_seconds([&] {  // the mechanism (envelope, box) is data-independent: built once
    sink = sink + draw_point(grid, sampler.distribution(gaussian_ring(grid)), bits)[0];
  });
  const double t_pass = median_seconds([&] { sink = sink + privsample_bench::one_pass(p); });
  const double t_bisect = median_seconds([&] { sink = sink + bisection(p, lo, hi, r_low, r_high)[0]; });

  std::printf("Gaussian ring privatization, %zu x %zu cells on [-3, 3]^2, epsilon = %g (median wall time)\n", grid.nx,
              grid.ny, epsilon);
  std::printf("  class: c1 = 0, c2 = %.6f (raw), r_P = %.6f\n", c2, sampler.normaliser(p));
  std::printf("  %-38s %10.3f ms\n", "ring cell masses (exact)", t_ring * 1e3);
  std::printf("  %-38s %10.3f ms\n", "envelope cell masses (5x5 GL)", t_envelope * 1e3);
  std::printf("  %-38s %10.3f ms\n", "clip sampler construction", t_sampler * 1e3);
  std::printf("  %-38s %10.3f ms\n", "clip sampler distribution (exact)", t_clip * 1e3);
  std::printf("  %-38s %10.3f ms\n", "one point draw", t_draw * 1e3);
  std::printf("  %-38s %10.3f ms\n", "total (all of the above)", t_total * 1e3);
  std::printf("  %-38s %10.3f ms\n", "per user (ring + distribution + draw)", t_user * 1e3);
  std::printf("  %-38s %10.3f ms\n", "baseline: one pass (sum p)", t_pass * 1e3);
  std::printf("  %-38s %10.3f ms\n", "baseline: 60-step bisection", t_bisect * 1e3);
  std::printf("  clip / one pass = %.1fx, bisection / clip = %.1fx, total / one pass = %.0fx, paper (664 s) / total = %.0fx\n",
              t_clip / t_pass, t_bisect / t_clip, t_total / t_pass, 664.18 / t_total);
  return 0;
}
