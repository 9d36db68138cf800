#include "mechanisms/mollifier/mollifier.hpp"

#include <algorithm>
#include <cmath>

#include "base/errors.hpp"
#include "mechanisms/neighbourhood.hpp"
#include "mechanisms/point_masses.hpp"
#include "model/histogram.hpp"

namespace privsample {
MollifierSampler MollifierSampler::make(const MechanismOptions& o) {
  (void)checked_options(spec, o);
  return MollifierSampler(*o.epsilon, o.reference);
}

MollifierSampler::MollifierSampler(double epsilon, std::optional<std::vector<double>> reference)
    : ClipSampler(epsilon) {
  if (reference) {
    check_category_count(reference->size(), "reference");
    reference_ = validated_prior(*reference, reference->size(), "reference", /*allow_zeros=*/true);
    // Built once, here: a reference entry whose floor would underflow is refused now, not on every later call.
    const double half = effective_epsilon(epsilon_) / 2.0;
    box_ = privacy_box(*reference_, std::exp(-half), std::exp(half), epsilon_, "reference");
    for (double& hi : box_.hi) hi = std::min(1.0, hi);  // a probability never exceeds 1; the ratio only shrinks
  }
}

UniformBox MollifierSampler::uniform_box(std::size_t k) const {
  const double half = effective_epsilon(epsilon_) / 2.0;
  const double uniform = 1.0 / static_cast<double>(k);
  const double top = std::min(1.0, std::exp(half) * uniform);
  const double floor = private_floor(std::exp(-half) * uniform, top, 2.0 * half);
  // An ε below the doubles' resolution: the raised floors leave no output summing to 1 but the reference itself.
  if (floor * static_cast<double>(k) > 1.0) return UniformBox{k, uniform, uniform};
  return UniformBox{k, floor, top};
}

ClipNormalised MollifierSampler::solve(std::span<const double> hist, RootSchedule schedule) const {
  const std::vector<double> p = normalized_pmf(hist);
  if (!reference_) return clip_normalise(p, uniform_box(p.size()), schedule);
  check_prior_size(p.size(), reference_->size(), "reference");
  return clip_normalise(p, AtomBox{box_.lo, box_.hi}, schedule);
}

// The floors e^{−ε/2}·Q0 are the public base (release_plan.hpp).
Release MollifierSampler::release(std::span<const double> hist) const {
  const std::vector<double> q = solve(hist, RootSchedule::fixed).q;
  const std::size_t k = q.size();
  return clip_release(reference_ ? clip_release_plan(box_.lo, epsilon_)
                                 : uniform_clip_release_plan(k, uniform_box(k).lo, epsilon_),
                      q);
}

double MollifierSampler::worst_case_risk(const FDivergence& f, std::size_t k) const {
  check_category_count(k);
  double smallest = 1.0 / static_cast<double>(k);
  if (reference_) {
    check_prior_size(k, reference_->size(), "reference");
    smallest = *std::min_element(reference_->begin(), reference_->end());
  }
  if (smallest == 0.0) {
    const double f0 = f.f_at_zero;
    const double fstar0 = f.f_star_at_zero;
    return f0 + fstar0;  // a point mass where Q0 = 0 is orthogonal to its output: M_f
  }
  const double half = effective_epsilon(epsilon_) / 2.0;
  // B(t) = mass the projection keeps on a point mass at an atom of reference mass t (eq. 185).
  const double kept = std::min(std::exp(half) * smallest, std::exp(-half) * smallest - std::expm1(-half));
  return chord_risk(f, 0.0, 1.0 / std::min(kept, 1.0));
}

std::optional<PointMassLaw> MollifierSampler::point_mass_law(std::size_t k) const {
  check_category_count(k, "k");
  if (!reference_) {
    const UniformBox box = uniform_box(k);
    return uniform_clip_point_masses(k, box.lo, box.hi);
  }
  check_prior_size(k, reference_->size(), "reference");
  return clip_point_masses(box_.lo, box_.hi);
}

}  // namespace privsample
