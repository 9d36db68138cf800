#pragma once
// The linear sampler on grid cells (Park et al. §3.3; Ghoukasian et al. Thm 3.4 / Cor 3.7; cells.md#linear-sampler):
// linked only where a mechanism is made on cells. The behaviour on cells, LinearOnCells, is public for the tests, with
// the inspectors it has beyond OnCells.
#include <algorithm>
#include <memory>
#include "mechanisms/linear/linear.hpp"
#include "solver/clip_normalise.hpp"

namespace privsample {

class LinearOnCells final : public OnCells {
 public:
  LinearOnCells(Guarantee g, std::span<const double> reference, double c1, double c2)
      : guarantee_(validated_ldp_guarantee(g)), class_(privsample::density_class(reference, c1, c2)) {
    // λ* = λ_T(g)/(1 − c1) (core/mechanisms/linear/README.md#the-weight-for-each-notion); T > 1 because c2 > 1.
    const double T = (class_.c2 - class_.c1) / (1.0 - class_.c1);
    // The output's ratio to h lies in [λc1 + 1 − λ, λc2 + 1 − λ]; both ends, and the base share 1 − λ, are computed
    // without forming 1 − λ from a λ that rounds to 1 (ε or μ large), where the floor would vanish.
    double out_floor = 0.0;
    double out_ceiling = 0.0;
    if (guarantee_.notion == PrivacyNotion::pure_ldp) {
      // Park's γ (core/mechanisms/cells.md#linear-sampler): its output lies in the mollifier [b·h, b·e^ε·h] (eqs. 37–38), which is ε-LDP for every
      // T. For T < 2 (c1 + c2 < 2) the functional-LDP weight takes the β = 0 branch (e^ε − 1)/((e^ε + 1)(1 − c1)),
      // which is smaller (it bounds the total variation by 1, unreachable when T < 2); for T >= 2 the two agree.
      const ContinuousConstants k = continuous_constants(class_.c1, class_.c2, guarantee_.epsilon);
      lambda_ = std::clamp(k.gamma, 0.0, 1.0);
      out_floor = k.trivial ? class_.c1 : k.b;        // 1 − γ(1 − c1) = b
      out_ceiling = k.trivial ? class_.c2 : k.ceiling;  // 1 + γ(c2 − 1) = b·e^ε
      base_share_ = k.trivial ? 0.0 : std::clamp((out_floor - lambda_ * class_.c1), 0.0, 1.0);
    } else {
      const LinearWeight w = running_linear_weight(guarantee_, T);
      lambda_ = std::clamp(w.lambda / (1.0 - class_.c1), 0.0, 1.0);
      // 1 − λ = (1 − λ_T − c1)/(1 − c1) with 1 − λ_T = T·floor (solve_linear_weight computes the floor directly),
      // raised by a few roundings: a larger base share is still private (Lemma C.1).
      const double complement = T * w.floor;
      const double raw = (complement - class_.c1) / (1.0 - class_.c1);
      base_share_ = std::clamp(raw + 0x1p-50 * (complement + class_.c1) / (1.0 - class_.c1), 0.0, 1.0);
      out_floor = base_share_ + lambda_ * class_.c1;
      out_ceiling = base_share_ + lambda_ * class_.c2;
    }
    const std::size_t n = class_.h.size();
    lo_.resize(n);
    hi_.resize(n);
    out_lo_.resize(n);
    out_hi_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      lo_[i] = class_.c1 * class_.h[i];
      hi_[i] = class_.c2 * class_.h[i];
      out_lo_[i] = out_floor * class_.h[i];
      out_hi_[i] = out_ceiling * class_.h[i];
    }
  }

  [[nodiscard]] std::size_t cells() const noexcept override { return class_.h.size(); }
  [[nodiscard]] std::vector<double> distribution(std::span<const double> density) const override {
    const std::vector<double> p = density_pmf(density, class_.h.size());
    require_in_class(class_, p);
    // Exact projection onto the class box (identity up to rounding for members), so the mixture's ratio bound
    // holds in floating point; the clamp absorbs the rounding of the mixture itself.
    std::vector<double> q = clip_normalise(p, AtomBox{lo_, hi_}).q;
    for (std::size_t i = 0; i < q.size(); ++i) {
      q[i] = std::clamp(lambda_ * q[i] + base_share_ * class_.h[i], out_lo_[i], out_hi_[i]);
    }
    return q;
  }
  [[nodiscard]] Release release(std::span<const double> density) const override {
    if (guarantee_.notion == PrivacyNotion::pure_ldp) {
      const std::vector<double> q = distribution(density);
      return clip_release(clip_release_plan(out_lo_, guarantee_.epsilon), q);
    }
    const std::vector<double> p = density_pmf(density, class_.h.size());
    require_in_class(class_, p);
    auto plan = std::make_shared<const ReleasePlan>(class_release_plan(
        mixture_release_plan_by_base_share(base_share_, quantized_base(class_.h)), class_.c1, class_.c2));
    return Release(plan, clip_normalise(p, AtomBox{lo_, hi_}).q);
  }
  [[nodiscard]] double worst_case_risk(const FDivergence& f) const override {
    if (lambda_ >= 1.0) return 0.0;
    const LinearRiskConstants r = linear_risk_constants(class_.c1, class_.c2, lambda_);
    return chord_risk(f, r.r1, r.r2);
  }
  [[nodiscard]] std::optional<double> mixture_weight() const override { return lambda_; }
  using OnCells::worst_case_risk;

  [[nodiscard]] double lambda() const noexcept { return lambda_; }
  [[nodiscard]] Guarantee guarantee() const noexcept { return guarantee_; }
  [[nodiscard]] const DensityClass& density_class() const noexcept { return class_; }

 private:
  Guarantee guarantee_;
  DensityClass class_;
  double lambda_ = 0.0;
  double base_share_ = 0.0;  // 1 − λ, computed without cancellation where λ rounds to 1
  std::vector<double> lo_;   // c1·h
  std::vector<double> hi_;   // c2·h
  std::vector<double> out_lo_;  // the output box (λc1 + 1 − λ)·h … (λc2 + 1 − λ)·h
  std::vector<double> out_hi_;
};

}  // namespace privsample
