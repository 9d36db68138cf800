#pragma once
// Grids and densities on them: a continuous density becomes a pmf over grid cells with exact cell masses, which the
// mechanisms on cells (core/mechanisms/cells.md) privatise exactly. Cell masses, not point evaluations: the mass of cell
// i is ∫_cell p, so the grid pmf is the image of P under x ↦ cell(x), and a released cell followed by a uniform point
// inside it has density q_i/|cell i| there — the ratio of two such densities is the ratio of their cell masses.
#include <array>
#include <cstddef>
#include <functional>
#include <span>
#include <vector>

#include "base/randomness.hpp"

namespace privsample {

// ---- grids ------------------------------------------------------------------------------------------------------

// [lo, hi] cut into `cells` equal cells; cell i is [edge_i, edge_{i+1}] with edge_i = lo + (hi − lo)·i/cells.
struct Grid1D {
  double lo = 0.0;
  double hi = 1.0;
  std::size_t cells = 0;
};

// The rectangle [x_lo, x_hi] × [y_lo, y_hi] cut into nx × ny cells. Cell (ix, iy) has index iy·nx + ix
// (rows of constant y, the layout of an image).
struct Grid2D {
  double x_lo = 0.0;
  double x_hi = 1.0;
  std::size_t nx = 0;
  double y_lo = 0.0;
  double y_hi = 1.0;
  std::size_t ny = 0;
};

// Throws std::invalid_argument naming the field ("grid.cells = 0: must be >= 1", "grid.lo = 2, grid.hi = 1: need
// finite lo < hi") for zero cells, more than kMaxCategories cells in all, non-finite or empty ranges.
void validate_grid(const Grid1D& grid);
void validate_grid(const Grid2D& grid);
[[nodiscard]] std::size_t cell_count(const Grid2D& grid);
// The cells + 1 edges (the last is hi exactly).
[[nodiscard]] std::vector<double> cell_edges(const Grid1D& grid);
// The cell holding x (x outside [lo, hi] is clamped to the first / last cell).
[[nodiscard]] std::size_t cell_index(const Grid1D& grid, double x);
[[nodiscard]] std::size_t cell_index(const Grid2D& grid, double x, double y);

// ---- densities as cell masses -----------------------------------------------------------------------------------
// Every family below returns the pmf over cells of the density TRUNCATED to the grid and renormalised (the
// experiments' "truncated to [−4, 4]", docs/experiments.md#park-fig-4-1-d-gaussian-mixtures). Cell masses come from closed-form CDF differences: erf/erfc for
// Gaussians (taken on the side of the mean so tails keep relative precision), exp for Laplace. 2-D families are
// products over the axes per component. Throws std::invalid_argument for an invalid grid, mismatched lengths, a
// mean / weight / scale that is not finite (weights >= 0 with a positive total, scales > 0), or a mixture whose
// mass on the grid underflows to 0.

using Point2D = std::array<double, 2>;

// Σ_i w_i N(μ_i, σ²) on the grid. The paper's 1-D class (docs/experiments.md#park-fig-4-1-d-gaussian-mixtures): grid [−4, 4], σ = 1, |μ_i| <= 1.
[[nodiscard]] std::vector<double> gaussian_mixture(const Grid1D& grid, std::span<const double> means,
                                                   std::span<const double> weights, double sigma);
// Σ_i w_i N(μ_i, σ²I) (isotropic).
[[nodiscard]] std::vector<double> gaussian_mixture(const Grid2D& grid, std::span<const Point2D> means,
                                                   std::span<const double> weights, double sigma);
// The Gaussian ring of docs/experiments.md#park-fig-1-gaussian-ring: `modes` equal-weight components N(μ_j, variance·I) with
// μ_j = radius·(cos 2πj/modes, sin 2πj/modes) (defaults: 3 modes, σ² = 0.5, radius 1; the paper's grid is
// [−3, 3]², 500 × 500).
[[nodiscard]] std::vector<double> gaussian_ring(const Grid2D& grid, std::size_t modes = 3, double variance = 0.5,
                                                double radius = 1.0);
// Σ_i w_i L(m_i, scale): density exp(−|x − m|/scale)/(2·scale). In 2-D the product over the axes,
// exp(−‖x − m‖₁/scale)/(2·scale)², the class of Ghoukasian et al. Example 3.1, core/mechanisms/cells.md#densities-and-envelopes (e^{−1/b} L(0,b) <= L(m,b) <= e^{1/b} L(0,b)
// for ‖m‖₁ <= 1).
[[nodiscard]] std::vector<double> laplace_mixture(const Grid1D& grid, std::span<const double> means,
                                                  std::span<const double> weights, double scale);
[[nodiscard]] std::vector<double> laplace_mixture(const Grid2D& grid, std::span<const Point2D> means,
                                                  std::span<const double> weights, double scale);

// Gaussian kernel density estimate of the points, (1/n)Σ N(x_j, bw²) on the grid. bandwidth = 0 selects Scott's
// rule bw = σ̂·n^{−1/5} (1-D) and bw_d = σ̂_d·n^{−1/6} per axis (2-D), σ̂ the sample standard deviation (n − 1);
// that needs two or more distinct values (per axis), else std::invalid_argument asks for a bandwidth.
// Points may lie outside the grid (their kernels are truncated with everything else).
[[nodiscard]] std::vector<double> kernel_density(const Grid1D& grid, std::span<const double> points,
                                                 double bandwidth = 0.0);
[[nodiscard]] std::vector<double> kernel_density(const Grid2D& grid, std::span<const Point2D> points,
                                                 double bandwidth = 0.0);
// Scott's-rule bandwidth alone (1-D).
[[nodiscard]] double scott_bandwidth(std::span<const double> points);

// The envelope h̃ of the 1-D experiment (docs/experiments.md#park-fig-4-1-d-gaussian-mixtures, eqs. 209–211), as RAW cell masses (not normalised):
//     h̃(x) = exp(−[max(|x| − radius, 0)]²/(2σ²)) / (√(2π)·σ·m),   m = min_{|μ| <= radius} N(μ, σ²)(grid range)
// so every mixture of N(μ_i, σ²) with |μ_i| <= radius, truncated to the grid and renormalised, has cell masses
// P_i <= H_i. Use it as the reference with c1 = 0, c2 = 1; Σ H = 1.79761187 on [−4, 4] with σ = radius = 1.
[[nodiscard]] std::vector<double> gaussian_mixture_envelope(const Grid1D& grid, double sigma = 1.0,
                                                            double radius = 1.0);

// The envelope h̃ of the 2-D ring (docs/experiments.md#park-fig-1-gaussian-ring, Park et al. §5.1 / App. F.3),
//     h̃(x) = exp(−[max(0, ‖x‖ − radius)]²/(2σ²)) / (2πσ²),   σ² = variance,
// as RAW cell masses that bound every mixture of N(μ_i, σ²I) with ‖μ_i‖ <= radius, truncated to the grid and
// renormalised, cell by cell: H_cell = |cell| · sup_cell h̃ / Z_lo. h̃ is radial and non-increasing in ‖x‖, so the sup
// is at the cell's point nearest the origin; Z_lo = Π_axes min_{|μ| <= radius} N(μ, σ²)(axis range) is a lower bound
// of the grid mass of every component (log-concave in μ: the minimum is at μ = ±radius; exact normal CDFs). Use it as
// the reference with c1 = 0, c2 = 1; Σ H is a little above ∫h̃ = 3.7725 on ℝ² (cell sup, truncation).
// Throws std::invalid_argument for an invalid grid or variance, a radius that is not finite and >= 0, or a grid on
// which a component can have no mass.
[[nodiscard]] std::vector<double> gaussian_ring_envelope(const Grid2D& grid, double variance = 0.5, double radius = 1.0);

// RAW cell masses ∫_cell density by 5 × 5 (2-D) or 5-point (1-D) Gauss–Legendre per cell, for densities without
// closed-form cell masses (e.g. the ring envelope of docs/experiments.md#park-fig-1-gaussian-ring). Not exact: the error is O(cell⁶·f⁽⁶⁾), larger at
// kinks. Throws std::invalid_argument when the density returns a negative or non-finite value.
[[nodiscard]] std::vector<double> cell_masses(const Grid1D& grid, const std::function<double(double)>& density);
[[nodiscard]] std::vector<double> cell_masses(const Grid2D& grid, const std::function<double(double, double)>& density);

// ---- drawing a point --------------------------------------------------------------------------------------------
// A cell from q (DiscreteSampler: exact ratios even for tiny cells), then a uniform point inside it (uniform01),
// so the released point has density q_i/|cell_i| on cell i. q must have one entry per cell. draw_point builds the
// cell sampler on every call (O(cells)); for many draws from one q, build a DiscreteSampler once and call
// point_in_cell. Its running time depends on q; releasing points, prefer the envelope overloads below.
[[nodiscard]] double point_in_cell(const Grid1D& grid, std::size_t cell, RandomBits& bits);
[[nodiscard]] Point2D point_in_cell(const Grid2D& grid, std::size_t cell, RandomBits& bits);
[[nodiscard]] double draw_point(const Grid1D& grid, std::span<const double> q, RandomBits& bits);
[[nodiscard]] Point2D draw_point(const Grid2D& grid, std::span<const double> q, RandomBits& bits);

}  // namespace privsample
