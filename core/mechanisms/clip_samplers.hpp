#pragma once
// Clip samplers around a reference measure: every one is a single clip_normalise of the user's histogram
// into a box [lo·ref, hi·ref], so each is ε-LDP for every input (outputs of any two inputs lie in the same
// box whose ends differ by the factor e^ε) and is the f-projection of P onto that box for every f.
#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "solver/clip_normalise.hpp"
#include "model/divergence.hpp"
#include "base/draw.hpp"
#include "privacy/privacy.hpp"
#include "privacy/privacy_box.hpp"
#include "base/randomness.hpp"
#include "mechanisms/sampler.hpp"

namespace privsample {

// γ of the neighbourhood N_γ(P0) = {P : 1/γ <= P/P0 <= γ}: finite, > 1 and at most kMaxGamma.
inline constexpr double kMaxGamma = 1e12;
double validated_gamma(double gamma);

// The box of the local clip sampler (Theorem 5.1) around prior weights w (any positive scale: a pmf on categories or
// cell masses): [b·w, b·e^ε·w] with b = (γ+1)/(γ+e^ε), computed through e^{−ε} (no overflow up to ε = 700), floors
// raised toward privacy and underflowing entries handled by `rule` (privacy_box.hpp). ε and γ must be validated.
[[nodiscard]] PrivacyBox local_clip_box(std::span<const double> prior, double epsilon, double gamma,
                                        UnderflowRule rule = UnderflowRule::refuse);

// Ghoukasian, Lee, Asoodeh, "Locally Optimal Private Sampling", Theorem 5.1 (docs/mechanisms/local.md).
// q(x) = clip(P(x)/r_P; b·p0(x), b·e^ε·p0(x)) with b = (γ+1)/(γ+e^ε) around a public prior P0.
// Guarantee: pure ε-LDP for EVERY input (in or outside N_γ(P0)): b·p0 <= q <= b·e^ε·p0 exactly in floating
// point. Sparse users whose support has P0-mass below 1/(γ+1) have no normaliser r_P; clip_normalise's Case B
// gives the limit (support at the ceiling, the rest at one common ratio), which equals applying the
// sampler to the f-projection P̂ of P onto N_γ(P0) (the paper's extension, docs/mechanisms/local.md#proof-sketch).
// Worst case over N_γ(P0): R_loc = chord(r1, r2), r1 = (e^ε+γ)/(γ(γ+1)), r2 = γ(e^ε+γ)/(e^ε(γ+1)); 0 when
// ε >= 2 ln γ (then q = P on N_γ(P0)). It is the local minimax risk when P0 splits into γ+1 blocks of equal
// mass; otherwise an upper bound (docs/mechanisms/local.md#assumptions).
// A clip sampler (sampler.hpp): distribution(), normaliser() (r_P, or 0 in Case B where no normaliser exists: the
// limit r → 0), guarantee(), epsilon(), sample() and the named worst_case_risk come from there.
class LocalClipSampler : public ClipSampler<LocalClipSampler> {
 public:
  LocalClipSampler(double epsilon, std::vector<double> prior, double gamma);

  [[nodiscard]] ClipNormalised solve(std::span<const double> hist,
                                     RootSchedule schedule = RootSchedule::adaptive) const;
  // The exact release for this input (release_plan.hpp): the fixed schedule's q over the floors b·p0.
  [[nodiscard]] Release release(std::span<const double> hist) const;
  // k must equal the prior's length.
  using SamplerBase::worst_case_risk;
  [[nodiscard]] double worst_case_risk(const FDivergence& f, std::size_t k) const;
  [[nodiscard]] double gamma() const noexcept { return gamma_; }
  [[nodiscard]] const std::vector<double>& prior() const noexcept { return prior_; }

 private:
  double gamma_;
  std::vector<double> prior_;
  PrivacyBox box_;
};

// R_loc(ε, γ, f) of Theorem 5.1.
[[nodiscard]] double local_clip_risk(const FDivergence& f, double epsilon, double gamma);

// Husain et al. (2020) relative-mollifier f-projection, the baseline of Park et al. §2.3/§3.4
// (docs/mechanisms/mollifier.md): q = clip(P(x)/r_P; e^{−ε/2}Q0(x), e^{ε/2}Q0(x)) around a reference Q0
// (default uniform). The claimed closed form has no normaliser when Σ_{supp P} e^{ε/2}Q0 + Σ_{rest} e^{−ε/2}Q0 < 1;
// clip_normalise's Case B then gives the complete projection (valid for every f by the KKT argument).
// Guarantee: pure ε-LDP (q/Q0 ∈ [e^{−ε/2}, e^{ε/2}] for every input).
// Worst case over all pmfs (App. F.1, eq. 207): chord(0, 1/B) with B = min(e^{ε/2}t, e^{−ε/2}t + 1 − e^{−ε/2}),
// t = min_x Q0(x); M_f = f(0) + f*(0) when some Q0(x) = 0.
// A clip sampler (sampler.hpp), normaliser() 0 in Case B.
class MollifierSampler : public ClipSampler<MollifierSampler> {
 public:
  // reference: a pmf over the k categories (zeros allowed: those categories are never output), or
  // nothing for the uniform reference of any k. An entry whose floor e^{−ε/2}·Q0(x) would underflow is refused here
  // (privacy_box.hpp), so every later call with a valid histogram works.
  explicit MollifierSampler(double epsilon, std::optional<std::vector<double>> reference = std::nullopt);

  [[nodiscard]] ClipNormalised solve(std::span<const double> hist,
                                     RootSchedule schedule = RootSchedule::adaptive) const;
  // The exact release for this input (release_plan.hpp): the fixed schedule's q over the floors e^{−ε/2}·Q0.
  [[nodiscard]] Release release(std::span<const double> hist) const;
  using SamplerBase::worst_case_risk;
  [[nodiscard]] double worst_case_risk(const FDivergence& f, std::size_t k) const;

 private:
  // The box around the uniform reference for k categories.
  [[nodiscard]] UniformBox uniform_box(std::size_t k) const;
  std::optional<std::vector<double>> reference_;
  PrivacyBox box_;  // with a reference: [e^{−ε/2}·Q0, min(1, e^{ε/2}·Q0)], floors raised toward privacy
};

}  // namespace privsample
