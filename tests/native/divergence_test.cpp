// f-divergences with the zero-mass conventions of docs/divergences.md#definition-and-zero-mass-conventions, the chord function 𝔑(r1, r2) (docs/divergences.md#the-chord-bound)
// and the closed forms of Theorem 3.1 (core/mechanisms/minimax/README.md#worst-case-risk).
#include "model/divergence.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "privsample.hpp"
#include "test_support.hpp"

using namespace privsample;
using namespace privsample_test;

namespace {

const std::vector<NamedDivergence> kNamed{NamedDivergence::kl, NamedDivergence::tv, NamedDivergence::hellinger,
                                          NamedDivergence::chi2};

// Textbook forms on pmfs with q > 0 everywhere (p may have zeros).
double kl_direct(const std::vector<double>& p, const std::vector<double>& q) {
  long double d = 0.0L;
  for (std::size_t x = 0; x < p.size(); ++x) {
    if (p[x] > 0.0) d += static_cast<long double>(p[x]) * std::log(static_cast<long double>(p[x]) / q[x]);
  }
  return static_cast<double>(d);
}
double tv_direct(const std::vector<double>& p, const std::vector<double>& q) {
  long double d = 0.0L;
  for (std::size_t x = 0; x < p.size(); ++x) d += std::fabs(static_cast<long double>(p[x]) - q[x]);
  return static_cast<double>(0.5L * d);
}
double hellinger_direct(const std::vector<double>& p, const std::vector<double>& q) {
  long double d = 0.0L;
  for (std::size_t x = 0; x < p.size(); ++x) {
    const long double diff = std::sqrt(static_cast<long double>(p[x])) - std::sqrt(static_cast<long double>(q[x]));
    d += diff * diff;
  }
  return static_cast<double>(0.5L * d);
}
double chi2_direct(const std::vector<double>& p, const std::vector<double>& q) {
  long double d = 0.0L;
  for (std::size_t x = 0; x < p.size(); ++x) {
    const long double diff = static_cast<long double>(p[x]) - q[x];
    d += diff * diff / q[x];
  }
  return static_cast<double>(d);
}

}  // namespace

TEST_CASE("divergence: names parse and round-trip", "[divergence]") {
  for (auto f : kNamed) CHECK(parse_divergence(divergence_name(f)) == f);
  CHECK(parse_divergence("kl") == NamedDivergence::kl);
  CHECK(parse_divergence("tv") == NamedDivergence::tv);
  CHECK(parse_divergence("hellinger") == NamedDivergence::hellinger);
  CHECK(parse_divergence("chi2") == NamedDivergence::chi2);
  CHECK_THROWS_AS(parse_divergence("foo"), std::invalid_argument);
  CHECK_THROWS_WITH(parse_divergence("foo"), Catch::Contains("foo"));
  CHECK_THROWS_WITH(parse_divergence(""), Catch::Contains("divergence"));
  CHECK_THROWS_AS(parse_divergence("KL"), std::invalid_argument);
}

TEST_CASE("divergence: the named f and their limits", "[divergence]") {
  const FDivergence kl = f_divergence(NamedDivergence::kl);
  CHECK(kl.f(1.0) == 0.0);
  CHECK(kl.f(2.0) == Approx(2.0 * std::log(2.0)).epsilon(1e-15));
  CHECK(kl.f_at_zero == 0.0);
  CHECK(kl.f_star_at_zero == kInf);
  const FDivergence tv = f_divergence(NamedDivergence::tv);
  CHECK(tv.f(3.0) == Approx(1.0).epsilon(1e-15));
  CHECK(tv.f_at_zero == 0.5);
  CHECK(tv.f_star_at_zero == 0.5);
  const FDivergence h = f_divergence(NamedDivergence::hellinger);  // ½(1 − √x)², at most 1
  CHECK(h.f(4.0) == Approx(0.5).epsilon(1e-15));
  CHECK(h.f_at_zero == 0.5);
  CHECK(h.f_star_at_zero == 0.5);
  const FDivergence chi2 = f_divergence(NamedDivergence::chi2);
  CHECK(chi2.f(3.0) == Approx(4.0).epsilon(1e-15));
  CHECK(chi2.f_at_zero == 1.0);
  CHECK(chi2.f_star_at_zero == kInf);
}

TEST_CASE("divergence: agrees with the textbook formulas on random pmfs", "[divergence]") {
  std::mt19937_64 rng(4242);
  for (std::size_t k : {1, 2, 3, 7, 50, 1000}) {
    for (int i = 0; i < 60; ++i) {
      const std::vector<double> p = random_pmf(k, rng, i % 2 == 0 ? 0.0 : 0.3);
      const std::vector<double> q = random_pmf(k, rng, 0.0);
      INFO("k = " << k << ", draw " << i);
      CHECK(divergence(NamedDivergence::kl, p, q) == Approx(kl_direct(p, q)).epsilon(1e-12).margin(1e-15));
      CHECK(divergence(NamedDivergence::tv, p, q) == Approx(tv_direct(p, q)).epsilon(1e-12).margin(1e-15));
      CHECK(divergence(NamedDivergence::hellinger, p, q) ==
            Approx(hellinger_direct(p, q)).epsilon(1e-12).margin(1e-15));
      CHECK(divergence(NamedDivergence::chi2, p, q) == Approx(chi2_direct(p, q)).epsilon(1e-12).margin(1e-15));
      // x log x − x + 1 is KL on pmfs (the linear term integrates to 0)
      CHECK(divergence(shifted_kl(), p, q) == Approx(kl_direct(p, q)).epsilon(1e-10).margin(1e-14));
      // the FDivergence overload with the named f gives the same value
      for (auto f : kNamed) {
        CHECK(divergence(f_divergence(f), p, q) == Approx(divergence(f, p, q)).epsilon(1e-15).margin(1e-16));
      }
      // 0 <= D_f <= M_f = f(0) + f*(0) and D_f(P‖P) = 0
      for (const auto& f : {f_divergence(NamedDivergence::tv), f_divergence(NamedDivergence::hellinger),
                            jensen_shannon(), le_cam()}) {
        const double d = divergence(f, p, q);
        CHECK(d >= -1e-15);
        CHECK(d <= f.f_at_zero + f.f_star_at_zero + 1e-15);
        CHECK(std::fabs(divergence(f, p, p)) <= 1e-15);
      }
    }
  }
}

TEST_CASE("divergence: zero-mass conventions 0f(0/0)=0, qf(0/q)=qf(0), 0f(p/0)=pf*(0)", "[divergence]") {
  SECTION("p = 0 where q > 0: q·f(0)") {
    const std::vector<double> p{1, 0};
    const std::vector<double> q{0.5, 0.5};
    CHECK(divergence(NamedDivergence::kl, p, q) == Approx(std::log(2.0)).epsilon(1e-15));
    CHECK(divergence(NamedDivergence::tv, p, q) == Approx(0.5).epsilon(1e-15));
    CHECK(divergence(NamedDivergence::hellinger, p, q) == Approx(1.0 - std::sqrt(0.5)).epsilon(1e-15));
    CHECK(divergence(NamedDivergence::chi2, p, q) == Approx(1.0).epsilon(1e-15));
    CHECK(divergence(le_cam(), p, q) == Approx(0.5 * (1.0 / 3.0) + 0.5 * 1.0).epsilon(1e-15));
  }
  SECTION("q = 0 where p > 0: p·f*(0)") {
    const std::vector<double> p{0.5, 0.5};
    const std::vector<double> q{1, 0};
    CHECK(divergence(NamedDivergence::kl, p, q) == kInf);
    CHECK(divergence(NamedDivergence::chi2, p, q) == kInf);
    CHECK(divergence(NamedDivergence::tv, p, q) == Approx(0.5).epsilon(1e-15));
    CHECK(divergence(NamedDivergence::hellinger, p, q) == Approx(1.0 - std::sqrt(0.5)).epsilon(1e-15));
  }
  SECTION("p = q = 0 contributes nothing, even for f(0) = f*(0) = ∞") {
    const std::vector<double> p{0.5, 0.5, 0};
    const std::vector<double> q{0.5, 0.5, 0};
    const FDivergence reverse_kl{[](double x) { return -std::log(x); }, kInf, 0.0};
    for (auto f : kNamed) CHECK(divergence(f, p, q) == 0.0);
    CHECK(divergence(reverse_kl, p, q) == 0.0);
    const FDivergence both_infinite{[](double x) { return (x - 1.0) * (x - 1.0) / x; }, kInf, kInf};
    CHECK(divergence(both_infinite, p, q) == 0.0);
  }
  SECTION("mutually singular P and Q: M_f = f(0) + f*(0)") {
    const std::vector<double> p{1, 0};
    const std::vector<double> q{0, 1};
    CHECK(divergence(NamedDivergence::tv, p, q) == 1.0);
    CHECK(divergence(NamedDivergence::hellinger, p, q) == 1.0);
    CHECK(divergence(NamedDivergence::kl, p, q) == kInf);
    CHECK(divergence(jensen_shannon(), p, q) == Approx(std::log(2.0)).epsilon(1e-15));
    CHECK(divergence(le_cam(), p, q) == Approx(2.0).epsilon(1e-15));
  }
  SECTION("inputs are normalised first") {
    CHECK(divergence(NamedDivergence::kl, std::vector<double>{2, 2}, std::vector<double>{1, 3}) ==
          Approx(divergence(NamedDivergence::kl, std::vector<double>{0.5, 0.5}, std::vector<double>{0.25, 0.75}))
              .epsilon(1e-15));
    CHECK(divergence(NamedDivergence::tv, std::vector<double>{1e300, 0}, std::vector<double>{1e-300, 1e-300}) ==
          Approx(0.5).epsilon(1e-15));
  }
}

TEST_CASE("divergence: invalid inputs", "[divergence][validation]") {
  const std::vector<double> p{0.5, 0.5};
  CHECK_THROWS_AS(divergence(NamedDivergence::kl, p, std::vector<double>{1.0}), std::invalid_argument);
  CHECK_THROWS_AS(divergence(NamedDivergence::kl, std::vector<double>{}, std::vector<double>{}), std::invalid_argument);
  CHECK_THROWS_WITH(divergence(NamedDivergence::kl, std::vector<double>{0.5, -0.5}, p),
                    Catch::Contains("[1]") && Catch::Contains("-0.5"));
  CHECK_THROWS_WITH(divergence(NamedDivergence::tv, p, std::vector<double>{kNaN, 1.0}),
                    Catch::Contains("[0]") && Catch::Contains("NaN"));
  CHECK_THROWS_AS(divergence(NamedDivergence::tv, p, std::vector<double>{0.0, 0.0}), std::invalid_argument);
  CHECK_THROWS_AS(divergence(NamedDivergence::tv, std::vector<double>{kInf, 1.0}, p), std::invalid_argument);
}

TEST_CASE("divergence: the chord function", "[divergence][risk]") {
  const FDivergence kl = f_divergence(NamedDivergence::kl);
  const FDivergence tv = f_divergence(NamedDivergence::tv);
  CHECK(chord_risk(kl, 1.0, 1.0) == 0.0);
  CHECK(chord_risk(tv, 1.0, 1.0) == 0.0);
  // r1 = 0: 𝔑(0, r2) = f(r2)/r2 + (1 − 1/r2) f(0); KL: log r2
  for (double r2 : {1.0, 1.5, 2.0, 10.0, 1e6}) {
    CHECK(chord_risk(kl, 0.0, r2) == Approx(std::log(r2)).epsilon(1e-14).margin(1e-300));
  }
  // TV closed form (1 − r1)(r2 − 1)/(r2 − r1)
  for (double r1 : {0.0, 0.2, 0.9}) {
    for (double r2 : {1.1, 2.0, 7.0}) {
      CHECK(chord_risk(tv, r1, r2) == Approx((1.0 - r1) * (r2 - 1.0) / (r2 - r1)).epsilon(1e-14));
    }
  }
  // f(0) = ∞: the chord is ∞ unless its weight vanishes (r2 = 1)
  const FDivergence reverse_kl{[](double x) { return -std::log(x); }, kInf, 0.0};
  CHECK(chord_risk(reverse_kl, 0.0, 2.0) == kInf);
  CHECK(chord_risk(reverse_kl, 0.0, 1.0) == 0.0);
  CHECK(chord_risk(reverse_kl, 0.5, 2.0) == Approx(1.0 / 3.0 * -std::log(2.0) + 2.0 / 3.0 * std::log(2.0)).epsilon(1e-14));
  // core/mechanisms/cells.md#reference-values generic constants: c1 = 0.5, c2 = 2, ε = 0.5
  const double c1 = 0.5, c2 = 2.0, e = std::exp(0.5);
  const double alpha = (1.0 - c1) / (c2 - c1);
  const double b = 1.0 / (alpha * e + 1.0 - alpha);
  const double r1 = c1 / b, r2 = c2 / (b * e);
  CHECK(alpha == Approx(1.0 / 3.0).epsilon(1e-15));
  CHECK(b == Approx(0.822206).margin(half_unit(6)).epsilon(0));
  CHECK(b * e == Approx(1.355588).margin(half_unit(6)).epsilon(0));
  CHECK(r1 == Approx(0.608120).margin(half_unit(6)).epsilon(0));
  CHECK(r2 == Approx(1.475374).margin(half_unit(6)).epsilon(0));
  CHECK(chord_risk(kl, r1, r2) == Approx(0.093480).margin(half_unit(6)).epsilon(0));
  CHECK(chord_risk(tv, r1, r2) == Approx(0.214804).margin(half_unit(6)).epsilon(0));
}

TEST_CASE("divergence: Theorem 3.1 closed forms equal the chord 𝔑(0, (e^eps+k-1)/e^eps)", "[divergence][risk]") {
  for (std::size_t k : {2, 3, 5, 10, 100, 1000000}) {
    for (double eps : {0.0, 1e-6, 0.01, 0.1, 0.5, 1.0, 2.0, 5.0}) {
      INFO("k = " << k << ", epsilon = " << eps);
      const double t = static_cast<double>(k - 1) * std::exp(-eps);
      CHECK(finite_minimax_risk(NamedDivergence::kl, k, eps) == Approx(std::log1p(t)).epsilon(1e-14));
      CHECK(finite_minimax_risk(NamedDivergence::tv, k, eps) == Approx(t / (1.0 + t)).epsilon(1e-14));
      CHECK(finite_minimax_risk(NamedDivergence::hellinger, k, eps) ==
            Approx(1.0 - 1.0 / std::sqrt(1.0 + t)).epsilon(1e-13));
      CHECK(finite_minimax_risk(NamedDivergence::chi2, k, eps) == Approx(t).epsilon(1e-14));
      for (auto f : kNamed) {
        CHECK(finite_minimax_risk(f_divergence(f), k, eps) ==
              Approx(finite_minimax_risk(f, k, eps)).epsilon(1e-10));
      }
      // the same divergence through a different f: same risk
      CHECK(finite_minimax_risk(shifted_kl(), k, eps) ==
            Approx(finite_minimax_risk(NamedDivergence::kl, k, eps)).epsilon(1e-10));
      // R = m f(1/m) + (1 − m) f(0) for the custom f
      const double m = 1.0 / (1.0 + t);
      for (const auto& f : {jensen_shannon(), le_cam()}) {
        CHECK(finite_minimax_risk(f, k, eps) == Approx(m * f.f(1.0 / m) + (1.0 - m) * f.f_at_zero).epsilon(1e-12));
      }
    }
  }
  // decreasing in ε, increasing in k; tiny but exact far out
  for (auto f : kNamed) {
    INFO(divergence_name(f));
    CHECK(finite_minimax_risk(f, 10, 1.0) < finite_minimax_risk(f, 10, 0.5));
    CHECK(finite_minimax_risk(f, 20, 1.0) > finite_minimax_risk(f, 10, 1.0));
    CHECK(finite_minimax_risk(f, 10, 40.0) > 0.0);
    CHECK(finite_minimax_risk(f, 10, 40.0) < 1e-16);
  }
  CHECK(finite_minimax_risk(NamedDivergence::kl, 10, 40.0) == Approx(9.0 * std::exp(-40.0)).epsilon(1e-12));
  CHECK(finite_minimax_risk(NamedDivergence::chi2, 10, 640.0) == Approx(9.0 * std::exp(-640.0)).epsilon(1e-12));
  CHECK(finite_minimax_risk(NamedDivergence::chi2, 10, 700.0) == finite_minimax_risk(NamedDivergence::chi2, 10, 640.0));
  // f(0) = ∞ (reverse KL): R = ∞
  const FDivergence reverse_kl{[](double x) { return -std::log(x); }, kInf, 0.0};
  CHECK(finite_minimax_risk(reverse_kl, 5, 1.0) == kInf);
}

TEST_CASE("divergence: named divergences are never negative, even where Q equals P up to rounding", "[divergence]") {
  // p and q that agree to the last bit or two: Σ p log(p/q) can round to −1e-17 without the clamp
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<double> p(1000);
    for (double& v : p) v = u01(rng) + 1e-3;
    std::vector<double> q(p);
    for (double& v : q) v = std::nextafter(v, trial % 2 ? 2.0 : 0.0);
    for (auto f : {privsample::NamedDivergence::kl, privsample::NamedDivergence::tv,
                   privsample::NamedDivergence::hellinger, privsample::NamedDivergence::chi2}) {
      const double d = privsample::divergence(f, p, q);
      CHECK(d >= 0.0);
      CHECK(d < 1e-12);
    }
  }
}
