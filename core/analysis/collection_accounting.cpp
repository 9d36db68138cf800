#include "analysis/collection_accounting.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/binomial.hpp"
#include "model/histogram.hpp"
#include "base/numeric.hpp"
#include "privacy/privacy.hpp"

namespace privsample {
namespace {

constexpr double kMaxReports = 1e12;  // n and m: beyond this nobody collects, and doubles stop being exact soon

// Messages name the parameters as the JS API's options do (collection.compose's reports and deltaPrime,
// collection.shuffle's users), which the C++ functions call m, delta_prime and n.
double validated_repetitions(double m, std::string_view name) {
  if (!std::isfinite(m) || m != std::floor(m) || m < 1.0 || m > kMaxReports) {
    throw std::invalid_argument(std::string(name) + " = " + format_value(m) + ": must be an integer in [1, 1e12]");
  }
  return m;
}

double validated_open_probability(double value, std::string_view name) {
  if (!(value > 0.0 && value < 1.0)) {
    throw std::invalid_argument(std::string(name) + " = " + format_value(value) + ": must be in (0, 1)");
  }
  return value;
}

double validated_shuffle_epsilon0(double epsilon0) {
  if (!(epsilon0 >= 0.0 && epsilon0 <= kMaxEffectiveEpsilon)) {
    throw std::invalid_argument("epsilon0 = " + format_value(epsilon0) + ": must be a finite number in [0, 700]");
  }
  return epsilon0;
}


// δ' of the optimal and best compositions: 0 allowed (no extra δ).
double validated_delta_prime(double delta_prime) {
  if (!(delta_prime >= 0.0 && delta_prime < 1.0)) {
    throw std::invalid_argument("deltaPrime = " + format_value(delta_prime) + ": must be in [0, 1)");
  }
  return delta_prime;
}

// 1 − (1 − δ)^m (1 − δ'), without cancellation.
double total_delta(double delta, double m, double delta_prime) {
  return std::min(1.0, -std::expm1(m * std::log1p(-delta) + std::log1p(-delta_prime)));
}

// δ_m(ε_g) of m-fold binary randomized response at ε (optimal_composition): with p = e^ε/(1 + e^ε), q = 1 − p and
// L = the largest l with (m − 2l)ε > ε_g, δ_m = Σ_{l <= L} Bin(l; m, q)·(1 − e^{ε_g − (m−2l)ε}). Summed from L down as
// positive terms (no cancellation) while the binomial's spread is small enough to walk (a few hundred thousand terms);
// beyond that (m near 10^8 and up), as P(Bin(m, q) <= L) − e^{ε_g} P(Bin(m, p) <= L), both tails exact
// (base/binomial.hpp), with the cancellation's possible error added.
constexpr double kWalkedVariance = 2.5e7;  // m·p·q: a standard deviation of 5000 terms

double randomized_response_delta(double epsilon, double m, double epsilon_total) {
  if (epsilon == 0.0 || epsilon_total >= m * epsilon) return 0.0;
  const double bound = 0.5 * (m - epsilon_total / epsilon);  // l < bound
  const double last = std::ceil(bound) - 1.0;
  if (last < 0.0) return 0.0;
  const double shrink = std::exp(-epsilon);
  const double p = 1.0 / (1.0 + shrink);     // e^ε/(1 + e^ε)
  const double q = shrink / (1.0 + shrink);  // 1/(1 + e^ε)
  if (m * p * q > kWalkedVariance) {
    // Both tails to a relative 1e-14; their difference can cancel, so the absolute error 1e-14·max(…) is added: the
    // value stays an upper bound (rounded toward privacy).
    const double low = beta_tails(m - last, last + 1.0, p, q).lower;   // P(Bin(m, q) <= L) = I_p(m − L, L + 1)
    const double high = beta_tails(m - last, last + 1.0, q, p).lower;  // P(Bin(m, p) <= L)
    const double scaled = high > 0.0 ? std::exp(epsilon_total + std::log(high)) : 0.0;  // e^{ε_g}·high, no ∞·0
    return std::clamp(low - scaled + 1e-14 * std::max(low, scaled), 0.0, 1.0);
  }
  const double mode = std::floor((m + 1.0) * q);
  CompensatedSum sum;
  for (double l = last; l >= 0.0; l -= 1.0) {
    const double loss = (m - 2.0 * l) * epsilon;  // > ε_g for every l <= L
    const double term = std::exp(binomial_log_pmf(l, m, q, p)) * -std::expm1(epsilon_total - loss);
    sum.add(term);
    // Below the mode the terms only shrink (the pmf falls and the factor stays <= 1): stop once they are negligible.
    if (l < mode && term <= 1e-18 * sum.value()) break;
  }
  return std::min(sum.value(), 1.0);
}

// ---- shuffling ------------------------------------------------------------------------------------------------------

// P(X <= k) and P(X > k) for X ~ Bin(n, p), q = 1 − p given separately, k an integer.
double bin_cdf(double k, double n, double p, double q) {
  if (k < 0.0) return 0.0;
  if (k >= n) return 1.0;
  return beta_tails(n - k, k + 1.0, q, p).lower;
}
double bin_sf(double k, double n, double p, double q) {
  if (k < 0.0) return 1.0;
  if (k >= n) return 0.0;
  return beta_tails(k + 1.0, n - k, p, q).lower;
}

// The two-point mixtures given c clones: with α = e^ε0/(e^ε0+1), A ~ Bin(c, ½),
//   P_c = α·A + (1−α)·(A+1),  Q_c = (1−α)·A + α·(A+1).
// P_c(a)/Q_c(a) is decreasing in a, so {P_c > e^ε Q_c} = {a < β(c+1)} with β = 1/(E+1),
//   E = ((e^ε+1)α − 1)/((e^ε+1)α − e^ε) = (e^ε − e^{−ε0})/(1 − e^{ε−ε0})   (valid for ε < ε0),
// and D_{e^ε}(P_c‖Q_c) = P_c(A' <= cut) − e^ε Q_c(A' <= cut) (the reference's `onestep`); symmetrically for Q‖P.
struct Conditional {
  double alpha;       // e^ε0/(e^ε0 + 1)
  double exp_eps;     // e^ε
  double ratio;       // E
};

double conditional_divergence(const Conditional& s, double c, bool p_over_q) {
  const double beta = p_over_q ? 1.0 / (s.ratio + 1.0) : s.ratio / (s.ratio + 1.0);
  const double cut = std::floor(beta * (c + 1.0));
  const double f_cut = bin_cdf(cut, c, 0.5, 0.5);
  const double f_cut_minus = bin_cdf(cut - 1.0, c, 0.5, 0.5);
  const double p_cdf = s.alpha * f_cut + (1.0 - s.alpha) * f_cut_minus;
  const double q_cdf = (1.0 - s.alpha) * f_cut + s.alpha * f_cut_minus;
  const double value = p_over_q ? p_cdf - s.exp_eps * q_cdf : (1.0 - q_cdf) - s.exp_eps * (1.0 - p_cdf);
  return std::clamp(value, 0.0, 1.0);  // >= 0 exactly (optimal set); rounding only
}

// A block [lo, hi] of values of C, its exact mass, and both divergences at both ends. D_c is monotone in c (more
// clones hide a user better), so the block's share of each sum lies between mass·min and mass·max of its ends.
struct Block {
  double lo;
  double hi;
  double mass;
  double pq_lo, pq_hi, qp_lo, qp_hi;
  [[nodiscard]] double gap() const {
    return mass * std::max(std::fabs(pq_hi - pq_lo), std::fabs(qp_hi - qp_lo));
  }
};

// The certified bracket of δ(ε) by adaptive halving of blocks, stopped as soon as it is decided against `target`
// (upper below target·(1 − 1e-9), or lower at or above target), or its width is at most `gap`, or every block is one c.
class ShuffleSum {
 public:
  ShuffleSum(double epsilon0, double n, double epsilon, std::size_t& budget)
      : s_{1.0 / (1.0 + std::exp(-epsilon0)), std::exp(epsilon),
           (std::exp(epsilon) - std::exp(-epsilon0)) / -std::expm1(epsilon - epsilon0)},
        p_(std::exp(-epsilon0)), q_(-std::expm1(-epsilon0)), trials_(n - 1.0), budget_(budget) {}

  ShuffleDelta bracket(double target, double gap) {
    std::vector<Block> heap;
    const auto by_gap = [](const Block& a, const Block& b) { return a.gap() < b.gap(); };
    heap.push_back(make(0.0, trials_, 1.0));
    Running running;
    running.add(heap.front(), 1.0);
    for (;;) {
      // The running sums steer the refinement; every stop is decided on sums recomputed from the blocks.
      const ShuffleDelta guess = running.bracket();
      const bool decided = target > 0.0 && (guess.upper < target * (1.0 - 1e-9) || guess.lower >= target);
      if (decided || guess.upper - guess.lower <= gap || heap.front().gap() <= 0.0 || budget_ < 4) {
        const ShuffleDelta now = sums(heap);
        const bool sure = target > 0.0 && (now.upper < target * (1.0 - 1e-9) || now.lower >= target);
        if (sure || (target == 0.0 && now.upper - now.lower <= gap) || heap.front().gap() <= 0.0 || budget_ < 4) {
          return now;
        }
      }
      std::pop_heap(heap.begin(), heap.end(), by_gap);
      const Block b = heap.back();
      heap.pop_back();
      running.add(b, -1.0);
      const double mid = std::floor(0.5 * (b.lo + b.hi));
      for (const Block& half : {make(b.lo, mid, b, true), make(mid + 1.0, b.hi, b, false)}) {
        running.add(half, 1.0);
        heap.push_back(half);
        std::push_heap(heap.begin(), heap.end(), by_gap);
      }
    }
  }

 private:
  // Mass of [lo, hi] from the nearer tail (no 1 − Σ cancellation).
  double mass(double lo, double hi) const {
    const double mode = trials_ * p_;
    const double m = hi <= mode ? bin_cdf(hi, trials_, p_, q_) - bin_cdf(lo - 1.0, trials_, p_, q_)
                                : bin_sf(lo - 1.0, trials_, p_, q_) - bin_sf(hi, trials_, p_, q_);
    return std::max(m, 0.0);
  }
  double divergence(double c, bool p_over_q) {
    --budget_;
    return conditional_divergence(s_, c, p_over_q);
  }
  Block make(double lo, double hi, double total_mass) {
    return Block{lo, hi, total_mass, divergence(lo, true), divergence(hi, true), divergence(lo, false),
                 divergence(hi, false)};
  }
  // One half of `parent`, reusing the end it shares with it.
  Block make(double lo, double hi, const Block& parent, bool lower_half) {
    Block b{lo, hi, mass(lo, hi), 0, 0, 0, 0};
    if (lower_half) {
      b.pq_lo = parent.pq_lo;
      b.qp_lo = parent.qp_lo;
      b.pq_hi = lo == hi ? b.pq_lo : divergence(hi, true);
      b.qp_hi = lo == hi ? b.qp_lo : divergence(hi, false);
    } else {
      b.pq_hi = parent.pq_hi;
      b.qp_hi = parent.qp_hi;
      b.pq_lo = lo == hi ? b.pq_hi : divergence(lo, true);
      b.qp_lo = lo == hi ? b.qp_hi : divergence(lo, false);
    }
    return b;
  }
  // The four sums, kept as blocks come and go.
  struct Running {
    CompensatedSum pq_low, pq_high, qp_low, qp_high;
    void add(const Block& b, double sign) {
      pq_low.add(sign * b.mass * std::min(b.pq_lo, b.pq_hi));
      pq_high.add(sign * b.mass * std::max(b.pq_lo, b.pq_hi));
      qp_low.add(sign * b.mass * std::min(b.qp_lo, b.qp_hi));
      qp_high.add(sign * b.mass * std::max(b.qp_lo, b.qp_hi));
    }
    [[nodiscard]] ShuffleDelta bracket() const {
      return {std::max(pq_low.value(), qp_low.value()), std::min(1.0, std::max(pq_high.value(), qp_high.value()))};
    }
  };
  static ShuffleDelta sums(const std::vector<Block>& blocks) {
    CompensatedSum pq_low, pq_high, qp_low, qp_high;
    for (const Block& b : blocks) {
      pq_low.add(b.mass * std::min(b.pq_lo, b.pq_hi));
      pq_high.add(b.mass * std::max(b.pq_lo, b.pq_hi));
      qp_low.add(b.mass * std::min(b.qp_lo, b.qp_hi));
      qp_high.add(b.mass * std::max(b.qp_lo, b.qp_hi));
    }
    return {std::max(pq_low.value(), qp_low.value()), std::min(1.0, std::max(pq_high.value(), qp_high.value()))};
  }

  Conditional s_;
  double p_;
  double q_;
  double trials_;
  std::size_t& budget_;
};

void check_shuffle_inputs(double epsilon0, double n, double delta) {
  validated_shuffle_epsilon0(epsilon0);
  validated_repetitions(n, "users");
  validated_open_probability(delta, "delta");
}

// a = 8·sqrt(e^ε0 ln(4/δ)/n) + 8e^ε0/n, both closed forms' spread.
double closed_form_spread(double epsilon0, double n, double delta) {
  const double e0 = std::exp(epsilon0);
  return 8.0 * std::sqrt(e0 * std::log(4.0 / delta)) / std::sqrt(n) + 8.0 * e0 / n;
}

}  // namespace

PrivacyLoss basic_composition(double epsilon, double delta, double m) {
  validated_epsilon(epsilon);
  validated_delta(delta);
  validated_repetitions(m, "reports");
  return {m * epsilon, std::min(1.0, m * delta), "basic"};
}

PrivacyLoss advanced_composition(double epsilon, double delta, double m, double delta_prime) {
  validated_epsilon(epsilon);
  validated_delta(delta);
  validated_repetitions(m, "reports");
  validated_open_probability(delta_prime, "deltaPrime");
  const double eps = std::sqrt(2.0 * m * std::log(1.0 / delta_prime)) * epsilon + m * epsilon * std::expm1(epsilon);
  return {eps, std::min(1.0, m * delta + delta_prime), "advanced"};
}

double optimal_composition_delta(double epsilon, double m, double epsilon_total) {
  validated_epsilon(epsilon);
  validated_repetitions(m, "reports");
  if (!(epsilon_total >= 0.0)) {
    throw std::invalid_argument("epsilonTotal = " + format_value(epsilon_total) + ": must be >= 0");
  }
  return randomized_response_delta(epsilon, m, epsilon_total);
}

PrivacyLoss optimal_composition(double epsilon, double delta, double m, double delta_prime) {
  validated_epsilon(epsilon);
  validated_delta(delta);
  validated_repetitions(m, "reports");
  validated_delta_prime(delta_prime);
  const double total = total_delta(delta, m, delta_prime);
  const double target = delta_prime * (1.0 - 1e-9);  // round toward privacy: the sum's rounding stays below it
  const auto holds = [&](double eg) { return randomized_response_delta(epsilon, m, eg) <= target; };
  double hi = m * epsilon;  // δ_m(mε) = 0
  if (delta_prime == 0.0 || epsilon == 0.0) return {hi, total, "optimal"};
  if (holds(0.0)) return {0.0, total, "optimal"};
  double lo = 0.0;
  for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (holds(mid)) {
      hi = mid;
    } else {
      lo = mid;
    }
  }
  return {hi, total, "optimal"};
}

PrivacyLoss best_composition(double epsilon, double delta, double m, double delta_prime) {
  validated_delta_prime(delta_prime);
  PrivacyLoss best = basic_composition(epsilon, delta, m);
  const PrivacyLoss optimal = optimal_composition(epsilon, delta, m, delta_prime);
  if (optimal.epsilon < best.epsilon) best = optimal;
  if (delta_prime > 0.0) {
    const PrivacyLoss advanced = advanced_composition(epsilon, delta, m, delta_prime);
    if (advanced.epsilon < best.epsilon) best = advanced;
  }
  return best;
}

ShuffleBound shuffle_closed_form(double epsilon0, double n, double delta) {
  check_shuffle_inputs(epsilon0, n, delta);
  const double regime = 16.0 * std::log(4.0 / delta);
  if (n <= regime || epsilon0 > std::log(n / regime)) return {epsilon0, delta, false, epsilon0};
  const double a = closed_form_spread(epsilon0, n, delta);
  const double e1 = std::log1p(a);
  const double factor = -std::expm1(-epsilon0) / (1.0 + std::exp(-epsilon0 - e1));
  const double eps = std::log1p(factor * a);
  return {eps, delta, true, eps};
}

ShuffleBound shuffle_closed_form_printed(double epsilon0, double n, double delta) {
  check_shuffle_inputs(epsilon0, n, delta);
  const double regime = 16.0 * std::log(2.0 / delta);
  if (n <= regime || epsilon0 > std::log(n / regime)) return {epsilon0, delta, false, epsilon0};
  // (e^ε0 − 1)/(e^ε0 + 1) = tanh(ε0/2)
  const double eps = std::log1p(std::tanh(0.5 * epsilon0) * closed_form_spread(epsilon0, n, delta));
  return {eps, delta, true, eps};
}

ShuffleDelta shuffle_delta(double epsilon0, double n, double epsilon, double gap) {
  validated_shuffle_epsilon0(epsilon0);
  validated_repetitions(n, "users");
  if (!(epsilon >= 0.0 && epsilon < epsilon0)) {
    throw std::invalid_argument("epsilon = " + format_value(epsilon) + ": must be in [0, epsilon0)");
  }
  if (!(gap > 0.0)) throw std::invalid_argument("gap = " + format_value(gap) + ": must be > 0");
  std::size_t budget = std::numeric_limits<std::size_t>::max();
  return ShuffleSum(epsilon0, n, epsilon, budget).bracket(0.0, gap);
}

ShuffleBound shuffle_numerical(double epsilon0, double n, double delta, const ShuffleNumericalOptions& options) {
  check_shuffle_inputs(epsilon0, n, delta);
  if (!(options.precision > 0.0 && options.precision <= 0.5)) {
    throw std::invalid_argument("precision = " + format_value(options.precision) + ": must be in (0, 0.5]");
  }
  if (epsilon0 == 0.0) return {0.0, delta, true, 0.0};
  // Start from the closed form where it applies (both are upper bounds; at ε0 the output is ε0-DP by
  // post-processing, δ = 0).
  const ShuffleBound closed = shuffle_closed_form(epsilon0, n, delta);
  double hi = std::min(closed.epsilon, epsilon0);
  double lo = 0.0;          // the search's lower end
  double certified = 0.0;   // the largest ε shown infeasible (lower sum >= δ)
  std::size_t budget = options.max_evaluations;
  while (hi - certified > options.precision * hi && hi - lo > 1e-3 * options.precision * hi && budget >= 4) {
    const double mid = 0.5 * (lo + hi);
    const ShuffleDelta d = ShuffleSum(epsilon0, n, mid, budget).bracket(delta, 0.0);
    if (d.upper < delta * (1.0 - 1e-9)) {
      hi = mid;
    } else {
      lo = mid;
      if (d.lower >= delta) certified = mid;
    }
  }
  return {hi, delta, hi < epsilon0, certified};
}

}  // namespace privsample
