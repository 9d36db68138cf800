// Accounting for a collection (collection_accounting.hpp): composition for repeated reports and amplification by
// shuffling (Feldman, McMillan, Talwar 2021), against hand-computed values, the published formulas, brute-force
// evaluations written here from the definitions, the authors' reference implementation's outputs, and the properties
// every bound must have.
#include "analysis/collection_accounting.hpp"
#include "base/binomial.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "test_support.hpp"

using namespace privsample;

namespace {

// δ(ε_g) of m-fold binary randomized response by brute force: P = Bern(p)^m, Q = Bern(1 − p)^m on {0,1}^m,
// Σ_x max(0, P(x) − e^{ε_g} Q(x)), p = e^ε/(1 + e^ε).
double brute_force_rr_delta(double epsilon, int m, double epsilon_total) {
  const double p = std::exp(epsilon) / (1.0 + std::exp(epsilon));
  double sum = 0.0;
  for (unsigned x = 0; x < (1u << m); ++x) {
    double pp = 1.0, qq = 1.0;
    for (int i = 0; i < m; ++i) {
      const bool one = (x >> i) & 1u;
      pp *= one ? p : 1.0 - p;
      qq *= one ? 1.0 - p : p;
    }
    sum += std::max(0.0, pp - std::exp(epsilon_total) * qq);
  }
  return sum;
}

// KOV Theorem 3.3 as printed: δ̃_i = Σ_{l=0}^{i−1} C(m, l)(e^{(m−l)ε} − e^{(m−2i+l)ε}) / (1 + e^ε)^m, at ε_g = (m−2i)ε.
double kov_delta_i(double epsilon, int m, int i) {
  double sum = 0.0;
  for (int l = 0; l < i; ++l) {
    sum += std::exp(std::lgamma(m + 1.0) - std::lgamma(l + 1.0) - std::lgamma(m - l + 1.0)) *
           (std::exp((m - l) * epsilon) - std::exp((m - 2 * i + l) * epsilon));
  }
  return sum / std::pow(1.0 + std::exp(epsilon), m);
}

// The shuffling reduction evaluated from its definition, every c and every a: C ~ Bin(n−1, e^{−ε0}), A | c ~ Bin(c, ½),
// P_c(a) = α·Bin(a; c) + (1−α)·Bin(a−1; c), Q_c(a) = (1−α)·Bin(a; c) + α·Bin(a−1; c) on a = 0..c+1,
// δ(ε) = max(Σ_c P(C=c) Σ_a max(0, P_c(a) − e^ε Q_c(a)), the same with P and Q swapped).
struct ReductionByHand {
  std::vector<std::vector<double>> a_pmf;  // Bin(·; c, ½) for c = 0..n−1
  std::vector<double> c_pmf;
  double alpha;
  ReductionByHand(double epsilon0, int n) : alpha(std::exp(epsilon0) / (1.0 + std::exp(epsilon0))) {
    const double p = std::exp(-epsilon0);
    for (int c = 0; c < n; ++c) {
      c_pmf.push_back(binomial_pmf(c, n - 1, p));
      std::vector<double> row(static_cast<std::size_t>(c) + 1);
      for (int a = 0; a <= c; ++a) row[static_cast<std::size_t>(a)] = binomial_pmf(a, c, 0.5);
      a_pmf.push_back(row);
    }
  }
  // The hockey-stick of each conditional pair, D_c, for both directions.
  std::pair<double, double> conditional(int c, double epsilon) const {
    const auto& f = a_pmf[static_cast<std::size_t>(c)];
    double pq = 0.0, qp = 0.0;
    for (int a = 0; a <= c + 1; ++a) {
      const double here = a <= c ? f[static_cast<std::size_t>(a)] : 0.0;
      const double before = a >= 1 ? f[static_cast<std::size_t>(a - 1)] : 0.0;
      const double pa = alpha * here + (1.0 - alpha) * before;
      const double qa = (1.0 - alpha) * here + alpha * before;
      pq += std::max(0.0, pa - std::exp(epsilon) * qa);
      qp += std::max(0.0, qa - std::exp(epsilon) * pa);
    }
    return {pq, qp};
  }
  double delta(double epsilon) const {
    double pq = 0.0, qp = 0.0;
    for (std::size_t c = 0; c < c_pmf.size(); ++c) {
      const auto [a, b] = conditional(static_cast<int>(c), epsilon);
      pq += c_pmf[c] * a;
      qp += c_pmf[c] * b;
    }
    return std::max(pq, qp);
  }
  double epsilon(double delta_target, double hi) const {
    double lo = 0.0;
    for (int i = 0; i < 60; ++i) {
      const double mid = 0.5 * (lo + hi);
      (this->delta(mid) <= delta_target ? hi : lo) = mid;
    }
    return hi;
  }
};

}  // namespace

TEST_CASE("accounting: basic and advanced composition", "[accounting-collection]") {
  const PrivacyLoss basic = basic_composition(0.5, 1e-6, 10);
  CHECK(basic.epsilon == Approx(5.0));
  CHECK(basic.delta == Approx(1e-5));
  CHECK(basic.method == "basic");
  // DRV Thm III.3 by hand: ε = 0.1, m = 100, δ' = 1e-6:
  // sqrt(200 ln 1e6)·0.1 + 100·0.1·(e^0.1 − 1) = 5.256522… + 1.051709… = 6.308231…
  const PrivacyLoss adv = advanced_composition(0.1, 0.0, 100, 1e-6);
  CHECK(adv.epsilon == Approx(std::sqrt(200.0 * std::log(1e6)) * 0.1 + 10.0 * std::expm1(0.1)).epsilon(1e-14));
  CHECK(adv.epsilon == Approx(6.308231).epsilon(1e-6));
  CHECK(adv.delta == Approx(1e-6));
  CHECK(adv.method == "advanced");
  const PrivacyLoss adv2 = advanced_composition(0.1, 1e-7, 100, 1e-6);
  CHECK(adv2.delta == Approx(100 * 1e-7 + 1e-6));
  // messages name the JS options (collection.compose's reports and deltaPrime), not the C++ parameters m, delta_prime
  CHECK_THROWS_WITH(basic_composition(1.0, 0.0, 2.5), "reports = 2.5: must be an integer in [1, 1e12]");
  CHECK_THROWS_WITH(advanced_composition(1.0, 0.0, 2, 0.0), "deltaPrime = 0: must be in (0, 1)");
  CHECK_THROWS_WITH(best_composition(1.0, 0.0, 2, -1.0), "deltaPrime = -1: must be in [0, 1)");
  CHECK_THROWS_AS(basic_composition(-1.0, 0.0, 2), std::invalid_argument);
  CHECK_THROWS_AS(basic_composition(1.0, 1.0, 2), std::invalid_argument);
}

TEST_CASE("accounting: optimal composition (Kairouz-Oh-Viswanath) against its published formula and brute force",
          "[accounting-collection]") {
  SECTION("m = 2, ε = 1 by hand: δ(0) = (e² − 1)/(1 + e)² = (e − 1)/(e + 1)") {
    CHECK(optimal_composition_delta(1.0, 2, 0.0) == Approx(std::tanh(0.5)).epsilon(1e-14));
    CHECK(optimal_composition_delta(1.0, 2, 2.0) == 0.0);
  }
  SECTION("Theorem 3.3's δ̃_i at ε_g = (m − 2i)ε") {
    for (const double eps : {0.1, 0.5, 1.0}) {
      for (const int m : {5, 10, 40}) {
        for (int i = 1; i <= m / 2; ++i) {
          INFO("eps = " << eps << ", m = " << m << ", i = " << i);
          CHECK(optimal_composition_delta(eps, m, (m - 2 * i) * eps) == Approx(kov_delta_i(eps, m, i)).epsilon(1e-10));
        }
      }
    }
  }
  SECTION("every ε_g: the hockey-stick of m-fold randomized response, by brute force over {0,1}^m") {
    for (const double eps : {0.05, 0.3, 1.0, 2.5}) {
      for (const int m : {1, 2, 3, 7, 12}) {
        for (const double frac : {0.0, 0.13, 0.5, 0.77, 0.99}) {
          const double eg = frac * m * eps;
          INFO("eps = " << eps << ", m = " << m << ", eps_g = " << eg);
          CHECK(optimal_composition_delta(eps, m, eg) ==
                Approx(brute_force_rr_delta(eps, m, eg)).epsilon(1e-11).margin(1e-15));
        }
      }
    }
  }
  SECTION("the optimal ε: δ at it is at most δ', just below it above; never above advanced or basic") {
    for (const double eps : {0.01, 0.1, 1.0}) {
      for (const double m : {10.0, 1000.0, 1e5}) {
        const PrivacyLoss opt = optimal_composition(eps, 0.0, m, 1e-6);
        const PrivacyLoss adv = advanced_composition(eps, 0.0, m, 1e-6);
        INFO("eps = " << eps << ", m = " << m << ": optimal " << opt.epsilon << ", advanced " << adv.epsilon);
        CHECK(opt.method == "optimal");
        CHECK(optimal_composition_delta(eps, m, opt.epsilon) <= 1e-6);
        CHECK(optimal_composition_delta(eps, m, opt.epsilon * (1.0 - 1e-9)) > 1e-6 * (1.0 - 1e-9));
        CHECK(opt.epsilon <= adv.epsilon);
        CHECK(opt.epsilon <= m * eps);
        CHECK(opt.delta == Approx(1e-6));
        CHECK(best_composition(eps, 0.0, m, 1e-6).epsilon == opt.epsilon);
      }
    }
    // At m = 1000, ε = 0.5, δ' = 1e-6 advanced composition is 2.1 times the optimal (407.47 against 193.50).
    const double advanced = advanced_composition(0.5, 0.0, 1000, 1e-6).epsilon;
    CHECK(advanced / optimal_composition(0.5, 0.0, 1000, 1e-6).epsilon == Approx(2.1058).epsilon(1e-3));
    // A per-report δ composes as 1 − (1 − δ)^m (1 − δ').
    const PrivacyLoss with_delta = optimal_composition(0.5, 1e-7, 100, 1e-6);
    CHECK(with_delta.delta == Approx(-std::expm1(100.0 * std::log1p(-1e-7) + std::log1p(-1e-6))).epsilon(1e-14));
    CHECK(with_delta.delta <= 100 * 1e-7 + 1e-6);
  }
  SECTION("the defaults: without δ' the bound is mε (basic, exact there); very large m stays finite and below DRV") {
    const PrivacyLoss plain = best_composition(1.0, 0.0, 10);
    CHECK(plain.epsilon == 10.0);
    CHECK(plain.delta == 0.0);
    CHECK(optimal_composition(1.0, 0.0, 10, 0.0).epsilon == 10.0);
    const PrivacyLoss huge = optimal_composition(1e-4, 0.0, 1e12, 1e-9);
    CHECK(std::isfinite(huge.epsilon));
    CHECK(huge.epsilon < advanced_composition(1e-4, 0.0, 1e12, 1e-9).epsilon);
    CHECK(optimal_composition_delta(1e-4, 1e12, huge.epsilon) <= 1e-9);
  }
}

TEST_CASE("accounting: binomial helpers", "[accounting-collection]") {
  CHECK(binomial_cdf(2, 4, 0.5) == Approx(11.0 / 16.0).epsilon(1e-13));
  CHECK(binomial_cdf(-1, 4, 0.5) == 0.0);
  CHECK(binomial_cdf(4, 4, 0.5) == 1.0);
  CHECK(binomial_pmf(3, 10, 0.3) == Approx(120.0 * 0.027 * std::pow(0.7, 7)).epsilon(1e-12));
  CHECK(std::exp(binomial_log_pmf(3, 10, 0.3, 0.7)) == Approx(binomial_pmf(3, 10, 0.3)).epsilon(1e-12));
  // Large n: P(X <= mean) for Bin(10^6, ½) = ½ + pmf(mean)/2.
  CHECK(binomial_cdf(500000, 1e6, 0.5) == Approx(0.5 + 0.5 * binomial_pmf(500000, 1e6, 0.5)).epsilon(1e-10));
  CHECK(regularized_incomplete_beta(2.0, 3.0, 0.4) == Approx(0.5248).epsilon(1e-12));  // 1 − Σ_{j<2} C(4,j).4^j.6^{4−j}
}

TEST_CASE("accounting: shuffling closed forms (FMT21 Theorem 3.1, printed and as the authors' code computes it)",
          "[accounting-collection]") {
  // Printed, by hand: ε0 = 1, n = 10^6, δ = 10^−6: tanh(½)·(8·sqrt(e·ln(4·10^6))/10^3 + 8e/10^6)
  // = 0.462117·(0.0514263 + 0.0000217) = 0.0237750…, ε = ln(1.0237750…) = 0.02349677…
  const double a = 8.0 * std::sqrt(std::exp(1.0) * std::log(4e6)) / 1e3 + 8.0 * std::exp(1.0) / 1e6;
  const ShuffleBound printed = shuffle_closed_form_printed(1.0, 1e6, 1e-6);
  CHECK(printed.applies);
  CHECK(printed.epsilon == Approx(std::log1p((std::exp(1.0) - 1.0) / (std::exp(1.0) + 1.0) * a)).epsilon(1e-14));
  CHECK(printed.epsilon == Approx(0.02349677).epsilon(1e-6));
  // The reference code's closedformanalysis: b/d·(a + c) with b = 1 − e^{−ε0}, d = 1 + e^{−ε0 − ln(1 + a + c)}.
  const ShuffleBound code = shuffle_closed_form(1.0, 1e6, 1e-6);
  CHECK(code.applies);
  CHECK(code.epsilon == Approx(std::log1p((1.0 - std::exp(-1.0)) / (1.0 + std::exp(-1.0 - std::log1p(a))) * a))
                            .epsilon(1e-14));
  // The code's form is never below the printed one, and its regime (ln(4/δ)) is the stricter.
  for (const double e0 : {0.1, 0.5, 1.0, 2.0, 3.0}) {
    for (const double n : {1e4, 1e5, 1e6, 1e8}) {
      const ShuffleBound c = shuffle_closed_form(e0, n, 1e-6);
      const ShuffleBound p = shuffle_closed_form_printed(e0, n, 1e-6);
      INFO("epsilon0 = " << e0 << ", n = " << n);
      CHECK(c.epsilon >= p.epsilon);
      if (c.applies) CHECK(p.applies);
    }
  }
  // Between the two regimes: n = 16 ln(4/δ)·e^{ε0} exactly fails the code's condition and meets the printed one.
  const double n_edge = std::ceil(16.0 * std::log(2.0 / 1e-6) * std::exp(1.0)) + 1.0;
  CHECK(shuffle_closed_form_printed(1.0, n_edge, 1e-6).applies);
  CHECK_FALSE(shuffle_closed_form(1.0, n_edge, 1e-6).applies);
  // Outside the regime: no claim.
  const ShuffleBound out = shuffle_closed_form(5.0, 1000, 1e-6);
  CHECK_FALSE(out.applies);
  CHECK(out.epsilon == 5.0);
  CHECK_THROWS_WITH(shuffle_closed_form(1.0, 1e6, 0.0), "delta = 0: must be in (0, 1)");
  CHECK_THROWS_WITH(shuffle_closed_form(1.0, 0.5, 1e-6), "users = 0.5: must be an integer in [1, 1e12]");
  CHECK_THROWS_WITH(shuffle_delta(1.0, 0.0, 0.5, 1e-9), "users = 0: must be an integer in [1, 1e12]");
  CHECK_THROWS_AS(shuffle_closed_form(-1.0, 10, 1e-6), std::invalid_argument);
  ShuffleNumericalOptions bad;
  bad.precision = 0.0;
  CHECK_THROWS_WITH(shuffle_numerical(1.0, 1e4, 1e-6, bad), "precision = 0: must be in (0, 0.5]");
}

TEST_CASE("accounting: shuffling numerical bound (FMT21 Section 4) is the exact reduction, to the precision asked",
          "[accounting-collection]") {
  SECTION("small n against the reduction evaluated by hand (every c, every a)") {
    for (const auto& [e0, n] : std::vector<std::pair<double, int>>{{2.0, 1000}, {1.0, 500}, {4.0, 2000}}) {
      const ReductionByHand by_hand(e0, n);
      const double exact = by_hand.epsilon(1e-6, e0);
      const ShuffleBound num = shuffle_numerical(e0, n, 1e-6);
      INFO("epsilon0 = " << e0 << ", n = " << n << ": exact " << exact << ", numerical " << num.epsilon << " (lower "
                         << num.epsilon_lower << ")");
      CHECK(num.epsilon >= exact * (1.0 - 1e-9));             // a proven upper bound
      CHECK(num.epsilon <= exact * (1.0 + 1e-3) + 1e-12);     // tight to the default precision
      CHECK(num.epsilon_lower <= exact * (1.0 + 1e-9));       // the certified lower end
      CHECK(num.epsilon - num.epsilon_lower <= 1e-3 * num.epsilon);
      CHECK(num.applies);
    }
    // The case a fixed block of 100 values of c got wrong (1.996): about 0.545.
    CHECK(shuffle_numerical(2.0, 1000, 1e-6).epsilon == Approx(0.545).epsilon(0.01));
  }
  SECTION("what the bound rests on: D_c is non-increasing in c (checked by hand up to c = 3000)") {
    const ReductionByHand by_hand(1.5, 3001);
    for (const double eps : {0.05, 0.3, 1.0}) {
      auto previous = by_hand.conditional(0, eps);
      for (int c = 1; c <= 3000; ++c) {
        const auto now = by_hand.conditional(c, eps);
        INFO("eps = " << eps << ", c = " << c);
        REQUIRE(now.first <= previous.first + 1e-15);
        REQUIRE(now.second <= previous.second + 1e-15);
        previous = now;
      }
    }
  }
  SECTION("the precision knob: a finer precision narrows the certified bracket around the same value") {
    ShuffleNumericalOptions fine;
    fine.precision = 1e-6;
    const ShuffleBound a = shuffle_numerical(1.0, 1e4, 1e-6, fine);
    const ShuffleBound b = shuffle_numerical(1.0, 1e4, 1e-6);
    CHECK(a.epsilon - a.epsilon_lower <= 1e-6 * a.epsilon);
    CHECK(a.epsilon <= b.epsilon);
    CHECK(a.epsilon >= b.epsilon_lower);
    // The certified bracket of δ at one ε holds the value computed at a finer gap.
    const ShuffleDelta coarse = shuffle_delta(1.0, 1e4, 0.05, 1e-7);
    const ShuffleDelta exact = shuffle_delta(1.0, 1e4, 0.05, 1e-13);
    CHECK(coarse.upper - coarse.lower <= 1e-7);
    CHECK(coarse.lower <= exact.lower + 1e-15);
    CHECK(exact.upper <= coarse.upper + 1e-15);
  }
  SECTION("inside the authors' reference bounds; <= ε0 and the closed form; monotone in n and ε0") {
    // apple/ml-shuffling-amplification, computeamplification.py, numericalanalysis(n, ε0, δ, T, step, upperbound)
    // run with scipy 1.10 (T = 20 unless noted): the numerical upper and lower bounds on ε, ours between them.
    struct Reference {
      double n, epsilon0, delta, lower, upper;
    };
    const std::vector<Reference> refs{
        {1e5, 1.0, 1e-6, 0.01527090244, 0.01545069528},
        {1e4, 1.0, 1e-6, 0.052970477, 0.05452391104},
        {1e5, 4.0, 1e-6, 0.1675385583, 0.1727905508},  // T = 10 there (grid 2^-10·0.54 = 5e-4): upper + 5e-4
    };
    for (const Reference& r : refs) {
      INFO("n = " << r.n << ", epsilon0 = " << r.epsilon0);
      const double ours = shuffle_numerical(r.epsilon0, r.n, r.delta).epsilon;
      CHECK(ours >= r.lower);
      CHECK(ours <= r.upper + (r.epsilon0 == 4.0 ? 5e-4 : 0.0));
    }
    double previous = 1e300;
    for (const double n : {1e3, 1e4, 1e5, 1e6}) {
      const ShuffleBound num = shuffle_numerical(2.0, n, 1e-6);
      const ShuffleBound closed = shuffle_closed_form(2.0, n, 1e-6);
      INFO("n = " << n << ": numerical " << num.epsilon << ", closed " << closed.epsilon);
      CHECK(num.epsilon <= 2.0);
      CHECK(num.epsilon <= closed.epsilon);
      CHECK(num.epsilon < previous);
      previous = num.epsilon;
    }
    double last = 0.0;
    for (const double e0 : {0.25, 0.5, 1.0, 2.0, 4.0}) {
      const double e = shuffle_numerical(e0, 1e5, 1e-6).epsilon;
      CHECK(e > last);
      CHECK(e < e0);
      last = e;
    }
    CHECK(shuffle_numerical(0.0, 100, 1e-6).epsilon == 0.0);
  }
}
