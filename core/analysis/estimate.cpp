#include "analysis/estimate.hpp"
#include "analysis/channel.hpp"
#include "base/errors.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "model/histogram.hpp"
#include "mechanisms/finite_space.hpp"
#include "base/numeric.hpp"

namespace privsample {
namespace {

// Counts above 2^53 are not all representable: an integer test on them would be meaningless.
constexpr double kMaxExactCount = 9007199254740992.0;

std::string mechanism_label(const Mechanism& mechanism) { return std::string(mechanism_name(mechanism)); }

// The mechanism's own k where it has one (the prior's or reference's length), checked without sampling.
void check_mechanism_k(const Mechanism& mechanism, std::size_t k, std::string_view name) {
  const std::optional<std::size_t> expected = fixed_categories(mechanism);
  if (expected && *expected != k) {
    throw ShapeError(std::string(name) + " has " + std::to_string(k) + " entries but the '" +
                     mechanism_label(mechanism) + "' mechanism has k = " + std::to_string(*expected) +
                     " categories (the length of its prior, reference or grid)");
  }
}

// The intervals, standard errors and projection of a PopulationEstimate from its estimate and variance.
void finish(PopulationEstimate& out, double alpha) {
  const std::size_t k = out.estimate.size();
  const double z = normal_upper_quantile(alpha / 2.0);
  const double z_all = normal_upper_quantile(alpha / (2.0 * static_cast<double>(k)));
  out.standard_error.resize(k);
  out.lower.resize(k);
  out.upper.resize(k);
  out.simultaneous_lower.resize(k);
  out.simultaneous_upper.resize(k);
  for (std::size_t x = 0; x < k; ++x) {
    out.variance[x] = std::max(out.variance[x], 0.0);  // rounding in the plug-in can give −1e-20
    const double se = std::sqrt(out.variance[x]);
    out.standard_error[x] = se;
    out.lower[x] = std::clamp(out.estimate[x] - z * se, 0.0, 1.0);
    out.upper[x] = std::clamp(out.estimate[x] + z * se, 0.0, 1.0);
    out.simultaneous_lower[x] = std::clamp(out.estimate[x] - z_all * se, 0.0, 1.0);
    out.simultaneous_upper[x] = std::clamp(out.estimate[x] + z_all * se, 0.0, 1.0);
  }
  out.projected = project_to_simplex(out.estimate);
  out.confidence = 1.0 - alpha;
}

// o when W is a randomized-response channel — one value on the diagonal, one value o elsewhere (to 1e-13
// relative) — and nothing otherwise.
std::optional<double> randomized_response_floor(const ChannelMatrix& w) {
  const Eigen::Index k = w.rows();
  if (k < 2) return std::nullopt;
  const double d = w(0, 0);
  const double o = w(0, 1);
  const double tolerance = 1e-13 * std::max(d, o);
  for (Eigen::Index i = 0; i < k; ++i) {
    for (Eigen::Index j = 0; j < k; ++j) {
      if (std::fabs(w(i, j) - (i == j ? d : o)) > tolerance) return std::nullopt;
    }
  }
  return o;
}

// The share count/n of a validated count (>= 0), +0 for a count of -0: -0 is a valid zero (JS's Math.round(-0.2)
// gives one), but its share -0 would print as "-0" in an estimate.
double share_of(double count, double n) { return (count + 0.0) / n; }

}  // namespace

double validated_sample_counts(std::span<const double> counts, const Mechanism* mechanism,
                               std::string_view name) {
  if (counts.empty()) throw std::invalid_argument(std::string(name) + " is empty: give one count per category");
  check_category_count(counts.size(), name);
  CompensatedSum total;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    const double v = counts[i];
    if (!std::isfinite(v) || v < 0.0 || v != std::floor(v)) {
      throw std::invalid_argument(std::string(name) + "[" + std::to_string(i) + "] = " + format_value(v) + ": " +
                                  std::string(name) + " must be integers >= 0");
    }
    if (v > kMaxExactCount) {  // an integer, but past the doubles' exact integers
      throw std::invalid_argument(std::string(name) + "[" + std::to_string(i) + "] = " + format_value(v) + ": " +
                                  std::string(name) + " must be at most 2^53 = 9007199254740992 (beyond it a number "
                                  "cannot hold every integer)");
    }
    total.add(v);
  }
  if (total.value() <= 0.0) {
    throw std::invalid_argument(std::string(name) + " are all zero: at least one released sample is needed");
  }
  if (mechanism != nullptr) check_mechanism_k(*mechanism, counts.size(), name);
  return total.value();
}

double validated_alpha(double alpha) {
  if (!(alpha > 0.0 && alpha < 1.0)) {
    throw std::invalid_argument("alpha = " + format_value(alpha) + ": must be in (0, 1) (confidence level 1 - alpha)");
  }
  return alpha;
}

double normal_upper_quantile(double tail) {
  if (!(tail > 0.0 && tail < 1.0)) {
    throw std::invalid_argument("tail = " + format_value(tail) + ": must be in (0, 1)");
  }
  if (tail > 0.5) return -normal_upper_quantile(1.0 - tail);
  // P(Z > z) = ½ erfc(z/√2) is decreasing in z; 200 halvings of [0, 40] reach the last ulp (P(Z > 40) < 1e-300).
  double lo = 0.0;
  double hi = 40.0;
  for (int i = 0; i < 200 && hi - lo > 0.0; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (mid == lo || mid == hi) break;
    if (0.5 * std::erfc(mid / std::sqrt(2.0)) > tail) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return 0.5 * (lo + hi);
}

// Wilson (1927): solve (p̂ − p)² = z² p(1 − p)/n for p.
Interval wilson_interval(double successes, double trials, double z) {
  if (!(trials > 0.0)) throw std::invalid_argument("trials = " + format_value(trials) + ": must be > 0");
  const double p = successes / trials;
  const double z2n = z * z / trials;
  const double centre = (p + 0.5 * z2n) / (1.0 + z2n);
  const double half = z * std::sqrt(p * (1.0 - p) / trials + 0.25 * z2n / trials) / (1.0 + z2n);
  // At p̂ = 0 (1) the exact lower (upper) end is 0 (1); the formula gives it up to rounding.
  return {successes <= 0.0 ? 0.0 : std::clamp(centre - half, 0.0, 1.0),
          successes >= trials ? 1.0 : std::clamp(centre + half, 0.0, 1.0)};
}

// Duchi et al. (2008), Fig. 1: sort descending, ρ = max{j : u_j − (Σ_{i<=j} u_i − 1)/j > 0}, θ = (Σ_{i<=ρ} u_i − 1)/ρ.
std::vector<double> project_to_simplex(std::span<const double> v) {
  if (v.empty()) throw std::invalid_argument("v is empty");
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!std::isfinite(v[i])) {
      throw std::invalid_argument("v[" + std::to_string(i) + "] = " + format_value(v[i]) + ": must be finite");
    }
  }
  std::vector<double> u(v.begin(), v.end());
  std::sort(u.begin(), u.end(), std::greater<>());
  double prefix = 0.0;
  double theta = 0.0;
  for (std::size_t j = 0; j < u.size(); ++j) {
    prefix += u[j];
    const double candidate = (prefix - 1.0) / static_cast<double>(j + 1);
    if (u[j] - candidate > 0.0) theta = candidate;  // the condition holds for a prefix of j: the last one wins
  }
  std::vector<double> p(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) p[i] = std::max(v[i] - theta, 0.0);
  return p;
}

ReleasedEstimate estimate_released(const Mechanism& mechanism, std::span<const double> counts, double alpha,
                                   NamedDivergence f) {
  validated_alpha(alpha);
  const double n = validated_sample_counts(counts, &mechanism);
  const std::size_t k = counts.size();
  ReleasedEstimate out;
  out.users = n;
  out.confidence = 1.0 - alpha;
  out.divergence = divergence_name(f);
  const double z = normal_upper_quantile(alpha / 2.0);
  const double z_all = normal_upper_quantile(alpha / (2.0 * static_cast<double>(k)));  // Bonferroni over k
  out.q.resize(k);
  out.lower.resize(k);
  out.upper.resize(k);
  out.pointwise_lower.resize(k);
  out.pointwise_upper.resize(k);
  for (std::size_t x = 0; x < k; ++x) {
    const double count = counts[x] + 0.0;  // +0 for -0, for the intervals too (share_of)
    out.q[x] = count / n;
    const Interval all = wilson_interval(count, n, z_all);
    const Interval one = wilson_interval(count, n, z);
    out.lower[x] = all.lower;
    out.upper[x] = all.upper;
    out.pointwise_lower[x] = one.lower;
    out.pointwise_upper[x] = one.upper;
  }
  try {
    out.radius = worst_case_risk(mechanism, f, k);
  } catch (const std::domain_error&) {
    out.radius = std::nullopt;  // laplace-projection: no closed form
  }
  return out;
}

PopulationEstimate estimate_population(const Mechanism& mechanism, std::span<const double> counts,
                                       double alpha) {
  validated_alpha(alpha);
  const double n = validated_sample_counts(counts, &mechanism);
  const std::size_t k = counts.size();
  const std::optional<AffineMap> map = affine_map(mechanism, k);
  if (!map) {
    throw std::domain_error("the '" + mechanism_label(mechanism) +
                            "' mechanism is not affine in the user's distribution: use estimate_released (Q with its "
                            "divergence radius) or estimate_point_masses (users holding one item)");
  }
  if (!(map->lambda > 0.0)) {
    throw std::domain_error("the '" + mechanism_label(mechanism) +
                            "' mechanism has lambda = 0 here (epsilon = 0): its output does not depend on P");
  }
  PopulationEstimate out;
  out.users = n;
  out.method = "affine inversion";
  out.assumption = "N independent users, one sample each; affine on " + map->assumption;
  out.estimate.resize(k);
  out.variance.resize(k);
  const double lambda2 = map->lambda * map->lambda;
  for (std::size_t x = 0; x < k; ++x) {
    const double q = share_of(counts[x], n);
    out.estimate[x] = (q - map->offset[x]) / map->lambda;
    out.variance[x] = q * (1.0 - q) / (n * lambda2);
  }
  finish(out, alpha);
  return out;
}

PopulationEstimate estimate_point_masses(const Mechanism& mechanism, std::span<const double> counts,
                                         double alpha) {
  validated_alpha(alpha);
  const double n = validated_sample_counts(counts, &mechanism);
  const std::size_t k = counts.size();
  if (k > kMaxPointMassCategories) {
    throw std::invalid_argument("counts has " + std::to_string(k) + " entries: the point-mass inversion supports at most " +
                                std::to_string(kMaxPointMassCategories) + " categories");
  }
  const std::vector<std::vector<double>> inputs = point_mass_inputs(mechanism, k);
  const ChannelMatrix w = channel_matrix(mechanism, inputs);
  PopulationEstimate out;
  out.users = n;
  out.method = "point-mass channel inversion";
  out.assumption = "N independent users, one sample each, every user holding one item (a point mass" +
                   std::string(guarantee(mechanism).notion == PrivacyNotion::record_dp ? ": all n records on one letter"
                                                                                          : "") +
                   "); estimates the item frequencies";
  out.estimate.resize(k);
  out.variance.resize(k);
  if (const std::optional<double> off = randomized_response_floor(w)) {
    // W = λI + oJ with λ + k·o = 1 (k-RR: minimax, linear, roo, ds-roo on point masses): W^{−1} = (I − oJ)/λ, so
    // π̂ = (Q̂ − o)/λ and Var(π̂_x) = Q̂_x(1 − Q̂_x)/(Nλ²) — the general formulas below, in O(k) instead of O(k³).
    const double lambda = w(0, 0) - *off;
    if (!(lambda > 1e-13)) {
      throw std::domain_error("the '" + mechanism_label(mechanism) +
                              "' mechanism's channel on point masses is singular (lambda = " + format_value(lambda) +
                              "; epsilon = 0?)");
    }
    for (std::size_t x = 0; x < k; ++x) {
      const double q = share_of(counts[x], n);
      out.estimate[x] = (q - *off) / lambda;
      out.variance[x] = q * (1.0 - q) / (n * lambda * lambda);
    }
    finish(out, alpha);
    return out;
  }
  const Eigen::PartialPivLU<Eigen::MatrixXd> lu(w.transpose());
  const double rcond = lu.rcond();
  if (!(rcond > 1e-13)) {
    throw std::domain_error("the '" + mechanism_label(mechanism) +
                            "' mechanism's channel on point masses is singular or too ill-conditioned to invert "
                            "(reciprocal condition " + format_value(rcond) + "; epsilon = 0?)");
  }
  const Eigen::MatrixXd m = lu.inverse();  // M = W^{−T}
  Eigen::VectorXd q(static_cast<Eigen::Index>(k));
  for (std::size_t x = 0; x < k; ++x) q(static_cast<Eigen::Index>(x)) = share_of(counts[x], n);
  const Eigen::VectorXd pi = m * q;
  const Eigen::VectorXd second = m.array().square().matrix() * q;  // Σ_y M_xy² Q̂_y
  for (std::size_t x = 0; x < k; ++x) {
    const auto i = static_cast<Eigen::Index>(x);
    out.estimate[x] = pi(i);
    out.variance[x] = (second(i) - pi(i) * pi(i)) / n;
  }
  finish(out, alpha);
  return out;
}

EstimateReport estimate(const Mechanism& mechanism, std::span<const double> counts, double alpha,
                        NamedDivergence f, bool point_masses) {
  EstimateReport report{estimate_released(mechanism, counts, alpha, f), std::nullopt, std::nullopt};
  const std::optional<AffineMap> map = affine_map(mechanism, counts.size());
  if (map && map->lambda > 0.0) report.population = estimate_population(mechanism, counts, alpha);
  // laplace-projection's distribution() is a 20000-draw Monte-Carlo average per row: k rows would take minutes.
  const bool monte_carlo = !has_exact_distribution(mechanism);
  if (point_masses && !monte_carlo && counts.size() <= kMaxPointMassCategories) {
    try {
      report.point_masses = estimate_point_masses(mechanism, counts, alpha);
    } catch (const std::domain_error&) {
      report.point_masses = std::nullopt;  // singular channel (ε = 0): nothing to invert
    }
  }
  return report;
}

}  // namespace privsample
