#pragma once
// The relative-mollifier baseline (Husain et al. 2020, as Park et al. compare with it). Page: README.md beside this file.
#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "mechanisms/sampler.hpp"
#include "mechanisms/spec.hpp"
#include "model/divergence.hpp"
#include "privacy/privacy_box.hpp"
#include "privacy/release_plan.hpp"
#include "solver/clip_normalise.hpp"

namespace privsample {

// Husain et al. (2020) relative-mollifier f-projection, the baseline of Park et al. §2.3/§3.4
// (README.md beside this file): q = clip(P(x)/r_P; e^{−ε/2}Q0(x), e^{ε/2}Q0(x)) around a reference Q0
// (default uniform). The claimed closed form has no normaliser when Σ_{supp P} e^{ε/2}Q0 + Σ_{rest} e^{−ε/2}Q0 < 1;
// clip_normalise's Case B then gives the complete projection (valid for every f by the KKT argument).
// Guarantee: pure ε-LDP (q/Q0 ∈ [e^{−ε/2}, e^{ε/2}] for every input).
// Worst case over all pmfs (App. F.1, eq. 207): chord(0, 1/B) with B = min(e^{ε/2}t, e^{−ε/2}t + 1 − e^{−ε/2}),
// t = min_x Q0(x); M_f = f(0) + f*(0) when some Q0(x) = 0.
// A clip sampler (sampler.hpp), normaliser() 0 in Case B.
class MollifierSampler : public ClipSampler<MollifierSampler> {
 public:
  static constexpr MechanismSpec spec{"mollifier", MechanismSpace::finite, NotionRule::pure_epsilon, {},
                                      kReferenceOption, {},
                                      "Husain et al.'s relative-mollifier baseline around a reference "
                                      "(uniform by default)",
                                      "the relative mollifier",
                                      "Relative mollifier (Husain et al.): the distribution closest to P among "
                                      "those within a factor e^ε of a reference (uniform unless one is given)."};
  [[nodiscard]] static MollifierSampler make(const MechanismOptions& options);

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
  // What a user holding only item x releases, for k categories (spec.hpp); nothing on cells.
  [[nodiscard]] std::optional<PointMassLaw> point_mass_law(std::size_t k) const;
  // The number of categories a reference fixes; nothing for the uniform reference (any k).
  [[nodiscard]] std::optional<std::size_t> categories() const noexcept {
    return reference_ ? std::optional<std::size_t>(reference_->size()) : std::nullopt;
  }

 private:
  // The box around the uniform reference for k categories.
  [[nodiscard]] UniformBox uniform_box(std::size_t k) const;
  std::optional<std::vector<double>> reference_;
  PrivacyBox box_;  // with a reference: [e^{−ε/2}·Q0, min(1, e^{ε/2}·Q0)], floors raised toward privacy
};

}  // namespace privsample
