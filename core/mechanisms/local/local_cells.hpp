#pragma once
// The local clip sampler on grid cells (Ghoukasian et al. Thm 5.1; cells.md#local-clip-sampler): linked only where a
// mechanism is made on cells. The behaviour on cells, LocalOnCells, is public for the tests, with
// the inspectors it has beyond OnCells.
#include <memory>
#include "mechanisms/local/local.hpp"

namespace privsample {

// q = clip(p/r_P; b·p0, b·e^ε·p0), one clip_normalise (sparse inputs: Case B, the paper's extension through the
// projection P̂). Cells with p0 = 0, or whose floor would underflow, are never output.
class LocalOnCells final : public OnCells {
 public:
  // prior: a density's cell masses (any scale, zeros allowed); ε and γ validated here.
  LocalOnCells(double epsilon, std::span<const double> prior, double gamma, LocalOutside outside = LocalOutside::clip)
      : epsilon_(validated_epsilon(epsilon)), gamma_(validated_gamma(gamma)) {
    double total = 0.0;
    prior_ = normalised_reference(prior, "prior", total);
    box_ = local_clip_box(prior_, epsilon_, gamma_, UnderflowRule::never_output, outside);
  }

  [[nodiscard]] std::size_t cells() const noexcept override { return prior_.size(); }
  [[nodiscard]] std::vector<double> distribution(std::span<const double> density) const override {
    return solve(density).q;
  }
  [[nodiscard]] std::optional<double> normaliser(std::span<const double> density) const override {
    return normaliser_of(solve(density));
  }
  [[nodiscard]] Release release(std::span<const double> density) const override {
    const std::vector<double> q = solve(density).q;
    return clip_release(clip_release_plan(box_.lo, epsilon_), q);
  }
  [[nodiscard]] double worst_case_risk(const FDivergence& f) const override {
    return local_clip_risk(f, effective_epsilon(epsilon_), gamma_);
  }
  [[nodiscard]] std::optional<double> mixture_weight() const override { return std::nullopt; }
  using OnCells::worst_case_risk;

  [[nodiscard]] const std::vector<double>& prior() const noexcept { return prior_; }
  [[nodiscard]] const PrivacyBox& box() const noexcept { return box_; }
  [[nodiscard]] ClipNormalised solve(std::span<const double> density) const {
    const std::vector<double> p = density_pmf(density, prior_.size());
    return clip_normalise(p, AtomBox{box_.lo, box_.hi});
  }

 private:
  double epsilon_;
  double gamma_;
  std::vector<double> prior_;
  PrivacyBox box_;
};

}  // namespace privsample
