#pragma once
// Test helpers shared by the record-level mechanisms' tests (roo/, ds-roo/, laplace-projection/, records_test.cpp):
// printed-digit checks, every histogram of n records, exact released laws and a replace-one audit, a chi-square test.
#include "privsample.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/divergence.hpp"
#include "privacy/privacy.hpp"
#include "base/randomness.hpp"


namespace privsample::records_test {

// "To the printed digits": |computed − printed| <= half a unit of the last printed digit.
inline void check_printed(double computed, double printed, int digits) {
  const double half_unit = 0.5 * std::pow(10.0, -digits);
  INFO("computed " << std::to_string(computed) << " (" << computed << "), printed " << printed);
  CHECK(std::fabs(computed - printed) <= half_unit * (1.0 + 1e-9) + 1e-13);
}

inline void check_rational(double computed, double numerator, double denominator) {
  const double exact = numerator / denominator;
  INFO("computed " << computed << ", exact " << numerator << "/" << denominator << " = " << exact);
  CHECK(std::fabs(computed - exact) <= 1e-12 * std::max(1.0, std::fabs(exact)));
}

// Every histogram of n records over k letters (compositions of n into k parts, zeros allowed).
inline void
compositions(std::size_t k, std::size_t n, std::vector<double>& current, std::vector<std::vector<double>>& out) {
  if (current.size() + 1 == k) {
    current.push_back(static_cast<double>(n));
    out.push_back(current);
    current.pop_back();
    return;
  }
  for (std::size_t c = 0; c <= n; ++c) {
    current.push_back(static_cast<double>(c));
    compositions(k, n - c, current, out);
    current.pop_back();
  }
}

inline std::vector<std::vector<double>> all_histograms(std::size_t k, std::size_t n) {
  std::vector<std::vector<double>> out;
  std::vector<double> current;
  compositions(k, n, current, out);
  return out;
}

inline std::uint64_t key_of(const std::vector<double>& counts, std::size_t n) {
  std::uint64_t key = 0;
  for (const double c : counts) key = key * (n + 1) + static_cast<std::uint64_t>(c);
  return key;
}

struct Audit {
  std::size_t violations = 0;
  std::size_t checks = 0;
  long double max_ratio = 0.0L;  // max over neighbours and outputs of Pr(y|x)/Pr(y|x̃)
  double max_log_ratio = 0.0;    // its logarithm
};

// Exhaustive replace-one audit, without slack: every histogram x of n records over k letters, every move of one
// record from letter a to letter b (x̃), every output y: Pr(y|x) <= e^ε·Pr(y|x̃), compared in long double (64-bit
// significand here: its rounding, ~1e-19 relative, is far below the margin the samplers keep). The reverse direction
// is the move b → a from x̃, so both directions are covered. law(counts) returns the output pmf, as doubles (what
// distribution() returns) or long doubles (the released law evaluated from the q a draw uses).
template <class Law>
Audit audit(std::size_t k, std::size_t n, double epsilon, Law&& law) {
  const std::vector<std::vector<double>> histograms = all_histograms(k, n);
  std::unordered_map<std::uint64_t, std::size_t> index;
  std::vector<std::vector<long double>> output(histograms.size());
  for (std::size_t i = 0; i < histograms.size(); ++i) {
    index.emplace(key_of(histograms[i], n), i);
    const auto pmf = law(histograms[i]);
    output[i].assign(pmf.begin(), pmf.end());
  }
  const long double bound = std::exp(static_cast<long double>(epsilon));
  Audit result;
  std::vector<double> neighbour;
  for (std::size_t i = 0; i < histograms.size(); ++i) {
    for (std::size_t a = 0; a < k; ++a) {
      if (histograms[i][a] == 0.0) continue;
      for (std::size_t b = 0; b < k; ++b) {
        if (b == a) continue;
        neighbour = histograms[i];
        neighbour[a] -= 1.0;
        neighbour[b] += 1.0;
        const std::vector<long double>& p = output[i];
        const std::vector<long double>& p_tilde = output[index.at(key_of(neighbour, n))];
        for (std::size_t y = 0; y < k; ++y) {
          ++result.checks;
          if (!(p[y] <= bound * p_tilde[y])) ++result.violations;
          if (p[y] > 0.0L) {
            const long double ratio =
                p_tilde[y] > 0.0L ? p[y] / p_tilde[y] : std::numeric_limits<long double>::infinity();
            result.max_ratio = std::max(result.max_ratio, ratio);
          }
        }
      }
    }
  }
  result.max_log_ratio = static_cast<double>(std::log(result.max_ratio));
  return result;
}

// The law a release draws from: an exact Bernoulli(q) coin on the double q, a uniform letter, a uniform record —
// Pr(y) = q/k + (1 − q)·c_y/n, here in long double.
inline std::vector<long double> released_law(double q, const std::vector<double>& counts, std::size_t n) {
  const long double ql = q;
  const auto k = static_cast<long double>(counts.size());
  std::vector<long double> out(counts.size());
  for (std::size_t y = 0; y < counts.size(); ++y) {
    out[y] = ql / k + (1.0L - ql) * static_cast<long double>(counts[y]) / static_cast<long double>(n);
  }
  return out;
}

// Pr(y|x) = q/k + (1−q)c_y/n with q from a given table at the minimum count (the printed algorithm).
inline std::vector<double>
table_mixture(const std::vector<double>& table, const std::vector<double>& counts, double n) {
  const double m = *std::min_element(counts.begin(), counts.end());
  const double q = table.at(static_cast<std::size_t>(m));
  const double k = static_cast<double>(counts.size());
  std::vector<double> out(counts.size());
  for (std::size_t y = 0; y < counts.size(); ++y) out[y] = q / k + (1.0 - q) * counts[y] / n;
  return out;
}

// Regularised upper incomplete gamma Q(a, x) (series / Lentz continued fraction).
inline double gamma_q(double a, double x) {
  if (x <= 0.0) return 1.0;
  const double log_prefactor = -x + a * std::log(x) - std::lgamma(a);
  if (x < a + 1.0) {
    double ap = a;
    double term = 1.0 / a;
    double sum = term;
    for (int i = 0; i < 10000; ++i) {
      ap += 1.0;
      term *= x / ap;
      sum += term;
      if (std::fabs(term) < std::fabs(sum) * 1e-16) break;
    }
    return 1.0 - sum * std::exp(log_prefactor);
  }
  const double tiny = 1e-300;
  double b = x + 1.0 - a;
  double c = 1.0 / tiny;
  double d = 1.0 / b;
  double h = d;
  for (int i = 1; i < 10000; ++i) {
    const double an = -i * (i - a);
    b += 2.0;
    d = an * d + b;
    if (std::fabs(d) < tiny) d = tiny;
    c = b + an / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1.0 / d;
    const double delta = d * c;
    h *= delta;
    if (std::fabs(delta - 1.0) < 1e-16) break;
  }
  return std::exp(log_prefactor) * h;
}

// Pearson chi-square p-value of observed frequencies against a pmf (every expected count must be >= 5).
inline double chi_square_p_value(const std::vector<std::size_t>& observed, const std::vector<double>& pmf) {
  std::size_t total = 0;
  for (const std::size_t o : observed) total += o;
  double statistic = 0.0;
  for (std::size_t y = 0; y < observed.size(); ++y) {
    const double expected = pmf[y] * static_cast<double>(total);
    REQUIRE(expected >= 5.0);
    const double diff = static_cast<double>(observed[y]) - expected;
    statistic += diff * diff / expected;
  }
  const double df = static_cast<double>(observed.size() - 1);
  return gamma_q(df / 2.0, statistic / 2.0);
}

template <class Sampler>
inline std::vector<std::size_t>
frequencies(const Sampler& sampler, const std::vector<double>& counts, std::size_t draws,
                                     std::uint64_t seed) {
  SeededRandom rng(seed);
  std::vector<std::size_t> out(counts.size(), 0);
  for (std::size_t t = 0; t < draws; ++t) ++out.at(sampler.sample(counts, rng));
  return out;
}

inline bool all_finite(const std::vector<double>& values) {
  return std::all_of(values.begin(), values.end(), [](double v) { return std::isfinite(v); });
}

}  // namespace privsample::records_test
