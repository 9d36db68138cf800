#pragma once
// The local linear sampler around a public prior P0 (Ghoukasian, Lee, Asoodeh, "Locally Optimal Private Sampling:
// Beyond the Global Minimax", NeurIPS 2025, Theorem 4.1) for pure ε-, (ε,δ)- and μ-Gaussian LDP, on categories and on
// grid cells. Page: README.md beside this file.
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "base/numeric.hpp"
#include "mechanisms/cells.hpp"
#include "mechanisms/neighbourhood.hpp"
#include "mechanisms/sampler.hpp"
#include "mechanisms/spec.hpp"
#include "model/divergence.hpp"
#include "privacy/functional_ldp.hpp"
#include "privacy/privacy.hpp"
#include "privacy/privacy_box.hpp"
#include "privacy/release_plan.hpp"
#include "solver/clip_normalise.hpp"

namespace privsample {

// The parts of Theorem 4.1 that do not depend on what the atoms are (categories or cells); g and γ validated, prior a pmf:
//  - local_linear_weight: λ_loc = clamp(γ/(γ−1)·λ_{γ+1}(g), 0, 1) at effective_ldp_guarantee(g) (the GDP weight
//    rounded down by kGaussianWeightSlack, running_linear_weight), then rounded toward privacy: lowered by doubling
//    steps until the worst pair of the mixture passes exactly — pure: (λγ + 1 − λ) <= e^ε·(λ/γ + 1 − λ); (ε,δ): its
//    hockey-stick <= δ; μ-GDP: <= δ_μ(β) on gaussian_check_points — the last two with a margin of 2^-43 for the
//    rounding of distribution()'s values (derivation at the definition);
//  - local_linear_box: the output box p0·[λ/γ + 1 − λ, λγ + 1 − λ] by privacy_box (for pure ε its ends differ by at
//    most e^ε for the doubles, at the user's ε); an entry whose floor, or whose projection box's floor p0/γ, would
//    fall below kSmallestBoxFloor (2^-960) is handled by `rule`: refused, or zero (lo = hi = 0);
//  - local_linear_risk: the worst case over N_γ(P0), chord_risk(f, linear_risk_constants(1/γ, γ, λ)); 0 when λ >= 1.
[[nodiscard]] double local_linear_weight(const Guarantee& g, double gamma);

// λ·p̂ + base, the same double as that expression, for λ = 0 or λ >= 2^-462 (local_linear_weight), p̂ = 0 or at least
// 2^-960 (the projection box's floor) and base = (1 − λ)·p0 with p0 = 0 or p0 >= 2^-960 — without a subnormal product:
// at a tiny λ (ε of 1e-10 at γ = 10^12 gives λ ~ 1e-22) λ·p̂ can fall below 2^-1022, which some processors compute
// tens of times slower, and for which entries it does follows the data. That needs λ < 2^-62, so base >= 2^-961, and
// the product is below half an ulp of base and leaves the sum as it is: it is dropped, by a mask on the product scaled
// by 2^400 (never subnormal; 2^-622 or more exactly when λ·p̂ rounds to 2^-1022 or more), and a kept one is scaled
// back exactly.
[[nodiscard]] inline double local_mixture(double lambda, double projected, double base) noexcept {
  const double scaled = (lambda * 0x1p400) * projected;
  const std::uint64_t keep = opaque_mask(bits_of(scaled) >= bits_of(0x1p-622));
  return double_of(bits_of(scaled) & keep) * 0x1p-400 + base;
}
[[nodiscard]] PrivacyBox local_linear_box(const Guarantee& g, std::span<const double> prior, double gamma,
                                          double lambda, UnderflowRule rule);
[[nodiscard]] double local_linear_risk(const FDivergence& f, double gamma, double lambda);

// Theorem 4.1 (local minimax around a public prior P0, neighbourhood N_γ(P0) = {P : 1/γ <= P/P0 <= γ}):
//     P̂ = clip_normalise(P; p0/γ, γ·p0)                (the f-projection of P onto N_γ(P0), every f)
//     Q(P) = λ_loc·P̂ + (1−λ_loc)·P0,    λ_loc = clamp(γ/(γ−1)·λ_{γ+1}(g), 0, 1)
// This is Thm 3.4 on the class N_γ(P0) = P̃_{1/γ,γ,P0} (T = γ+1, λ* = λ_T/(1−c1)) applied to P̂.
// P̂ is Case A (P̂ = clip(P/t; p0/γ, γp0)) when P0(supp P) >= 1/(γ+1), else Case B (γ·p0 on supp P, one common
// ratio elsewhere) — clip_normalise computes both (README.md#the-projection).
// Guarantee: g-FLDP for EVERY input, in or outside N_γ(P0): P ↦ P̂ is a data-independent map into N_γ(P0),
// and on N_γ(P0) the mixture with λ <= λ* is g-FLDP (Thm 3.4 / Lemma C.1). The projection is needed: without it
// a sparse P gives ratios (λ + (1−λ)p0(x))/((1−λ)p0(x)), unbounded as p0(x) → 0.
// λ_loc >= 1 (e.g. pure with e^ε >= γ², or (ε,δ) with δ >= (γ² − e^ε)/(γ(γ+1))) is the trivial regime: the
// identity is already g-FLDP on N_γ(P0), so Q(P) = P̂ and the risk is 0. Runs at effective_ldp_guarantee(g), with
// λ rounded toward privacy as above (local_linear_weight). distribution() clamps the mixture into local_linear_box,
// so for pure ε every pair of its outputs is within e^ε for the doubles themselves. For pure ε its risk equals the
// local clip sampler's (same r1, r2); the clip sampler is
// pointwise better (Prop 5.2).
// Worst case over N_γ(P0): chord_risk(f, r1, r2), r1 = 1/(γ − (γ−1)λ), r2 = γ/((γ−1)λ + 1) — an UPPER BOUND
// for every P0 (Lemma C.3); the local minimax risk only when P0 splits into γ+1 blocks of mass 1/(γ+1) (and
// γ ∈ ℕ; ../local/README.md#assumptions), where the block input γ·p0 on a block, p0/γ elsewhere, attains it.
// sample() and the named worst_case_risk come from SamplerBase (sampler.hpp).
// On grid cells (cells.md#local-linear-sampler) the prior is a density's cell masses; cells whose output floor would
// underflow are never output (they leave the prior, which is renormalised).
class LocalLinearSampler : public SamplerBase<LocalLinearSampler> {
 public:
  static constexpr MechanismSpec spec{"local-linear", MechanismSpace::finite, NotionRule::ldp_from_options,
                                      kPriorGammaOptions, {}, {},
                                      "locally minimax linear sampler around a prior (Ghoukasian et al. Thm 4.1)",
                                      "the local linear sampler",
                                      "Local linear sampler (Ghoukasian, Lee, Asoodeh): mixes P with the public"
                                      " prior P0 just enough for privacy; pure, (ε, δ)- or Gaussian LDP."};
  static constexpr MechanismSpec cells_spec{"local-linear", MechanismSpace::continuous, NotionRule::ldp_from_options,
                                            kPriorGammaOptions, {}, {},
                                            "locally minimax linear sampler on a grid (Ghoukasian et al. Thm 4.1)"};
  [[nodiscard]] static LocalLinearSampler make(const MechanismOptions& options);
  [[nodiscard]] static LocalLinearSampler make_on_cells(const MechanismOptions& options);

  // On categories. g validated as above; gamma finite, > 1 (validated_gamma); prior validated_prior (every entry finite
  // and > 0, counts or probabilities: normalised by its total, the histograms' scale rule).
  LocalLinearSampler(Guarantee g, std::vector<double> prior, double gamma);

  // P̂ on categories: the f-projection of the normalised input onto N_γ(P0), which must have prior().size() entries.
  [[nodiscard]] std::vector<double> projection(std::span<const double> input,
                                               RootSchedule schedule = RootSchedule::adaptive) const;
  [[nodiscard]] std::vector<double> distribution(std::span<const double> input) const;
  // The exact release (release_plan.hpp). Pure ε: the output box's floors are the public base and the fixed schedule's
  // q the target, so the released law is within e^ε of the floors whatever λ is. (ε,δ) and μ-GDP: with probability λ a
  // draw from P̂, kept inside N_γ of the quantized prior, else a draw from that prior: the mechanism for that prior.
  [[nodiscard]] Release release(std::span<const double> input) const;

  [[nodiscard]] double lambda() const noexcept { return lambda_; }  // λ_loc actually used
  [[nodiscard]] Guarantee guarantee() const noexcept { return guarantee_; }
  [[nodiscard]] double gamma() const noexcept { return gamma_; }
  [[nodiscard]] const std::vector<double>& prior() const noexcept { return prior_; }
  // k must equal prior().size() (std::invalid_argument otherwise). 0 in the trivial regime.
  using SamplerBase::worst_case_risk;
  [[nodiscard]] double worst_case_risk(const FDivergence& f, std::size_t k) const;
  [[nodiscard]] std::optional<std::size_t> categories() const noexcept { return prior_.size(); }
  // q = λ·P̂ + (1 − λ)·P0 on categories, for an analyst's inversion (P̂ = P inside N_γ(P0)); nothing on cells.
  [[nodiscard]] std::optional<AffineMap> affine_map(std::size_t k) const;
  // N_γ(P0) holds no point mass: the words an analyst's point-mass inversion carries (analysis/estimate.hpp).
  [[nodiscard]] std::string point_mass_caveat() const;
  [[nodiscard]] std::string risk_class() const { return neighbourhood_risk_class(); }
  // λ_loc, whatever k (the prior fixes it).
  [[nodiscard]] std::optional<double> mixture_weight(std::size_t /*k*/) const { return lambda_; }
  // What a user holding only item x releases, for k categories (spec.hpp); nothing on cells.
  [[nodiscard]] std::optional<PointMassLaw> point_mass_law(std::size_t k) const;
  [[nodiscard]] const OnCells* on_cells() const noexcept { return cells_.get(); }

 private:
  LocalLinearSampler(Guarantee g, double gamma);  // before its support is set (make_on_cells)
  Guarantee guarantee_;
  double gamma_;
  std::vector<double> prior_;
  PrivacyBox neighbourhood_;  // [p0/γ, γ·p0]
  // The output box p0·[λ/γ + 1 − λ, λγ + 1 − λ] (local_linear_box: for pure ε its floors raised to keep e^ε, and prior
  // entries whose floor would underflow refused), which distribution() clamps the mixture into.
  std::vector<double> out_lo_;
  std::vector<double> out_hi_;
  double lambda_ = 0.0;
  double complement_ = 1.0;  // 1 − λ_loc
  std::shared_ptr<const OnCells> cells_;
};

}  // namespace privsample
