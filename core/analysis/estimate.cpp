#include "analysis/estimate.hpp"
#include "analysis/channel.hpp"
#include "base/errors.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "model/histogram.hpp"
#include "mechanisms/finite_space.hpp"
#include "base/binomial.hpp"
#include "base/numeric.hpp"

namespace privsample {
namespace {

// Counts above 2^53 are not all representable: an integer test on them would be meaningless.
constexpr double kMaxExactCount = 9007199254740992.0;

std::string mechanism_label(const Mechanism& mechanism) { return std::string(mechanism_name(mechanism)); }

// Intervals for k categories, every entry zero until filled in.
TargetIntervals sized_intervals(std::size_t k, std::string target, std::string method, double confidence) {
  TargetIntervals out;
  out.target = std::move(target);
  out.method = std::move(method);
  out.confidence = confidence;
  out.estimate.resize(k);
  out.lower.resize(k);
  out.upper.resize(k);
  out.simultaneous_lower.resize(k);
  out.simultaneous_upper.resize(k);
  return out;
}

// The mechanism's own k where it has one (the prior's or reference's length), checked without sampling.
void check_mechanism_k(const Mechanism& mechanism, std::size_t k, std::string_view name) {
  const std::optional<std::size_t> expected = fixed_categories(mechanism);
  if (expected && *expected != k) {
    throw ShapeError(std::string(name) + " has " + std::to_string(k) + " entries but the '" +
                     mechanism_label(mechanism) + "' mechanism has k = " + std::to_string(*expected) +
                     " categories (the length of its prior, reference or grid)");
  }
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

// A randomized-response channel on point masses: d on the diagonal, o elsewhere.
struct RandomizedResponse {
  double diagonal;
  double off;
};

// A mechanism that fixes no k (no prior, reference or grid) treats every category alike: on point masses its row x is
// row 0 with categories 0 and x swapped, and the entries of row 0 off its diagonal are equal (the permutations of the
// other categories fix e_0). When row 0 shows that (to 1e-13 relative) the channel is that randomized response, read
// from one row: O(k) mechanism work and memory instead of k rows.
std::optional<RandomizedResponse> symmetric_channel(const Mechanism& mechanism, std::size_t k) {
  if (k < 2 || fixed_categories(mechanism) || !has_exact_distribution(mechanism)) return std::nullopt;
  const Guarantee g = guarantee(mechanism);
  std::vector<double> e0(k, 0.0);
  e0[0] = g.notion == PrivacyNotion::record_dp ? g.records : 1.0;
  const std::vector<double> row = distribution(mechanism, e0);
  for (std::size_t y = 2; y < k; ++y) {
    if (std::fabs(row[y] - row[1]) > 1e-13 * std::max(row[1], row[0])) return std::nullopt;
  }
  return RandomizedResponse{row[0], row[1]};
}

// The share count/n of a validated count (>= 0), +0 for a count of -0: -0 is a valid zero (JS's Math.round(-0.2)
// gives one), but its share -0 would print as "-0" in an estimate.
double share_of(double count, double n) { return (count + 0.0) / n; }

}  // namespace

std::string exact_trials_reason(std::string_view unit) {
  return "intervals are exact for at most 10^9 " + std::string(unit) +
         " (beyond, the incomplete beta function loses the precision an exact bound needs); estimate a sample of 10^9 "
         "of them";
}

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
  if (total.value() > kLargestExactTrials) {
    throw std::invalid_argument(std::string(name) + " add up to " + format_value(total.value()) + ": " +
                                exact_trials_reason("reports"));
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

namespace {

std::string category_text(std::size_t x) { return "category " + std::to_string(x); }

// The ends of one interval for a pmf entry, cut to [0, 1]. An interval entirely outside [0, 1] has missed the target
// (which is in [0, 1]); it is reported as the feasible interval of the same width at the nearer end, never as a
// point, so that no interval has zero width unless the target is certain.
Interval cut_to_unit(double lower, double upper) {
  const double width = std::max(upper - lower, 0.0);
  if (upper < 0.0) return {0.0, std::min(1.0, width)};
  if (lower > 1.0) return {std::max(0.0, 1.0 - width), 1.0};
  return {std::clamp(lower, 0.0, 1.0), std::clamp(upper, 0.0, 1.0)};
}

// Cuts the raw (uncut) intervals of a pmf target to [0, 1] and records the evidence that the target is not what the
// caller assumed. The raw intervals are nested (pointwise at α inside simultaneous at α/k, mapped by one monotone map)
// and the target lies in [0, 1], so intersecting each with [0, 1] keeps its coverage and the nesting; an interval that
// misses [0, 1] entirely has already missed the target and is replaced by cut_to_unit's — for the pointwise one, inside
// the simultaneous one, so that pointwise ⊆ simultaneous ⊆ [0, 1] always holds.
// Evidence, from the simultaneous box: an interval outside [0, 1], or a box that holds no pmf (its lower ends sum
// above 1 or its upper ends below 1); under the assumption the box holds the target, a pmf, with probability >= 1 − α,
// so each such warning has probability <= α when the assumption holds. A pointwise interval outside [0, 1] (its
// simultaneous one not) gives no warning: among k categories about α·k do so by chance, so warnings would then fire
// in most samples of a correct model at large k.
void cut_to_pmf(TargetIntervals& out, double alpha) {
  const std::size_t k = out.estimate.size();
  CompensatedSum lower_sum;
  CompensatedSum upper_sum;
  std::vector<std::size_t> below;
  std::vector<std::size_t> above;
  for (std::size_t x = 0; x < k; ++x) {
    if (out.simultaneous_upper[x] < 0.0) below.push_back(x);
    if (out.simultaneous_lower[x] > 1.0) above.push_back(x);
    lower_sum.add(std::max(out.simultaneous_lower[x], 0.0));
    upper_sum.add(std::min(out.simultaneous_upper[x], 1.0));
    const Interval all = cut_to_unit(out.simultaneous_lower[x], out.simultaneous_upper[x]);
    const Interval one = cut_to_unit(out.lower[x], out.upper[x]);
    out.simultaneous_lower[x] = all.lower;
    out.simultaneous_upper[x] = all.upper;
    out.lower[x] = std::max(one.lower, all.lower);
    out.upper[x] = std::min(one.upper, all.upper);
    if (!(out.lower[x] <= out.upper[x])) {  // raw ends not nested by rounding: the simultaneous interval stands
      out.lower[x] = all.lower;
      out.upper[x] = all.upper;
    }
  }
  // α arrives as 1 − confidence (5.000000000000004% for 0.05): percentages are printed to 10 decimals.
  const auto percent = [](double share) { return format_value(std::round(share * 1e12) / 1e10) + "%"; };
  const std::string level = percent(1.0 - alpha);
  const std::string odds = "; when the assumption holds this happens with probability <= " + percent(alpha);
  const auto listed = [](const std::vector<std::size_t>& xs) {
    std::string s;
    for (std::size_t i = 0; i < xs.size() && i < 5; ++i) s += (i ? ", " : "") + std::to_string(xs[i]);
    if (xs.size() > 5) s += ", … (" + std::to_string(xs.size()) + " in all)";
    return s;
  };
  const auto named = [&](const std::vector<std::size_t>& xs) {
    return xs.size() == 1 ? category_text(xs[0]) : "categories " + listed(xs);
  };
  if (!below.empty()) {
    out.warnings.push_back("the counts are implausible under the assumption: the simultaneous " + level +
                           (below.size() == 1 ? " interval of " : " intervals of ") + named(below) +
                           (below.size() == 1 ? " lies" : " lie") + " entirely below 0" + odds);
  }
  if (!above.empty()) {
    out.warnings.push_back("the counts are implausible under the assumption: the simultaneous " + level +
                           (above.size() == 1 ? " interval of " : " intervals of ") + named(above) +
                           (above.size() == 1 ? " lies" : " lie") + " entirely above 1" + odds);
  }
  if (below.empty() && above.empty()) {
    if (lower_sum.value() > 1.0 + 1e-12) {
      out.warnings.push_back("the counts are implausible under the assumption: no pmf lies in the simultaneous " +
                             level + " box (its lower ends sum to " + format_value(lower_sum.value()) + " > 1)" + odds);
    } else if (upper_sum.value() < 1.0 - 1e-12) {
      out.warnings.push_back("the counts are implausible under the assumption: no pmf lies in the simultaneous " +
                             level + " box (its upper ends sum to " + format_value(upper_sum.value()) + " < 1)" + odds);
    }
  }
}

double validated_reports(double reports) {
  if (!(reports >= 1.0 && reports <= kLargestExactTrials && reports == std::floor(reports))) {
    throw std::invalid_argument("reports = " + format_value(reports) + ": must be an integer in [1, 10^9]");
  }
  return reports;
}

}  // namespace

Interval clopper_pearson_interval(double successes, double trials, double alpha) {
  validated_alpha(alpha);
  return {binomial_lower_bound(successes, trials, 0.5 * alpha), binomial_upper_bound(successes, trials, 0.5 * alpha)};
}

TargetIntervals proportion_intervals(std::span<const double> counts, double reports, double alpha) {
  validated_alpha(alpha);
  validated_reports(reports);
  if (counts.empty()) throw std::invalid_argument("counts is empty: give one count per category");
  const std::size_t k = counts.size();
  for (std::size_t y = 0; y < k; ++y) {
    const double c = counts[y];
    if (!(c >= 0.0 && c <= reports && c == std::floor(c))) {
      throw std::invalid_argument("counts[" + std::to_string(y) + "] = " + format_value(c) +
                                  ": must be an integer in [0, reports = " + format_value(reports) + "]");
    }
  }
  TargetIntervals out = sized_intervals(
      k, "the mean law of the reports",
      "exact binomial (Clopper-Pearson) intervals; simultaneous: Bonferroni over the " + std::to_string(k) +
          " categories (each at alpha/" + std::to_string(k) + ")",
      1.0 - alpha);
  const double pointwise_tail = 0.5 * alpha;
  const double simultaneous_tail = 0.5 * alpha / static_cast<double>(k);
  // Many categories share a count (most are 0, 1, 2 … when k is large and N small): each count is solved once.
  struct Bounds {
    Interval pointwise;
    Interval simultaneous;
  };
  std::map<double, Bounds> solved;
  for (std::size_t y = 0; y < k; ++y) {
    const double c = counts[y] + 0.0;  // +0 for -0
    out.estimate[y] = c / reports;
    auto it = solved.find(c);
    if (it == solved.end()) {
      const Bounds b{
          {binomial_lower_bound(c, reports, pointwise_tail), binomial_upper_bound(c, reports, pointwise_tail)},
          {binomial_lower_bound(c, reports, simultaneous_tail), binomial_upper_bound(c, reports, simultaneous_tail)}};
      it = solved.emplace(c, b).first;
    }
    out.lower[y] = it->second.pointwise.lower;
    out.upper[y] = it->second.pointwise.upper;
    out.simultaneous_lower[y] = it->second.simultaneous.lower;
    out.simultaneous_upper[y] = it->second.simultaneous.upper;
  }
  return out;
}

TargetIntervals affine_inversion_intervals(TargetIntervals released, double scale, std::span<const double> offset,
                                           std::string target) {
  const std::size_t k = released.estimate.size();
  if (!(scale > 0.0) || !std::isfinite(scale)) {
    throw std::invalid_argument("scale = " + format_value(scale) + ": must be finite and > 0");
  }
  if (offset.size() != k) {
    throw ShapeError("offset has " + std::to_string(offset.size()) + " entries but the intervals have " +
                     std::to_string(k));
  }
  const double alpha = 1.0 - released.confidence;
  // Mapped in place: at k = 10^7 each copy of the five columns is 400 MB of the module's memory.
  TargetIntervals& out = released;
  out.target = std::move(target);
  out.method += ", mapped through p = (q - offset)/scale (increasing: the same coverage)";
  out.warnings.clear();
  for (std::size_t x = 0; x < k; ++x) {
    const auto map = [&](double q) { return (q - offset[x]) / scale; };
    out.estimate[x] = map(out.estimate[x]);
    out.lower[x] = map(out.lower[x]);
    out.upper[x] = map(out.upper[x]);
    out.simultaneous_lower[x] = map(out.simultaneous_lower[x]);
    out.simultaneous_upper[x] = map(out.simultaneous_upper[x]);
  }
  cut_to_pmf(out, alpha);
  return std::move(out);
}

TargetIntervals linear_inversion_intervals(std::span<const double> counts, const Eigen::MatrixXd& m,
                                           std::span<const double> shift, double alpha, std::string target) {
  validated_alpha(alpha);
  const double n = validated_sample_counts(counts);
  const std::size_t k = counts.size();
  if (static_cast<std::size_t>(m.rows()) != k || static_cast<std::size_t>(m.cols()) != k) {
    throw ShapeError("the matrix is " + std::to_string(m.rows()) + " x " + std::to_string(m.cols()) +
                     " but counts has " + std::to_string(k) + " entries");
  }
  if (shift.size() != k) {
    throw ShapeError("shift has " + std::to_string(shift.size()) + " entries but counts has " + std::to_string(k));
  }
  if (!m.allFinite()) throw std::invalid_argument("the matrix has an entry that is not finite");
  TargetIntervals out = sized_intervals(
      k, std::move(target),
      "Chernoff-Hoeffding bounds of a mean of bounded independent variables (p_x = mean over reports of "
      "M(x, report)); simultaneous: Bonferroni over the " + std::to_string(k) + " categories",
      1.0 - alpha);
  const double pointwise_tail = 0.5 * alpha;
  const double simultaneous_tail = 0.5 * alpha / static_cast<double>(k);
  for (std::size_t x = 0; x < k; ++x) {
    const auto row = static_cast<Eigen::Index>(x);
    CompensatedSum mean;
    for (std::size_t y = 0; y < k; ++y) mean.add(m(row, static_cast<Eigen::Index>(y)) * ((counts[y] + 0.0) / n));
    const double low = m.row(row).minCoeff();
    const double high = m.row(row).maxCoeff();
    const double range = high - low;
    out.estimate[x] = mean.value() + shift[x];
    if (!(range > 0.0)) {  // every report gives the same value: the target is known exactly
      out.lower[x] = out.upper[x] = out.simultaneous_lower[x] = out.simultaneous_upper[x] = out.estimate[x];
      continue;
    }
    const double unit = std::clamp((mean.value() - low) / range, 0.0, 1.0);
    const auto back = [&](double u) { return low + range * u + shift[x]; };
    out.lower[x] = back(bounded_mean_lower_bound(unit, n, pointwise_tail));
    out.upper[x] = back(bounded_mean_upper_bound(unit, n, pointwise_tail));
    out.simultaneous_lower[x] = back(bounded_mean_lower_bound(unit, n, simultaneous_tail));
    out.simultaneous_upper[x] = back(bounded_mean_upper_bound(unit, n, simultaneous_tail));
  }
  cut_to_pmf(out, alpha);
  return out;
}

namespace {

constexpr std::string_view kReleasedTarget =
    "Q-bar, the mean over the users of their release law Q(.|P_i) (for users drawn from a population: its mean "
    "release law)";
constexpr std::string_view kPopulationTarget =
    "P-bar, the mean of the users' normalised histograms (for users drawn from a population: its mean histogram)";
constexpr std::string_view kItemTarget =
    "pi, the users' item frequencies (for users drawn from a population: its item frequencies)";

// The plug-in variance, the projection and the words of a PopulationEstimate from its intervals.
PopulationEstimate population_from(TargetIntervals&& t, double n, std::string method, std::string assumption) {
  PopulationEstimate out;
  out.users = n;
  out.confidence = t.confidence;
  out.estimate = std::move(t.estimate);
  out.lower = std::move(t.lower);
  out.upper = std::move(t.upper);
  out.simultaneous_lower = std::move(t.simultaneous_lower);
  out.simultaneous_upper = std::move(t.simultaneous_upper);
  out.projected = project_to_simplex(out.estimate);
  out.method = std::move(method);
  out.assumption = std::move(assumption);
  out.target = std::move(t.target);
  out.interval_method = std::move(t.method);
  for (std::string& w : t.warnings) out.warnings.push_back(w + " (assumed: " + out.assumption + ")");
  return out;
}

void set_standard_errors(PopulationEstimate& out) {
  out.standard_error.resize(out.variance.size());
  for (std::size_t x = 0; x < out.variance.size(); ++x) {
    out.variance[x] = std::max(out.variance[x], 0.0);  // rounding in the plug-in can give −1e-20
    out.standard_error[x] = std::sqrt(out.variance[x]);
  }
}

// What every estimator checks first: α, then the counts against the mechanism. n is the number of reports (the
// counts' sum), k the number of categories.
struct CheckedCounts {
  double n;
  std::size_t k;
};

CheckedCounts checked_counts(const Mechanism& mechanism, std::span<const double> counts, double alpha) {
  validated_alpha(alpha);
  return {validated_sample_counts(counts, &mechanism), counts.size()};
}

}  // namespace

namespace {

// The released estimate from the counts' proportion intervals (moved in).
ReleasedEstimate released_from(const Mechanism& mechanism, TargetIntervals&& t, double n, std::size_t k, double alpha,
                               NamedDivergence f) {
  ReleasedEstimate out;
  out.users = n;
  out.confidence = 1.0 - alpha;
  out.divergence = divergence_name(f);
  out.q = std::move(t.estimate);
  out.lower = std::move(t.simultaneous_lower);
  out.upper = std::move(t.simultaneous_upper);
  out.pointwise_lower = std::move(t.lower);
  out.pointwise_upper = std::move(t.upper);
  out.target = kReleasedTarget;
  out.interval_method = std::move(t.method);
  out.assumption = "N independent users, one sample each (any inputs)";
  try {
    out.radius = worst_case_risk(mechanism, f, k);
    out.radius_assumption = risk_class(mechanism);
  } catch (const std::domain_error&) {
    out.radius = std::nullopt;  // laplace-projection: no closed form
  }
  return out;
}

// The affine inversion of the counts' proportion intervals `released` (taken by value and mapped in place).
PopulationEstimate affine_population(const AffineMap& map, TargetIntervals released, double n) {
  const std::size_t k = released.estimate.size();
  std::vector<double> variance(k);
  const double lambda2 = map.lambda * map.lambda;
  for (std::size_t x = 0; x < k; ++x) {
    const double q = released.estimate[x];
    variance[x] = q * (1.0 - q) / (n * lambda2);
  }
  PopulationEstimate out = population_from(
      affine_inversion_intervals(std::move(released), map.lambda, map.offset, std::string(kPopulationTarget)), n,
      "affine inversion", "N independent users, one sample each; affine on " + map.assumption);
  out.caveat = map.caveat;
  out.variance = std::move(variance);
  set_standard_errors(out);
  return out;
}

std::optional<AffineMap> usable_affine_map(const Mechanism& mechanism, std::size_t k) {
  std::optional<AffineMap> map = affine_map(mechanism, k);
  if (map && !(map->lambda > 0.0)) return std::nullopt;
  return map;
}

}  // namespace

ReleasedEstimate estimate_released(const Mechanism& mechanism, std::span<const double> counts, double alpha,
                                   NamedDivergence f) {
  const auto [n, k] = checked_counts(mechanism, counts, alpha);
  return released_from(mechanism, proportion_intervals(counts, n, alpha), n, k, alpha, f);
}

PopulationEstimate estimate_population(const Mechanism& mechanism, std::span<const double> counts,
                                       double alpha) {
  const auto [n, k] = checked_counts(mechanism, counts, alpha);
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
  return affine_population(*map, proportion_intervals(counts, n, alpha), n);
}

PopulationEstimate estimate_point_masses(const Mechanism& mechanism, std::span<const double> counts,
                                         double alpha) {
  const auto [n, k] = checked_counts(mechanism, counts, alpha);
  if (k > kMaxPointMassCategories) {
    throw std::invalid_argument("counts has " + std::to_string(k) +
                                " entries: the point-mass inversion supports at most " +
                                std::to_string(kMaxPointMassCategories) + " categories");
  }
  const std::string assumption =
      "N independent users, one sample each, every user holding one item (a point mass" +
      std::string(guarantee(mechanism).notion == PrivacyNotion::record_dp ? ": all n records on one letter" : "") +
      "); estimates the item frequencies";
  const std::string caveat = point_mass_caveat(mechanism).value_or("");
  std::optional<ChannelMatrix> w;
  std::optional<RandomizedResponse> rr = symmetric_channel(mechanism, k);
  if (!rr) {
    w = channel_matrix(mechanism, point_mass_inputs(mechanism, k));
    if (const std::optional<double> off = randomized_response_floor(*w)) rr = RandomizedResponse{(*w)(0, 0), *off};
  }
  if (rr) {
    // W = λI + oJ with λ + k·o = 1 (k-RR: minimax, linear, roo, ds-roo on point masses): W^{−1} = (I − oJ)/λ, so
    // π = (Q̄ − o)/λ per category — an affine map, with the exact intervals — and Var(π̂_x) = Q̂_x(1 − Q̂_x)/(Nλ²).
    const double lambda = rr->diagonal - rr->off;
    if (!(lambda > 1e-13)) {
      throw std::domain_error("the '" + mechanism_label(mechanism) +
                              "' mechanism's channel on point masses is singular (lambda = " + format_value(lambda) +
                              "; epsilon = 0?)");
    }
    const TargetIntervals released = proportion_intervals(counts, n, alpha);
    const std::vector<double> floor(k, rr->off);
    PopulationEstimate out =
        population_from(affine_inversion_intervals(released, lambda, floor, std::string(kItemTarget)), n,
                        "point-mass channel inversion", assumption);
    out.caveat = caveat;
    out.variance.resize(k);
    for (std::size_t x = 0; x < k; ++x) {
      const double q = released.estimate[x];
      out.variance[x] = q * (1.0 - q) / (n * lambda * lambda);
    }
    set_standard_errors(out);
    return out;
  }
  // An output no point mass releases (a category with a reference or prior entry of 0) makes W singular, and the LU
  // below its inverse infinite, whatever its condition estimate says.
  for (Eigen::Index y = 0; y < w->cols(); ++y) {
    if (!(w->col(y).maxCoeff() > 0.0)) {
      throw std::domain_error("the '" + mechanism_label(mechanism) + "' mechanism never outputs category " +
                              std::to_string(y) + " (a reference or prior entry of 0?): its channel on point masses "
                              "is singular, so users holding one item cannot be told apart there");
    }
  }
  const Eigen::PartialPivLU<Eigen::MatrixXd> lu(w->transpose());
  const double rcond = lu.rcond();
  if (!(rcond > 1e-13)) {
    throw std::domain_error("the '" + mechanism_label(mechanism) +
                            "' mechanism's channel on point masses is singular or too ill-conditioned to invert "
                            "(reciprocal condition " + format_value(rcond) + "; epsilon = 0?)");
  }
  const Eigen::MatrixXd m = lu.inverse();  // M = W^{−T}
  if (!m.allFinite()) {
    throw std::domain_error("the '" + mechanism_label(mechanism) +
                            "' mechanism's channel on point masses is singular: its inverse is not finite");
  }
  const std::vector<double> zero(k, 0.0);
  PopulationEstimate out =
      population_from(linear_inversion_intervals(counts, m, zero, alpha, std::string(kItemTarget)), n,
                      "point-mass channel inversion", assumption);
  out.caveat = caveat;
  Eigen::VectorXd q(static_cast<Eigen::Index>(k));
  for (std::size_t x = 0; x < k; ++x) q(static_cast<Eigen::Index>(x)) = share_of(counts[x], n);
  const Eigen::VectorXd second = m.array().square().matrix() * q;  // Σ_y M_xy² Q̂_y
  out.variance.resize(k);
  for (std::size_t x = 0; x < k; ++x) {
    const double pi = out.estimate[x];
    out.variance[x] = (second(static_cast<Eigen::Index>(x)) - pi * pi) / n;
  }
  set_standard_errors(out);
  return out;
}

EstimateReport estimate(const Mechanism& mechanism, std::span<const double> counts, double alpha,
                        NamedDivergence f, bool point_masses) {
  const auto [n, k] = checked_counts(mechanism, counts, alpha);
  // The proportion intervals are solved once, for the released estimate and the population's inversion: at
  // k = 10^7 every k-sized column is 80 MB of the module's 2 GiB.
  TargetIntervals released = proportion_intervals(counts, n, alpha);
  std::optional<PopulationEstimate> population;
  if (const std::optional<AffineMap> map = usable_affine_map(mechanism, k)) {
    population = affine_population(*map, released, n);
  }
  EstimateReport report{released_from(mechanism, std::move(released), n, k, alpha, f), std::move(population),
                        std::nullopt};
  // laplace-projection's distribution() is a 20000-draw Monte-Carlo average per row: k rows would take minutes.
  const bool monte_carlo = !has_exact_distribution(mechanism);
  if (point_masses && !monte_carlo && k <= kMaxPointMassCategories) {
    try {
      report.point_masses = estimate_point_masses(mechanism, counts, alpha);
    } catch (const std::domain_error&) {
      report.point_masses = std::nullopt;  // singular channel (ε = 0): nothing to invert
    }
  }
  return report;
}

}  // namespace privsample
