#pragma once
// The linear (mixture) sampler Q = λ·P + (1 − λ)·h: on categories k-ary randomized response on one draw of P for pure
// ε (Park et al. §3.3) and the optimal functional-LDP mixture for (ε,δ) and μ-Gaussian LDP (Ghoukasian et al. Thm 3.5);
// on grid cells around a reference h of a class of densities (Park et al. §3.3; Ghoukasian et al. Thm 3.4). Page:
// README.md beside this file.
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "mechanisms/cells.hpp"
#include "mechanisms/finite_space.hpp"
#include "mechanisms/sampler.hpp"
#include "mechanisms/spec.hpp"
#include "model/divergence.hpp"
#include "privacy/functional_ldp.hpp"
#include "privacy/privacy.hpp"
#include "privacy/release_plan.hpp"

namespace privsample {

// Pure ε on categories: Q†(P) = γP + (1−γ)·uniform with γ = (e^ε−1)/(e^ε+k−1) — k-ary randomized response applied to
// one draw of P. Guarantee: pure ε-LDP (its pmf lies in Park's box [ℓ, u]); minimax-optimal like the minimax sampler
// but pointwise never better (Prop. 3.4); its worst case is Theorem 3.1's value (p/q† ∈ [0, r2], Lemma C.7).
//
// Theorem 3.5 (finite X = [k], class P([k]) = P̃_{0,k,uniform}, T = k):
//     Q(P) = λ·P + (1−λ)·uniform,    λ = clamp(λ_k(g), 0, 1)
// Guarantee: g-FLDP for every input. Proof sketch: for β >= 0 and any P, P', Q(A|P) − e^βQ(A|P') <=
// λ − (e^β − 1)(1−λ)/k (worst case A = {x}, P = δ_x, P' with no mass on x), which is <= δ_g(β) iff
// λ <= (e^β − 1 + kδ_g(β))/(e^β + k − 1); λ_k(g) is the infimum of these bounds over β, so Q is
// (β, δ_g(β))-LDP for all β, i.e. g-FLDP (Dong et al. Prop 6). Minimax-optimal over P([k]) for every f.
// λ_k(g) < 1 always here (the identity is never private on P([k])); the clamp only absorbs rounding. The
// uniform share is computed directly as (1−δ_g(β*))/(e^{β*}+k−1) (no 1 − λ cancellation), so every category
// keeps a positive floor even at ε = 700. Runs at effective_ldp_guarantee(g) (ε <= 640, μ <= 37), and a GDP
// weight is rounded down by kGaussianWeightSlack (Lemma C.1: a smaller λ is still private).
// Worst case over P([k]): chord_risk(f, 0, k/((k−1)λ+1)), attained by a point mass.
// sample() and the named worst_case_risk come from SamplerBase (sampler.hpp).
//
// On grid cells (cells.md#linear-sampler): λ = clamp(λ_T(g)/(1 − c1), 0, 1), T = (c2 − c1)/(1 − c1) for (ε,δ) and
// Gaussian LDP (the GDP weight rounded down by kGaussianWeightSlack); for pure ε Park's γ = (e^ε − 1)/((e^ε − 1)(1 − c1)
// + c2 − c1), which equals λ_T/(1 − c1) for T >= 2 and is larger (still ε-LDP: the output lies in [b·h, b·e^ε·h]) for
// T < 2. The guarantee holds ONLY on the class: a density outside [c1·h, c2·h] (beyond kClassTolerance) is refused,
// members are projected onto the box exactly first (the identity up to rounding). Worst case over the class:
// chord_risk(f, linear_risk_constants(c1, c2, λ)); 0 when λ = 1.
class LinearSampler : public SamplerBase<LinearSampler> {
 public:
  static constexpr MechanismSpec spec{
      "linear", MechanismSpace::finite, NotionRule::ldp_from_options, {}, {}, {},
      "linear sampler: k-RR on one draw (pure), or the optimal functional-LDP mixture ((ε,δ) or μ-GDP)",
      "the linear sampler",
      "Linear sampler: draws one category from P, then keeps it or replaces it by a uniformly random category "
      "(randomized response). Can also give (ε, δ)- or Gaussian LDP."};
  static constexpr MechanismSpec cells_spec{"linear", MechanismSpace::continuous, NotionRule::ldp_from_options,
                                            kDensityClassOptions, kC1Option, kC1Zero,
                                            "optimal linear sampler on a grid, private on its class "
                                            "c1·h <= p <= c2·h only (Ghoukasian et al. Thms 3.4–3.6)"};
  [[nodiscard]] static LinearSampler make(const MechanismOptions& options);
  [[nodiscard]] static LinearSampler make_on_cells(const MechanismOptions& options);

  // On categories. ε validated: pure ε, k-RR.
  explicit LinearSampler(double epsilon);
  // On categories, any notion (validated: pure needs epsilon, approx epsilon and delta, gaussian mu): pure ε is k-RR,
  // (ε,δ) and μ-GDP the functional weight.
  explicit LinearSampler(Guarantee g);

  [[nodiscard]] std::vector<double> distribution(std::span<const double> input) const;
  // The same into the caller's `out` (as many entries as the input: a shape error otherwise).
  void distribution_into(std::span<const double> input, std::span<double> out) const;
  // The exact release (release_plan.hpp): with probability λ a draw from P, else one from the base.
  [[nodiscard]] Release release(std::span<const double> input) const;
  // On categories: release()'s plan for k categories (from ε, the notion and k only) and an input's data part under it
  // into `target` (k entries), so that release(input) is Release(plan, target) with the same bits; for callers that
  // keep the plan per k (SingleReleases, mechanism.hpp).
  [[nodiscard]] ReleasePlan release_plan(std::size_t k) const;
  void release_target_into(std::span<const double> input, const ReleasePlan& plan, std::span<double> target) const;

  // The weight on categories for k categories (pure: k-RR's γ; else clamped, after the GDP slack).
  [[nodiscard]] double lambda(std::size_t k) const;
  // Computes the functional weight for k categories now and keeps it, so that later calls with k categories reuse it
  // (for μ-GDP it is a numerical solve, which every call otherwise repeats); calls with another k compute theirs. k = 0
  // or above kMaxCategories is left to the call that needs it, which reports it. Nothing to keep for k-RR or on cells.
  void keep_weight_for(std::size_t k);
  [[nodiscard]] Guarantee guarantee() const noexcept { return guarantee_; }
  [[nodiscard]] double epsilon() const noexcept { return guarantee_.epsilon; }
  // 0 for k = 1 (the only output is the only category) and when λ = 1.
  using SamplerBase::worst_case_risk;
  [[nodiscard]] double worst_case_risk(const FDivergence& f, std::size_t k) const;
  [[nodiscard]] double worst_case_risk(NamedDivergence f, std::size_t k) const;
  // q = λ·P + offset on categories (every input), for an analyst's inversion; nothing on cells.
  [[nodiscard]] std::optional<AffineMap> affine_map(std::size_t k) const;
  // The weight λ: on cells the class's; on categories the functional weight for k categories (k checked), and nothing
  // for k-RR (its γ is a closed form of ε and k).
  [[nodiscard]] std::optional<double> mixture_weight(std::size_t k) const;
  // What a user holding only item x releases, for k categories (spec.hpp); nothing on cells.
  [[nodiscard]] std::optional<PointMassLaw> point_mass_law(std::size_t k) const;
  [[nodiscard]] const OnCells* on_cells() const noexcept { return cells_.get(); }

 private:
  struct Mix {
    double lambda;  // weight of P
    double floor;   // (1−λ)/k, the mass every category gets from the uniform part
  };
  [[nodiscard]] bool randomized_response() const noexcept { return guarantee_.notion == PrivacyNotion::pure_ldp; }
  [[nodiscard]] Mix mix(std::size_t k) const;
  [[nodiscard]] Mix computed_mix(std::size_t k) const;
  [[nodiscard]] double rounded_toward_delta(const Mix& m, double categories) const;
  [[nodiscard]] double response_weight(std::size_t k) const;  // k-RR's γ

  Guarantee guarantee_;
  std::size_t kept_categories_ = 0;  // 0: no weight kept
  Mix kept_mix_{0.0, 0.0};
  std::shared_ptr<const OnCells> cells_;
};

}  // namespace privsample
