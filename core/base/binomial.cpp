#include "base/binomial.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>

#include "base/numeric.hpp"

namespace privsample {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Lentz's continued fraction for I_x(a, b) (Numerical Recipes §6.4, betacf); converges fast for x < (a+1)/(a+b+2).
double beta_continued_fraction(double a, double b, double x, double y) {
  constexpr double kTiny = 1e-300;
  constexpr double kEps = 1e-16;
  const double qab = a + b;
  const double qap = a + 1.0;
  const double qam = a - 1.0;
  double c = 1.0;
  // 1 − (a + b)x/(a + 1) = (a + 1 − (a + b)x)/(a + 1); for x near 1 that difference cancels, and it is taken as
  // (1 − b + (a + b)y)/(a + 1) from y = 1 − x given exactly (with a = 10^9, b = 1 the cancellation costs 1e-8).
  double d = x > 0.5 ? (1.0 - b + qab * y) / qap : 1.0 - qab * x / qap;
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
// (DiDonato & Morris 1992, "brcomp").
// Near the mode (|u| small against a and b) the log1p form keeps the precision that a ln(xs/a) would lose for large a;
// far from it (a deep tail: x ≪ a/s) u = xb − ya is a difference of nearly equal terms whose rounding log1p would
// magnify, so ln(xs/a) is taken directly there, from the product x·s/a (relative error ~1e-16).
double log_ratio_to_mode(double share, double u_over, double s_over) {
  return std::fabs(u_over) < 0.5 ? std::log1p(u_over) : std::log(share * s_over);
}

double log_beta_front(double a, double b, double x, double y) {
  const double s = a + b;
  const double u = x * b - y * a;
  return a * log_ratio_to_mode(x, u / a, s / a) + b * log_ratio_to_mode(y, -u / b, s / b) +
         0.5 * std::log(a * b / s) -
         0.5 * std::log(2.0 * std::numbers::pi) - stirling_correction(a) - stirling_correction(b) +
         stirling_correction(s);
}

void check_binomial(double n, double p, const char* what) {
  if (!(n >= 0.0 && p >= 0.0 && p <= 1.0) || !std::isfinite(n)) {
    throw std::invalid_argument(std::string(what) + ": needs n >= 0 and 0 <= p <= 1");
  }
}

void check_bound_inputs(double successes, double trials, double tail) {
  if (!(trials >= 1.0 && trials <= kLargestExactTrials && trials == std::floor(trials))) {
    throw std::invalid_argument("trials = " + format_value(trials) + ": must be an integer in [1, 10^9]");
  }
  if (!(successes >= 0.0 && successes <= trials && successes == std::floor(successes))) {
    throw std::invalid_argument("successes = " + format_value(successes) + ": must be an integer in [0, trials = " +
                                format_value(trials) + "]");
  }
  if (!(tail > 0.0 && tail <= 0.5)) {
    throw std::invalid_argument("tail = " + format_value(tail) + ": must be in (0, 0.5]");
  }
}

// A starting point for the bound's solve: the Wilson score bound with z from a rational approximation of the normal
// quantile (Acklam's, central region and tails; ~1e-9 relative — only the start depends on it).
double approximate_normal_quantile(double tail) {
  const double p = tail;  // upper tail p <= ½: z = −Φ^{-1}(p)
  if (p < 0.02425) {
    const double q = std::sqrt(-2.0 * std::log(p));
    return -(((((-7.784894002430293e-03 * q - 3.223964580411365e-01) * q - 2.400758277161838e+00) * q -
               2.549732539343734e+00) * q + 4.374664141464968e+00) * q + 2.938163982698783e+00) /
           ((((7.784695709041462e-03 * q + 3.224671290700398e-01) * q + 2.445134137142996e+00) * q +
             3.754408661907416e+00) * q + 1.0);
  }
  const double q = p - 0.5;
  const double r = q * q;
  return -(((((-3.969683028665376e+01 * r + 2.209460984245205e+02) * r - 2.759285104469687e+02) * r +
             1.383577518672690e+02) * r - 3.066479806614716e+01) * r + 2.506628277459239e+00) * q /
         (((((-5.447609879822406e+01 * r + 1.615858368580409e+02) * r - 1.556989798598866e+02) * r +
            6.680131188771972e+01) * r - 1.328068155288572e+01) * r + 1.0);
}

double wilson_start(double successes, double trials, double tail, bool upper) {
  const double z = approximate_normal_quantile(tail);
  const double p = successes / trials;
  const double z2n = z * z / trials;
  const double centre = (p + 0.5 * z2n) / (1.0 + z2n);
  const double half = z * std::sqrt(p * (1.0 - p) / trials + 0.25 * z2n / trials) / (1.0 + z2n);
  return upper ? centre + half : centre - half;
}

// Solves T(x) = tail for x in (0, 1), where T is the lower tail I_x(a, b) (increasing in x) or the upper tail
// 1 − I_x(a, b) (decreasing), by Newton steps on ln T − ln tail kept inside a shrinking bracket (a step that leaves
// it is replaced by a bisection, geometric while the bracket spans orders of magnitude). The beta densities here
// have a, b >= 1, so T is log-concave: its tangent lies above ln T, so every Newton step lands on the side of the root
// where ln T <= ln tail — below the root for the lower tail, above it for the upper, i.e. on the side that widens
// the confidence interval — and converges quadratically from there. The search moves by Halley's steps (cubic) and
// returns a Newton landing once its predicted distance to the root is below a relative 1e-9, without another
// evaluation of the tail.
double solve_beta_tail(double a, double b, bool lower_tail, double tail, double start) {
  const double target = std::log(tail);
  double lo = 0.0;
  double hi = 1.0;
  double x = std::clamp(start, 1e-300, 1.0 - 1e-16);
  if (!(x > 0.0 && x < 1.0) || !std::isfinite(x)) x = 0.5;
  for (int iteration = 0; iteration < 300; ++iteration) {
    const double y = 1.0 - x;
    const BetaTails t = beta_tails(a, b, x, y);
    const double value = lower_tail ? t.lower : t.upper;
    const double f = (value > 0.0 ? std::log(value) : -kInfinity) - target;
    // Move the bracket: the root is where f = 0; f increases in x for the lower tail, decreases for the upper.
    if ((f > 0.0) == lower_tail) {
      hi = x;
    } else {
      lo = x;
    }
    // The tail is then right to a relative 1e-12 (beyond that the incomplete beta's own rounding is all there is).
    if (std::fabs(f) <= 1e-12 || hi - lo <= 1e-13 * hi) break;
    double next = -1.0;
    if (std::isfinite(f)) {
      const double log_density = log_beta_front(a, b, x, y) - std::log(x) - std::log(y);
      const double slope = (lower_tail ? 1.0 : -1.0) * std::exp(log_density - std::log(value));
      if (std::isfinite(slope) && slope != 0.0) {
        const double newton = x - f / slope;
        // f'' = f'·(ln density)' − f'², (ln density)' = (a − 1)/x − (b − 1)/y: Newton's landing is off the root by
        // about |f''/(2f')|·step² (and on the wide side); once that is below a relative 1e-9 it is returned.
        const double curvature = slope * ((a - 1.0) / x - (b - 1.0) / y) - slope * slope;
        const double step = newton - x;
        if (newton > lo && newton < hi && std::fabs(curvature / (2.0 * slope)) * step * step <= 1e-9 * newton) {
          return newton;
        }
        // Otherwise Halley's step (cubic convergence; its side is not known, so it only moves the search).
        const double denominator = 2.0 * slope * slope - f * curvature;
        const double halley = denominator != 0.0 ? x - 2.0 * f * slope / denominator : newton;
        next = halley > lo && halley < hi && std::isfinite(halley) ? halley : newton;
      }
    }
    if (!(next > lo && next < hi)) next = lo > 0.0 && hi / lo > 4.0 ? std::sqrt(lo * hi) : 0.5 * (lo + hi);
    if (lo == 0.0 && !(next > 0.0)) next = 0.5 * hi;
    if (std::fabs(next - x) <= 1e-13 * x) {
      x = next;
      break;
    }
    x = next;
  }
  return x;
}

// Bernoulli relative entropy kl(p ‖ q), with 0·ln 0 = 0 and +∞ where q excludes part of p.
double bernoulli_kl(double p, double q) {
  double out = 0.0;
  if (p > 0.0) out += q > 0.0 ? p * std::log(p / q) : kInfinity;
  if (p < 1.0) out += q < 1.0 ? (1.0 - p) * std::log((1.0 - p) / (1.0 - q)) : kInfinity;
  return out;
}

void check_mean_inputs(double mean, double n, double tail) {
  if (!(mean >= 0.0 && mean <= 1.0)) {
    throw std::invalid_argument("mean = " + format_value(mean) + ": must be in [0, 1]");
  }
  if (!(n >= 1.0 && std::isfinite(n))) throw std::invalid_argument("n = " + format_value(n) + ": must be >= 1");
  if (!(tail > 0.0 && tail <= 0.5)) {
    throw std::invalid_argument("tail = " + format_value(tail) + ": must be in (0, 0.5]");
  }
}

// The end of {μ : n·kl(mean ‖ μ) <= budget} on one side of the mean, by bisection (kl grows monotonically away from
// the mean on each side).
double kl_bound(double mean, double n, double tail, bool upper) {
  const double budget = std::log(1.0 / tail) / n;
  double inside = mean;
  double outside = upper ? 1.0 : 0.0;
  if (bernoulli_kl(mean, outside) <= budget) return outside;
  // To a relative 1e-10 of the distance to the mean; the outer end is returned: never narrower than the exact bound.
  for (int i = 0; i < 200 && std::fabs(outside - inside) > 1e-10 * std::fabs(outside - mean) + 1e-300; ++i) {
    const double mid = 0.5 * (inside + outside);
    if (mid == inside || mid == outside) break;
    if (bernoulli_kl(mean, mid) <= budget) {
      inside = mid;
    } else {
      outside = mid;
    }
  }
  return outside;  // the side where the bound is certainly not narrower than the exact one
}

}  // namespace

BetaTails beta_tails(double a, double b, double x, double y) {
  if (x <= 0.0) return {0.0, 1.0};
  if (y <= 0.0) return {1.0, 0.0};
  const double log_front = log_beta_front(a, b, x, y);
  if (x < (a + 1.0) / (a + b + 2.0)) {
    const double lower = std::exp(log_front) * beta_continued_fraction(a, b, x, y) / a;
    return {lower, 1.0 - lower};
  }
  const double upper = std::exp(log_front) * beta_continued_fraction(b, a, y, x) / b;
  return {1.0 - upper, upper};
}

double regularized_incomplete_beta(double a, double b, double x) {
  if (!(a > 0.0 && b > 0.0 && x >= 0.0 && x <= 1.0)) {
    throw std::invalid_argument("regularized_incomplete_beta: needs a > 0, b > 0, 0 <= x <= 1");
  }
  return beta_tails(a, b, x, 1.0 - x).lower;
}

double binomial_cdf(double k, double n, double p) {
  check_binomial(n, p, "binomial_cdf");
  k = std::floor(k);
  if (k < 0.0) return 0.0;
  if (k >= n) return 1.0;
  return beta_tails(n - k, k + 1.0, 1.0 - p, p).lower;
}

double binomial_sf(double k, double n, double p) {
  check_binomial(n, p, "binomial_sf");
  k = std::floor(k);
  if (k < 0.0) return 1.0;
  if (k >= n) return 0.0;
  return beta_tails(k + 1.0, n - k, p, 1.0 - p).lower;
}

double binomial_pmf(double k, double n, double p) {
  check_binomial(n, p, "binomial_pmf");
  if (k < 0.0 || k > n || k != std::floor(k)) return 0.0;
  if (p == 0.0) return k == 0.0 ? 1.0 : 0.0;
  if (p == 1.0) return k == n ? 1.0 : 0.0;
  return std::exp(std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0) + k * std::log(p) +
                  (n - k) * std::log1p(-p));
}

// C(n, k) p^k q^{n−k} = p^{k+1} q^{n−k+1} / B(k + 1, n − k + 1) / ((n + 1) p q).
double binomial_log_pmf(double k, double n, double p, double q) {
  return log_beta_front(k + 1.0, n - k + 1.0, p, q) - std::log(n + 1.0) - std::log(p) - std::log(q);
}

// P_p(X >= s) = I_p(s, n − s + 1): the lower bound solves it for p (lower tail of Beta(s, n − s + 1)).
double binomial_lower_bound(double successes, double trials, double tail) {
  check_bound_inputs(successes, trials, tail);
  if (successes == 0.0) return 0.0;
  const double start = wilson_start(successes, trials, tail, false);
  const double p = solve_beta_tail(successes, trials - successes + 1.0, true, tail, start);
  return std::max(0.0, p * (1.0 - 1e-8));
}

// P_p(X <= s) = 1 − I_p(s + 1, n − s): the upper bound solves the upper tail of Beta(s + 1, n − s) for p.
double binomial_upper_bound(double successes, double trials, double tail) {
  check_bound_inputs(successes, trials, tail);
  if (successes == trials) return 1.0;
  const double start = wilson_start(successes, trials, tail, true);
  const double p = solve_beta_tail(successes + 1.0, trials - successes, false, tail, start);
  return std::min(1.0, p * (1.0 + 1e-8));
}

double bounded_mean_lower_bound(double mean, double n, double tail) {
  check_mean_inputs(mean, n, tail);
  return std::max(0.0, kl_bound(mean, n, tail, false) - 1e-12);
}

double bounded_mean_upper_bound(double mean, double n, double tail) {
  check_mean_inputs(mean, n, tail);
  return std::min(1.0, kl_bound(mean, n, tail, true) + 1e-12);
}

}  // namespace privsample
