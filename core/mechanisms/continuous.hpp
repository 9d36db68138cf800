#pragma once
// Continuous data on grids (issue 4): densities become pmfs over grid cells with exact cell masses, and the
// papers' continuous-space samplers are solved exactly on those cells by clip_normalise.
//
// Why cells and not point evaluations: the mass of cell i is ∫_cell p, so the grid pmf is the image of P under
// the map x ↦ cell(x). A sampler that outputs a cell from q and then a uniform point inside it has the density
// q_i/|cell i| on cell i; the ratio of two such output densities is the ratio of their cell masses, so the
// pointwise bound b·h <= q <= b·e^ε·h on cells (docs/mechanisms/continuous.md#minimax-clip-sampler) is exactly ε-LDP of the
// released point. The solve is exact (clip_normalise, no bisection tolerance) and q is clamped into the box, so the
// ε′ = ε − log((1+δ2)/(1−δ1)) slack of Park et al. §4.1 (docs/mechanisms/continuous.md#why-cells) is not needed: the samplers run at ε itself.
//
// Docs: docs/mechanisms/continuous.md (classes, constants, the four samplers, densities), docs/numerics.md,
//       docs/experiments.md (the papers' 1-D class and ring); Park et al. §3.2–3.3, Ghoukasian et al. Thms 3.4, 4.1, 5.1.
#include <array>
#include <cstddef>
#include <functional>
#include <span>
#include <vector>

#include "solver/clip_normalise.hpp"
#include "model/divergence.hpp"
#include "base/draw.hpp"
#include "privacy/functional_ldp.hpp"
#include "privacy/privacy.hpp"
#include "privacy/privacy_box.hpp"
#include "base/randomness.hpp"
#include "mechanisms/sampler.hpp"

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
// exp(−‖x − m‖₁/scale)/(2·scale)², the class of Ghoukasian et al. Example 3.1, docs/mechanisms/continuous.md#densities-and-envelopes (e^{−1/b} L(0,b) <= L(m,b) <= e^{1/b} L(0,b)
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

// ---- the bounded-density class and Park's constants ------------------------------------------------------------

// Constants of docs/mechanisms/continuous.md#classes-and-constants for NORMALISED (c1, c2) (Σh = 1, 0 <= c1 < 1 < c2), computed with e^{−ε} (docs/numerics.md#large-epsilon).
struct ContinuousConstants {
  double c1 = 0.0;
  double c2 = 1.0;
  double alpha = 1.0;    // (1 − c1)/(c2 − c1)
  double b = 1.0;        // floor of q/h:  1/(α e^ε + 1 − α)
  double ceiling = 1.0;  // b·e^ε, ceiling of q/h
  double r1 = 1.0;       // c1/b      (1 in the trivial case)
  double r2 = 1.0;       // c2/(b e^ε) (1 in the trivial case)
  double gamma = 1.0;    // Q† mixture weight (e^ε − 1)/((e^ε − 1)(1 − c1) + c2 − c1); 1 in the trivial case
  bool trivial = false;  // c2 <= c1·e^ε: the identity is ε-LDP on the class, R = 0 (docs/notions.md#classes-of-inputs)
};
// Throws std::invalid_argument naming c1 / c2 / epsilon unless 0 <= c1 < 1 < c2 (finite) and ε valid. ε above
// kMaxEffectiveEpsilon runs at it (privacy.hpp).
[[nodiscard]] ContinuousConstants continuous_constants(double c1, double c2, double epsilon);

// The class 𝒫̃_{c1,c2,h} on a grid: reference cell masses h (any scale, zeros allowed, positive total) and RAW
// constants, normalised per docs/notions.md#classes-of-inputs (h ← h/Z, c1 ← c1·Z, c2 ← c2·Z with Z = Σh). Throws std::invalid_argument
// naming "reference" (bad entries), "c1" (negative, not finite, or c1·Z >= 1: the class holds at most c1·h) or
// "c2" (c2 <= c1, not finite, or c2·Z <= 1: likewise).
struct DensityClass {
  std::vector<double> h;  // normalised reference
  double c1 = 0.0;        // normalised
  double c2 = 1.0;        // normalised
};
[[nodiscard]] DensityClass density_class(std::span<const double> reference, double c1, double c2);

// Relative slack of every class-membership check (cell masses of a density that touches its envelope, like the
// docs/experiments.md#park-fig-4-1-d-gaussian-mixtures Gaussian with |μ| = 1 whose tail equals h̃, differ from c2·h only by rounding).
inline constexpr double kClassTolerance = 1e-9;
// Does the pmf of `density` (cell masses, any scale) satisfy c1·h <= p <= c2·h within kClassTolerance?
[[nodiscard]] bool in_class(const DensityClass& cls, std::span<const double> density);

// ---- samplers on cells ------------------------------------------------------------------------------------------
// All take the user's density as cell masses (any positive scale; validated like a histogram, named "density"),
// return the output pmf q over the same cells, and are drawn from with draw_point below.

// Park et al. Q*_{c1,c2,h,ε} (Thm 3.3, docs/mechanisms/continuous.md#minimax-clip-sampler): q = clip(p/r_P; b·h, b·e^ε·h) with Σq = 1.
// Guarantee: ε-LDP for EVERY input density (q ∈ [b·h, b·e^ε·h] exactly); the risk bound needs p in the class.
// Trivial case c2 <= c1·e^ε: the identity (q = p), which is private only on the class, so inputs outside it are
// rejected there (std::invalid_argument naming "density"); members are passed through the exact projection
// onto [c1·h, c2·h], which is the identity up to rounding and keeps the bound exact in floating point.
// Worst case over the class (Thm 3.3): chord_risk(f, r1, r2) = b e^ε α f(r2) + b(1 − α) f(r1); 0 if trivial.
// A clip sampler (sampler.hpp): distribution(), guarantee(), epsilon() and the named worst_case_risk come from there.
class ContinuousClipSampler : public ClipSampler<ContinuousClipSampler> {
 public:
  ContinuousClipSampler(double epsilon, std::vector<double> reference, double c1, double c2);

  [[nodiscard]] ClipNormalised solve(std::span<const double> density) const;
  // r_P of the normalised density (0 in clip_normalise's Case B, 1 in the trivial case).
  [[nodiscard]] double normaliser(std::span<const double> density) const;

  using SamplerBase::worst_case_risk;
  [[nodiscard]] double worst_case_risk(const FDivergence& f) const;
  [[nodiscard]] const ContinuousConstants& constants() const noexcept { return constants_; }
  [[nodiscard]] const DensityClass& density_class() const noexcept { return class_; }
  // The exact release over the cells (release_plan.hpp): q over the floors b·h.
  [[nodiscard]] Release release(std::span<const double> density) const;

 private:
  DensityClass class_;
  ContinuousConstants constants_;
  std::vector<double> lo_;
  std::vector<double> hi_;
};

// The linear sampler Q† = λ·P + (1 − λ)·h (Park et al. §3.3; Ghoukasian et al. Thm 3.4 / Cor 3.7 for g-FLDP; docs/mechanisms/continuous.md#linear-sampler):
// λ = clamp(λ_T(g)/(1 − c1), 0, 1), T = (c2 − c1)/(1 − c1) (linear_weight; the GDP weight rounded down by
// kGaussianWeightSlack) for (ε,δ) and Gaussian LDP; for pure ε, Park's γ = (e^ε − 1)/((e^ε − 1)(1 − c1) + c2 − c1),
// which equals λ_T/(1 − c1) for T >= 2 and is larger (still ε-LDP: output in [b·h, b·e^ε·h]) for T < 2. Drawing: with
// probability λ a draw from P, else from h — here the exact mixture pmf. Guarantee g, but ONLY on the class: a density
// outside [c1·h, c2·h] (beyond kClassTolerance) is rejected with std::invalid_argument naming "density"; members are
// projected onto the box exactly first (identity up to rounding). Worst case over the class: chord_risk(f, r1, r2) with
// linear_risk_constants(c1, c2, λ); 0 when λ = 1.
class ContinuousLinearSampler : public SamplerBase<ContinuousLinearSampler> {
 public:
  ContinuousLinearSampler(Guarantee g, std::vector<double> reference, double c1, double c2);

  [[nodiscard]] std::vector<double> distribution(std::span<const double> density) const;
  [[nodiscard]] double lambda() const noexcept { return lambda_; }
  [[nodiscard]] Guarantee guarantee() const noexcept { return guarantee_; }
  using SamplerBase::worst_case_risk;  // the named divergences (sampler.hpp)
  [[nodiscard]] double worst_case_risk(const FDivergence& f) const;
  [[nodiscard]] const DensityClass& density_class() const noexcept { return class_; }
  // The exact release over the cells (release_plan.hpp): pure ε, q over its floors (λc1 + 1 − λ)·h; (ε,δ) and
  // Gaussian, with probability λ a cell of the density projected onto the class, else one of h.
  [[nodiscard]] Release release(std::span<const double> density) const;

 private:
  Guarantee guarantee_;
  DensityClass class_;
  double lambda_ = 0.0;
  double base_share_ = 0.0;  // 1 − λ, computed without cancellation where λ rounds to 1
  std::vector<double> lo_;  // c1·h, then the output floor (λc1 + 1 − λ)·h
  std::vector<double> hi_;
  std::vector<double> out_lo_;
  std::vector<double> out_hi_;
};

// Local clip sampler around a public reference density P0 (Ghoukasian et al. Thm 5.1; docs/mechanisms/continuous.md#local-clip-sampler):
// q = clip(p/r_P; b·p0, b·e^ε·p0), b = (γ+1)/(γ+e^ε), one clip_normalise (sparse inputs: Case B = the paper's
// extension through the projection P̂). Guarantee: ε-LDP for EVERY input. Cells with p0 = 0 are never output.
// Worst case over N_γ(P0): local_clip_risk(f, ε, γ) (0 when ε >= 2 ln γ).
// prior: P0's cell masses (any scale, zeros allowed, positive total); gamma validated_gamma. The box is the finite local
// clip sampler's (local_clip_box of clip_samplers.hpp), with cells whose floor underflows never output.
// A clip sampler (sampler.hpp): distribution(), normaliser() (0 in Case B), guarantee(), the named risk from there.
class ContinuousLocalClipSampler : public ClipSampler<ContinuousLocalClipSampler> {
 public:
  ContinuousLocalClipSampler(double epsilon, std::vector<double> prior, double gamma);

  [[nodiscard]] ClipNormalised solve(std::span<const double> density) const;
  using SamplerBase::worst_case_risk;
  [[nodiscard]] double worst_case_risk(const FDivergence& f) const;
  [[nodiscard]] const std::vector<double>& prior() const noexcept { return prior_; }
  // The exact release over the cells (release_plan.hpp): q over the floors b·p0.
  [[nodiscard]] Release release(std::span<const double> density) const;

 private:
  double gamma_;
  std::vector<double> prior_;
  PrivacyBox box_;
};

// Local linear sampler (Ghoukasian et al. Thm 4.1; docs/mechanisms/continuous.md#local-linear-sampler): P̂ = clip_normalise(P; p0/γ, γ·p0) (the f-projection onto
// N_γ(P0), every f), q = λ_loc·P̂ + (1 − λ_loc)·P0 with λ_loc = clamp(γ/(γ−1)·λ_{γ+1}(g), 0, 1) for pure,
// (ε,δ) or Gaussian LDP, rounded toward privacy and clamped into the output box as the finite sampler does
// (local_linear_weight, local_linear_box of linear_samplers.hpp). Guarantee g for EVERY input (the projection is
// data-independent and lands in N_γ(P0)). Cells whose output floor would underflow are never output (q = 0 for every
// input; the prior is renormalised without them), like the other continuous samplers' (privacy_box.hpp).
// Worst case over N_γ(P0): chord_risk(f, linear_risk_constants(1/γ, γ, λ_loc)); 0 when λ_loc = 1.
class ContinuousLocalLinearSampler : public SamplerBase<ContinuousLocalLinearSampler> {
 public:
  ContinuousLocalLinearSampler(Guarantee g, std::vector<double> prior, double gamma);

  [[nodiscard]] std::vector<double> projection(std::span<const double> density) const;
  [[nodiscard]] std::vector<double> distribution(std::span<const double> density) const;
  [[nodiscard]] double lambda() const noexcept { return lambda_; }
  [[nodiscard]] Guarantee guarantee() const noexcept { return guarantee_; }
  using SamplerBase::worst_case_risk;  // the named divergences (sampler.hpp)
  [[nodiscard]] double worst_case_risk(const FDivergence& f) const;
  [[nodiscard]] const std::vector<double>& prior() const noexcept { return prior_; }
  // The exact release over the cells (release_plan.hpp): pure ε, q over its floors (λ/γ + 1 − λ)·p0; (ε,δ) and
  // Gaussian, with probability λ a cell of P̂ (kept in N_γ of the quantized prior), else one of the prior.
  [[nodiscard]] Release release(std::span<const double> density) const;

 private:
  Guarantee guarantee_;
  double gamma_;
  std::vector<double> prior_;  // normalised, without the cells that are never output
  PrivacyBox neighbourhood_;   // [p0/γ, γ·p0] (neighbourhood_box of linear_samplers.hpp)
  double lambda_ = 0.0;
  double complement_ = 1.0;  // 1 − λ_loc
  std::vector<double> out_lo_;  // the output box (local_linear_box)
  std::vector<double> out_hi_;
};

// ---- drawing a point ----------------------------------------------------------------------------------------------
// A cell from q (DiscreteSampler: exact ratios even for tiny cells), then a uniform point inside it (uniform01),
// so the released point has density q_i/|cell_i| on cell i. q must have one entry per cell. draw_point builds the
// cell sampler on every call (O(cells)); for many draws from one q, build a DiscreteSampler once and call
// point_in_cell. Its running time depends on q; releasing points, prefer the envelope overloads below.
[[nodiscard]] double point_in_cell(const Grid1D& grid, std::size_t cell, RandomBits& bits);
[[nodiscard]] Point2D point_in_cell(const Grid2D& grid, std::size_t cell, RandomBits& bits);
[[nodiscard]] double draw_point(const Grid1D& grid, std::span<const double> q, RandomBits& bits);
[[nodiscard]] Point2D draw_point(const Grid2D& grid, std::span<const double> q, RandomBits& bits);


}  // namespace privsample
