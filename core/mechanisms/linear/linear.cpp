#include "mechanisms/linear/linear.hpp"

#include <algorithm>
#include <cmath>

#include "base/errors.hpp"
#include "base/numeric.hpp"
#include "mechanisms/point_masses.hpp"
#include "model/histogram.hpp"

namespace privsample {
namespace {

// Whether hi + lo > limit, decided exactly enough: the leading difference is exact, the rest is a correction.
bool exceeds(TwoDoubles x, double limit) {
  const TwoDoubles d = two_sum(x.hi, -limit);
  return d.hi + (d.lo + x.lo) > 0.0;
}

}  // namespace

LinearSampler LinearSampler::make(const MechanismOptions& o) {
  const Guarantee g = checked_options(spec, o);
  return g.notion == PrivacyNotion::pure_ldp ? LinearSampler(g.epsilon) : LinearSampler(g);
}

LinearSampler::LinearSampler(double epsilon) : guarantee_{PrivacyNotion::pure_ldp, validated_epsilon(epsilon)} {}

LinearSampler::LinearSampler(Guarantee g) : guarantee_(validated_ldp_guarantee(g)) {}

// γ = (e^ε−1)/(e^ε+k−1) and (1−γ)/k = ℓ.
double LinearSampler::response_weight(std::size_t k) const {
  return -std::expm1(-effective_epsilon(guarantee_.epsilon)) / (1.0 + finite_spread(k, guarantee_.epsilon));
}

LinearSampler::Mix LinearSampler::mix(std::size_t k) const {
  if (kept_categories_ != 0 && k == kept_categories_) return kept_mix_;
  return computed_mix(k);
}

void LinearSampler::keep_weight_for(std::size_t k) {
  // k = 0 or above the limit: left to the call with such a histogram, which reports it after checking the histogram
  if (randomized_response() || cells_ || k == kept_categories_ || k == 0 || k > kMaxCategories) return;
  kept_mix_ = computed_mix(k);
  kept_categories_ = k;
}

LinearSampler::Mix LinearSampler::computed_mix(std::size_t k) const {
  check_category_count(k);
  const double categories = static_cast<double>(k);
  const LinearWeight weight = running_linear_weight(guarantee_, categories);
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
double LinearSampler::rounded_toward_delta(const Mix& m, double categories) const {
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

double LinearSampler::lambda(std::size_t k) const {
  return randomized_response() ? std::clamp(response_weight(k), 0.0, 1.0) : mix(k).lambda;
}

std::vector<double> LinearSampler::distribution(std::span<const double> input) const {
  if (cells_) return cells_->distribution(input);
  check_category_count(input.size(), "hist");
  std::vector<double> q(input.size());
  distribution_into(input, q);
  return q;
}

void LinearSampler::distribution_into(std::span<const double> input, std::span<double> out) const {
  if (cells_) return copy_into(cells_->distribution(input), out);
  const std::span<const double> hist = input;
  check_category_count(hist.size(), "hist");
  if (randomized_response()) {
    const FiniteBox box = finite_minimax_box(hist.size(), guarantee_.epsilon);
    // q = γP + ℓ, clamped so rounding never leaves [ℓ, u].
    return normalized_pmf_into(hist, out, AffineClip{response_weight(hist.size()), box.floor, box.ceiling});
  }
  const Mix m = mix(hist.size());
  // q = λP + (1−λ)/k, clamped into [floor, λ + floor] so rounding never widens the ratio/hockey-stick bound.
  normalized_pmf_into(hist, out, AffineClip{m.lambda, m.floor, m.lambda + m.floor});
}

// With probability λ a draw from P (its units), else a uniform category: the released law is this mechanism applied to
// the units' pmf. k-RR: the ratio bound 1 + kγ/(1−γ) then holds exactly once γ is rounded down until that bound, with
// every rounding counted against it, is at most e^ε. The functional weight is rounded for this law already
// (rounded_toward_delta, running_linear_weight).
Release LinearSampler::release(std::span<const double> input) const {
  if (cells_) return cells_->release(input);
  const std::vector<double> p = normalized_pmf(input);
  return Release(std::make_shared<const ReleasePlan>(release_plan(p.size())), p);
}

ReleasePlan LinearSampler::release_plan(std::size_t k) const {
  double lambda = 0.0;
  if (randomized_response()) {
    const double categories = static_cast<double>(k);
    const double eps = effective_epsilon(guarantee_.epsilon);
    lambda = std::clamp(response_weight(k), 0.0, 1.0);
    // kγ/(1−γ) <= e^ε − 1 checked with both sides' rounding errors (<= 3 ulps and 1 ulp) counted against us.
    constexpr double kUlp = 0x1.0p-52;
    const double room = std::expm1(eps) * (1.0 - 2.0 * kUlp);
    while (lambda > 0.0 && categories * lambda / (1.0 - lambda) * (1.0 + 4.0 * kUlp) > room) {
      lambda = std::nextafter(lambda, 0.0);
    }
  } else {
    lambda = mix(k).lambda;
  }
  return mixture_release_plan(lambda, PublicBase::uniform(k));
}

void LinearSampler::release_target_into(std::span<const double> input, const ReleasePlan& /*plan*/,
                                        std::span<double> target) const {
  normalized_pmf_into(input, target);
}

double LinearSampler::worst_case_risk(const FDivergence& f, std::size_t k) const {
  if (cells_) return cells_risk(*cells_, f, k);
  if (randomized_response()) return finite_minimax_risk(f, k, guarantee_.epsilon);
  const double lambda_k = mix(k).lambda;
  if (k == 1 || lambda_k >= 1.0) return 0.0;
  const LinearRiskConstants r = linear_risk_constants(0.0, static_cast<double>(k), lambda_k);
  return chord_risk(f, r.r1, r.r2);  // r1 = 0, r2 = k/((k−1)λ+1)
}

double LinearSampler::worst_case_risk(NamedDivergence f, std::size_t k) const {
  if (!cells_ && randomized_response()) return finite_minimax_risk(f, k, guarantee_.epsilon);
  return worst_case_risk(f_divergence(f), k);
}

std::optional<double> LinearSampler::mixture_weight(std::size_t k) const {
  if (cells_) return cells_->mixture_weight();
  if (randomized_response()) return std::nullopt;
  check_category_count(k, "k");
  return lambda(k);
}

std::optional<AffineMap> LinearSampler::affine_map(std::size_t k) const {
  if (cells_) return std::nullopt;
  check_category_count(k, "k");
  const double kd = static_cast<double>(k);
  if (randomized_response()) {
    // Park et al. §3.3: Q† = γP + (1−γ)U with the sampler's own floor ℓ = (1−γ)/k.
    const double shrink = std::exp(-effective_epsilon(guarantee_.epsilon));  // e^{−ε}
    const double lambda = -std::expm1(-effective_epsilon(guarantee_.epsilon)) / (1.0 + (kd - 1.0) * shrink);
    const double floor = finite_minimax_box(k, guarantee_.epsilon).floor;
    return AffineMap{lambda, std::vector<double>(k, floor),
                     "every input (k-ary randomized response on one draw of P)", ""};
  }
  // Ghoukasian et al. Thm 3.5: q = λP + (1−λ)/k; the floor is read from a point mass's output (computed directly,
  // without the 1 − λ cancellation).
  const double lambda = this->lambda(k);
  std::vector<double> e0(k, 0.0);
  e0[0] = 1.0;
  const double floor = k == 1 ? 1.0 - lambda : distribution(e0)[k - 1];
  return AffineMap{lambda, std::vector<double>(k, floor),
                   "every input (linear sampler: lambda P + (1 - lambda)/k)", ""};
}

std::optional<PointMassLaw> LinearSampler::point_mass_law(std::size_t k) const {
  if (cells_) return std::nullopt;
  check_category_count(k, "k");
  const double floor = randomized_response() ? finite_minimax_box(k, guarantee_.epsilon).floor : mix(k).floor;
  return mixture_point_masses(std::vector<double>(k, floor), std::max(0.0, 1.0 - static_cast<double>(k) * floor));
}

}  // namespace privsample
