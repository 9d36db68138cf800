// The privacy accountant for finite channels (docs/analysis/accountant.md): k-RR closed forms and
// test vectors, the erasure channel, Blahut–Arimoto against brute force, LDP ⇒ LIP, and input validation.
#include "analysis/accountant.hpp"
#include "base/errors.hpp"
#include "analysis/channel.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <functional>
#include <limits>
#include <optional>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "mechanisms/mechanism.hpp"
#include "every_pair_ldp_curve.hpp"
#include "test_support.hpp"

using namespace privsample;
using privsample_test::kInf;
using privsample_test::kNaN;
using privsample_test::random_pmf;

namespace {

constexpr double kLog2E = 1.4426950408889634;

// k-RR (docs/analysis/accountant.md#k-rr-closed-forms): p = e^ε/(e^ε + k − 1) on the diagonal, q = 1/(e^ε + k − 1) elsewhere.
ChannelMatrix krr(Eigen::Index k, double epsilon) {
  const double denominator = std::exp(epsilon) + static_cast<double>(k - 1);
  ChannelMatrix w = ChannelMatrix::Constant(k, k, 1.0 / denominator);
  w.diagonal().setConstant(std::exp(epsilon) / denominator);
  return w;
}

double krr_capacity_closed_form(Eigen::Index k, double epsilon) {
  const double denominator = std::exp(epsilon) + static_cast<double>(k - 1);
  const double p = std::exp(epsilon) / denominator;
  const double q = 1.0 / denominator;
  return std::log2(static_cast<double>(k)) + p * std::log2(p) + static_cast<double>(k - 1) * q * std::log2(q);
}

// "Expose with probability t" (docs/analysis/accountant.md#k-rr-closed-forms): output x w.p. t, else ⊥ (the last column).
ChannelMatrix erasure(Eigen::Index k, double t) {
  ChannelMatrix w = ChannelMatrix::Zero(k, k + 1);
  for (Eigen::Index x = 0; x < k; ++x) {
    w(x, x) = t;
    w(x, k) = 1.0 - t;
  }
  return w;
}

// Rows drawn from Exp(1) weights, some entries zeroed (each row keeps at least one non-zero).
ChannelMatrix random_channel(Eigen::Index k, Eigen::Index m, std::mt19937_64& rng, double zero_probability) {
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  ChannelMatrix w(k, m);
  for (Eigen::Index x = 0; x < k; ++x) {
    for (Eigen::Index y = 0; y < m; ++y) w(x, y) = u01(rng) < zero_probability ? 0.0 : -std::log(1.0 - u01(rng));
    if (w.row(x).sum() == 0.0) w(x, 0) = 1.0;
    w.row(x) /= w.row(x).sum();
  }
  return w;
}

// The prior of the k-RR test vector of docs/analysis/accountant.md#k-rr-closed-forms: 0.5 on input 0, the rest uniform.
std::vector<double> half_and_uniform(std::size_t k) {
  std::vector<double> p(k, 0.5 / static_cast<double>(k - 1));
  p[0] = 0.5;
  return p;
}

const std::vector<double> kEpsilonGrid{0.0, 1e-6, 0.1, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0, 10.0, 50.0, 800.0};

// Runs `f`, which must throw std::invalid_argument whose message contains every one of `parts`.
void expect_invalid(const std::function<void()>& f, const std::vector<std::string>& parts) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    INFO("message: " << message);
    for (const std::string& part : parts) CHECK(message.find(part) != std::string::npos);
    return;
  }
  FAIL("no std::invalid_argument thrown");
}

}  // namespace

TEST_CASE("accountant: k-RR capacity matches the closed form and docs/analysis/accountant.md's table", "[accountant]") {
  struct Row {
    Eigen::Index k;
    double epsilon;
    double capacity;  // docs/analysis/accountant.md#k-rr-closed-forms test vectors (10 digits)
  };
  for (const Row row : {Row{2, 1.0, 0.1600584620}, Row{4, 1.0, 0.1702277240}, Row{10, 2.0, 0.5881541816},
                        Row{10, 0.5, 0.0210046674}}) {
    INFO("k = " << row.k << ", epsilon = " << row.epsilon);
    const double exact = krr_capacity_closed_form(row.k, row.epsilon);
    CHECK(exact == Approx(row.capacity).margin(5e-11).epsilon(0));
    const CapacityBounds c = channel_capacity(krr(row.k, row.epsilon));
    CHECK(std::fabs(c.lower - exact) <= 1e-8);
    CHECK(std::fabs(c.upper - exact) <= 1e-8);
    // certified bracket, up to the rounding of a few flops (the uniform prior is exactly optimal here)
    CHECK(c.lower <= exact + 1e-13);
    CHECK(c.upper >= exact - 1e-13);
    CHECK(c.lower <= c.upper);
    REQUIRE(c.prior.size() == static_cast<std::size_t>(row.k));
    for (const double p : c.prior) CHECK(p == Approx(1.0 / static_cast<double>(row.k)).margin(1e-12).epsilon(0));
  }
}

TEST_CASE("accountant: k-RR pure LDP epsilon and LDP curve", "[accountant]") {
  for (const Eigen::Index k : {2, 4, 10}) {
    for (const double epsilon : {0.5, 1.0, 2.0}) {
      INFO("k = " << k << ", epsilon = " << epsilon);
      const ChannelMatrix w = krr(k, epsilon);
      CHECK(pure_ldp_epsilon(w) == Approx(epsilon).margin(1e-12).epsilon(0));
      const std::vector<double> curve = ldp_curve(w, kEpsilonGrid);
      REQUIRE(curve.size() == kEpsilonGrid.size());
      for (std::size_t i = 0; i < kEpsilonGrid.size(); ++i) {
        const double expected = std::max(0.0, (std::exp(epsilon) - std::exp(std::min(kEpsilonGrid[i], 700.0))) /
                                                  (std::exp(epsilon) + static_cast<double>(k - 1)));
        INFO("epsilon' = " << kEpsilonGrid[i]);
        CHECK(curve[i] == Approx(expected).margin(1e-14).epsilon(0));
      }
    }
  }
}

TEST_CASE("accountant: k-RR with a prior reproduces docs/analysis/accountant.md's I, LIP epsilon and LIP delta", "[accountant]") {
  const ChannelMatrix w = krr(10, 2.0);
  const std::vector<double> prior = half_and_uniform(10);
  const double half_unit = privsample_test::half_unit(6);
  CHECK(std::fabs(mutual_information_bits(w, prior) - 0.445407) <= half_unit);
  CHECK(std::fabs(pure_lip_epsilon(w, prior) - 1.696237) <= half_unit);
  const std::vector<double> zero{0.0};
  CHECK(std::fabs(lip_curve(w, prior, zero)[0] - 0.368179) <= half_unit);

  // k-RR closed forms (docs/analysis/accountant.md#k-rr-closed-forms): I = H(Y) − H(Y|X), P_Y(y) = q + (p − q)π_y, and ε_LIP from π_min, π_max.
  const double p = w(0, 0);
  const double q = w(0, 1);
  double h_y = 0.0;
  for (const double pi : prior) {
    const double py = q + (p - q) * pi;
    h_y -= py * std::log2(py);
  }
  const double h_y_given_x = -p * std::log2(p) - 9.0 * q * std::log2(q);
  CHECK(mutual_information_bits(w, prior) == Approx(h_y - h_y_given_x).margin(1e-13).epsilon(0));
  const double lip = std::max(std::log(p / (q + (p - q) * (0.5 / 9.0))), std::log((q + (p - q) * 0.5) / q));
  CHECK(pure_lip_epsilon(w, prior) == Approx(lip).margin(1e-13).epsilon(0));
  CHECK(entropy_bits(prior) == Approx(1.0 + 0.5 * std::log2(9.0)).margin(1e-14).epsilon(0));
}

TEST_CASE("accountant: erasure channel has capacity t log2 k, infinite pure LDP and delta = t", "[accountant]") {
  for (const Eigen::Index k : {2, 5, 64}) {
    for (const double t : {0.01, 0.3, 0.9}) {
      INFO("k = " << k << ", t = " << t);
      const ChannelMatrix w = erasure(k, t);
      const CapacityBounds c = channel_capacity(w);
      const double exact = t * std::log2(static_cast<double>(k));
      CHECK(std::fabs(c.lower - exact) <= 1e-8);
      CHECK(std::fabs(c.upper - exact) <= 1e-8);
      CHECK(pure_ldp_epsilon(w) == kInf);
      std::vector<double> grid = kEpsilonGrid;
      grid.push_back(kInf);  // the limit e^{ε'} → ∞ must not produce ∞·0 = NaN
      for (const double delta : ldp_curve(w, grid)) CHECK(delta == Approx(t).margin(1e-15).epsilon(0));
      // I = t·H(X) for any prior (docs/analysis/accountant.md#k-rr-closed-forms)
      const std::vector<double> prior = half_and_uniform(static_cast<std::size_t>(k));
      CHECK(mutual_information_bits(w, prior) == Approx(t * entropy_bits(prior)).margin(1e-13).epsilon(0));
    }
  }
}

TEST_CASE("accountant: Blahut-Arimoto reproduces the binary asymmetric channel capacities", "[accountant]") {
  // docs/analysis/lmidp.md#bac-capacity test values [VERIFIED]: a non-symmetric channel, so BA must iterate away from the uniform prior
  struct Row {
    double e0;
    double e1;
    double capacity;
  };
  for (const Row row : {Row{0.1, 0.3, 0.29667180288050}, Row{0.2, 0.2, 0.278071905112638},
                        Row{0.05, 0.4, 0.283769156261435}, Row{0.9, 0.3, 0.046992636235348},
                        Row{0.0, 0.5, 0.321928094887362}, Row{0.11, 0.11, 0.500084041835472}}) {
    INFO("e0 = " << row.e0 << ", e1 = " << row.e1);
    ChannelMatrix w(2, 2);
    w << 1.0 - row.e0, row.e0, row.e1, 1.0 - row.e1;
    const CapacityBounds c = channel_capacity(w);
    CHECK(c.upper - c.lower <= 1e-9);
    CHECK(c.lower <= row.capacity + 1e-13);
    CHECK(c.upper >= row.capacity - 1e-13);
    CHECK(mutual_information_bits(w, c.prior) == Approx(c.lower).margin(1e-14).epsilon(0));
  }
  // Z-channel C(0, 1/2): the optimal input puts 2/5 on the noisy symbol (P(B=1) = 2^z/(1+2^z), docs/analysis/lmidp.md#bac-capacity)
  ChannelMatrix z(2, 2);
  z << 1.0, 0.0, 0.5, 0.5;
  const CapacityBounds c = channel_capacity(z, 1e-12);
  CHECK(c.prior[1] == Approx(0.4).margin(1e-5).epsilon(0));
  CHECK(c.iterations > 1);
}

TEST_CASE("accountant: Blahut-Arimoto bounds bracket a brute-force maximum over priors", "[accountant]") {
  std::mt19937_64 rng(20260517);
  for (int trial = 0; trial < 12; ++trial) {
    const Eigen::Index k = trial % 2 == 0 ? 2 : 3;
    const ChannelMatrix w = random_channel(k, 2 + trial % 4, rng, trial % 3 == 0 ? 0.3 : 0.0);
    INFO("trial " << trial << "\n" << w);
    const CapacityBounds c = channel_capacity(w);
    CHECK(c.lower <= c.upper);
    CHECK(c.upper - c.lower <= 1e-9);
    // the BA prior attains the lower bound: lower = I(prior)
    CHECK(mutual_information_bits(w, c.prior) == Approx(c.lower).margin(1e-12).epsilon(0));
    double brute = 0.0;
    const int steps = k == 2 ? 20000 : 200;
    for (int a = 0; a <= steps; ++a) {
      for (int b = 0; b <= (k == 2 ? 0 : steps - a); ++b) {
        std::vector<double> prior;
        if (k == 2) {
          prior = {a / double(steps), 1.0 - a / double(steps)};
        } else {
          prior = {a / double(steps), b / double(steps), double(steps - a - b) / double(steps)};
        }
        brute = std::max(brute, mutual_information_bits(w, prior));
      }
    }
    CHECK(brute <= c.upper + 1e-12);
    CHECK(brute >= c.lower - 1e-4);  // the grid's resolution (I is smooth in the prior)
    for (int r = 0; r < 50; ++r) {
      CHECK(mutual_information_bits(w, random_pmf(static_cast<std::size_t>(k), rng, 0.2)) <= c.upper + 1e-12);
    }
  }
}

TEST_CASE("accountant: capacity of larger random channels converges and bounds every prior's I", "[accountant]") {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 6; ++trial) {
    const ChannelMatrix w = random_channel(6 + trial, 8, rng, 0.25);
    const CapacityBounds c = channel_capacity(w, 1e-10);
    INFO("trial " << trial << ", iterations " << c.iterations);
    CHECK(c.upper - c.lower <= 1e-10);
    CHECK(c.upper <= std::log2(static_cast<double>(std::min(w.rows(), w.cols()))) + 1e-12);
    for (int r = 0; r < 50; ++r) {
      CHECK(mutual_information_bits(w, random_pmf(static_cast<std::size_t>(w.rows()), rng, 0.3)) <=
            c.upper + 1e-12);
    }
  }
  // max_iterations caps the work and still returns valid (wider) bounds
  const ChannelMatrix w = random_channel(5, 5, rng, 0.0);
  const CapacityBounds one = channel_capacity(w, 1e-12, 1);
  const CapacityBounds full = channel_capacity(w, 1e-12);
  CHECK(one.iterations == 1);
  CHECK(one.lower <= full.upper + 1e-12);
  CHECK(one.upper >= full.lower - 1e-12);
}

TEST_CASE("accountant: LIP epsilon <= LDP epsilon and delta_LIP <= delta_LDP on random channels", "[accountant]") {
  std::mt19937_64 rng(99);
  for (int trial = 0; trial < 40; ++trial) {
    const Eigen::Index k = 2 + trial % 5;
    const ChannelMatrix w = random_channel(k, 2 + trial % 6, rng, trial % 4 == 0 ? 0.3 : 0.0);
    const std::vector<double> prior = random_pmf(static_cast<std::size_t>(k), rng, 0.2);
    INFO("trial " << trial);
    const double ldp = pure_ldp_epsilon(w);
    const double lip = pure_lip_epsilon(w, prior);
    CHECK(lip <= ldp);  // ε-LDP ⇒ ε-LIP (docs/analysis/accountant.md#relations)
    CHECK(!std::isnan(lip));
    const std::vector<double> ldp_delta = ldp_curve(w, kEpsilonGrid);
    const std::vector<double> lip_delta = lip_curve(w, prior, kEpsilonGrid);
    for (std::size_t i = 0; i < kEpsilonGrid.size(); ++i) {
      CHECK(lip_delta[i] <= ldp_delta[i] + 1e-15);  // (ε, δ)-LDP ⇒ (ε, δ)-LIP
      CHECK(lip_delta[i] >= 0.0);
      CHECK(ldp_delta[i] <= 1.0);
      if (i > 0) {  // non-increasing in ε'
        CHECK(ldp_delta[i] <= ldp_delta[i - 1]);
        CHECK(lip_delta[i] <= lip_delta[i - 1]);
      }
    }
    // δ reaches 0 at the pure ε (when finite) for both curves
    if (std::isfinite(ldp)) {
      const std::vector<double> at{ldp * (1.0 + 1e-9) + 1e-12};
      CHECK(ldp_curve(w, at)[0] <= 1e-15);
      const std::vector<double> at_lip{lip * (1.0 + 1e-9) + 1e-12};
      CHECK(lip_curve(w, prior, at_lip)[0] <= 1e-15);
    }
    CHECK(mutual_information_bits(w, prior) <= entropy_bits(prior) + 1e-12);
  }
}

TEST_CASE("accountant: LIP ignores the rows a prior gives zero mass", "[accountant]") {
  std::mt19937_64 rng(3);
  const ChannelMatrix sub = random_channel(3, 4, rng, 0.0);
  ChannelMatrix w(4, 4);
  w.topRows(3) = sub;
  w.row(3) << 1.0, 0.0, 0.0, 0.0;  // a row that alone would make every LDP/LIP ε infinite
  const std::vector<double> prior{0.5, 0.3, 0.2, 0.0};
  const std::vector<double> sub_prior{0.5, 0.3, 0.2};
  CHECK(pure_ldp_epsilon(w) == kInf);
  CHECK(std::isfinite(pure_lip_epsilon(w, prior)));
  CHECK(pure_lip_epsilon(w, prior) == Approx(pure_lip_epsilon(sub, sub_prior)).margin(1e-14).epsilon(0));
  const std::vector<double> with_zero = lip_curve(w, prior, kEpsilonGrid);
  const std::vector<double> without = lip_curve(sub, sub_prior, kEpsilonGrid);
  for (std::size_t i = 0; i < kEpsilonGrid.size(); ++i) CHECK(with_zero[i] == Approx(without[i]).margin(1e-15).epsilon(0));
  CHECK(mutual_information_bits(w, prior) == Approx(mutual_information_bits(sub, sub_prior)).margin(1e-14).epsilon(0));

  // k-RR with a two-point prior: ε_LIP uses the smallest NON-ZERO mass (docs/analysis/accountant.md#k-rr-closed-forms)
  const ChannelMatrix g = krr(5, 1.0);
  const double p = g(0, 0);
  const double q = g(0, 1);
  const std::vector<double> two{0.6, 0.4, 0.0, 0.0, 0.0};
  const double expected = std::max(std::log(p / (q + (p - q) * 0.4)), std::log((q + (p - q) * 0.6) / q));
  CHECK(pure_lip_epsilon(g, two) == Approx(expected).margin(1e-13).epsilon(0));
  CHECK(pure_lip_epsilon(g, two) < 1.0);
}

TEST_CASE("accountant: small cases: one row, identical rows, all-zero columns", "[accountant]") {
  ChannelMatrix one(1, 3);
  one << 0.2, 0.3, 0.5;
  CHECK(pure_ldp_epsilon(one) == 0.0);
  for (const double d : ldp_curve(one, kEpsilonGrid)) CHECK(d == 0.0);
  CHECK(channel_capacity(one).upper == 0.0);

  ChannelMatrix same(3, 4);
  same << 0.1, 0.0, 0.4, 0.5, 0.1, 0.0, 0.4, 0.5, 0.1, 0.0, 0.4, 0.5;  // column 1 is never produced
  CHECK(pure_ldp_epsilon(same) == 0.0);
  const CapacityBounds c = channel_capacity(same);
  CHECK(c.lower == 0.0);
  CHECK(c.upper <= 1e-15);
  const std::vector<double> prior{0.2, 0.0, 0.8};
  CHECK(mutual_information_bits(same, prior) <= 1e-15);
  CHECK(pure_lip_epsilon(same, prior) <= 1e-15);

  // identity channel: capacity log2 k, ε = ∞, δ = 1 everywhere, I = H(X)
  const ChannelMatrix identity = ChannelMatrix::Identity(4, 4);
  CHECK(channel_capacity(identity).lower == Approx(2.0).margin(1e-12).epsilon(0));
  CHECK(pure_ldp_epsilon(identity) == kInf);
  for (const double d : ldp_curve(identity, kEpsilonGrid)) CHECK(d == 1.0);
  const std::vector<double> skewed{0.7, 0.1, 0.1, 0.1};
  CHECK(mutual_information_bits(identity, skewed) == Approx(entropy_bits(skewed)).margin(1e-14).epsilon(0));
  CHECK(pure_lip_epsilon(identity, skewed) == kInf);

  // rows summing to 1 within 1e-9 are accepted and renormalised
  ChannelMatrix nearly(2, 2);
  nearly << 0.5 + 4e-10, 0.5, 0.25, 0.75;
  const ChannelMatrix fixed = validated_channel(nearly);
  CHECK(fixed.row(0).sum() == Approx(1.0).margin(1e-15).epsilon(0));
}

TEST_CASE("accountant: the report fills every field", "[accountant]") {
  const ChannelMatrix w = krr(10, 2.0);
  const std::vector<double> prior = half_and_uniform(10);
  const AccountantReport with = accountant_report(w, std::span<const double>(prior), kEpsilonGrid);
  CHECK(with.pure_ldp_epsilon == Approx(2.0).margin(1e-12).epsilon(0));
  CHECK(with.epsilons == kEpsilonGrid);
  CHECK(with.ldp_curve == ldp_curve(w, kEpsilonGrid));
  CHECK(with.capacity.lower == Approx(0.5881541816).margin(1e-9).epsilon(0));
  CHECK(with.capacity_bound_from_pure_ldp == Approx(kLog2E * 2.0 * std::tanh(1.0)).margin(1e-13).epsilon(0));
  REQUIRE(with.prior_entropy.has_value());
  REQUIRE(with.mutual_information.has_value());
  REQUIRE(with.pure_lip_epsilon.has_value());
  CHECK(*with.prior_entropy == Approx(entropy_bits(prior)).margin(1e-15).epsilon(0));
  REQUIRE(with.prior_min_mass.has_value());
  CHECK(*with.prior_min_mass == Approx(*std::min_element(prior.begin(), prior.end())).margin(1e-16).epsilon(0));
  // zeros are not the smallest mass: p_min of the corrected Thm 2(a) is over the support
  const std::vector<double> sparse{0.0, 0.7, 0.0, 0.2, 0.1, 0.0, 0.0, 0.0, 0.0, 0.0};
  const AccountantReport on_support = accountant_report(w, std::span<const double>(sparse), kEpsilonGrid);
  REQUIRE(on_support.prior_min_mass.has_value());
  CHECK(*on_support.prior_min_mass == Approx(0.1).margin(1e-16).epsilon(0));
  CHECK(std::fabs(*with.mutual_information - 0.445407) <= privsample_test::half_unit(6));
  CHECK(std::fabs(*with.pure_lip_epsilon - 1.696237) <= privsample_test::half_unit(6));
  CHECK(with.lip_curve == lip_curve(w, prior, kEpsilonGrid));
  // the bounds of docs/analysis/accountant.md#the-report: I <= C <= Thm 1(b) bound; ε_LIP <= ε_LDP
  CHECK(*with.mutual_information <= with.capacity.upper);
  CHECK(with.capacity.upper <= with.capacity_bound_from_pure_ldp);
  CHECK(*with.pure_lip_epsilon <= with.pure_ldp_epsilon);

  const AccountantReport without = accountant_report(erasure(8, 0.1), std::nullopt, kEpsilonGrid);
  CHECK(without.pure_ldp_epsilon == kInf);
  CHECK(without.capacity_bound_from_pure_ldp == kInf);
  CHECK(without.capacity.lower == Approx(0.3).margin(1e-8).epsilon(0));
  CHECK_FALSE(without.prior_entropy.has_value());
  CHECK_FALSE(without.prior_min_mass.has_value());
  CHECK_FALSE(without.mutual_information.has_value());
  CHECK_FALSE(without.pure_lip_epsilon.has_value());
  CHECK(without.lip_curve.empty());
  CHECK(without.ldp_curve.size() == kEpsilonGrid.size());
}

TEST_CASE("accountant: bad inputs throw invalid_argument naming the offending place", "[accountant]") {
  const std::vector<double> grid{0.0, 1.0};
  ChannelMatrix negative(2, 2);
  negative << 0.5, 0.5, 1.5, -0.5;
  expect_invalid([&] { (void)pure_ldp_epsilon(negative); }, {"W(1, 1)", "-0.5"});
  ChannelMatrix nan_entry(2, 2);
  nan_entry << 0.5, kNaN, 0.5, 0.5;
  expect_invalid([&] { (void)ldp_curve(nan_entry, grid); }, {"W(0, 1)", "NaN"});
  ChannelMatrix inf_entry(1, 2);
  inf_entry << kInf, 0.0;
  expect_invalid([&] { (void)channel_capacity(inf_entry); }, {"W(0, 0)", "Infinity"});
  ChannelMatrix bad_row(3, 2);
  bad_row << 0.5, 0.5, 0.5, 0.5, 0.5, 0.4;
  expect_invalid([&] { (void)validated_channel(bad_row); }, {"row 2", "0.9"});
  ChannelMatrix slightly_off(1, 2);
  slightly_off << 0.5, 0.5 + 1e-8;
  expect_invalid([&] { (void)validated_channel(slightly_off); }, {"row 0"});
  expect_invalid([&] { (void)validated_channel(ChannelMatrix(0, 3)); }, {"empty"});
  expect_invalid([&] { (void)validated_channel(ChannelMatrix(3, 0)); }, {"empty"});
  const ChannelMatrix too_big = ChannelMatrix::Constant(1001, 1000, 1.0 / 1000.0);
  expect_invalid([&] { (void)pure_ldp_epsilon(too_big); }, {"1001000", "1000000"});

  const ChannelMatrix w = krr(3, 1.0);
  const std::vector<double> short_prior{0.5, 0.5};
  expect_invalid([&] { (void)mutual_information_bits(w, short_prior); }, {"2 entries", "3 rows"});
  expect_invalid([&] { (void)accountant_report(w, std::span<const double>(short_prior), grid); },
                 {"2 entries", "3 rows"});
  const std::vector<double> negative_prior{0.5, 0.7, -0.2};
  expect_invalid([&] { (void)pure_lip_epsilon(w, negative_prior); }, {"prior[2]", "-0.2"});
  const std::vector<double> nan_prior{0.5, kNaN, 0.5};
  expect_invalid([&] { (void)lip_curve(w, nan_prior, grid); }, {"prior[1]", "NaN"});
  const std::vector<double> unnormalised{0.5, 0.3, 0.1};
  expect_invalid([&] { (void)mutual_information_bits(w, unnormalised); }, {"prior sums to 0.9"});
  expect_invalid([&] { (void)entropy_bits(unnormalised); }, {"prior sums to 0.9"});
  expect_invalid([&] { (void)entropy_bits(std::vector<double>{}); }, {"prior is empty"});
  const std::vector<double> near_prior{0.5, 0.3, 0.2 + 5e-7};
  CHECK_NOTHROW(mutual_information_bits(w, near_prior));

  expect_invalid([&] { (void)ldp_curve(w, std::vector<double>{0.0, -1.0}); }, {"epsilons[1]", "-1"});
  expect_invalid([&] { (void)lip_curve(w, short_prior, std::vector<double>{kNaN}); }, {"prior has 2"});
  expect_invalid([&] { (void)lip_curve(w, std::vector<double>{0.2, 0.3, 0.5}, std::vector<double>{kNaN}); },
                 {"epsilons[0]", "NaN"});
  expect_invalid([&] { (void)channel_capacity(w, 0.0); }, {"tolerance", "0"});
  expect_invalid([&] { (void)channel_capacity(w, kNaN); }, {"tolerance", "NaN"});
  expect_invalid([&] { (void)channel_capacity(w, 1e-9, 0); }, {"max_iterations", "0"});
}

TEST_CASE("accountant: the size cap is checked before anything is allocated; laplace-projection is refused", "[accountant]") {
  MechanismOptions o;
  o.epsilon = 1.0;
  const Mechanism minimax = make_finite_mechanism("minimax", o);
  // 10^5 point masses would be 10^10 numbers (80 GB): refused at once, naming k and the cap.
  CHECK_THROWS_WITH(point_mass_inputs(minimax, 100000), Catch::Contains("k = 100000") && Catch::Contains("at most"));
  CHECK(point_mass_inputs(minimax, 1000).size() == 1000);
  o.records = 2.0;
  o.epsilon = 2.0;
  const Mechanism laplace = make_finite_mechanism("laplace-projection", o);
  CHECK_THROWS_AS(channel_matrix(laplace, point_mass_inputs(laplace, 2)), std::domain_error);
}

namespace {

// The every-pair search on the rows renormalised like validated_channel does.
std::vector<double> ldp_curve_by_every_pair(const ChannelMatrix& w_in, const std::vector<double>& epsilons) {
  return privsample_reference::every_pair_ldp_curve(validated_channel(w_in), epsilons);
}

}  // namespace

TEST_CASE("accountant: the pruned LDP-curve search equals the every-pair search bit for bit", "[accountant]") {
  std::mt19937_64 rng(1125);
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  const std::vector<double> epsilons{0.0, 0.01, 0.1, 0.5, 1.0, 2.0, 5.0, 20.0, 800.0, kInf};
  int channels = 0;
  for (const Eigen::Index k : {2, 3, 5, 8, 17}) {
    for (const Eigen::Index m : {1, 2, 4, 9, 16}) {
      for (int shape = 0; shape < 6; ++shape) {
        ChannelMatrix w(k, m);
        for (Eigen::Index i = 0; i < k; ++i) {
          for (Eigen::Index y = 0; y < m; ++y) {
            const double v = u01(rng);
            // shapes: dense, sparse zeros, heavy-tailed, identical rows, near point masses, tiny masses
            w(i, y) = shape == 1 && v < 0.4   ? 0.0
                      : shape == 2            ? std::pow(v, 8.0)
                      : shape == 3            ? 1.0 + static_cast<double>(y)
                      : shape == 4            ? (y == i % m ? 1.0 : 1e-9 * v)
                      : shape == 5 && v < 0.5 ? 1e-300
                                              : v;
          }
          if (w.row(i).sum() == 0.0) w(i, 0) = 1.0;
          w.row(i) /= w.row(i).sum();
        }
        INFO("k = " << k << ", m = " << m << ", shape " << shape);
        CHECK(ldp_curve(w, epsilons) == ldp_curve_by_every_pair(w, epsilons));
        ++channels;
      }
    }
  }
  // The mechanisms' own channels, where the pruning skips almost every pair.
  for (const char* name : {"minimax", "local", "mollifier"}) {
    MechanismOptions o;
    o.epsilon = 1.3;
    if (std::string(name) == "local") {
      o.prior = std::vector<double>{0.4, 0.3, 0.1, 0.1, 0.05, 0.05};
      o.gamma = 3.0;
    }
    const Mechanism m = make_finite_mechanism(name, o);
    const auto inputs = point_mass_inputs(m, 6);
    const ChannelMatrix w = channel_matrix(m, inputs);
    INFO(name);
    CHECK(ldp_curve(w, epsilons) == ldp_curve_by_every_pair(w, epsilons));
    ++channels;
  }
  CHECK(channels == 153);
}

TEST_CASE("accountant: k = 1000 point masses run (the pruned search)", "[accountant][slow]") {
  MechanismOptions o;
  o.epsilon = 1.0;
  const Mechanism m = make_finite_mechanism("minimax", o);
  const ChannelMatrix w = channel_matrix(m, point_mass_inputs(m, 1000));
  const AccountantReport report = accountant_report(w, std::nullopt, {});
  CHECK(report.pure_ldp_epsilon == Approx(1.0).margin(1e-12).epsilon(0));
  // k-RR-like rows: δ(ε') = u − e^{ε'}ℓ for ε' <= ε with u = e^ε/(e^ε + k − 1), ℓ = 1/(e^ε + k − 1)
  const double ell = 1.0 / (std::exp(1.0) + 999.0);
  CHECK(report.ldp_curve.front() == Approx(std::exp(1.0) * ell - ell).epsilon(1e-12));
  CHECK(report.ldp_curve.back() == 0.0);
}

TEST_CASE("accountant: pure epsilon from each output's extremes equals the channel's, and refuses bad extremes",
          "[accountant]") {
  ChannelMatrix w(3, 4);
  w << 0.1, 0.2, 0.3, 0.4,  //
      0.4, 0.3, 0.2, 0.1,   //
      0.25, 0.25, 0.25, 0.25;
  std::vector<double> largest(4);
  std::vector<double> smallest(4);
  for (Eigen::Index y = 0; y < 4; ++y) {
    largest[static_cast<std::size_t>(y)] = w.col(y).maxCoeff();
    smallest[static_cast<std::size_t>(y)] = w.col(y).minCoeff();
  }
  CHECK(pure_ldp_epsilon_of_extremes(largest, smallest) == pure_ldp_epsilon(w));
  CHECK(pure_ldp_epsilon_of_extremes(largest, smallest) == Approx(std::log(4.0)).epsilon(1e-15));
  // an output nobody produces says nothing; one that only some produce leaves no finite ε
  CHECK(pure_ldp_epsilon_of_extremes(std::vector<double>{0.5, 0.0}, std::vector<double>{0.25, 0.0}) == Approx(std::log(2.0)));
  CHECK(pure_ldp_epsilon_of_extremes(std::vector<double>{0.5, 0.1}, std::vector<double>{0.25, 0.0}) ==
        std::numeric_limits<double>::infinity());
  // tiny probabilities: a difference of logs, no overflowing ratio
  CHECK(pure_ldp_epsilon_of_extremes(std::vector<double>{1.0}, std::vector<double>{1e-300}) == Approx(300 * std::log(10.0)));
  CHECK_THROWS_WITH(pure_ldp_epsilon_of_extremes(std::vector<double>{0.1}, std::vector<double>{0.2}),
                    Catch::Contains("largest[0]") && Catch::Contains("smallest[0]"));
  CHECK_THROWS_WITH(pure_ldp_epsilon_of_extremes(std::vector<double>{0.1}, std::vector<double>{-0.2}), Catch::Contains("smallest[0]"));
  CHECK_THROWS_AS(pure_ldp_epsilon_of_extremes(std::vector<double>{0.1, 0.2}, std::vector<double>{0.1}), ShapeError);
}
