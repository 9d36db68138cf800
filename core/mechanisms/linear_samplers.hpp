#pragma once
// The linear (mixture) samplers of Ghoukasian, Lee, Asoodeh, "Locally Optimal Private Sampling: Beyond the
// Global Minimax" (NeurIPS 2025) for any of the functional-LDP notions of functional_ldp.hpp: pure ε-LDP,
// (ε,δ)-LDP and μ-Gaussian LDP. They are the only samplers the paper gives for (ε,δ) and GDP.
// Docs: docs/mechanisms/linear.md, docs/mechanisms/local-linear.md (Ghoukasian et al. Thms 3.5, 4.1, Cor. 3.7–3.8).
#include <cstddef>
#include <span>
#include <vector>

#include "model/divergence.hpp"
#include "base/draw.hpp"
#include "privacy/functional_ldp.hpp"
#include "privacy/privacy.hpp"
#include "privacy/privacy_box.hpp"
#include "base/randomness.hpp"
#include "mechanisms/sampler.hpp"

namespace privsample {

// Theorem 3.5 (finite X = [k], class P([k]) = P̃_{0,k,uniform}, T = k):
//     Q(P) = λ·P + (1−λ)·uniform,    λ = clamp(λ_k(g), 0, 1)
// Guarantee: g-FLDP for every input. Proof sketch: for β >= 0 and any P, P', Q(A|P) − e^βQ(A|P') <=
// λ − (e^β − 1)(1−λ)/k (worst case A = {x}, P = δ_x, P' with no mass on x), which is <= δ_g(β) iff
// λ <= (e^β − 1 + kδ_g(β))/(e^β + k − 1); λ_k(g) is the infimum of these bounds over β, so Q is
// (β, δ_g(β))-LDP for all β, i.e. g-FLDP (Dong et al. Prop 6). Minimax-optimal over P([k]) for every f.
// λ_k(g) < 1 always here (the identity is never private on P([k])); the clamp only absorbs rounding. The
// uniform share is computed directly as (1−δ_g(β*))/(e^{β*}+k−1) (no 1 − λ cancellation), so every category
// keeps a positive floor even at ε = 700. Runs at effective_ldp_guarantee(g) (ε <= 700, μ <= 37), and a GDP
// weight is rounded down by kGaussianWeightSlack (Lemma C.1: a smaller λ is still private).
// Worst case over P([k]): chord_risk(f, 0, k/((k−1)λ+1)), attained by a point mass.
// sample() and the named worst_case_risk come from SamplerBase (sampler.hpp).
class FunctionalLinearSampler : public SamplerBase<FunctionalLinearSampler> {
 public:
  // g validated: pure needs epsilon, approx epsilon and delta, gaussian mu (std::invalid_argument otherwise).
  explicit FunctionalLinearSampler(Guarantee g);

  [[nodiscard]] std::vector<double> distribution(std::span<const double> hist) const;
  // The exact release (release_plan.hpp): with probability λ a draw from P, else a uniform category.
  [[nodiscard]] Release release(std::span<const double> hist) const;

  // The weight actually used for k categories (clamped, after the GDP slack).
  [[nodiscard]] double lambda(std::size_t k) const;
  // Computes the weight for k categories now and keeps it, so that later calls with k categories reuse it (for μ-GDP
  // it is a numerical solve, ~0.25 ms at k = 100, which every call otherwise repeats); calls with another k compute
  // theirs as before. k = 0 or above kMaxCategories is left to the call that needs it, which reports it.
  void keep_weight_for(std::size_t k);
  [[nodiscard]] Guarantee guarantee() const noexcept { return guarantee_; }
  // 0 for k = 1 (the only output is the only category) and when λ = 1.
  using SamplerBase::worst_case_risk;
  [[nodiscard]] double worst_case_risk(const FDivergence& f, std::size_t k) const;

 private:
  struct Mix {
    double lambda;  // weight of P
    double floor;   // (1−λ)/k, the mass every category gets from the uniform part
  };
  [[nodiscard]] Mix mix(std::size_t k) const;
  [[nodiscard]] Mix computed_mix(std::size_t k) const;
  [[nodiscard]] double rounded_toward_delta(const Mix& m, double categories) const;

  Guarantee guarantee_;
  std::size_t kept_categories_ = 0;  // 0: no weight kept
  Mix kept_mix_{0.0, 0.0};
};

// The parts of Theorem 4.1 below that do not depend on what the atoms are, shared by the local linear sampler on
// categories (LocalLinearSampler) and on grid cells (ContinuousLocalLinearSampler, continuous.hpp); g and γ validated,
// prior a pmf:
//  - neighbourhood_box: N_γ(P0) as the box [p0/γ, γ·p0] that clip_normalise projects P onto (P̂), its ends rounded
//    inward (P̂ is in N_γ(P0) as real numbers);
//  - local_linear_weight: λ_loc = clamp(γ/(γ−1)·λ_{γ+1}(g), 0, 1) at effective_ldp_guarantee(g) (the GDP weight
//    rounded down by kGaussianWeightSlack, running_linear_weight), then rounded toward privacy: lowered by doubling
//    steps until the worst pair of the mixture passes exactly — pure: (λγ + 1 − λ) <= e^ε·(λ/γ + 1 − λ); (ε,δ): its
//    hockey-stick <= δ; μ-GDP: <= δ_μ(β) on gaussian_check_points — the last two with a margin of 2^-43 for the
//    rounding of distribution()'s values (derivation at the definition);
//  - local_linear_box: the output box p0·[λ/γ + 1 − λ, λγ + 1 − λ] by privacy_box (for pure ε its ends differ by at
//    most e^ε for the doubles, at the user's ε; entries whose floor underflows handled by `rule`);
//  - local_linear_risk: the worst case over N_γ(P0), chord_risk(f, linear_risk_constants(1/γ, γ, λ)); 0 when λ >= 1.
[[nodiscard]] PrivacyBox neighbourhood_box(std::span<const double> prior, double gamma);
[[nodiscard]] double local_linear_weight(const Guarantee& g, double gamma);
[[nodiscard]] PrivacyBox local_linear_box(const Guarantee& g, std::span<const double> prior, double gamma,
                                          double lambda, UnderflowRule rule);
[[nodiscard]] double local_linear_risk(const FDivergence& f, double gamma, double lambda);

// Theorem 4.1 (local minimax around a public prior P0, neighbourhood N_γ(P0) = {P : 1/γ <= P/P0 <= γ}):
//     P̂ = clip_normalise(P; p0/γ, γ·p0)                (the f-projection of P onto N_γ(P0), every f)
//     Q(P) = λ_loc·P̂ + (1−λ_loc)·P0,    λ_loc = clamp(γ/(γ−1)·λ_{γ+1}(g), 0, 1)
// This is Thm 3.4 on the class N_γ(P0) = P̃_{1/γ,γ,P0} (T = γ+1, λ* = λ_T/(1−c1)) applied to P̂.
// P̂ is Case A (P̂ = clip(P/t; p0/γ, γp0)) when P0(supp P) >= 1/(γ+1), else Case B (γ·p0 on supp P, one common
// ratio elsewhere) — clip_normalise computes both (docs/mechanisms/local-linear.md#the-projection).
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
// γ ∈ ℕ; docs/mechanisms/local.md#assumptions), where the block input γ·p0 on a block, p0/γ elsewhere, attains it.
// sample() and the named worst_case_risk come from SamplerBase (sampler.hpp).
class LocalLinearSampler : public SamplerBase<LocalLinearSampler> {
 public:
  // g validated as above; gamma finite, > 1 (validated_gamma of clip_samplers.hpp); prior validated_prior
  // (every entry finite and > 0, counts or probabilities: normalised by its total, the histograms' scale rule).
  LocalLinearSampler(Guarantee g, std::vector<double> prior, double gamma);

  // P̂: the f-projection of the normalised hist onto N_γ(P0). hist must have prior().size() entries.
  [[nodiscard]] std::vector<double> projection(std::span<const double> hist,
                                               RootSchedule schedule = RootSchedule::adaptive) const;
  [[nodiscard]] std::vector<double> distribution(std::span<const double> hist) const;
  // The exact release (release_plan.hpp). Pure ε: the output box's floors are the public base and the fixed schedule's
  // q the target, so the released law is within e^ε of the floors whatever λ is. (ε,δ) and μ-GDP: with probability λ a
  // draw from P̂, kept inside N_γ of the quantized prior, else a draw from that prior: the mechanism for that prior.
  [[nodiscard]] Release release(std::span<const double> hist) const;

  [[nodiscard]] double lambda() const noexcept { return lambda_; }  // λ_loc actually used
  [[nodiscard]] Guarantee guarantee() const noexcept { return guarantee_; }
  [[nodiscard]] double gamma() const noexcept { return gamma_; }
  [[nodiscard]] const std::vector<double>& prior() const noexcept { return prior_; }
  // k must equal prior().size() (std::invalid_argument otherwise). 0 in the trivial regime.
  using SamplerBase::worst_case_risk;
  [[nodiscard]] double worst_case_risk(const FDivergence& f, std::size_t k) const;

 private:
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
};

}  // namespace privsample
