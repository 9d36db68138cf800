#pragma once
// Shared helpers of the native test suite: test inputs, independent reference solvers, statistics.
// Everything here is written from the papers (as docs/ states them), not from the implementation, so it can
// serve as an oracle.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <limits>
#include <numeric>
#include <random>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "model/divergence.hpp"
#include "base/randomness.hpp"

namespace privsample_test {

// Failure messages show doubles to full precision (the defaults print 1e-14 as 0.0).
inline const bool kFullPrecision = [] {
  Catch::StringMaker<double>::precision = 17;
  Catch::StringMaker<float>::precision = 9;
  return true;
}();

// A seeded generator that counts the 64-bit words drawn from it (for tests of how many random words a draw takes).
struct CountingBits final : privsample::RandomBits {
  explicit CountingBits(std::uint64_t seed) : inner(seed) {}
  std::uint64_t next_u64() override {
    ++words;
    return inner.next_u64();
  }
  privsample::SeededRandom inner;
  std::uint64_t words = 0;
};

// Histograms of many shapes for tests that compare two paths bit for bit (k >= 1 entries >= 0, at least one > 0),
// as the solver's digest makes them (tests/digest/): dense, sparse, a point mass, equal, exponents over ±700, counts,
// subnormal masses next to ordinary ones, a few large atoms among many tiny ones (shapes 0–7); counts near the largest
// double (their total overflows), subnormal counts alone, quotients that underflow to 0 next to a huge count, −0
// counts, 1e-320 beside 1e-310, near-uniform, large integer counts, a handful of counts (8–15); rescaled totals and
// more of the same kinds (16–20); sums that round a lot, −0 among integer counts, tiny next to huge, one 1 among
// subnormals, exact ties in every lane (21–25).
inline constexpr int kHistogramShapes = 26;
inline std::vector<double> shaped_histogram(std::mt19937_64& rng, std::size_t k, int shape) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  constexpr double tiny = std::numeric_limits<double>::denorm_min();
  std::vector<double> h(k, 0.0);
  for (std::size_t i = 0; i < k; ++i) {
    const double u = unit(rng);
    const std::uint64_t j = rng();
    const auto n = [&](std::uint64_t m) { return static_cast<double>(j % m); };
    const auto spread = [&](int width) { return static_cast<int>(j % static_cast<std::uint64_t>(2 * width)) - width; };
    switch (shape) {
      case 0: h[i] = u; break;
      case 1: h[i] = j % 8 == 0 ? u : 0.0; break;
      case 2: h[i] = i == j % k ? 1.0 : 0.0; break;
      case 3: h[i] = 1.0; break;
      case 4: h[i] = std::ldexp(0.5 + u, spread(700)); break;
      case 5: h[i] = n(10); break;
      case 6: h[i] = std::ldexp(u, j % 2 == 0 ? -1060 : 0); break;
      case 7: h[i] = j % 16 == 0 ? 1.0 + u : std::ldexp(u, -40); break;
      case 8: h[i] = std::ldexp(0.5 + 0.5 * u, 1024 - 1); break;
      case 9: h[i] = tiny * n(1000); break;
      case 10: h[i] = j % 64 == 0 ? 1e300 : (j % 2 == 0 ? 1e-300 * (1.0 + u) : 0.0); break;
      case 11: h[i] = j % 3 == 0 ? -0.0 : u; break;
      case 12: h[i] = i == j % k ? 1e-310 : 1e-320 * n(7); break;
      case 13: h[i] = 1.0 + 1e-3 * u; break;
      case 14: h[i] = 1e15 + n(1'000'000); break;
      case 15: h[i] = j % (k / 4 + 1) == 0 ? u : 0.0; break;
      case 16: h[i] = j % 16 == 0 ? u : 0.0; break;
      case 17: h[i] = std::ldexp(0.5 + u, spread(1000)); break;
      case 18: h[i] = tiny * n(50); break;
      case 19: h[i] = j % 5 == 0 ? 1e300 : 1e-300; break;
      case 20: h[i] = n(4); break;
      case 21: h[i] = std::ldexp(0.5 + u, spread(450)); break;
      case 22: h[i] = j % 7 == 0 ? -0.0 : n(1000); break;
      case 23: h[i] = j % 2 == 0 ? 1e100 * u : 1e-100 * u; break;
      case 24: h[i] = i == 0 ? 1.0 : tiny * n(3); break;
      default: h[i] = i % 4 == 0 ? 1.0 : 0x1p-53; break;
    }
  }
  if (!(*std::max_element(h.begin(), h.end()) > 0.0)) h[0] = 1.0;
  return h;
}

inline constexpr double kInf = std::numeric_limits<double>::infinity();
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The ε grid of the issue.
inline const std::vector<double>& epsilon_grid() {
  static const std::vector<double> grid{0.0, 1e-6, 0.1, 1.0, 10.0, 700.0, 1000.0};
  return grid;
}

// a <= e^ε·b for the doubles a, b >= 0 as real numbers, with no slack: E = exp(ε) one ulp down (floored at 1) is
// at most e^ε (std::exp is within an ulp), and a <= E·b is decided with the product's exact rounding error (fma)
// and an exact difference (Sterbenz) where the two are close.
inline bool within_ratio(double a, double b, double epsilon) {
  const double e = std::max(1.0, std::nextafter(std::exp(std::min(epsilon, 700.0)), 0.0));
  const double p = e * b;
  const double error = std::fma(e, b, -p);  // E·b = p + error exactly
  if (a == p) return error >= 0.0;
  if (a < p) return a <= 0.5 * p || a - p <= error;
  return a <= 2.0 * p && a - p <= error;
}

// An exact sum of doubles (Shewchuk's grow-expansion: TwoSum against every part kept so far; the parts stay
// non-overlapping and ordered by magnitude, so the last non-zero one has the total's sign). Valid without overflow and
// for products of doubles above ~1e-290 (the products are split by fma, exact there).
class ExpansionSum {
 public:
  void add(double x) {
    for (double& part : parts_) {
      const double s = x + part;
      const double b = s - x;
      part = (x - (s - b)) + (part - b);
      x = s;
    }
    parts_.push_back(x);
  }
  void add_product(double a, double b) {
    const double p = a * b;
    add(p);
    add(std::fma(a, b, -p));
  }
  [[nodiscard]] int sign() const {
    for (auto part = parts_.rbegin(); part != parts_.rend(); ++part) {
      if (*part != 0.0) return *part > 0.0 ? 1 : -1;
    }
    return 0;
  }

 private:
  std::vector<double> parts_;
};

// Σ_x max(0, a_x − e^ε·b_x) <= δ for the doubles a, b as real numbers, with no slack: E = exp(ε) one ulp down (at most
// e^ε, as within_ratio) only overstates every term, and the terms and their total are summed exactly (ExpansionSum).
//
// A screen in double decides first where it can: each term a − e·b is computed with an error of at most
// 2u·(a + 2e·b) (u = 2^-53: one rounding of the product, one of the difference), so a term whose double lies below
// minus that bound is certainly negative and skipped, and the sum of the others carries at most the sum of their
// bounds plus the summation's own rounding (count·u·sum) and 2^-1074 per product that may have underflowed. Only a
// total within that error of δ goes to the exact sum (the expansion grows with the terms: slow over thousands).
inline bool hockey_stick_within_exact(std::span<const double> a, std::span<const double> b, double epsilon,
                                      double delta);
inline bool hockey_stick_within(std::span<const double> a, std::span<const double> b, double epsilon, double delta) {
  const double e = std::max(1.0, std::nextafter(std::exp(std::min(epsilon, 700.0)), 0.0));
  constexpr double u = 0x1p-53;
  double screened = 0.0;
  double error = 0.0;
  double counted = 0.0;
  for (std::size_t x = 0; x < a.size(); ++x) {
    const double eb = e * b[x];
    const double term = a[x] - eb;
    const double bound = 2.0 * u * (a[x] + 2.0 * eb) + 0x1p-1073;
    if (!(term > -bound)) continue;  // certainly negative (a NaN or infinite bound falls through to the exact sum)
    screened += std::max(term, 0.0);
    error += bound;
    counted += 1.0;
  }
  error = (error + (counted + 2.0) * u * screened) * (1.0 + 8.0 * u);
  if (std::isfinite(error) && (screened + error) * (1.0 + 4.0 * u) <= delta) return true;
  if (std::isfinite(error) && (screened - error) * (1.0 - 4.0 * u) > delta) return false;
  return hockey_stick_within_exact(a, b, epsilon, delta);
}

// The same test by the exact sum alone (what the screen above must agree with).
inline bool hockey_stick_within_exact(std::span<const double> a, std::span<const double> b, double epsilon,
                                      double delta) {
  const double e = std::max(1.0, std::nextafter(std::exp(std::min(epsilon, 700.0)), 0.0));
  ExpansionSum total;
  total.add(-delta);
  for (std::size_t x = 0; x < a.size(); ++x) {
    ExpansionSum term;
    term.add(a[x]);
    term.add_product(-e, b[x]);
    if (term.sign() <= 0) continue;
    total.add(a[x]);
    total.add_product(-e, b[x]);
  }
  return total.sign() <= 0;
}

inline std::vector<double> point_mass(std::size_t k, std::size_t x, double mass = 1.0) {
  std::vector<double> p(k, 0.0);
  p[x] = mass;
  return p;
}

inline std::vector<double> uniform(std::size_t k) { return std::vector<double>(k, 1.0 / static_cast<double>(k)); }

// A random pmf: Exp(1) masses (a uniform draw from the simplex), each zero with probability zero_probability
// (a point mass on 0 if all are zero).
inline std::vector<double> random_pmf(std::size_t k, std::mt19937_64& rng, double zero_probability) {
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  std::vector<double> p(k);
  double total = 0.0;
  for (double& v : p) {
    v = u01(rng) < zero_probability ? 0.0 : -std::log(1.0 - u01(rng));
    total += v;
  }
  if (total == 0.0) {
    p[0] = 1.0;
    total = 1.0;
  }
  for (double& v : p) v /= total;
  return p;
}

// "To the printed digits": |computed − printed| <= half a unit of the last printed digit.
inline double half_unit(int digits) { return 0.5 * std::pow(10.0, -digits) + 1e-12; }

// ---- f-divergences beyond the named four ---------------------------------------------------------------------

// Jensen–Shannon: f(x) = ½[x log(2x/(x+1)) + log(2/(x+1))]; f(0) = f*(0) = ½ log 2.
inline privsample::FDivergence jensen_shannon() {
  return {[](double x) {
            if (x == 0.0) return 0.5 * std::log(2.0);
            return 0.5 * (x * std::log(2.0 * x / (x + 1.0)) + std::log(2.0 / (x + 1.0)));
          },
          0.5 * std::log(2.0), 0.5 * std::log(2.0)};
}

// Le Cam / triangular discrimination: f(x) = (x−1)²/(x+1) = x − 3 + 4/(x+1); f(0) = 1, f*(0) = 1.
inline privsample::FDivergence le_cam() {
  return {[](double x) { return (x - 1.0) * (x - 1.0) / (x + 1.0); }, 1.0, 1.0};
}

// f(x) = x log x − x + 1 (KL plus a linear term: the same divergence on pmfs, different f(0) = 1).
inline privsample::FDivergence shifted_kl() {
  return {[](double x) { return x == 0.0 ? 1.0 : x * std::log(x) - x + 1.0; }, 1.0, kInf};
}

// ---- reference solvers ----------------------------------------------------------------------------------------

// clip-normalise by brute force in long double (docs/solvers/clip-normalise.md): Case B and the
// point box in closed form, Case A by 400 bisection steps on log s over the whole breakpoint range.
struct ReferenceClip {
  std::vector<long double> q;
  enum class Kind { root, sparse, point } kind = Kind::root;
  long double scale = 0.0L;
  long double lo_total = 0.0L;    // Σ lo
  long double f_infinity = 0.0L;  // F(s → ∞) = Σ_{p>0} hi + Σ_{p=0} lo (after zeroing p where hi = 0)
};

inline ReferenceClip reference_clip(std::span<const double> p_in, std::span<const double> lo,
                                    std::span<const double> hi) {
  const std::size_t k = p_in.size();
  std::vector<long double> p(k);
  for (std::size_t x = 0; x < k; ++x) p[x] = hi[x] == 0.0 ? 0.0L : static_cast<long double>(p_in[x]);
  ReferenceClip out;
  out.q.assign(k, 0.0L);
  long double lo_total = 0.0L;
  long double f_infinity = 0.0L;  // F(s → ∞)
  for (std::size_t x = 0; x < k; ++x) {
    lo_total += lo[x];
    f_infinity += p[x] > 0.0L ? static_cast<long double>(hi[x]) : static_cast<long double>(lo[x]);
  }
  out.lo_total = lo_total;
  out.f_infinity = f_infinity;
  if (lo_total >= 1.0L) {
    out.kind = ReferenceClip::Kind::point;
    for (std::size_t x = 0; x < k; ++x) out.q[x] = lo[x];
    return out;
  }
  if (f_infinity < 1.0L) {
    out.kind = ReferenceClip::Kind::sparse;
    out.scale = std::numeric_limits<long double>::infinity();
    long double room = 0.0L;
    for (std::size_t x = 0; x < k; ++x) {
      if (p[x] == 0.0L) room += static_cast<long double>(hi[x]) - lo[x];
    }
    const long double theta = room > 0.0L ? std::min(1.0L, (1.0L - f_infinity) / room) : 0.0L;
    for (std::size_t x = 0; x < k; ++x) {
      out.q[x] = p[x] > 0.0L ? static_cast<long double>(hi[x])
                             : static_cast<long double>(lo[x]) + theta * (static_cast<long double>(hi[x]) - lo[x]);
    }
    return out;
  }
  long double smallest = std::numeric_limits<long double>::infinity();
  long double largest = 0.0L;
  for (std::size_t x = 0; x < k; ++x) {
    if (p[x] <= 0.0L) continue;
    for (const long double bound : {static_cast<long double>(lo[x]), static_cast<long double>(hi[x])}) {
      if (bound <= 0.0L) continue;
      smallest = std::min(smallest, bound / p[x]);
      largest = std::max(largest, bound / p[x]);
    }
  }
  auto total = [&](long double s) {
    long double sum = 0.0L;
    for (std::size_t x = 0; x < k; ++x) sum += std::clamp(s * p[x], static_cast<long double>(lo[x]),
                                                           static_cast<long double>(hi[x]));
    return sum;
  };
  long double a = std::log(smallest) - 1.0L;  // below every breakpoint; F(e^a) < 1 once a is small enough
  long double b = std::log(largest) + 1.0L;   // above every breakpoint: F(e^b) = F(∞) >= 1
  // atoms with lo = 0 scale all the way down, so the root can lie below every breakpoint; as s → 0,
  // F(s) → Σlo < 1
  for (int i = 0; i < 1000 && total(std::exp(a)) >= 1.0L; ++i) a -= 16.0L;
  for (int i = 0; i < 400; ++i) {
    const long double mid = 0.5L * (a + b);
    if (total(std::exp(mid)) < 1.0L) {
      a = mid;
    } else {
      b = mid;
    }
  }
  out.scale = std::exp(b);
  for (std::size_t x = 0; x < k; ++x) {
    out.q[x] = std::clamp(out.scale * p[x], static_cast<long double>(lo[x]), static_cast<long double>(hi[x]));
  }
  return out;
}

// Q*_{k,ε} by the exact water-filling algorithm of core/mechanisms/minimax/README.md#exact-solver (sort, smallest j with
// (e^ε + j − 1)·P_(j+1) <= S_j), written with e^{−ε} (docs/numerics.md#large-epsilon) in long double. p must be a pmf.
inline std::vector<long double> water_filling(std::span<const double> p, double epsilon) {
  const std::size_t k = p.size();
  const long double shrink = std::exp(-static_cast<long double>(std::min(epsilon, 700.0)));  // e^{−ε}
  std::vector<long double> sorted(p.begin(), p.end());
  std::sort(sorted.begin(), sorted.end(), std::greater<>());
  sorted.push_back(0.0L);
  long double prefix = 0.0L;
  std::size_t j = k;
  long double s_j = 0.0L;
  for (std::size_t i = 1; i <= k; ++i) {
    prefix += sorted[i - 1];
    // (e^ε + i − 1)·P_(i+1) <= S_i   ⇔   (1 + (i−1)e^{−ε})·P_(i+1) <= S_i·e^{−ε}
    if ((1.0L + static_cast<long double>(i - 1) * shrink) * sorted[i] <= prefix * shrink) {
      j = i;
      s_j = prefix;
      break;
    }
  }
  const long double denominator = 1.0L + static_cast<long double>(k - 1) * shrink;
  const long double growth = 1.0L + static_cast<long double>(j - 1) * shrink;
  std::vector<long double> q(k);
  for (std::size_t x = 0; x < k; ++x) {
    q[x] = std::max(static_cast<long double>(p[x]) * growth / s_j, shrink) / denominator;
  }
  return q;
}

// ---- inputs -------------------------------------------------------------------------------------------------

struct Histogram {
  std::string label;
  std::vector<double> counts;
};

// Structured adversarial histograms for k categories: point masses, sparse supports, ties, extreme
// magnitudes (1e-300, 1e300, subnormals), geometric and Zipf tails.
inline std::vector<Histogram> structured_histograms(std::size_t k, std::mt19937_64& rng) {
  std::vector<Histogram> out;
  std::uniform_int_distribution<std::size_t> any(0, k - 1);
  out.push_back({"point mass at 0", point_mass(k, 0)});
  out.push_back({"point mass at k-1", point_mass(k, k - 1)});
  out.push_back({"point mass of 1e300 at a random atom", point_mass(k, any(rng), 1e300)});
  out.push_back({"point mass of 1e-300 at a random atom", point_mass(k, any(rng), 1e-300)});
  out.push_back({"ties: all ones", std::vector<double>(k, 1.0)});
  out.push_back({"ties: all 1e300", std::vector<double>(k, 1e300)});
  out.push_back({"ties: all 1e-300", std::vector<double>(k, 1e-300)});
  out.push_back({"ties: all subnormal", std::vector<double>(k, 5e-324)});
  if (k >= 2) {
    std::vector<double> two(k, 0.0);
    two[0] = 1.0;
    two[k - 1] = 1.0;
    out.push_back({"two equal atoms", two});
    two[0] = 0.6;
    two[k - 1] = 0.4;
    out.push_back({"two atoms 0.6/0.4", two});
    std::vector<double> big_and_tiny(k, 1e-300);
    big_and_tiny[any(rng)] = 1.0;
    out.push_back({"one atom of 1 and the rest 1e-300", big_and_tiny});
    std::vector<double> huge_and_ones(k, 1.0);
    huge_and_ones[any(rng)] = 1e300;
    out.push_back({"one atom of 1e300 and the rest 1", huge_and_ones});
    std::vector<double> subnormal(k, 5e-324);
    subnormal[any(rng)] = 1.0;
    out.push_back({"one atom of 1 and the rest subnormal", subnormal});
    std::vector<double> levels(k);
    for (std::size_t x = 0; x < k; ++x) levels[x] = x % 2 == 0 ? 2.0 : 1.0;
    out.push_back({"ties on two levels", levels});
    std::vector<double> levels3(k);
    for (std::size_t x = 0; x < k; ++x) levels3[x] = static_cast<double>(x % 3);
    if (k >= 2) out.push_back({"ties on three levels with zeros", levels3});
  }
  std::vector<double> geometric(k);
  for (std::size_t x = 0; x < k; ++x) geometric[x] = std::pow(0.5, static_cast<double>(x));
  out.push_back({"geometric 2^-x (underflows for large k)", geometric});
  std::vector<double> zipf(k);
  for (std::size_t x = 0; x < k; ++x) zipf[x] = 1.0 / std::pow(static_cast<double>(x + 1), 1.1);
  out.push_back({"zipf 1.1", zipf});
  return out;
}

// One random histogram of one of several shapes (cycled by `shape`).
inline Histogram random_histogram(std::size_t k, std::mt19937_64& rng, int shape) {
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  std::uniform_int_distribution<std::size_t> any(0, k - 1);
  std::vector<double> h(k, 0.0);
  std::string label;
  switch (shape % 7) {
    case 0:
      label = "uniform(0,1) weights";
      for (double& v : h) v = u01(rng);
      break;
    case 1: {
      label = "log-normal weights, sigma 5";
      std::normal_distribution<double> normal(0.0, 5.0);
      for (double& v : h) v = std::exp(normal(rng));
      break;
    }
    case 2:
      label = "log-uniform weights in [1e-300, 1e300]";
      for (double& v : h) v = std::pow(10.0, 600.0 * u01(rng) - 300.0);
      break;
    case 3: {
      label = "small Poisson counts (zeros and ties)";
      std::poisson_distribution<int> poisson(0.7);
      for (double& v : h) v = poisson(rng);
      break;
    }
    case 4: {
      label = "sparse random support";
      std::uniform_int_distribution<std::size_t> size(1, std::min<std::size_t>(k, 6));
      const std::size_t m = size(rng);
      for (std::size_t i = 0; i < m; ++i) h[any(rng)] = u01(rng) + 1e-3;
      break;
    }
    case 5: {
      label = "Dirichlet(0.1) (spiky)";
      std::gamma_distribution<double> spiky(0.1, 1.0);
      for (double& v : h) v = spiky(rng);
      break;
    }
    default:
      label = "integer counts in [0, 1000]";
      for (double& v : h) v = std::floor(u01(rng) * 1001.0);
      break;
  }
  if (*std::max_element(h.begin(), h.end()) == 0.0) h[any(rng)] = 1.0;
  return {label, h};
}

// ---- randomness -----------------------------------------------------------------------------------------------

// A RandomBits that returns a script, then a constant word forever.
class ScriptedBits final : public privsample::RandomBits {
 public:
  explicit ScriptedBits(std::vector<std::uint64_t> script, std::uint64_t then = 0)
      : script_(script.begin(), script.end()), then_(then) {}
  std::uint64_t next_u64() override {
    ++calls_;
    if (script_.empty()) return then_;
    const std::uint64_t word = script_.front();
    script_.pop_front();
    return word;
  }
  [[nodiscard]] std::size_t calls() const { return calls_; }

 private:
  std::deque<std::uint64_t> script_;
  std::uint64_t then_;
  std::size_t calls_ = 0;
};

// P(X > x) for X ~ χ²(df): the regularised upper incomplete gamma Q(df/2, x/2), from Q(1, y) = e^{−y}
// or Q(½, y) = erfc(√y) and the recurrence Q(a+1, y) = Q(a, y) + y^a e^{−y}/Γ(a+1).
inline double chi_square_survival(double x, int df) {
  const double y = 0.5 * x;
  double a = df % 2 == 0 ? 1.0 : 0.5;
  double q = df % 2 == 0 ? std::exp(-y) : std::erfc(std::sqrt(y));
  while (a < 0.5 * df) {
    q += std::exp(a * std::log(y) - y - std::lgamma(a + 1.0));
    a += 1.0;
  }
  return q;
}

// Pearson's statistic of observed counts against probabilities (bins with probability 0 are skipped;
// the caller checks they stayed empty).
inline double chi_square_statistic(const std::vector<std::size_t>& counts, const std::vector<double>& probs,
                                   std::size_t n) {
  double stat = 0.0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (probs[i] <= 0.0) continue;
    const double expected = probs[i] * static_cast<double>(n);
    const double d = static_cast<double>(counts[i]) - expected;
    stat += d * d / expected;
  }
  return stat;
}

// The significance level of every goodness-of-fit test in the suite: with fixed seeds the outcome is
// deterministic, and a correct sampler passes it except with probability 1e-6 per seed.
inline constexpr double kGoodnessOfFitLevel = 1e-6;

// True when every breakpoint lo/p and hi/p of an atom with p > 0 and hi > 0 is a positive finite double (lo = 0
// has no lower breakpoint). Otherwise the clip-normalise root may lie beyond the double range although q is an
// ordinary pmf (e.g. subnormal masses next to ordinary ones). Sweeps of clip_normalise and of the clip samplers
// select their inputs with it.
inline bool breakpoints_representable(std::span<const double> p, std::span<const double> lo, std::span<const double> hi) {
  for (std::size_t x = 0; x < p.size(); ++x) {
    if (!(p[x] > 0.0) || hi[x] == 0.0) continue;
    const double upper = hi[x] / p[x];
    const double lower = lo[x] / p[x];
    if (!(std::isfinite(upper) && upper > 0.0)) return false;
    if (lo[x] > 0.0 && !(std::isfinite(lower) && lower > 0.0)) return false;
  }
  return true;
}

}  // namespace privsample_test
