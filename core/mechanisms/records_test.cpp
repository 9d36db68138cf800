// What the record-level mechanisms share (records.hpp): counts, the q tables of ROO and DS-ROO side by side.
// Reference values: core/mechanisms/roo/README.md, core/mechanisms/ds-roo/README.md, docs/experiments.md#tasnim-et-al.
#include "privsample.hpp"

#include <catch2/catch.hpp>

#include "mechanisms/records_test_support.hpp"

using namespace privsample;
using namespace privsample::records_test;

// ---- q tables ---------------------------------------------------------------------------------------------

TEST_CASE("roo: k | n gives q_M = 0 and no NaN, the exact-uniform histogram outputs U", "[roo][dsroo]") {
  for (const double epsilon : {0.0, 0.01, 0.4, 1.0, 5.0, 800.0}) {
    for (const std::size_t k : {1u, 2u, 3u, 5u, 9u}) {
      for (const std::size_t multiple : {1u, 2u, 7u, 111u}) {
        const std::size_t n = k * multiple;
        const auto fixed = dsroo_obscure_table(epsilon, n, k);
        const auto printed = dsroo_obscure_table_as_printed(epsilon, n, k);
        INFO("epsilon " << epsilon << " k " << k << " n " << n);
        REQUIRE(all_finite(fixed));
        REQUIRE(all_finite(printed));
        CHECK(fixed.back() == 0.0);
        CHECK(printed.back() == 0.0);
        const std::vector<double> uniform_counts(k, static_cast<double>(multiple));
        const DsRooSampler sampler(epsilon, static_cast<double>(n));
        const auto q = sampler.distribution(uniform_counts);
        for (const double value : q) CHECK(value == Approx(1.0 / static_cast<double>(k)).epsilon(1e-14));
        CHECK(sampler.obscure_probability(uniform_counts) == 0.0);
      }
    }
  }
  // u_{M−1} = 0 when k | n, so q_{M−1} = (1 − (M−1)e1)/e^ε = t_{M−1} (core/mechanisms/ds-roo/README.md#reference-values): k=2, n=4, e^ε = 11/10 → 9/11.
  check_rational(dsroo_obscure_probability(std::log(1.1), 4, 2, 1), 9, 11);
}

// ---- the defect of the printed Algorithm 2 -------------------------------------------------------------------

TEST_CASE("roo: exhaustive replace-one audit without slack, ROO and DS-ROO are eps-DP on distribution() and on the "
          "released law, the printed DS-ROO is not", "[roo][dsroo][privacy]") {
  // Several ε at and below 0.1 (where the second defect lives), rational e^ε (11/10, 6/5, 3/2), and large ε.
  const std::vector<double> epsilons = {0.001, 0.01, 0.05, 0.1, std::log(1.1), std::log(1.2), std::log(1.5), 0.4, 1.0,
                                        3.0};
  std::size_t checks = 0;
  std::size_t printed_violations = 0;
  std::size_t printed_violating_configs = 0;
  std::size_t configurations = 0;
  for (std::size_t k = 2; k <= 4; ++k) {
    for (std::size_t n = 1; n <= 30; ++n) {
      for (const double epsilon : epsilons) {
        ++configurations;
        INFO("k " << k << " n " << n << " epsilon " << epsilon);
        const RooSampler roo(epsilon, static_cast<double>(n));
        const DsRooSampler dsroo(epsilon, static_cast<double>(n));
        const Audit roo_audit = audit(k, n, epsilon, [&](const std::vector<double>& c) { return roo.distribution(c); });
        const Audit ds_audit =
            audit(k, n, epsilon, [&](const std::vector<double>& c) { return dsroo.distribution(c); });
        const Audit ds_released = audit(k, n, epsilon, [&](const std::vector<double>& c) {
          return released_law(dsroo.obscure_probability(c), c, n);
        });
        CHECK(roo_audit.violations == 0);
        CHECK(ds_audit.violations == 0);
        CHECK(ds_released.violations == 0);
        // ROO's bound is tight (eqs. 24–28): some neighbour pair reaches e^ε (up to the outward rounding of q).
        CHECK(roo_audit.max_log_ratio <= epsilon);
        CHECK(roo_audit.max_log_ratio == Approx(epsilon).epsilon(1e-9));
        // DS-ROO is tight too for k >= 3 (a letter can go 0 → 1 while another stays at 0, so the pair has m = m̃ = 0
        // and ROO's ratio). For k = 2 no such pair exists once n >= 3 and the realised loss can be below ε (e.g. ln 2
        // at ε = 1 for n >= 12): the construction's list has pairs that k = 2 cannot form.
        CHECK(ds_audit.max_log_ratio <= epsilon);
        CHECK(ds_released.max_log_ratio <= epsilon);
        if (k >= 3) CHECK(ds_released.max_log_ratio == Approx(epsilon).epsilon(1e-9));
        checks += roo_audit.checks + ds_audit.checks + ds_released.checks;

        const std::vector<double> printed = dsroo_obscure_table_as_printed(epsilon, n, k);
        const double nd = static_cast<double>(n);
        const Audit printed_audit =
            audit(k, n, epsilon, [&](const std::vector<double>& c) { return table_mixture(printed, c, nd); });
        printed_violations += printed_audit.violations;
        if (printed_audit.violations > 0) ++printed_violating_configs;
      }
    }
  }
  INFO("ratio checks " << checks << "; printed algorithm: " << printed_violations << " violations in "
                       << printed_violating_configs << " configurations");
  CHECK(checks > 10'000'000);
  CHECK(printed_violating_configs >= 1);  // the audit has teeth on this grid
  WARN("exhaustive audit: " << checks << " ratio checks, 0 violations for ROO/DS-ROO; printed Algorithm 2: "
                            << printed_violations << " violations in " << printed_violating_configs << " of "
                            << configurations << " configurations");
}

TEST_CASE("roo: eps = 0 gives the uniform output, eps up to 1000 gives q ~ 0 without NaN or Inf", "[roo][dsroo]") {
  const std::vector<double> counts = {0, 3, 7, 10};
  const RooSampler roo0(0.0, 20);
  const DsRooSampler ds0(0.0, 20);
  const LaplaceProjectionSampler lap0(0.0, 20);
  for (const auto& q : {roo0.distribution(counts), ds0.distribution(counts), lap0.distribution(counts)}) {
    for (const double value : q) CHECK(value == 0.25);
  }
  CHECK(roo0.obscure_probability(4) == 1.0);
  CHECK(ds0.obscure_probability(std::vector<double>{5, 5, 5, 5}) == 0.0);  // k | n, q_M := 0, output U anyway
  CHECK(ds0.obscure_probability(std::vector<double>{4, 5, 5, 6}) == 1.0);
  for (const double q : dsroo_obscure_table(0.0, 21, 4)) CHECK(q == 1.0);
  CHECK(RooSampler(0.0, 20).worst_case_risk(NamedDivergence::tv, 4) == Approx(0.75));

  for (const double epsilon : {50.0, 640.0, 700.0, 701.0, 800.0, 1000.0}) {
    for (const double n : {1.0, 20.0, 1e6, 1e9}) {
      INFO("epsilon " << epsilon << " n " << n);
      const RooSampler roo(epsilon, n);
      for (const std::size_t k : {1u, 2u, 4u, 10000000u}) {
        const double q = roo.obscure_probability(k);
        CHECK(std::isfinite(q));
        CHECK(q >= 0.0);
        CHECK(q <= 1.0001 * static_cast<double>(k) * std::exp(-std::min(epsilon, kMaxEffectiveEpsilon)) / n);
        const double raw = roo_obscure_probability(epsilon, static_cast<std::size_t>(n), k);
        CHECK(std::isfinite(raw));
        CHECK(raw <= q);
        // ε > 640 runs at 640: q stays positive (a letter absent from the data keeps a nonzero probability).
        if (epsilon >= 700.0) CHECK(q > 0.0);
        CHECK(std::isfinite(roo.worst_case_risk(NamedDivergence::kl, k)));
        CHECK(roo.worst_case_risk(NamedDivergence::chi2, k) <= 1.0001 * q);
      }
      std::vector<double> counts4 = {0, 0, 0, n};
      counts4[0] = std::floor(n / 4);
      counts4[1] = std::floor(n / 4);
      counts4[3] = n - 2 * std::floor(n / 4);
      const auto p = roo.distribution(counts4);
      REQUIRE(all_finite(p));
      for (std::size_t y = 0; y < 4; ++y) CHECK(p[y] == Approx(counts4[y] / n).margin(1e-15).epsilon(0));
      const DsRooSampler ds(epsilon, n);
      REQUIRE(all_finite(ds.distribution(counts4)));
      if (n >= 4) {
        const std::vector<double> full = {1, 1, 1, n - 3};
        CHECK(ds.obscure_probability(full) == 0.0);  // every letter present: never obscures at large ε
      }
    }
    const auto table = dsroo_obscure_table(epsilon, 1000, 9);
    REQUIRE(all_finite(table));
    CHECK(table[0] > 0.0);
    CHECK(table[0] < 1e-20);
    for (std::size_t m = 1; m < table.size(); ++m) CHECK(table[m] == 0.0);
    REQUIRE(all_finite(dsroo_obscure_table_as_printed(epsilon, 1000, 9)));
  }
  // Draws at ε = 1000 never output a letter the data does not contain (probability ~1e-300).
  const RooSampler roo(1000.0, 20);
  SeededRandom rng(7);
  for (int t = 0; t < 2000; ++t) CHECK(roo.sample(counts, rng) != 0);
}

TEST_CASE("roo: k = 1 and n < k are handled", "[roo][dsroo]") {
  const std::vector<double> one = {7};
  SeededRandom rng(1);
  for (const double epsilon : {0.0, 0.5, 1000.0}) {
    const RooSampler roo(epsilon, 7);
    const DsRooSampler ds(epsilon, 7);
    CHECK(roo.distribution(one)[0] == Approx(1.0).epsilon(1e-15));
    CHECK(ds.distribution(one) == std::vector<double>{1.0});
    CHECK(roo.sample(one, rng) == 0);
    CHECK(ds.sample(one, rng) == 0);
    CHECK(roo.worst_case_risk(NamedDivergence::kl, 1) == 0.0);
    CHECK(ds.worst_case_risk(NamedDivergence::hellinger, 1) == 0.0);
    CHECK(roo.worst_case_risk(f_divergence(NamedDivergence::chi2), 1) == 0.0);
  }
  // n < k: M = 0, DS-ROO is ROO.
  const RooSampler roo(0.7, 3);
  const DsRooSampler ds(0.7, 3);
  const std::vector<double> counts = {1, 0, 2, 0, 0};
  CHECK(ds.distribution(counts) == roo.distribution(counts));
  CHECK(dsroo_obscure_table(0.7, 3, 5).size() == 1);
}

// ---- sampling ----------------------------------------------------------------------------------------------

TEST_CASE("roo: ROO and DS-ROO sample frequencies match distribution() (chi-square)", "[roo][dsroo][statistical]") {
  constexpr std::size_t kDraws = 1000000;
  {
    const RooSampler roo(0.5, 20);
    const std::vector<double> counts = {0, 2, 0, 18, 0};
    const auto pmf = roo.distribution(counts);
    const double q = roo.obscure_probability(5);
    CHECK(q == Approx(5.0 / (5.0 + 20.0 * std::expm1(0.5))));
    for (std::size_t y = 0; y < 5; ++y) CHECK(pmf[y] == Approx(q / 5 + (1 - q) * counts[y] / 20).epsilon(1e-14));
    const auto observed = frequencies(roo, counts, kDraws, 20240501);
    const double p_value = chi_square_p_value(observed, pmf);
    INFO("ROO chi-square p = " << p_value);
    CHECK(p_value > 1e-6);
    // Power: the same draws are rejected against a pmf whose q is off by 3%.
    std::vector<double> wrong(5);
    for (std::size_t y = 0; y < 5; ++y) wrong[y] = 0.97 * q / 5 + (1 - 0.97 * q) * counts[y] / 20;
    CHECK(chi_square_p_value(observed, wrong) < 1e-6);
  }
  {
    const DsRooSampler ds(0.1, 30);
    const std::vector<double> counts = {8, 10, 12};
    const double q = ds.obscure_probability(counts);
    CHECK(q == Approx(dsroo_obscure_table(0.1, 30, 3)[8]).epsilon(1e-10));
    CHECK(q > 0.05);  // both branches (obscure and reveal) are exercised
    const auto pmf = ds.distribution(counts);
    const auto observed = frequencies(ds, counts, kDraws, 99);
    const double p_value = chi_square_p_value(observed, pmf);
    INFO("DS-ROO chi-square p = " << p_value);
    CHECK(p_value > 1e-6);
    // Power: ROO's q_0 instead of q_8 is rejected.
    const auto roo_pmf = RooSampler(0.1, 30).distribution(counts);
    CHECK(chi_square_p_value(observed, roo_pmf) < 1e-6);
  }
  {
    const DsRooSampler ds(0.3, 25);
    const std::vector<double> counts = {0, 4, 6, 15};  // m = 0: ROO's q_0
    CHECK(ds.obscure_probability(counts) == Approx(roo_obscure_probability(0.3, 25, 4)).epsilon(1e-10));
    const double p_value = chi_square_p_value(frequencies(ds, counts, kDraws, 3), ds.distribution(counts));
    INFO("DS-ROO (m = 0) chi-square p = " << p_value);
    CHECK(p_value > 1e-6);
  }
}

TEST_CASE("roo: samplers reject bad parameters and histograms with named values", "[roo][validation]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  CHECK_THROWS_WITH(RooSampler(1.0, 0.0), Catch::Contains("records = 0"));
  CHECK_THROWS_WITH(RooSampler(1.0, 2.5), Catch::Contains("records = 2.5") && Catch::Contains("integer"));
  CHECK_THROWS_WITH(DsRooSampler(1.0, -3.0), Catch::Contains("records = -3"));
  CHECK_THROWS_WITH(LaplaceProjectionSampler(1.0, nan), Catch::Contains("records = NaN"));
  CHECK_THROWS_WITH(RooSampler(1.0, inf), Catch::Contains("records = Infinity"));
  CHECK_THROWS_WITH(RooSampler(1.0, 2e9), Catch::Contains("records = 2000000000"));
  CHECK_THROWS_WITH(RooSampler(-1.0, 10.0), Catch::Contains("epsilon = -1"));
  CHECK_THROWS_WITH(DsRooSampler(nan, 10.0), Catch::Contains("epsilon = NaN"));
  CHECK_THROWS_WITH(LaplaceProjectionSampler(1001.0, 10.0), Catch::Contains("epsilon = 1001"));
  CHECK_THROWS_AS(RooSampler(1.0, 0.5), std::invalid_argument);

  const RooSampler roo(1.0, 40);
  const DsRooSampler ds(1.0, 40);
  const LaplaceProjectionSampler lap(1.0, 40);
  SeededRandom rng(3);
  const std::vector<double> not_integer = {1.5, 38.5};
  const std::vector<double> short_sum = {10, 27};
  const std::vector<double> negative = {-2, 42};
  const std::vector<double> with_nan = {20, nan};
  const std::vector<double> with_inf = {inf, 0};
  const std::vector<double> too_big = {50};
  const std::vector<double> empty;
  CHECK_THROWS_WITH(roo.distribution(not_integer), Catch::Contains("hist[0] = 1.5") && Catch::Contains("integer"));
  CHECK_THROWS_WITH(roo.distribution(short_sum),
                    Catch::Contains("hist sums to 37 but records = 40: ROO needs the histogram of exactly the public n "
                                    "records"));
  CHECK_THROWS_WITH(ds.distribution(short_sum), Catch::Contains("hist sums to 37 but records = 40: DS-ROO"));
  CHECK_THROWS_WITH(lap.distribution(short_sum), Catch::Contains("hist sums to 37 but records = 40"));
  CHECK_THROWS_WITH(roo.distribution(too_big), Catch::Contains("hist sums to 50 but records = 40"));
  for (const auto* counts : {&not_integer, &short_sum, &negative, &with_nan, &with_inf, &too_big, &empty}) {
    CHECK_THROWS_AS(roo.distribution(*counts), std::invalid_argument);
    CHECK_THROWS_AS(ds.distribution(*counts), std::invalid_argument);
    CHECK_THROWS_AS(lap.distribution(*counts), std::invalid_argument);
    CHECK_THROWS_AS(roo.sample(*counts, rng), std::invalid_argument);
    CHECK_THROWS_AS(ds.sample(*counts, rng), std::invalid_argument);
    CHECK_THROWS_AS(lap.sample(*counts, rng), std::invalid_argument);
    CHECK_THROWS_AS(ds.obscure_probability(*counts), std::invalid_argument);
  }
  CHECK_THROWS_WITH(ds.sample(negative, rng), Catch::Contains("hist[0] = -2: counts must be finite and >= 0"));
  CHECK_THROWS_WITH(lap.sample(with_nan, rng), Catch::Contains("hist[1] = NaN: counts must be finite and >= 0"));
  CHECK_THROWS_WITH(roo.sample(with_inf, rng), Catch::Contains("hist[0] = Infinity"));
  CHECK_THROWS_WITH(roo.distribution(empty), Catch::Contains("hist is empty"));
  CHECK_THROWS_WITH(roo.worst_case_risk(NamedDivergence::tv, 0), Catch::Contains("k is empty"));

  CHECK_THROWS_WITH(roo_obscure_probability(1.0, 0, 3), Catch::Contains("records = 0"));
  CHECK_THROWS_WITH(roo_obscure_probability(1.0, 10, 0), Catch::Contains("k is empty"));
  CHECK_THROWS_WITH(dsroo_obscure_table(-0.5, 10, 3), Catch::Contains("epsilon = -0.5"));
  CHECK_THROWS_WITH(dsroo_obscure_table(1.0, 1'000'000'000, 1), Catch::Contains("1000000001 entries"));
  CHECK_THROWS_WITH(dsroo_obscure_probability(1.0, 10, 3, 4), Catch::Contains("m = 4") && Catch::Contains("at most 3"));
  CHECK(dsroo_obscure_probability(1e-3, 1'000'000'000, 1, 1'000'000'000) == 0.0);  // k | n, q_M = 0

  // Still usable after errors.
  CHECK(roo.distribution(std::vector<double>{10, 30}).size() == 2);
}

