// Privacy accountant for finite channels W (rows = inputs, columns = outputs).
// Docs: docs/analysis/accountant.md (hockey-stick, MI, LDP, LIP, finite channels, Blahut–Arimoto),
// docs/analysis/lmidp.md#numerics (zeros, +∞ propagation).
#include "privsample/accountant.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "privsample/errors.hpp"
#include "privsample/lmidp.hpp"
#include "privsample/numeric.hpp"

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

double pure_ldp_epsilon_of(const ChannelMatrix& w) {
  double worst = 0.0;
  for (Index y = 0; y < w.cols(); ++y) {
    const double hi = w.col(y).maxCoeff();
    if (hi == 0.0) continue;  // an output no input produces says nothing (docs/analysis/accountant.md#ldp-curve)
    const double lo = w.col(y).minCoeff();
    if (lo == 0.0) return kInfinity;  // one input can produce y, another cannot: no finite ε
    worst = std::max(worst, std::log(hi) - std::log(lo));  // difference of logs: hi/lo may overflow
  }
  return worst;
}

std::vector<double> ldp_curve_of(const ChannelMatrix& w, std::span<const double> epsilons) {
  const Eigen::MatrixXd rows = rows_contiguous(w);
  const Index k = rows.cols();
  const Index m = rows.rows();
  std::vector<double> out;
  out.reserve(epsilons.size());
  for (const double eps : epsilons) {
    const double alpha = std::exp(eps);  // +∞ beyond ~709.78 is fine: hockey_stick handles α = ∞
    double worst = 0.0;
    for (Index i = 0; i < k; ++i) {
      for (Index j = 0; j < k; ++j) {
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

CapacityBounds capacity_of(const Eigen::MatrixXd& rows, double tolerance, int max_iterations) {
  const auto k = static_cast<std::size_t>(rows.cols());
  CapacityBounds out;
  // Blahut–Arimoto from the uniform prior (docs/analysis/accountant.md#mutual-information-and-capacity). The prior is kept as log2 π so that inputs whose mass
  // decays geometrically never underflow to an exact 0 (which the update could not undo).
  std::vector<double> log_prior(k, -std::log2(static_cast<double>(k)));
  std::vector<double> prior(k, 1.0 / static_cast<double>(k));
  std::vector<double> divergence(k);
  for (int iteration = 1;; ++iteration) {
    const std::vector<double> marginal = output_marginal(rows, prior);
    CompensatedSum lower;
    double upper = 0.0;
    for (std::size_t x = 0; x < k; ++x) {
      divergence[x] = kl_to_marginal_bits(rows.col(static_cast<Index>(x)).data(), marginal);
      lower.add(prior[x] * divergence[x]);
      upper = std::max(upper, divergence[x]);
    }
    // Σπ_x D_x = I(π) <= C <= max_x D_x. Rounding can tip Σπ D above max D by an ulp when all D_x are equal
    // (symmetric channels), so the lower bound is capped by the upper one; both are >= 0.
    out.upper = std::max(0.0, upper);
    out.lower = std::clamp(lower.value(), 0.0, out.upper);
    out.prior = prior;
    out.iterations = iteration;
    if (out.upper - out.lower <= tolerance || iteration >= max_iterations) return out;
    // π_x ← π_x 2^{D_x} / Z, in log2 form with the largest exponent subtracted before exponentiating.
    double top = -kInfinity;
    for (std::size_t x = 0; x < k; ++x) {
      log_prior[x] += divergence[x];
      top = std::max(top, log_prior[x]);
    }
    CompensatedSum z;
    for (std::size_t x = 0; x < k; ++x) z.add(std::exp2(log_prior[x] - top));
    const double log_z = top + std::log2(z.value());
    for (std::size_t x = 0; x < k; ++x) {
      log_prior[x] -= log_z;
      prior[x] = std::exp2(log_prior[x]);
    }
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
  report.capacity = capacity_of(rows, 1e-9, 200000);  // the header's defaults of channel_capacity
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
