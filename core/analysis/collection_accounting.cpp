#include "analysis/collection_accounting.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>

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

// Lentz's continued fraction for I_x(a, b) (Numerical Recipes §6.4, betacf); converges fast for x < (a+1)/(a+b+2).
double beta_continued_fraction(double a, double b, double x) {
  constexpr double kTiny = 1e-300;
  constexpr double kEps = 1e-16;
  const double qab = a + b;
  const double qap = a + 1.0;
  const double qam = a - 1.0;
  double c = 1.0;
  double d = 1.0 - qab * x / qap;
  if (std::fabs(d) < kTiny) d = kTiny;
  d = 1.0 / d;
  double h = d;
  // O(sqrt(max(a, b))) terms are needed; the cap only guards against a bug.
  for (int m = 1; m <= 1'000'000; ++m) {
    const double md = m;
    const double m2 = 2.0 * md;
    double aa = md * (b - md) * x / ((qam + m2) * (a + m2));
    d = 1.0 + aa * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1.0 + aa / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1.0 / d;
    h *= d * c;
    aa = -(a + md) * (qab + md) * x / ((a + m2) * (qap + m2));
    d = 1.0 + aa * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1.0 + aa / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1.0 / d;
    const double del = d * c;
    h *= del;
    if (std::fabs(del - 1.0) < kEps) break;
  }
  return h;
}

// lgamma(x) − Stirling's (x − ½)ln x − x + ½ln 2π: the series 1/(12x) − 1/(360x³) + 1/(1260x⁵) − 1/(1680x⁷) for
// x >= 10 (error < 1e-17 there), lgamma itself below.
double stirling_correction(double x) {
  if (x >= 10.0) {
    const double r = 1.0 / x;
    const double r2 = r * r;
    return r * (1.0 / 12.0 - r2 * (1.0 / 360.0 - r2 * (1.0 / 1260.0 - r2 / 1680.0)));
  }
  return std::lgamma(x) - ((x - 0.5) * std::log(x) - x + 0.5 * std::log(2.0 * std::numbers::pi));
}

// ln(x^a y^b / B(a, b)) without subtracting lgammas of size 10^7 (which loses ~1e-9): with s = a + b,
//   = a ln(xs/a) + b ln(ys/b) + ½ ln(ab/s) − ½ ln 2π − c(a) − c(b) + c(s),   xs/a = 1 + (xb − ya)/a
// (DiDonato & Morris 1992, "brcomp"). Used by the binomial cdf at n up to 10^12.
double log_beta_front(double a, double b, double x, double y) {
  const double s = a + b;
  const double u = x * b - y * a;
  return a * std::log1p(u / a) + b * std::log1p(-u / b) + 0.5 * std::log(a * b / s) -
         0.5 * std::log(2.0 * std::numbers::pi) - stirling_correction(a) - stirling_correction(b) +
         stirling_correction(s);
}

// I_x(a, b) given x and y = 1 − x separately, so x near 1 (or 0) keeps its precision in the logarithms.
double incomplete_beta(double a, double b, double x, double y) {
  if (x <= 0.0) return 0.0;
  if (y <= 0.0) return 1.0;
  const double log_front = log_beta_front(a, b, x, y);
  if (x < (a + 1.0) / (a + b + 2.0)) return std::exp(log_front) * beta_continued_fraction(a, b, x) / a;
  return 1.0 - std::exp(log_front) * beta_continued_fraction(b, a, y) / b;
}

// P(X <= k) and P(X > k) for X ~ Bin(n, p), q = 1 − p given separately, k an integer.
double bin_cdf(double k, double n, double p, double q) {
  if (k < 0.0) return 0.0;
  if (k >= n) return 1.0;
  return incomplete_beta(n - k, k + 1.0, q, p);
}
double bin_sf(double k, double n, double p, double q) {
  if (k < 0.0) return 1.0;
  if (k >= n) return 0.0;
  return incomplete_beta(k + 1.0, n - k, p, q);
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

// The block-wise upper bound on max(D(P‖Q), D(Q‖P)); returns `give_up` as soon as it exceeds it (target > 0).
double delta_bound(double epsilon0, double n, double epsilon, const ShuffleNumericalOptions& o, double target) {
  const Conditional s{1.0 / (1.0 + std::exp(-epsilon0)), std::exp(epsilon),
                      (std::exp(epsilon) - std::exp(-epsilon0)) / -std::expm1(epsilon - epsilon0)};
  const double p = std::exp(-epsilon0);      // a clone with probability e^{−ε0}
  const double q = -std::expm1(-epsilon0);   // 1 − p
  const double trials = n - 1.0;             // C ~ Bin(n − 1, p)
  const double step = static_cast<double>(o.step);
  const double blocks = std::floor(trials / step) + 1.0;  // block j = [j·step, min((j+1)·step − 1, n − 1)]
  const double mode = std::clamp(std::floor(n * p), 0.0, trials);
  const double first = std::floor(mode / step);
  double delta_pq = 0.0;
  double delta_qp = 0.0;
  double low = first;   // explored blocks are [low, high] (contiguous: we walk outward)
  double high = first - 1.0;
  for (double visited = 0.0; visited < blocks; visited += 1.0) {
    const double current = std::max(delta_pq, delta_qp);
    if (target > 0.0 && current > target) return current;  // already not (ε, target)-close: stop early
    // Unexplored mass of C, from exact tails (no 1 − Σ cancellation).
    const double unexplored = high < low ? 1.0
                                         : bin_cdf(low * step - 1.0, trials, p, q) +
                                               bin_sf(std::min((high + 1.0) * step - 1.0, trials), trials, p, q);
    if (high >= low && unexplored <= o.tail_fraction * std::max(current, target)) {
      return current + unexplored;  // the rest charged at the largest possible value, 1
    }
    // Next block: alternate above and below the explored range, skipping the ends.
    double j;
    if (high < low) {
      j = first;
    } else {
      const bool can_up = high + 1.0 < blocks;
      const bool can_down = low - 1.0 >= 0.0;
      const bool go_up = can_up && (!can_down || (high - first) <= (first - low));
      j = go_up ? high + 1.0 : low - 1.0;
    }
    const double lo = j * step;
    const double hi = std::min(lo + step - 1.0, trials);
    double mass = j >= first ? bin_sf(lo - 1.0, trials, p, q) - bin_sf(hi, trials, p, q)
                             : bin_cdf(hi, trials, p, q) - bin_cdf(lo - 1.0, trials, p, q);
    mass = std::max(mass, 0.0);
    low = std::min(low, j);
    high = std::max(high, j);
    if (mass == 0.0) continue;
    // The conditional divergence is monotone in c: the larger endpoint value bounds the whole block.
    const double add_pq = std::max(conditional_divergence(s, lo, true), conditional_divergence(s, hi, true));
    const double add_qp = std::max(conditional_divergence(s, lo, false), conditional_divergence(s, hi, false));
    delta_pq += mass * add_pq;
    delta_qp += mass * add_qp;
  }
  return std::max(delta_pq, delta_qp);
}

void check_shuffle_inputs(double epsilon0, double n, double delta) {
  validated_shuffle_epsilon0(epsilon0);
  validated_repetitions(n, "users");
  validated_open_probability(delta, "delta");
}

}  // namespace

PrivacyLoss basic_composition(double epsilon, double delta, double m) {
  validated_epsilon(epsilon);
  validated_delta(delta);
  validated_repetitions(m, "reports");
  return {m * epsilon, std::min(1.0, m * delta)};
}

PrivacyLoss advanced_composition(double epsilon, double delta, double m, double delta_prime) {
  validated_epsilon(epsilon);
  validated_delta(delta);
  validated_repetitions(m, "reports");
  validated_open_probability(delta_prime, "deltaPrime");
  const double eps = std::sqrt(2.0 * m * std::log(1.0 / delta_prime)) * epsilon + m * epsilon * std::expm1(epsilon);
  return {eps, std::min(1.0, m * delta + delta_prime)};
}

PrivacyLoss best_composition(double epsilon, double delta, double m, double delta_prime) {
  const PrivacyLoss basic = basic_composition(epsilon, delta, m);
  const PrivacyLoss advanced = advanced_composition(epsilon, delta, m, delta_prime);
  return advanced.epsilon < basic.epsilon ? advanced : basic;
}

ShuffleBound shuffle_closed_form(double epsilon0, double n, double delta) {
  check_shuffle_inputs(epsilon0, n, delta);
  const double regime = 16.0 * std::log(2.0 / delta);
  if (n <= regime || epsilon0 > std::log(n / regime)) return {epsilon0, delta, false};
  const double e0 = std::exp(epsilon0);
  const double spread = 8.0 * std::sqrt(e0 * std::log(4.0 / delta)) / std::sqrt(n) + 8.0 * e0 / n;
  return {std::log1p(std::tanh(0.5 * epsilon0) * spread), delta, true};  // (e^ε0 − 1)/(e^ε0 + 1) = tanh(ε0/2)
}

double shuffle_delta_bound(double epsilon0, double n, double epsilon, const ShuffleNumericalOptions& options) {
  validated_shuffle_epsilon0(epsilon0);
  validated_repetitions(n, "users");
  if (!(epsilon >= 0.0 && epsilon < epsilon0)) {
    throw std::invalid_argument("epsilon = " + format_value(epsilon) + ": must be in [0, epsilon0)");
  }
  if (options.step < 1) throw std::invalid_argument("step = 0: must be >= 1");
  if (!(options.tail_fraction > 0.0 && options.tail_fraction <= 1.0)) {
    throw std::invalid_argument("tail_fraction = " + format_value(options.tail_fraction) + ": must be in (0, 1]");
  }
  return delta_bound(epsilon0, n, epsilon, options, 0.0);
}

ShuffleBound shuffle_numerical(double epsilon0, double n, double delta, const ShuffleNumericalOptions& options) {
  check_shuffle_inputs(epsilon0, n, delta);
  if (options.iterations < 1 || options.iterations > 200) {
    throw std::invalid_argument("iterations = " + std::to_string(options.iterations) + ": must be in [1, 200]");
  }
  if (options.step < 1) throw std::invalid_argument("step = 0: must be >= 1");
  if (!(options.tail_fraction > 0.0 && options.tail_fraction <= 1.0)) {
    throw std::invalid_argument("tail_fraction = " + format_value(options.tail_fraction) + ": must be in (0, 1]");
  }
  if (epsilon0 == 0.0) return {0.0, delta, true};
  const ShuffleBound closed = shuffle_closed_form(epsilon0, n, delta);
  // Start from the closed form where it applies (both are upper bounds, so their minimum is one too).
  double lo = 0.0;
  double hi = std::min(closed.epsilon, epsilon0);
  for (int t = 0; t < options.iterations; ++t) {
    const double mid = 0.5 * (lo + hi);
    if (delta_bound(epsilon0, n, mid, options, delta) < delta) {
      hi = mid;
    } else {
      lo = mid;
    }
  }
  return {hi, delta, hi < epsilon0};
}

double regularized_incomplete_beta(double a, double b, double x) {
  if (!(a > 0.0 && b > 0.0 && x >= 0.0 && x <= 1.0)) {
    throw std::invalid_argument("regularized_incomplete_beta: needs a > 0, b > 0, 0 <= x <= 1");
  }
  return incomplete_beta(a, b, x, 1.0 - x);
}

double binomial_cdf(double k, double n, double p) {
  if (!(n >= 0.0 && p >= 0.0 && p <= 1.0) || !std::isfinite(n)) {
    throw std::invalid_argument("binomial_cdf: needs n >= 0 and 0 <= p <= 1");
  }
  return bin_cdf(std::floor(k), n, p, 1.0 - p);
}

double binomial_pmf(double k, double n, double p) {
  if (!(n >= 0.0 && p >= 0.0 && p <= 1.0) || !std::isfinite(n)) {
    throw std::invalid_argument("binomial_pmf: needs n >= 0 and 0 <= p <= 1");
  }
  if (k < 0.0 || k > n || k != std::floor(k)) return 0.0;
  if (p == 0.0) return k == 0.0 ? 1.0 : 0.0;
  if (p == 1.0) return k == n ? 1.0 : 0.0;
  return std::exp(std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0) + k * std::log(p) +
                  (n - k) * std::log1p(-p));
}

}  // namespace privsample
