#include "mechanisms/local-linear/local_linear.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "base/errors.hpp"
#include "base/numeric.hpp"
#include "mechanisms/point_masses.hpp"
#include "model/histogram.hpp"

namespace privsample {
LocalLinearSampler LocalLinearSampler::make(const MechanismOptions& o) {
  const Guarantee g = checked_options(spec, o);
  return LocalLinearSampler(g, *o.prior, *o.gamma);
}

LocalLinearSampler::LocalLinearSampler(Guarantee g, double gamma)
    : guarantee_(validated_ldp_guarantee(g)), gamma_(validated_gamma(gamma)) {}

LocalLinearSampler::LocalLinearSampler(Guarantee g, std::vector<double> prior, double gamma)
    : guarantee_(validated_ldp_guarantee(g)), gamma_(validated_gamma(gamma)) {
  check_category_count(prior.size(), "prior");
  prior_ = validated_prior(prior, prior.size());
  neighbourhood_ = neighbourhood_box(prior_, gamma_);
  lambda_ = local_linear_weight(guarantee_, gamma_);
  complement_ = 1.0 - lambda_;
  // For pure ε its ends differ by at most e^ε (the user's ε) for the doubles; a prior entry whose floor underflows is
  // refused.
  PrivacyBox box = local_linear_box(guarantee_, prior_, gamma_, lambda_, UnderflowRule::refuse);
  out_lo_ = std::move(box.lo);
  out_hi_ = std::move(box.hi);
}

std::vector<double> LocalLinearSampler::projection(std::span<const double> input, RootSchedule schedule) const {
  const std::vector<double> p = normalized_pmf(input);
  check_prior_size(p.size(), prior_.size());
  return clip_normalise(p, AtomBox{neighbourhood_.lo, neighbourhood_.hi}, schedule).q;
}

std::vector<double> LocalLinearSampler::distribution(std::span<const double> input) const {
  if (cells_) return cells_->distribution(input);
  std::vector<double> q = projection(input);
  // P̂/p0 ∈ [1/γ, γ], so q/p0 ∈ [λ/γ + 1 − λ, λγ + 1 − λ]; the clamp keeps rounding inside that box.
  for (std::size_t x = 0; x < q.size(); ++x) {
    q[x] = std::clamp(local_mixture(lambda_, q[x], complement_ * prior_[x]), out_lo_[x], out_hi_[x]);
  }
  return q;
}

Release LocalLinearSampler::release(std::span<const double> input) const {
  if (cells_) return cells_->release(input);
  const std::vector<double> projected = projection(input, RootSchedule::fixed);
  if (guarantee_.notion == PrivacyNotion::pure_ldp) {
    std::vector<double> q(projected.size());
    for (std::size_t x = 0; x < q.size(); ++x) {
      q[x] = std::clamp(local_mixture(lambda_, projected[x], complement_ * prior_[x]), out_lo_[x], out_hi_[x]);
    }
    return clip_release(clip_release_plan(out_lo_, guarantee_.epsilon), q);
  }
  auto plan = std::make_shared<const ReleasePlan>(class_release_plan(mixture_release_plan(lambda_, quantized_base(prior_)), 1.0 / gamma_, gamma_));
  return Release(plan, projected);
}

double LocalLinearSampler::worst_case_risk(const FDivergence& f, std::size_t k) const {
  if (cells_) return cells_risk(*cells_, f, k);
  check_prior_size(k, prior_.size());
  return local_linear_risk(f, gamma_, lambda_);
}

std::optional<AffineMap> LocalLinearSampler::affine_map(std::size_t k) const {
  if (cells_) return std::nullopt;
  check_category_count(k, "k");
  if (prior_.size() != k) {
    throw std::invalid_argument("k = " + std::to_string(k) + ": the 'local-linear' mechanism has k = " +
                                std::to_string(prior_.size()));
  }
  // Ghoukasian et al. Thm 4.1: q = λ P̂ + (1−λ) P0, P̂ = P inside N_γ(P0).
  const double lambda = std::min(lambda_, 1.0);
  std::vector<double> offset(prior_);
  for (double& v : offset) v *= 1.0 - lambda;
  return AffineMap{lambda, offset,
                   "users' P inside N_gamma(P0) = {1/gamma <= P/P0 <= gamma}; otherwise it estimates the mean of their "
                   "projections onto N_gamma(P0)",
                   outside_region_caveat(k, "N_gamma(P0)", "their projection onto N_gamma(P0)",
                                         "the mean projection")};
}

std::string LocalLinearSampler::point_mass_caveat() const {
  return "'local-linear' is meant for users inside N_gamma(P0) = {1/gamma <= P/P0 <= gamma}, which holds no point "
         "mass: for such users this estimate is biased (the population estimate is unbiased for them)";
}

// λ·P̂(e_x) + (1 − λ)·P0, with P̂(e_x) the projection's point mass (clip_normalise into N_γ(P0)).
std::optional<PointMassLaw> LocalLinearSampler::point_mass_law(std::size_t k) const {
  if (cells_) return std::nullopt;
  check_prior_size(k, prior_.size());
  PointMassLaw law = clip_point_masses(neighbourhood_.lo, neighbourhood_.hi);
  for (std::size_t x = 0; x < k; ++x) {
    law.floor[x] = lambda_ * law.floor[x] + complement_ * prior_[x];
    law.lift[x] *= lambda_;
    law.spike[x] *= lambda_;
  }
  return law;
}

}  // namespace privsample
