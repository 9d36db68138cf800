// The base layer's searches, quadratures and special functions (optimise.hpp, quadrature.hpp,
// special_functions.hpp), checked against closed forms.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <numbers>
#include <random>
#include <stdexcept>

#include "base/numeric.hpp"
#include "base/optimise.hpp"
#include "base/quadrature.hpp"
#include "base/special_functions.hpp"
#include "test_support.hpp"

using namespace privsample;

TEST_CASE("optimise: golden section finds the maximum of concave functions, endpoints included", "[numeric]") {
  for (const double peak : {0.0, 1e-9, 0.3, 0.5, 0.77, 1.0}) {
    INFO("peak " << peak);
    const auto f = [&](double x) { return -(x - peak) * (x - peak) + 2.0; };
    CHECK(golden_section_max(100, f, 0.0, 1.0) == Approx(2.0).margin(1e-15).epsilon(0));
  }
  // A kink: max of min(x, 1 - x) is 1/2 at 1/2.
  CHECK(golden_section_max(100, [](double x) { return std::min(x, 1.0 - x); }, 0.0, 1.0) ==
        Approx(0.5).margin(1e-15).epsilon(0));
  // Too few iterations do not reach it: the count is honoured.
  CHECK(golden_section_max(2, [](double x) { return -(x - 0.3) * (x - 0.3); }, 0.0, 1.0) < -1e-4);
}

TEST_CASE("optimise: largest_feasible bisects to the boundary of a monotone feasible set", "[numeric]") {
  const double root2 = largest_feasible(100, [](double x) { return x * x <= 2.0; }, 0.0, 2.0);
  CHECK(root2 * root2 <= 2.0);
  CHECK(std::nextafter(root2, 3.0) * std::nextafter(root2, 3.0) > 2.0);
  CHECK(largest_feasible(100, [](double) { return true; }, 0.0, 5.0) == 5.0);
  CHECK(largest_feasible(100, [](double x) { return x <= 0.0; }, 0.0, 1.0) == 0.0);
}

TEST_CASE("quadrature: adaptive Gauss-Kronrod and composite Simpson on closed forms", "[numeric]") {
  CHECK(adaptive_gauss_kronrod([](double x) { return std::exp(x); }, 0.0, 1.0, 1e-13) ==
        Approx(std::numbers::e - 1.0).margin(1e-13).epsilon(0));
  CHECK(adaptive_gauss_kronrod([](double x) { return 1.0 / (1.0 + x * x); }, -50.0, 50.0, 1e-12) ==
        Approx(2.0 * std::atan(50.0)).margin(1e-11).epsilon(0));
  CHECK(adaptive_gauss_kronrod([](double x) { return std::sqrt(x); }, 0.0, 1.0, 1e-12) ==
        Approx(2.0 / 3.0).margin(1e-10).epsilon(0));
  // Simpson is exact for cubics.
  const SimpsonRule rule = composite_simpson(2.0, 6);
  REQUIRE(rule.nodes.size() == 7);
  double cubic = 0.0;
  for (std::size_t i = 0; i < rule.nodes.size(); ++i) {
    const double x = rule.nodes[i];
    cubic += rule.weights[i] * (x * x * x - x + 1.0);
  }
  CHECK(cubic == Approx(4.0 - 2.0 + 2.0).margin(1e-14).epsilon(0));
  CHECK_THROWS_WITH(composite_simpson(1.0, 3), Catch::Contains("panels = 3"));
  CHECK_THROWS_AS(composite_simpson(1.0, 0), std::invalid_argument);
}

TEST_CASE("special functions: M_d and the noncentral chi density", "[numeric]") {
  // d = 1: M_1(κ) = cosh κ; d = 3: M_3(κ) = sinh κ / κ (0F1(; 3/2; κ²/4)), both sides of the series/asymptotic switch.
  for (const double kappa : {0.0, 0.5, 3.0, 40.0, 299.0, 301.0, 700.0}) {
    INFO("kappa " << kappa);
    const double log_cosh = kappa + std::log1p(std::exp(-2.0 * kappa)) - std::numbers::ln2;
    CHECK(log_md(1, kappa) == Approx(log_cosh).margin(1e-12).epsilon(0));
    const double log_sinhc = kappa == 0.0 ? 0.0 : kappa + std::log1p(-std::exp(-2.0 * kappa)) - std::numbers::ln2 - std::log(kappa);
    CHECK(log_md(3, kappa) == Approx(log_sinhc).margin(1e-10 * std::max(1.0, kappa)).epsilon(0));
  }
  // τ = 0: the chi distribution with d degrees of freedom; d = 1 is the half-normal 2φ(s).
  for (const double s : {0.1, 1.0, 2.5}) {
    CHECK(std::exp(log_noncentral_chi_density(1, 0.0, s)) ==
          Approx(2.0 * std::exp(-0.5 * s * s) / std::sqrt(2.0 * std::numbers::pi)).margin(1e-15).epsilon(0));
  }
  // It integrates to 1 (d = 4, τ = 1.5).
  const SimpsonRule rule = composite_simpson(20.0, 4000);
  double total = 0.0;
  for (std::size_t i = 1; i < rule.nodes.size(); ++i) {
    total += rule.weights[i] * std::exp(log_noncentral_chi_density(4, 1.5, rule.nodes[i]));
  }
  CHECK(total == Approx(1.0).margin(1e-10).epsilon(0));
}

// two_product replaced std::fma (WebAssembly has none; musl's software fma was 780 gzip bytes of the client): its
// error term must be fma's, bit for bit, wherever fma's is exact — random factors over the whole exponent range the
// callers use (privacy parameters up to e^700, probabilities, counts), the scaled split beyond 2^995, full mantissas,
// powers of two and the products that the privacy box's floor test and the linear sampler's share form.
TEST_CASE("numeric: two_product's error term is fma's, bit for bit", "[numeric]") {
  std::mt19937_64 rng(20261126);
  std::uniform_real_distribution<double> mantissa(1.0, 2.0);
  std::uniform_int_distribution<int> exponent(-480, 1015);
  const auto same_as_fma = [](double a, double b) {
    const TwoDoubles t = two_product(a, b);
    const double expected = std::fma(a, b, -(a * b));
    if (t.hi != a * b || std::memcmp(&t.lo, &expected, sizeof expected) != 0) {
      FAIL_CHECK("a = " << a << ", b = " << b << ": lo " << t.lo << ", fma " << expected);
      return false;
    }
    return true;
  };
  std::size_t checked = 0;
  for (int i = 0; i < 1'000'000; ++i) {
    const double a = std::ldexp(mantissa(rng), exponent(rng)) * (rng() % 2 ? 1.0 : -1.0);
    // b keeps the product and its error term normal: |a·b| in [2^-900, 2^1020]
    const int ea = std::ilogb(a);
    const int eb = std::uniform_int_distribution<int>(std::max(-900 - ea, -1000), std::min(1020 - ea, 1015))(rng);
    const double b = std::ldexp(mantissa(rng), eb);
    if (!std::isfinite(a * b)) continue;
    if (!same_as_fma(a, b)) break;
    ++checked;
  }
  CHECK(checked > 900'000);
  const double full = std::nextafter(2.0, 0.0);  // 53 significant bits
  for (const double a : {1.0, full, 0x1p995, 0x1.fffffffffffffp995, std::exp(700.0), std::exp(690.0), 1e-300, 3.0}) {
    for (const double b : {1.0, full, 0.7071067811865476, 1.0 / 3.0, 1e-7, std::exp(-700.0), 1e5, 0x1p-60}) {
      if (std::isfinite(a * b) && std::fabs(a * b) > 0x1p-900) CHECK(same_as_fma(a, b));
    }
  }
  // The privacy box's floor: factor·quotient − top for quotient = top/factor, its sign as fma gives it.
  for (int i = 0; i < 100'000; ++i) {
    const double factor = std::exp(std::uniform_real_distribution<double>(0.0, 700.0)(rng));
    const double top = mantissa(rng) * 0.5 * std::pow(10.0, -static_cast<double>(rng() % 8));
    const double quotient = top / factor;
    const TwoDoubles product = two_product(factor, quotient);
    CHECK(((product.hi - top) + product.lo < 0.0) == (std::fma(factor, quotient, -top) < 0.0));
  }
}

TEST_CASE("test support: hockey_stick_within's double screen agrees with the exact sum at the decision boundary",
          "[numeric]") {
  using namespace privsample_test;
  // δ set to the computed hockey-stick nudged by a few ulps either way, where a screen that lost a term or
  // understated its error would decide wrongly; plus subnormal, zero and huge-ε entries.
  std::mt19937_64 rng(5);
  std::size_t decided_false = 0;
  for (int round = 0; round < 3000; ++round) {
    const std::size_t k = 1 + rng() % 50;
    std::vector<double> a = random_pmf(k, rng, 0.2);
    std::vector<double> b = random_pmf(k, rng, 0.2);
    if (round % 7 == 0) b[rng() % k] = 1e-310;
    const double epsilon = std::vector<double>{0.0, 1e-12, 0.1, 1.0, 5.0, 20.0, 700.0}[rng() % 7];
    const double e = std::max(1.0, std::nextafter(std::exp(std::min(epsilon, 700.0)), 0.0));
    // a = e·b rounded: every computed term is 0 while the true ones are the products' rounding errors.
    if (round % 3 == 0) {
      for (std::size_t x = 0; x < k; ++x) a[x] = e * b[x];
    }
    double near = 0.0;
    for (std::size_t x = 0; x < k; ++x) near += std::max(0.0, a[x] - e * b[x]);
    std::vector<double> deltas;
    for (int ulps = -3; ulps <= 3; ++ulps) {
      double delta = near;
      for (int i = 0; i < std::abs(ulps); ++i) delta = std::nextafter(delta, ulps > 0 ? 1.0 : -1.0);
      deltas.push_back(delta);
    }
    deltas.push_back(0.0);
    for (const int j : {8, 20, 30, 40, 44, 46, 48, 50}) {  // gaps the screen decides, some near its error bound
      deltas.push_back(near * (1.0 + std::ldexp(1.0, -j)));
      deltas.push_back(near * (1.0 - std::ldexp(1.0, -j)));
    }
    for (const double delta : deltas) {
      INFO("round " << round << ", k " << k << ", epsilon " << epsilon << ", delta " << delta);
      const bool exact = hockey_stick_within_exact(a, b, epsilon, delta);
      CHECK(hockey_stick_within(a, b, epsilon, delta) == exact);
      decided_false += exact ? 0 : 1;
    }
  }
  CHECK(decided_false > 10000);  // the boundary was actually crossed
}
