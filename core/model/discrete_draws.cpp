#include "model/discrete_draws.hpp"

#include <algorithm>
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

double standard_normal(RandomBits& bits) {
  // Box–Muller with u1 in (0, 1] so the log is finite.
  const double u1 = 1.0 - uniform01(bits);
  const double u2 = uniform01(bits);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

double beta_draw(RandomBits& bits, double a, double b) {
  const double x = gamma_draw(bits, a);
  const double y = gamma_draw(bits, b);
  return x / (x + y);
}

std::vector<double> checked_pmf(std::span<const double> values, std::string_view name) {
  return normalized_pmf(values, name);
}

}  // namespace

std::uint64_t binomial(RandomBits& bits, std::uint64_t n, double p) {
  if (!(p >= 0.0 && p <= 1.0)) {
    throw std::invalid_argument("p = " + format_value(p) + ": a binomial probability must be in [0, 1]");
  }
  std::uint64_t below = 0;  // successes already accounted for
  bool flipped = false;     // drawing failures instead (p > ½)
  if (p > 0.5) {
    p = 1.0 - p;
    flipped = true;
  }
  const std::uint64_t total = n;
  // Knuth's splitting: the a-th smallest of n uniforms is X ~ Beta(a, n + 1 − a). If X >= p the successes are among
  // the a − 1 smaller ones, uniform on [0, X): Bin(a − 1, p/X). Otherwise a successes plus Bin(n − a, (p − X)/(1 − X)).
  while (n > 0 && p > 0.0 && static_cast<double>(n) * std::min(p, 1.0 - p) >= kInversionMean) {
    const std::uint64_t a = 1 + n / 2;
    const std::uint64_t b = n + 1 - a;
    const double x = beta_draw(bits, static_cast<double>(a), static_cast<double>(b));
    if (x >= p) {
      n = a - 1;
      p = p / x;
    } else {
      below += a;
      n = b - 1;
      p = (p - x) / (1.0 - x);
    }
    p = std::clamp(p, 0.0, 1.0);
  }
  std::uint64_t rest = 0;
  if (n > 0 && p > 0.0) {
    rest = p <= 0.5 ? binomial_inversion(bits, n, p) : n - binomial_inversion(bits, n, 1.0 - p);
  }
  const std::uint64_t successes = below + rest;
  return flipped ? total - successes : successes;
}

std::vector<std::uint64_t> multinomial(RandomBits& bits, std::uint64_t n, std::span<const double> probs) {
  const std::vector<double> p = checked_pmf(probs, "probs");
  std::vector<std::uint64_t> out(p.size(), 0);
  // Suffix masses, so the conditional probability p_x / Σ_{y>=x} p_y is computed without cancellation.
  std::vector<double> suffix(p.size() + 1, 0.0);
  for (std::size_t x = p.size(); x-- > 0;) suffix[x] = suffix[x + 1] + p[x];
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
