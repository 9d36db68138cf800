#include "model/discrete_draws.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "base/errors.hpp"
#include "base/numeric.hpp"
#include "model/histogram.hpp"

namespace privsample {
namespace {

// Below this mean n·min(p, 1−p) the cdf search is cheap (expected <= 21 steps) and q^n cannot underflow
// (q >= ½ and n·p < 20 give q^n >= e^{−28}).
constexpr double kInversionMean = 20.0;

// Bin(n, p) for p <= ½ by sequential search of the cdf: f(x+1)/f(x) = ((n+1)/x' − 1)·p/q with x' = x + 1.
std::uint64_t binomial_inversion(RandomBits& bits, std::uint64_t n, double p) {
  const double q = 1.0 - p;
  const double s = p / q;
  const double a = (static_cast<double>(n) + 1.0) * s;
  const double r0 = std::exp(static_cast<double>(n) * std::log1p(-p));
  for (;;) {
    double u = uniform01(bits);
    double r = r0;
    std::uint64_t x = 0;
    while (u >= r) {
      u -= r;
      ++x;
      if (x > n || r <= 0.0) break;  // rounding left u above the last cdf step: draw again
      r *= a / static_cast<double>(x) - s;
    }
    if (x <= n && u < r) return x;
  }
}

// Stirling's remainder δ(j) = ln j! − ((j + ½)·ln(j + 1) − (j + 1) + ½·ln 2π): the exact values below 10, above them
// the series 1/(12x) − 1/(360x³) + 1/(1260x⁵) − 1/(1680x⁷) + 1/(1188x⁹) in x = j + 1 (its first omitted term is below
// 1e-14 there).
double stirling_remainder(double j) {
  static constexpr std::array<double, 10> kSmall{0.08106146679532726, 0.04134069595540929, 0.02767792568499834,
                                                 0.02079067210376509, 0.01664469118982119, 0.01387612882307075,
                                                 0.01189670994589177, 0.01041126526197209, 0.009255462182712733,
                                                 0.008330563433362871};
  if (j < 10.0) return kSmall[static_cast<std::size_t>(j)];
  const double x = j + 1.0;
  const double x2 = x * x;
  return (1.0 / 12.0 - (1.0 / 360.0 - (1.0 / 1260.0 - (1.0 / 1680.0 - 1.0 / (1188.0 * x2)) / x2) / x2) / x2) / x;
}

// Bin(n, p) for p <= ½ and n·p >= kInversionMean by Hörmann's transformed rejection with squeeze (BTRS: "The
// generation of binomial random variates", J. Stat. Comput. Simul. 46, 1993): O(1) expected work whatever n is (about
// 1.2 pairs of uniforms, most accepted by the squeeze without a logarithm). The acceptance test compares with the log
// of f(k)/f(m), m the mode, written as logs of ratios and Stirling remainders so it keeps its precision for large n.
std::uint64_t binomial_btrs(RandomBits& bits, std::uint64_t count, double p) {
  const double n = static_cast<double>(count);
  const double q = 1.0 - p;
  const double spq = std::sqrt(n * p * q);
  const double b = 1.15 + 2.53 * spq;
  const double a = -0.0873 + 0.0248 * b + 0.01 * p;
  const double c = n * p + 0.5;
  const double v_r = 0.92 - 4.2 / b;
  const double r = p / q;
  const double alpha = (2.83 + 5.1 / b) * spq;
  const double m = std::floor((n + 1.0) * p);
  const double at_mode = (m + 0.5) * std::log((m + 1.0) / (r * (n - m + 1.0))) + stirling_remainder(m) +
                         stirling_remainder(n - m);
  for (;;) {
    const double u = uniform01(bits) - 0.5;
    double v = uniform01(bits);
    const double us = 0.5 - std::fabs(u);
    const double k = std::floor((2.0 * a / us + b) * u + c);
    if (!(k >= 0.0 && k <= n)) continue;  // also us = 0 (u = −½), where k is −∞
    if (us >= 0.07 && v <= v_r) return static_cast<std::uint64_t>(k);
    v = std::log(v * alpha / (a / (us * us) + b));
    const double bound = at_mode + (n + 1.0) * std::log((n - m + 1.0) / (n - k + 1.0)) +
                         (k + 0.5) * std::log(r * (n - k + 1.0) / (k + 1.0)) - stirling_remainder(k) -
                         stirling_remainder(n - k);
    if (v <= bound) return static_cast<std::uint64_t>(k);
  }
}

double standard_normal(RandomBits& bits) {
  // Box–Muller with u1 in (0, 1] so the log is finite.
  const double u1 = 1.0 - uniform01(bits);
  const double u2 = uniform01(bits);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

std::vector<double> checked_pmf(std::span<const double> values, std::string_view name) {
  return normalized_pmf(values, name);
}

}  // namespace

std::uint64_t binomial(RandomBits& bits, std::uint64_t n, double p) {
  if (!(p >= 0.0 && p <= 1.0)) {
    throw std::invalid_argument("p = " + format_value(p) + ": a binomial probability must be in [0, 1]");
  }
  bool flipped = false;  // drawing failures instead (p > ½)
  if (p > 0.5) {
    p = 1.0 - p;
    flipped = true;
  }
  std::uint64_t successes = 0;
  if (n > 0 && p > 0.0) {
    successes =
        static_cast<double>(n) * p >= kInversionMean ? binomial_btrs(bits, n, p) : binomial_inversion(bits, n, p);
  }
  return flipped ? n - successes : successes;
}

namespace {

// count_x ~ Bin(n − Σ_{y<x} count_y, p_x / suffix_x) into out. No object with a destructor is alive here, so where
// C++ exceptions are handled on the JavaScript side (Emscripten's -fexceptions) each draw is a direct call, not a
// trip through a JavaScript invoke_* wrapper, which a live vector in the caller's frame would force on every draw.
[[gnu::noinline]] void sequential_binomials(RandomBits& bits, std::uint64_t n, std::span<const double> p,
                                            std::span<const double> suffix, std::span<std::uint64_t> out) {
  std::uint64_t left = n;
  for (std::size_t x = 0; x < p.size() && left > 0; ++x) {
    if (x + 1 == p.size()) {
      out[x] = left;
      break;
    }
    const double conditional = suffix[x] > 0.0 ? std::clamp(p[x] / suffix[x], 0.0, 1.0) : 0.0;
    out[x] = binomial(bits, left, conditional);
    left -= out[x];
  }
}

}  // namespace

std::vector<std::uint64_t> multinomial(RandomBits& bits, std::uint64_t n, std::span<const double> probs) {
  const std::vector<double> p = checked_pmf(probs, "probs");
  std::vector<std::uint64_t> out(p.size(), 0);
  // Suffix masses, so the conditional probability p_x / Σ_{y>=x} p_y is computed without cancellation.
  std::vector<double> suffix(p.size() + 1, 0.0);
  for (std::size_t x = p.size(); x-- > 0;) suffix[x] = suffix[x + 1] + p[x];
  sequential_binomials(bits, n, p, suffix, out);
  return out;
}

double gamma_draw(RandomBits& bits, double shape) {
  if (!(shape > 0.0) || !std::isfinite(shape)) {
    throw std::invalid_argument("shape = " + format_value(shape) + ": a gamma shape must be finite and > 0");
  }
  if (shape < 1.0) {
    // G(a) = G(a + 1)·U^{1/a} (Marsaglia & Tsang 2000, §6); U in (0, 1].
    const double u = 1.0 - uniform01(bits);
    return gamma_draw(bits, shape + 1.0) * std::pow(u, 1.0 / shape);
  }
  const double d = shape - 1.0 / 3.0;
  const double c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    const double x = standard_normal(bits);
    const double t = 1.0 + c * x;
    if (t <= 0.0) continue;
    const double v = t * t * t;
    const double u = uniform01(bits);
    if (u < 1.0 - 0.0331 * x * x * x * x) return d * v;
    if (std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v))) return d * v;
  }
}

std::vector<double> dirichlet(RandomBits& bits, std::span<const double> alpha) {
  std::vector<double> g(alpha.size(), 0.0);
  double total = 0.0;
  for (std::size_t i = 0; i < alpha.size(); ++i) {
    if (!std::isfinite(alpha[i]) || alpha[i] < 0.0) {
      throw std::invalid_argument("alpha[" + std::to_string(i) + "] = " + format_value(alpha[i]) +
                                  ": Dirichlet parameters must be finite and >= 0");
    }
    if (alpha[i] > 0.0) g[i] = gamma_draw(bits, alpha[i]);
    total += g[i];
  }
  if (!(total > 0.0)) {
    // Every gamma underflowed (tiny shapes): the limit is a point mass at a coordinate drawn ∝ alpha.
    g[DiscreteSampler(alpha).draw(bits)] = 1.0;
    return g;
  }
  for (double& v : g) v /= total;
  return g;
}

}  // namespace privsample
