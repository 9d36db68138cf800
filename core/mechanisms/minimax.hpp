#pragma once
// Park, Asoodeh, Lee — "Exactly Minimax-Optimal Locally Differentially Private Sampling" (NeurIPS 2024),
// finite space X = [k], class P([k]) of all pmfs. Docs: docs/mechanisms/minimax.md, docs/mechanisms/linear.md.
#include <cstddef>
#include <span>
#include <vector>

#include "solver/clip_normalise.hpp"
#include "model/divergence.hpp"
#include "base/draw.hpp"
#include "privacy/privacy.hpp"
#include "base/randomness.hpp"
#include "mechanisms/sampler.hpp"

namespace privsample {

// The clip bounds of the finite space: floor ℓ = 1/(e^ε+k−1) and ceiling u = e^ε/(e^ε+k−1),
// computed through e^{−ε} so ε up to kMaxEffectiveEpsilon never overflows.
struct FiniteBox {
  double floor = 0.0;
  double ceiling = 0.0;
};
[[nodiscard]] FiniteBox finite_minimax_box(std::size_t k, double epsilon);

// Theorem 3.1: R = m·f(1/m) + (1−m)·f(0) with m = e^ε/(e^ε+k−1) = 𝔑(0, (e^ε+k−1)/e^ε).
// The named divergences use closed forms with log1p/expm1 (t = (k−1)e^{−ε}: KL log(1+t), TV t/(1+t),
// ½-Hellinger 1 − (1+t)^{−1/2}, χ² t).
[[nodiscard]] double finite_minimax_risk(const FDivergence& f, std::size_t k, double epsilon);
[[nodiscard]] double finite_minimax_risk(NamedDivergence f, std::size_t k, double epsilon);

// Q*_{k,ε}(x|P) = max(P(x)/r_P, ℓ) — Theorem 3.1 (eq. 8); equivalently clip(P(x)/r_P; ℓ, u).
// Guarantee: pure ε-LDP, since ℓ <= Q*(x|P) <= u = e^ε·ℓ for every P (both bounds hold exactly in
// floating point: q is clamped into [ℓ, u] by clip_normalise). Optimal for every f simultaneously, and
// pointwise the f-projection of P onto the box (Prop. 3.4), so never worse than the linear sampler.
// A clip sampler (sampler.hpp): distribution() = solve().q, guarantee(), epsilon() and sample() come from there.
class MinimaxSampler : public ClipSampler<MinimaxSampler> {
 public:
  using ClipSampler::ClipSampler;  // explicit MinimaxSampler(double epsilon), validated; see privacy.hpp for ε > 700

  // The exact output pmf (one clip_normalise into the uniform box [ℓ, u]).
  [[nodiscard]] ClipNormalised solve(std::span<const double> hist,
                                     RootSchedule schedule = RootSchedule::adaptive) const;
  // r_P ∈ [1, (e^ε+k−1)/e^ε] (r_P = 1/scale); the right end of that bracket when every r gives the same Q*.
  [[nodiscard]] double normaliser(std::span<const double> hist) const;
  // The exact release for this input (release_plan.hpp): the fixed schedule's q with the box's floors as the public
  // base; prepare() and sample() draw from it.
  [[nodiscard]] Release release(std::span<const double> hist) const;
  // Theorem 3.1 (finite_minimax_risk), the named divergences through their closed forms.
  [[nodiscard]] double worst_case_risk(const FDivergence& f, std::size_t k) const { return finite_minimax_risk(f, k, epsilon_); }
  [[nodiscard]] double worst_case_risk(NamedDivergence f, std::size_t k) const { return finite_minimax_risk(f, k, epsilon_); }
};

// Q†(P) = γP + (1−γ)·uniform with γ = (e^ε−1)/(e^ε+k−1) — §3.3, Remark 3.5: k-ary randomized response
// applied to one draw of P. Guarantee: pure ε-LDP (its pmf also lies in [ℓ, u]); minimax-optimal like
// Q*, but pointwise never better (Prop. 3.4). Q† is also minimax-optimal (p/q† ∈ [0, r2], Lemma C.7), so its
// worst case is Theorem 3.1's value, the minimax sampler's.
class LinearSampler : public PureLdpSampler<LinearSampler> {
 public:
  using PureLdpSampler::PureLdpSampler;  // explicit LinearSampler(double epsilon), validated

  [[nodiscard]] std::vector<double> distribution(std::span<const double> hist) const;
  // The exact release (release_plan.hpp): with probability γ a draw from P, else a uniform category.
  [[nodiscard]] Release release(std::span<const double> hist) const;
  [[nodiscard]] double worst_case_risk(const FDivergence& f, std::size_t k) const { return finite_minimax_risk(f, k, epsilon_); }
  [[nodiscard]] double worst_case_risk(NamedDivergence f, std::size_t k) const { return finite_minimax_risk(f, k, epsilon_); }
};

}  // namespace privsample
