// Privacy accountant for finite channels W (rows = inputs, columns = outputs).
// Docs: docs/analysis/accountant.md (hockey-stick, MI, LDP, LIP, finite channels, Blahut–Arimoto),
// docs/analysis/lmidp.md#numerics (zeros, +∞ propagation).
#include "analysis/accountant.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "base/errors.hpp"
#include "analysis/lmidp.hpp"
#include "base/numeric.hpp"

namespace privsample {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kRowSumTolerance = 1e-9;      // accountant.hpp: rows sum to 1 within 1e-9
constexpr double kPriorTolerance = 1e-6;       // accountant.hpp: a prior sums to 1 within 1e-6

using Index = Eigen::Index;

std::string place(Index row, Index column) {
  return "W(" + std::to_string(row) + ", " + std::to_string(column) + ")";
}

void check_shape(const ChannelMatrix& w) {
  if (w.rows() == 0 || w.cols() == 0) {
    throw std::invalid_argument("channel W is empty (" + std::to_string(w.rows()) + " rows, " +
                                std::to_string(w.cols()) + " columns): need at least one row and one column");
  }
  const auto entries = static_cast<std::size_t>(w.rows()) * static_cast<std::size_t>(w.cols());
  if (entries > kMaxChannelEntries) {
    throw std::invalid_argument("channel W has " + std::to_string(w.rows()) + " x " + std::to_string(w.cols()) +
                                " = " + std::to_string(entries) + " entries: at most " +
                                std::to_string(kMaxChannelEntries) + " are supported");
  }
}

// A prior over the rows: finite, >= 0, summing to 1 within kPriorTolerance; returned renormalised so later
// mixtures are exact distributions. `rows` = 0 means "any length >= 1" (entropy_bits has no channel).
std::vector<double> checked_prior(std::span<const double> prior, std::size_t rows) {
  if (prior.empty()) throw std::invalid_argument("prior is empty: need at least one probability");
  if (rows != 0 && prior.size() != rows) {
    throw ShapeError("prior has " + std::to_string(prior.size()) + " entries but the channel W has " +
                                std::to_string(rows) + " rows: one probability per input is needed");
  }
  CompensatedSum total;
  for (std::size_t i = 0; i < prior.size(); ++i) {
    if (!std::isfinite(prior[i]) || prior[i] < 0.0) {
      throw std::invalid_argument("prior[" + std::to_string(i) + "] = " + format_value(prior[i]) +
                                  ": probabilities must be finite and >= 0");
    }
    total.add(prior[i]);
  }
  const double sum = total.value();
  if (!(std::fabs(sum - 1.0) <= kPriorTolerance)) {
    throw std::invalid_argument("prior sums to " + format_value(sum) + ": must sum to 1 (within " +
                                format_value(kPriorTolerance) + ")");
  }
  std::vector<double> out(prior.begin(), prior.end());
  for (double& v : out) v /= sum;
  return out;
}

// ε' may be any value in [0, +∞]; +∞ is the limit e^{ε'} → ∞ (handled by hockey_stick below).
void check_epsilons(std::span<const double> epsilons) {
  for (std::size_t i = 0; i < epsilons.size(); ++i) {
    if (std::isnan(epsilons[i]) || epsilons[i] < 0.0) {
      throw std::invalid_argument("epsilons[" + std::to_string(i) + "] = " + format_value(epsilons[i]) +
                                  ": every epsilon' must be >= 0");
    }
  }
}

// Discrete hockey-stick H_α(P‖Q) = Σ_y max(0, P(y) − α Q(y)) (docs/analysis/accountant.md#hockey-stick-divergence). Q(y) = 0 contributes P(y) even when
// α = e^{ε'} overflowed to +∞ (∞·0 would be NaN). A plain left-to-right sum of non-negative terms is used on
// purpose: rounding is monotone, so δ stays non-increasing in α; the relative error is at most m·ulp.
double hockey_stick(const double* p, const double* q, Index m, double alpha) {
  double sum = 0.0;
  for (Index y = 0; y < m; ++y) {
    const double term = q[y] == 0.0 ? p[y] : p[y] - alpha * q[y];
    if (term > 0.0) sum += term;
  }
  return sum;
}

// Rows as contiguous columns (Eigen is column-major), so the per-row loops walk memory in order.
Eigen::MatrixXd rows_contiguous(const ChannelMatrix& w) { return w.transpose(); }

// P_Y = πW, then clamped into [min, max] of each column over supp π: the exact mixture lies there, and the clamp
// keeps rounding from pushing a ratio W/P_Y past the column's range (so ε_LIP <= ε_LDP holds exactly, docs/analysis/accountant.md#relations).
std::vector<double> output_marginal(const Eigen::MatrixXd& rows, std::span<const double> prior) {
  const Index m = rows.rows();
  std::vector<double> out(static_cast<std::size_t>(m));
  for (Index y = 0; y < m; ++y) {
    CompensatedSum total;
    double lo = kInfinity;
    double hi = 0.0;
    for (Index x = 0; x < rows.cols(); ++x) {
      const double pi = prior[static_cast<std::size_t>(x)];
      if (pi == 0.0) continue;
      const double v = rows(y, x);
      total.add(pi * v);
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    out[static_cast<std::size_t>(y)] = std::clamp(total.value(), lo, hi);
  }
  return out;
}

// log2(a/b) for a, b > 0 without overflow of the ratio (b may be tiny).
double log2_ratio(double a, double b) {
  const double r = a / b;
  return std::isfinite(r) && r > 0.0 ? std::log2(r) : std::log2(a) - std::log2(b);
}

// D_x = KL(W_x‖P_Y) in bits with 0·log 0 = 0 (docs/analysis/lmidp.md#information-quantities). P_Y(y) > 0 wherever W_x(y) > 0 for x in supp π (it is
// at least the column's minimum over the support, and at least π_x W_x(y) up to underflow); a term whose P_Y(y)
// underflowed to 0 is skipped rather than turned into ∞.
double kl_to_marginal_bits(const double* row, const std::vector<double>& marginal) {
  CompensatedSum total;
  for (std::size_t y = 0; y < marginal.size(); ++y) {
    const double v = row[y];
    if (v == 0.0 || marginal[y] == 0.0) continue;
    total.add(v * log2_ratio(v, marginal[y]));
  }
  return total.value();
}

double entropy_of(const std::vector<double>& prior) {
  CompensatedSum total;
  for (const double p : prior) {
    if (p > 0.0) total.add(-p * std::log2(p));  // 0·log 0 = 0
  }
  return std::max(0.0, total.value());
}

double mutual_information_of(const Eigen::MatrixXd& rows, std::span<const double> prior) {
  const std::vector<double> marginal = output_marginal(rows, prior);
  CompensatedSum total;
  for (Index x = 0; x < rows.cols(); ++x) {
    const double pi = prior[static_cast<std::size_t>(x)];
    if (pi > 0.0) total.add(pi * kl_to_marginal_bits(rows.col(x).data(), marginal));
  }
  return std::max(0.0, total.value());  // I >= 0; rounding may give −1e-17 for independent X, Y
}

// max over outputs y with largest > 0 of ln(largest/smallest) (docs/analysis/accountant.md#ldp-curve): an output no
// input produces says nothing; one that some input can produce and another cannot leaves no finite ε.
double log_ratio_of_extremes(std::span<const double> largest, std::span<const double> smallest) {
  double worst = 0.0;
  for (std::size_t y = 0; y < largest.size(); ++y) {
    if (largest[y] == 0.0) continue;
    if (smallest[y] == 0.0) return kInfinity;
    worst = std::max(worst, std::log(largest[y]) - std::log(smallest[y]));  // difference of logs: the ratio may overflow
  }
  return worst;
}

double pure_ldp_epsilon_of(const ChannelMatrix& w) {
  std::vector<double> largest(static_cast<std::size_t>(w.cols()));
  std::vector<double> smallest(largest.size());
  for (Index y = 0; y < w.cols(); ++y) {
    largest[static_cast<std::size_t>(y)] = w.col(y).maxCoeff();
    smallest[static_cast<std::size_t>(y)] = w.col(y).minCoeff();
  }
  return log_ratio_of_extremes(largest, smallest);
}

// Upper bounds on H_α(W_i‖W_j) over all partners, per row: U_i = Σ_y max(0, W_i(y) − α·min_j W_j(y)) bounds every
// pair (i, ·) and V_j = Σ_y max(0, max_i W_i(y) − α·W_j(y)) every pair (·, j). They hold in floating point too,
// term by term: min_j W_j(y) is one of the entries, so α·W_j(y) >= α·min (rounding is monotone), each term of
// H is at most the bound's term (a zero entry of W_j contributes W_i(y) to H, and then the column minimum is 0
// and the bound's term is W_i(y) as well), and a left-to-right sum of larger non-negative terms is not smaller.
struct PairBounds {
  std::vector<double> as_first;   // U_i
  std::vector<double> as_second;  // V_j
};

PairBounds pair_bounds(const Eigen::MatrixXd& rows, const std::vector<double>& column_min,
                       const std::vector<double>& column_max, double alpha) {
  const Index k = rows.cols();
  const Index m = rows.rows();
  PairBounds b{std::vector<double>(static_cast<std::size_t>(k)), std::vector<double>(static_cast<std::size_t>(k))};
  for (Index i = 0; i < k; ++i) {
    b.as_first[static_cast<std::size_t>(i)] = hockey_stick(rows.col(i).data(), column_min.data(), m, alpha);
    b.as_second[static_cast<std::size_t>(i)] = hockey_stick(column_max.data(), rows.col(i).data(), m, alpha);
  }
  return b;
}

// δ(ε') = max over ordered pairs i ≠ j of H_α(W_i‖W_j), α = e^{ε'}: the same hockey-stick sums as the plain
// O(k²·m) double loop, but a pair is only summed when both of its bounds (pair_bounds) exceed the best value
// found so far — a pair whose bound is <= that value cannot raise the maximum, so the result is the same number
// (bit for bit: the maximum of the same computed sums). Rows are visited in decreasing order of their bound, so
// for the mechanisms' point-mass channels (every row a permutation of one another) the first pair already
// attains the maximum and the rest are skipped: O(k·m) per ε' instead of O(k²·m).
std::vector<double> ldp_curve_of(const ChannelMatrix& w, std::span<const double> epsilons) {
  const Eigen::MatrixXd rows = rows_contiguous(w);
  const Index k = rows.cols();
  const Index m = rows.rows();
  std::vector<double> column_min(static_cast<std::size_t>(m));
  std::vector<double> column_max(static_cast<std::size_t>(m));
  for (Index y = 0; y < m; ++y) {
    column_min[static_cast<std::size_t>(y)] = rows.row(y).minCoeff();
    column_max[static_cast<std::size_t>(y)] = rows.row(y).maxCoeff();
  }
  std::vector<Index> first_order(static_cast<std::size_t>(k));
  std::vector<Index> second_order(static_cast<std::size_t>(k));
  std::vector<double> out;
  out.reserve(epsilons.size());
  for (const double eps : epsilons) {
    const double alpha = std::exp(eps);  // +∞ beyond ~709.78 is fine: hockey_stick handles α = ∞
    const PairBounds bound = pair_bounds(rows, column_min, column_max, alpha);
    const auto by_bound = [](const std::vector<double>& b) {
      return [&b](Index a, Index c) { return b[static_cast<std::size_t>(a)] > b[static_cast<std::size_t>(c)]; };
    };
    for (Index i = 0; i < k; ++i) first_order[static_cast<std::size_t>(i)] = second_order[static_cast<std::size_t>(i)] = i;
    std::sort(first_order.begin(), first_order.end(), by_bound(bound.as_first));
    std::sort(second_order.begin(), second_order.end(), by_bound(bound.as_second));
    double worst = 0.0;
    for (const Index i : first_order) {
      if (bound.as_first[static_cast<std::size_t>(i)] <= worst) break;  // every later row is bounded lower
      for (const Index j : second_order) {
        if (bound.as_second[static_cast<std::size_t>(j)] <= worst) break;
        if (i != j) worst = std::max(worst, hockey_stick(rows.col(i).data(), rows.col(j).data(), m, alpha));
      }
    }
    out.push_back(std::min(worst, 1.0));  // H_α <= 1 (docs/analysis/accountant.md#hockey-stick-divergence); the rows were renormalised, rounding only
  }
  return out;
}

double pure_lip_epsilon_of(const Eigen::MatrixXd& rows, std::span<const double> prior) {
  const std::vector<double> marginal = output_marginal(rows, prior);
  double worst = 0.0;
  for (Index x = 0; x < rows.cols(); ++x) {
    if (prior[static_cast<std::size_t>(x)] == 0.0) continue;  // x over the support only (docs/analysis/accountant.md#lip)
    for (std::size_t y = 0; y < marginal.size(); ++y) {
      if (marginal[y] == 0.0) continue;
      const double v = rows(static_cast<Index>(y), x);
      if (v == 0.0) return kInfinity;  // P_Y(y) > 0 but this input never gives y
      worst = std::max(worst, std::fabs(std::log(v) - std::log(marginal[y])));
    }
  }
  return worst;
}

// δ_LIP(ε') = max over x in supp of max{H_α(P_Y‖W_x), e^{−ε'} H_α(W_x‖P_Y)}, α = e^{ε'} (docs/analysis/accountant.md#lip eq. (4)).
std::vector<double> lip_curve_of(const Eigen::MatrixXd& rows, std::span<const double> prior,
                                 std::span<const double> epsilons) {
  const std::vector<double> marginal = output_marginal(rows, prior);
  const Index m = rows.rows();
  std::vector<double> out;
  out.reserve(epsilons.size());
  for (const double eps : epsilons) {
    const double alpha = std::exp(eps);
    const double shrink = std::exp(-eps);
    double worst = 0.0;
    for (Index x = 0; x < rows.cols(); ++x) {
      if (prior[static_cast<std::size_t>(x)] == 0.0) continue;
      const double* row = rows.col(x).data();
      const double upper_side = hockey_stick(marginal.data(), row, m, alpha);
      const double lower_side = shrink * hockey_stick(row, marginal.data(), m, alpha);
      worst = std::max({worst, upper_side, lower_side});
    }
    out.push_back(std::min(worst, 1.0));
  }
  return out;
}

// D_x = KL(W_x‖P_Y) for every input at the prior, and the certified bounds Σπ_x D_x <= C <= max_x D_x.
struct CapacityStep {
  std::vector<double> divergence;
  double lower = 0.0;
  double upper = 0.0;
};

CapacityStep capacity_step(const Eigen::MatrixXd& rows, const std::vector<double>& prior) {
  const auto k = prior.size();
  const std::vector<double> marginal = output_marginal(rows, prior);
  CapacityStep out{std::vector<double>(k)};
  CompensatedSum lower;
  double upper = 0.0;
  for (std::size_t x = 0; x < k; ++x) {
    out.divergence[x] = kl_to_marginal_bits(rows.col(static_cast<Index>(x)).data(), marginal);
    lower.add(prior[x] * out.divergence[x]);
    upper = std::max(upper, out.divergence[x]);
  }
  // Rounding can tip Σπ D above max D by an ulp when all D_x are equal (symmetric channels), so the lower bound
  // is capped by the upper one; both are >= 0.
  out.upper = std::max(0.0, upper);
  out.lower = std::clamp(lower.value(), 0.0, out.upper);
  return out;
}

// π_x ∝ π_x·2^{step·D_x}, in log2 form with the largest exponent subtracted before exponentiating; writes both
// forms. The log form keeps inputs whose mass decays geometrically from underflowing to an exact 0.
void reweight(std::vector<double>& log_prior, std::vector<double>& prior, const std::vector<double>& divergence,
              double step) {
  double top = -kInfinity;
  for (std::size_t x = 0; x < prior.size(); ++x) {
    log_prior[x] += step * divergence[x];
    top = std::max(top, log_prior[x]);
  }
  CompensatedSum z;
  for (const double l : log_prior) z.add(std::exp2(l - top));
  const double log_z = top + std::log2(z.value());
  for (std::size_t x = 0; x < prior.size(); ++x) {
    log_prior[x] -= log_z;
    prior[x] = std::exp2(log_prior[x]);
  }
}

// Blahut–Arimoto from the uniform prior (docs/analysis/accountant.md#mutual-information-and-capacity), accelerated: the update's exponent is over-relaxed by a
// step that grows while the lower bound I(π) keeps increasing and falls back to the plain step (which never
// decreases it) when it does not (Matz & Duhamel's accelerated Blahut–Arimoto, with a monotone safeguard).
// The bounds are certified for whatever prior is reached, so acceleration changes only how fast the gap closes
// (at k = 200 on a Zipf prior's local channel: from 41,627 iterations to a few hundred).
CapacityBounds capacity_of(const Eigen::MatrixXd& rows, double tolerance, int max_iterations) {
  const auto k = static_cast<std::size_t>(rows.cols());
  std::vector<double> log_prior(k, -std::log2(static_cast<double>(k)));
  std::vector<double> prior(k, 1.0 / static_cast<double>(k));
  CapacityStep at = capacity_step(rows, prior);
  double step = 1.0;
  constexpr double kMaxStep = 1024.0;
  CapacityBounds out;
  for (int iteration = 1;; ++iteration) {
    out.upper = at.upper;
    out.lower = at.lower;
    out.prior = prior;
    out.iterations = iteration;
    if (out.upper - out.lower <= tolerance || iteration >= max_iterations) return out;
    std::vector<double> next_log = log_prior;
    std::vector<double> next = prior;
    reweight(next_log, next, at.divergence, step);
    CapacityStep next_at = capacity_step(rows, next);
    if (step > 1.0 && !(next_at.lower >= at.lower)) {  // overshot: the plain step from here instead
      step = 1.0;
      next_log = log_prior;
      next = prior;
      reweight(next_log, next, at.divergence, step);
      next_at = capacity_step(rows, next);
    } else {
      step = std::min(2.0 * step, kMaxStep);
    }
    log_prior = std::move(next_log);
    prior = std::move(next);
    at = std::move(next_at);
  }
}

}  // namespace

ChannelMatrix validated_channel(ChannelMatrix w) {
  check_shape(w);
  for (Index i = 0; i < w.rows(); ++i) {
    CompensatedSum total;
    for (Index y = 0; y < w.cols(); ++y) {
      const double v = w(i, y);
      if (!std::isfinite(v) || v < 0.0) {
        throw std::invalid_argument("channel " + place(i, y) + " = " + format_value(v) +
                                    ": entries must be finite probabilities >= 0");
      }
      total.add(v);
    }
    const double sum = total.value();
    if (!(std::fabs(sum - 1.0) <= kRowSumTolerance)) {
      throw std::invalid_argument("channel W row " + std::to_string(i) + " sums to " + format_value(sum) +
                                  ": every row must be a distribution over the outputs (sum 1 within " +
                                  format_value(kRowSumTolerance) + ")");
    }
    w.row(i) /= sum;
  }
  return w;
}

double pure_ldp_epsilon(const ChannelMatrix& w) { return pure_ldp_epsilon_of(validated_channel(w)); }

double pure_ldp_epsilon_of_extremes(std::span<const double> largest, std::span<const double> smallest) {
  if (largest.size() != smallest.size()) {
    throw_shape({"largest has ", largest.size(), " entries but smallest has ", smallest.size()});
  }
  for (std::size_t y = 0; y < largest.size(); ++y) {
    if (!(std::isfinite(smallest[y]) && smallest[y] >= 0.0)) {
      throw_invalid({"smallest[", y, "] = ", smallest[y], ": must be finite and >= 0"});
    }
    if (!(std::isfinite(largest[y]) && largest[y] >= smallest[y])) {
      throw_invalid({"largest[", y, "] = ", largest[y], ": must be finite and >= smallest[", y, "] = ", smallest[y]});
    }
  }
  return log_ratio_of_extremes(largest, smallest);
}

std::vector<double> ldp_curve(const ChannelMatrix& w, std::span<const double> epsilons) {
  check_epsilons(epsilons);
  return ldp_curve_of(validated_channel(w), epsilons);
}

double entropy_bits(std::span<const double> prior) {
  return entropy_of(checked_prior(prior, 0));
}

double mutual_information_bits(const ChannelMatrix& w, std::span<const double> prior) {
  const ChannelMatrix channel = validated_channel(w);
  const std::vector<double> pi = checked_prior(prior, static_cast<std::size_t>(channel.rows()));
  return mutual_information_of(rows_contiguous(channel), pi);
}

CapacityBounds channel_capacity(const ChannelMatrix& w, double tolerance, int max_iterations) {
  if (!(tolerance > 0.0) || !std::isfinite(tolerance)) {
    throw std::invalid_argument("tolerance = " + format_value(tolerance) + ": must be a finite number > 0");
  }
  if (max_iterations < 1) {
    throw std::invalid_argument("max_iterations = " + std::to_string(max_iterations) + ": must be >= 1");
  }
  return capacity_of(rows_contiguous(validated_channel(w)), tolerance, max_iterations);
}

double pure_lip_epsilon(const ChannelMatrix& w, std::span<const double> prior) {
  const ChannelMatrix channel = validated_channel(w);
  const std::vector<double> pi = checked_prior(prior, static_cast<std::size_t>(channel.rows()));
  return pure_lip_epsilon_of(rows_contiguous(channel), pi);
}

std::vector<double> lip_curve(const ChannelMatrix& w, std::span<const double> prior,
                              std::span<const double> epsilons) {
  const ChannelMatrix channel = validated_channel(w);
  const std::vector<double> pi = checked_prior(prior, static_cast<std::size_t>(channel.rows()));
  check_epsilons(epsilons);
  return lip_curve_of(rows_contiguous(channel), pi, epsilons);
}

namespace {

// The curves' integrals (Thm 1(b), 2(b)) evaluate them at a few hundred ε', each O(rows²·cols): above this
// much work per evaluation they are left out (std::nullopt) rather than freezing a browser tab.
constexpr double kMaxCurveIntegralWork = 4e6;

// Blahut–Arimoto's budget in the report: iterations × rows × cols (each entry costs a log and a few flops), and at
// least 100 iterations however large the channel, enough for the accelerated iteration's bounds to be meaningful.
constexpr double kMaxCapacityWork = 1e8;
constexpr double kMinCapacityIterations = 100.0;

// 0 … a quarter past the pure ε (where a pure mechanism's curve reaches 0), or 0 … 10 when ε is infinite.
std::vector<double> default_epsilon_grid(double pure_epsilon) {
  constexpr int kPoints = 101;
  const double end = std::isfinite(pure_epsilon) ? std::clamp(1.25 * pure_epsilon, 0.5, 50.0) : 10.0;
  std::vector<double> grid(kPoints);
  for (int i = 0; i < kPoints; ++i) grid[static_cast<std::size_t>(i)] = end * i / (kPoints - 1);
  return grid;
}

}  // namespace

AccountantReport accountant_report(const ChannelMatrix& w, std::optional<std::span<const double>> prior,
                                   std::span<const double> epsilons) {
  const ChannelMatrix channel = validated_channel(w);
  check_epsilons(epsilons);
  // Validate the prior before any expensive work, so a bad one fails fast.
  std::vector<double> pi;
  if (prior) pi = checked_prior(*prior, static_cast<std::size_t>(channel.rows()));
  const Eigen::MatrixXd rows = rows_contiguous(channel);

  AccountantReport report;
  report.pure_ldp_epsilon = pure_ldp_epsilon_of(channel);
  report.epsilons = epsilons.empty() ? default_epsilon_grid(report.pure_ldp_epsilon)
                                     : std::vector<double>(epsilons.begin(), epsilons.end());
  report.ldp_curve = ldp_curve_of(channel, report.epsilons);
  // The header's tolerance, with the iterations capped by work (rows·cols per iteration) so that the largest
  // channel the accountant takes answers in bounded time: the bounds stay certified, only their gap may stay wider
  // than the tolerance.
  const double entries = static_cast<double>(channel.rows()) * static_cast<double>(channel.cols());
  const int iterations = static_cast<int>(
      std::clamp(kMaxCapacityWork / entries, kMinCapacityIterations, static_cast<double>(kMaxCapacityIterations)));
  report.capacity = capacity_of(rows, kCapacityTolerance, iterations);
  // Thm 1(b) for pure ε (docs/analysis/lmidp.md#theorem-1b, docs/analysis/accountant.md#the-report), and on the whole exact curve, which is never looser.
  const double eps = report.pure_ldp_epsilon;
  report.capacity_bound_from_pure_ldp = capacity_bound_from_pure_ldp(eps);
  const bool small = static_cast<double>(channel.rows()) * static_cast<double>(channel.rows()) *
                         static_cast<double>(channel.cols()) <= kMaxCurveIntegralWork;
  if (small) {
    report.capacity_bound_from_ldp_curve = capacity_bound_from_ldp_curve(
        [&](double e) { return ldp_curve_of(channel, std::span<const double>(&e, 1)).front(); },
        std::isfinite(eps) ? eps : 0.0);
  }
  if (prior) {
    report.prior_entropy = entropy_of(pi);
    double smallest = std::numeric_limits<double>::infinity();
    for (const double mass : pi) {
      if (mass > 0.0) smallest = std::min(smallest, mass);
    }
    report.prior_min_mass = smallest;  // finite: checked_prior ensures a positive total
    report.mutual_information = mutual_information_of(rows, pi);
    report.pure_lip_epsilon = pure_lip_epsilon_of(rows, pi);
    report.lip_curve = lip_curve_of(rows, pi, report.epsilons);
    if (small) {
      const double lip_eps = *report.pure_lip_epsilon;
      report.mutual_information_bound_from_lip_curve = mutual_information_bound_from_lip_curve(
          [&](double e) { return lip_curve_of(rows, pi, std::span<const double>(&e, 1)).front(); },
          std::isfinite(lip_eps) ? lip_eps : 0.0);
    }
  }
  return report;
}

}  // namespace privsample
