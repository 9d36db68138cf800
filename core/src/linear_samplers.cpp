#include "privsample/linear_samplers.hpp"
#include "privsample/privacy_box.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "privsample/errors.hpp"
#include "privsample/clip_normalise.hpp"
#include "privsample/clip_samplers.hpp"
#include "privsample/histogram.hpp"
#include "privsample/numeric.hpp"

namespace privsample {
namespace {

LinearWeight running_weight(const Guarantee& g, double T) { return running_linear_weight(g, T); }

void check_prior_size(std::size_t k, std::size_t prior_size) {
  if (k != prior_size) {
    throw_shape({"k = ", k, " but the prior has ", prior_size, " categories"});
  }
}

// Whether hi + lo > limit, decided exactly enough: the leading difference is exact, the rest is a correction.
bool exceeds(TwoDoubles x, double limit) {
  const TwoDoubles d = two_sum(x.hi, -limit);
  return d.hi + (d.lo + x.lo) > 0.0;
}

}  // namespace

// ---- FunctionalLinearSampler (Thm 3.5) -------------------------------------------------------------------

FunctionalLinearSampler::FunctionalLinearSampler(Guarantee g) : guarantee_(validated_ldp_guarantee(g)) {}

FunctionalLinearSampler::Mix FunctionalLinearSampler::mix(std::size_t k) const {
  if (kept_categories_ != 0 && k == kept_categories_) return kept_mix_;
  return computed_mix(k);
}

void FunctionalLinearSampler::keep_weight_for(std::size_t k) {
  // k = 0 or above the limit: left to the call with such a histogram, which reports it after checking the histogram
  if (k == kept_categories_ || k == 0 || k > kMaxCategories) return;
  kept_mix_ = computed_mix(k);
  kept_categories_ = k;
}

FunctionalLinearSampler::Mix FunctionalLinearSampler::computed_mix(std::size_t k) const {
  check_category_count(k);
  const double categories = static_cast<double>(k);
  const LinearWeight weight = running_weight(guarantee_, categories);
  // λ <= 1 mathematically (δ_g <= 1); the floor is computed directly and stays > 0 even when λ rounds to 1.
  Mix m{std::clamp(weight.lambda, 0.0, 1.0), std::clamp(weight.floor, 0.0, 1.0 / categories)};
  if (guarantee_.notion == PrivacyNotion::approximate_ldp) m.lambda = rounded_toward_delta(m, categories);
  return m;
}

// Outward rounding of λ for (ε,δ)-LDP: the worst pair of inputs is two point masses, whose hockey-stick divergence is
// fl(λ + floor) − e^ε·floor for distribution()'s values and λ + (1 − λ)(1 − e^ε)/k for the released law (a coin of
// probability λ, else a uniform category). Both are evaluated as unevaluated sums of two doubles (error ~2^-104 of
// their terms; no long double, which WebAssembly emulates in software) with e^ε rounded down — both decrease in e^ε,
// so the check errs on the safe side — and λ is lowered (by steps that double from one ulp) until neither exceeds
// δ; λ found numerically can otherwise overshoot by a few ulps (ε = 20, δ = 1e-6: 1.00000000025e-6).
double FunctionalLinearSampler::rounded_toward_delta(const Mix& m, double categories) const {
  // exp is faithful (error < 1 ulp), so one step down is <= e^ε; ε <= 700 keeps every product finite.
  const double growth = std::nextafter(std::exp(effective_epsilon(guarantee_.epsilon)), 0.0);
  const TwoDoubles growth_minus_one = two_sum(growth, -1.0);
  const auto excess = [&](double lambda) {
    // distribution() stores λ + floor as a double: its rounding counts (for δ ~ 1e-12 it is 1e-4 of δ)
    const double stored_top = lambda + m.floor;
    const TwoDoubles spread = two_product(growth, m.floor);
    const TwoDoubles top_part = two_sum(stored_top, -spread.hi);
    const TwoDoubles of_distribution{top_part.hi, top_part.lo - spread.lo};
    // λ − (1 − λ)(e^ε − 1)/k
    const TwoDoubles rest = two_sum(1.0, -lambda);
    TwoDoubles product = two_product(rest.hi, growth_minus_one.hi);
    product.lo += rest.hi * growth_minus_one.lo + rest.lo * growth_minus_one.hi;
    const double share = product.hi / categories;
    // product.hi − share·k, rounded once (product.hi − hi is exact: share·k is within an ulp of product.hi)
    const TwoDoubles shared = two_product(share, categories);
    const double share_lo = (((product.hi - shared.hi) - shared.lo) + product.lo) / categories;
    const TwoDoubles release_part = two_sum(lambda, -share);
    const TwoDoubles of_release{release_part.hi, release_part.lo - share_lo};
    return exceeds(of_distribution, guarantee_.delta) || exceeds(of_release, guarantee_.delta);
  };
  double lambda = m.lambda;
  double step = std::nextafter(lambda, 2.0) - lambda;
  while (lambda > 0.0 && excess(lambda)) {
    lambda = std::max(0.0, lambda - step);
    step *= 2.0;
  }
  return lambda;
}

double FunctionalLinearSampler::lambda(std::size_t k) const { return mix(k).lambda; }

std::vector<double> FunctionalLinearSampler::distribution(std::span<const double> hist) const {
  check_category_count(hist.size(), "hist");
  const Mix m = mix(hist.size());
  // q = λP + (1−λ)/k, clamped into [floor, λ + floor] so rounding never widens the ratio/hockey-stick bound.
  return normalized_pmf(hist, AffineClip{m.lambda, m.floor, m.lambda + m.floor});
}

// With probability λ a draw from P (its units), else a uniform category: the released law is this mechanism applied
// to the units' pmf, so its guarantee holds for it as for any input (λ is rounded for this law: rounded_toward_delta).
Release FunctionalLinearSampler::release(std::span<const double> hist) const {
  const std::vector<double> p = normalized_pmf(hist);
  const Mix m = mix(p.size());
  return Release(std::make_shared<const ReleasePlan>(mixture_release_plan(m.lambda, PublicBase::uniform(p.size()))), p);
}

double FunctionalLinearSampler::worst_case_risk(const FDivergence& f, std::size_t k) const {
  const double lambda_k = mix(k).lambda;
  if (k == 1 || lambda_k >= 1.0) return 0.0;
  const LinearRiskConstants r = linear_risk_constants(0.0, static_cast<double>(k), lambda_k);
  return chord_risk(f, r.r1, r.r2);  // r1 = 0, r2 = k/((k−1)λ+1)
}

// ---- LocalLinearSampler (Thm 4.1) ----------------------------------------------------------------------

PrivacyBox neighbourhood_box(std::span<const double> prior, double gamma) {
  PrivacyBox box{std::vector<double>(prior.size()), std::vector<double>(prior.size())};
  for (std::size_t x = 0; x < prior.size(); ++x) {
    box.lo[x] = prior[x] / gamma;
    box.hi[x] = prior[x] * gamma;
  }
  return box;
}

// λ_loc = λ*_{1/γ, γ, g} = λ_{γ+1}(g)/(1 − 1/γ).
double local_linear_weight(const Guarantee& g, double gamma) {
  return std::clamp(gamma / (gamma - 1.0) * running_weight(g, gamma + 1.0).lambda, 0.0, 1.0);
}

double local_linear_risk(const FDivergence& f, double gamma, double lambda) {
  if (lambda >= 1.0) return 0.0;  // trivial regime: Q(P) = P on N_γ(P0)
  const LinearRiskConstants r = linear_risk_constants(1.0 / gamma, gamma, lambda);
  return chord_risk(f, r.r1, r.r2);  // r1 = 1/(γ − (γ−1)λ), r2 = γ/((γ−1)λ + 1)
}

LocalLinearSampler::LocalLinearSampler(Guarantee g, std::vector<double> prior, double gamma)
    : guarantee_(validated_ldp_guarantee(g)), gamma_(validated_gamma(gamma)) {
  check_category_count(prior.size(), "prior");
  prior_ = validated_prior(prior, prior.size());
  neighbourhood_ = neighbourhood_box(prior_, gamma_);
  lambda_ = local_linear_weight(guarantee_, gamma_);
  complement_ = 1.0 - lambda_;
  const double low_ratio = lambda_ / gamma_ + complement_;
  const double high_ratio = lambda_ * gamma_ + complement_;
  // The box's own ratio (<= e^ε for a pure notion): its floors are raised to keep it; an underflowing floor is refused.
  PrivacyBox box = privacy_box(prior_, low_ratio, high_ratio, std::log(high_ratio / low_ratio), "prior");
  out_lo_ = std::move(box.lo);
  out_hi_ = std::move(box.hi);
}

std::vector<double> LocalLinearSampler::projection(std::span<const double> hist, RootSchedule schedule) const {
  const std::vector<double> p = normalized_pmf(hist);
  check_prior_size(p.size(), prior_.size());
  return clip_normalise(p, AtomBox{neighbourhood_.lo, neighbourhood_.hi}, schedule).q;
}

std::vector<double> LocalLinearSampler::distribution(std::span<const double> hist) const {
  std::vector<double> q = projection(hist);
  // P̂/p0 ∈ [1/γ, γ], so q/p0 ∈ [λ/γ + 1 − λ, λγ + 1 − λ]; the clamp keeps rounding inside that box.
  for (std::size_t x = 0; x < q.size(); ++x) q[x] = std::clamp(lambda_ * q[x] + complement_ * prior_[x], out_lo_[x], out_hi_[x]);
  return q;
}

Release LocalLinearSampler::release(std::span<const double> hist) const {
  const std::vector<double> projected = projection(hist, RootSchedule::fixed);
  if (guarantee_.notion == PrivacyNotion::pure_ldp) {
    std::vector<double> q(projected.size());
    for (std::size_t x = 0; x < q.size(); ++x) {
      q[x] = std::clamp(lambda_ * projected[x] + complement_ * prior_[x], out_lo_[x], out_hi_[x]);
    }
    auto plan = std::make_shared<const ReleasePlan>(clip_release_plan(out_lo_, guarantee_.epsilon));
    return Release(plan, clip_data_target(*plan, q));
  }
  auto plan = std::make_shared<const ReleasePlan>(class_release_plan(mixture_release_plan(lambda_, quantized_base(prior_)), 1.0 / gamma_, gamma_));
  return Release(plan, projected);
}

double LocalLinearSampler::worst_case_risk(const FDivergence& f, std::size_t k) const {
  check_prior_size(k, prior_.size());
  return local_linear_risk(f, gamma_, lambda_);
}


}  // namespace privsample
