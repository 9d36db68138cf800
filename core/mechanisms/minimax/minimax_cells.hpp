#pragma once
// The minimax clip sampler on grid cells (Park et al. Thm 3.3; cells.md#minimax-clip-sampler): linked only where a
// mechanism is made on cells. The behaviour on cells, MinimaxOnCells, is public for the tests, with
// the inspectors it has beyond OnCells.
#include <memory>
#include <utility>
#include "mechanisms/minimax/minimax.hpp"
#include "privacy/privacy_box.hpp"

namespace privsample {

// q = clip(p/r_P; b·h, b·e^ε·h) with Σq = 1, one clip_normalise; the trivial case c2 <= c1·e^ε is the identity on the
// class, refused outside it, and members pass through the exact projection onto [c1·h, c2·h] (the identity up to
// rounding, which keeps the bound exact in floating point).
class MinimaxOnCells final : public OnCells {
 public:
  MinimaxOnCells(double epsilon, std::span<const double> reference, double c1, double c2)
      : epsilon_(validated_epsilon(epsilon)), class_(privsample::density_class(reference, c1, c2)) {
    constants_ = continuous_constants(class_.c1, class_.c2, epsilon_);
    // Trivial case: the box is the class itself (the exact projection, identity on members). Otherwise the
    // mollifier [b·h, b·e^ε·h] of Thm 3.3.
    const double floor = constants_.trivial ? class_.c1 : constants_.b;
    const double ceiling = constants_.trivial ? class_.c2 : constants_.ceiling;
    PrivacyBox box = privacy_box(class_.h, floor, ceiling, epsilon_, "reference", UnderflowRule::never_output);
    lo_ = std::move(box.lo);
    hi_ = std::move(box.hi);
  }

  [[nodiscard]] std::size_t cells() const noexcept override { return class_.h.size(); }
  [[nodiscard]] std::vector<double> distribution(std::span<const double> density) const override {
    return solve(density).q;
  }
  [[nodiscard]] std::optional<double> normaliser(std::span<const double> density) const override {
    const ClipNormalised solved = solve(density);
    return constants_.trivial ? 1.0 : normaliser_of(solved);
  }
  [[nodiscard]] Release release(std::span<const double> density) const override {
    const std::vector<double> q = solve(density).q;
    return clip_release(clip_release_plan(lo_, epsilon_), q);
  }
  [[nodiscard]] double worst_case_risk(const FDivergence& f) const override {
    if (constants_.trivial) return 0.0;
    return chord_risk(f, constants_.r1, constants_.r2);
  }
  [[nodiscard]] std::optional<double> mixture_weight() const override { return std::nullopt; }
  using OnCells::worst_case_risk;

  [[nodiscard]] const ContinuousConstants& constants() const noexcept { return constants_; }
  [[nodiscard]] const DensityClass& density_class() const noexcept { return class_; }
  [[nodiscard]] ClipNormalised solve(std::span<const double> density) const {
    const std::vector<double> p = density_pmf(density, class_.h.size());
    if (constants_.trivial) require_in_class(class_, p);
    return clip_normalise(p, AtomBox{lo_, hi_});
  }

 private:
  double epsilon_;
  DensityClass class_;
  ContinuousConstants constants_;
  std::vector<double> lo_;
  std::vector<double> hi_;
};

}  // namespace privsample
