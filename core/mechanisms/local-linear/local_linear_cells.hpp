#pragma once
// The local linear sampler on grid cells (Ghoukasian et al. Thm 4.1; cells.md#local-linear-sampler): linked only where
// a mechanism is made on cells. The behaviour on cells, LocalLinearOnCells, is public for the tests, with
// the inspectors it has beyond OnCells.
#include <algorithm>
#include <memory>
#include "base/numeric.hpp"
#include "mechanisms/local-linear/local_linear.hpp"

namespace privsample {

// q = clamp(λ·P̂ + (1 − λ)·P0) into the output box, P̂ the projection onto N_γ(P0) of the density's cell masses.
class LocalLinearOnCells final : public OnCells {
 public:
  LocalLinearOnCells(Guarantee g, std::span<const double> prior, double gamma)
      : guarantee_(validated_ldp_guarantee(g)), gamma_(validated_gamma(gamma)) {
    double total = 0.0;
    prior_ = normalised_reference(prior, "prior", total);
    // λ_loc = λ_{γ+1}(g)/(1 − 1/γ) (Thm 4.1 = Thm 3.4 with c1 = 1/γ, c2 = γ), rounded toward privacy.
    lambda_ = local_linear_weight(guarantee_, gamma_);
    complement_ = 1.0 - lambda_;
    PrivacyBox box = local_linear_box(guarantee_, prior_, gamma_, lambda_, UnderflowRule::never_output);
    // Cells whose output floor would underflow (far in the prior's tails) are never output, as in the other continuous
    // samplers: they leave the prior, which is renormalised (its other entries grow, so no other floor underflows).
    CompensatedSum kept;
    bool dropped = false;
    for (std::size_t i = 0; i < prior_.size(); ++i) {
      if (prior_[i] > 0.0 && box.hi[i] == 0.0) {
        prior_[i] = 0.0;
        dropped = true;
      }
      kept.add(prior_[i]);
    }
    if (dropped) {
      for (double& p : prior_) p /= kept.value();
      box = local_linear_box(guarantee_, prior_, gamma_, lambda_, UnderflowRule::never_output);
    }
    out_lo_ = std::move(box.lo);
    out_hi_ = std::move(box.hi);
    neighbourhood_ = neighbourhood_box(prior_, gamma_);
  }

  [[nodiscard]] std::size_t cells() const noexcept override { return prior_.size(); }
  [[nodiscard]] std::vector<double> distribution(std::span<const double> density) const override {
    std::vector<double> q = projection(density);
    for (std::size_t i = 0; i < q.size(); ++i) {
      q[i] = std::clamp(local_mixture(lambda_, q[i], complement_ * prior_[i]), out_lo_[i], out_hi_[i]);
    }
    return q;
  }
  [[nodiscard]] Release release(std::span<const double> density) const override {
    if (guarantee_.notion == PrivacyNotion::pure_ldp) {
      const std::vector<double> q = distribution(density);
      return clip_release(clip_release_plan(out_lo_, guarantee_.epsilon), q);
    }
    auto plan = std::make_shared<const ReleasePlan>(
        class_release_plan(mixture_release_plan(lambda_, quantized_base(prior_)), 1.0 / gamma_, gamma_));
    return Release(plan, projection(density));
  }
  [[nodiscard]] double worst_case_risk(const FDivergence& f) const override {
    return local_linear_risk(f, gamma_, lambda_);
  }
  [[nodiscard]] std::optional<double> mixture_weight() const override { return lambda_; }
  using OnCells::worst_case_risk;
  [[nodiscard]] const std::vector<double>& prior() const noexcept { return prior_; }
  [[nodiscard]] double lambda() const noexcept { return lambda_; }
  [[nodiscard]] Guarantee guarantee() const noexcept { return guarantee_; }
  // P̂: the f-projection of the density's cell masses onto N_γ(P0).
  [[nodiscard]] std::vector<double> projection(std::span<const double> density) const {
    const std::vector<double> p = density_pmf(density, prior_.size());
    return clip_normalise(p, AtomBox{neighbourhood_.lo, neighbourhood_.hi}).q;
  }

 private:

  Guarantee guarantee_;
  double gamma_;
  std::vector<double> prior_;  // the normalised prior cell masses, without the cells that are never output
  PrivacyBox neighbourhood_;
  std::vector<double> out_lo_;
  std::vector<double> out_hi_;
  double lambda_ = 0.0;
  double complement_ = 1.0;
};

}  // namespace privsample
