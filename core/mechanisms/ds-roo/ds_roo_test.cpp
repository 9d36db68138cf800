// DS-ROO′: the corrected table, its exhaustive and analytic checks, the constant-work lookup and the sampler.
// Reference values: core/mechanisms/ds-roo/README.md (recursion, fix, exact tables), docs/experiments.md#tasnim-et-al.
#include "privsample.hpp"

#include <catch2/catch.hpp>

#include "mechanisms/records_test_support.hpp"

using namespace privsample;
using namespace privsample::records_test;

// ---- q tables ---------------------------------------------------------------------------------------------

TEST_CASE("roo: DS-ROO q_m table for k = 9, n = 1000 matches core/mechanisms/ds-roo/README.md", "[roo][dsroo]") {
  struct Row {
    double epsilon;
    double q0;  // 6 decimals
    std::size_t first_zero;
    std::vector<double> q1to5;  // 5 decimals
  };
  const std::vector<Row> rows = {
      {0.01, 0.472437, 107, {0.47239, 0.47229, 0.47215, 0.47196, 0.47172}},
      {0.05, 0.149325, 33, {0.14895, 0.14821, 0.14712, 0.14570, 0.14395}},
      {0.1, 0.078829, 17, {0.07803, 0.07651, 0.07432, 0.07151, 0.06814}},
      {0.2, 0.039062, 8, {0.03748, 0.03459, 0.03060, 0.02569, 0.02001}},
      {0.5, 0.013684, 3, {0.01016, 0.00445, 0.0, 0.0, 0.0}},
      {1.0, 0.005210, 1, {0.0, 0.0, 0.0, 0.0, 0.0}},
      {2.0, 0.001407, 1, {0.0, 0.0, 0.0, 0.0, 0.0}},
  };
  for (const Row& row : rows) {
    INFO("epsilon = " << row.epsilon);
    const std::vector<double> fixed = dsroo_obscure_table(row.epsilon, 1000, 9);
    const std::vector<double> printed = dsroo_obscure_table_as_printed(row.epsilon, 1000, 9);
    REQUIRE(fixed.size() == 112);  // q_0..q_111, M = ⌊1000/9⌋
    REQUIRE(printed.size() == 112);
    check_printed(fixed[0], row.q0, 6);
    check_printed(roo_obscure_probability(row.epsilon, 1000, 9), row.q0, 6);
    for (std::size_t m = 1; m <= 5; ++m) {
      check_printed(fixed[m], row.q1to5[m - 1], 5);
      check_printed(printed[m], row.q1to5[m - 1], 5);
    }
    for (const std::vector<double>* table : {&fixed, &printed}) {
      for (std::size_t m = 0; m < table->size(); ++m) {
        INFO("m = " << m);
        if (m < row.first_zero) {
          CHECK((*table)[m] > 0.0);
        } else {
          CHECK((*table)[m] == 0.0);
        }
      }
    }
    // "In the paper's own setting the fix changes nothing."
    for (std::size_t m = 0; m < fixed.size(); ++m) CHECK(fixed[m] == Approx(printed[m]).margin(1e-12).epsilon(0));
  }

  const std::vector<double> row01 = {0.07883, 0.07803, 0.07651, 0.07432, 0.07151, 0.06814, 0.06424, 0.05986, 0.05503,
                                     0.04978, 0.04414, 0.03812, 0.03175, 0.02505, 0.01803, 0.01071, 0.00309, 0.0};
  const std::vector<double> table = dsroo_obscure_table(0.1, 1000, 9);
  for (std::size_t m = 0; m < row01.size(); ++m) {
    INFO("epsilon = 0.1, m = " << m);
    check_printed(table[m], row01[m], 5);
  }
  for (std::size_t m = row01.size(); m < table.size(); ++m) CHECK(table[m] == 0.0);
}

namespace {

// table holds exactly these fractions, entry by entry ({0, 1}: exactly 0).
void check_fractions(const std::vector<double>& table, const std::vector<std::pair<double, double>>& fractions) {
  REQUIRE(table.size() == fractions.size());
  for (std::size_t m = 0; m < table.size(); ++m) {
    INFO("m = " << m);
    if (fractions[m].first == 0.0) {
      CHECK(table[m] == 0.0);
    } else {
      check_rational(table[m], fractions[m].first, fractions[m].second);
    }
  }
}

}  // namespace

TEST_CASE("roo: DS-ROO tables equal the exact rational vectors of core/mechanisms/ds-roo/README.md", "[roo][dsroo]") {
  // The corrected, top-fix and printed tables; the first four examples are the same for the corrected table and the
  // top-fix one (the second defect needs more letters).
  const double log_3_2 = std::log(1.5);
  const double log_11_10 = std::log(1.1);

  // k=3, n=10, e^ε = 3/2 → (3/8, 2/7, 1/21, 0); the printed table agrees (M·e1 = 1.5 >= 1).
  for (const auto& table : {dsroo_obscure_table(log_3_2, 10, 3), dsroo_obscure_table_as_printed(log_3_2, 10, 3)}) {
    check_fractions(table, {{3, 8}, {2, 7}, {1, 21}, {0, 1}});
  }

  // k=3, n=5, e^ε = 3/2 → printed (6/11, 7/22), fixed (6/11, 3/8).
  check_fractions(dsroo_obscure_table_as_printed(log_3_2, 5, 3), {{6, 11}, {7, 22}});
  check_fractions(dsroo_obscure_table(log_3_2, 5, 3), {{6, 11}, {3, 8}});

  // k=2, n=5, e^ε = 11/10 → printed (4/5, 26/33, 268/363), fixed (4/5, 26/33, 16/21).
  check_fractions(dsroo_obscure_table_as_printed(log_11_10, 5, 2), {{4, 5}, {26, 33}, {268, 363}});
  check_fractions(dsroo_obscure_table(log_11_10, 5, 2), {{4, 5}, {26, 33}, {16, 21}});

  // k=2, n=4, e^ε = 11/10 → (5/6, 9/11, 0): k | n, q_M := 0.
  for (const auto& table : {dsroo_obscure_table(log_11_10, 4, 2), dsroo_obscure_table_as_printed(log_11_10, 4, 2)}) {
    check_fractions(table, {{5, 6}, {9, 11}, {0, 1}});
  }

  // The second defect (docs/errata.md#ds-roo-unchanged-letters): k = 20, n = 120, e^ε = 6/5. The top-fix table
  // (= printed, k | n) is (5/11, 24/55, 35/88, 263/792, 2107/9504, 0, 0); the corrected one raises q_5 to 433/150480.
  // The counts x = (25, 5, 5, …, 5) and x̃ = (25, 4, 6, 5, …, 5) (one record from the second letter to the third)
  // have minima 5 and 4, and the first letter, unchanged at 25, has the ratio 237600/197567 > 6/5 under the old table.
  {
    const double log_6_5 = std::log(1.2);
    const auto corrected = dsroo_obscure_table(log_6_5, 120, 20);
    const auto top_fix = dsroo_obscure_table_top_fix_only(log_6_5, 120, 20);
    const auto printed = dsroo_obscure_table_as_printed(log_6_5, 120, 20);
    REQUIRE(corrected.size() == 7);
    const std::vector<std::pair<double, double>> head = {{5, 11}, {24, 55}, {35, 88}, {263, 792}, {2107, 9504}};
    for (std::size_t m = 0; m < head.size(); ++m) {
      for (const auto* t : {&corrected, &top_fix, &printed}) check_rational((*t)[m], head[m].first, head[m].second);
    }
    check_rational(corrected[5], 433, 150480);
    CHECK(top_fix[5] <= 1e-15);  // 0 but for rounding
    CHECK(printed[5] <= 1e-15);
    CHECK(corrected[6] == 0.0);
    std::vector<double> x(20, 5.0);
    x[0] = 25;
    std::vector<double> x_tilde = x;
    x_tilde[1] = 4;
    x_tilde[2] = 6;
    const double old_ratio = table_mixture(top_fix, x, 120)[0] / table_mixture(top_fix, x_tilde, 120)[0];
    check_rational(old_ratio, 237600, 197567);
    CHECK(old_ratio > 1.2 * (1.0 + 1e-9));
    const DsRooWorstPair old_worst = dsroo_worst_log_ratio(top_fix, 120, 20);
    CHECK(old_worst.log_ratio == Approx(std::log(237600.0 / 197567.0)).epsilon(1e-12));
    CHECK(old_worst.m == 5);
    CHECK(old_worst.m_tilde == 4);
    CHECK(old_worst.count == 25);
    CHECK(old_worst.count_tilde == 25);
    CHECK(dsroo_worst_log_ratio(corrected, 120, 20).log_ratio <= log_6_5 * (1.0 + 1e-12));
  }
  // k = 19, n = 114, e^ε = 11/10: old q_5 = 5/11, corrected 1819/3993.
  {
    const auto corrected = dsroo_obscure_table(log_11_10, 114, 19);
    const auto top_fix = dsroo_obscure_table_top_fix_only(log_11_10, 114, 19);
    REQUIRE(corrected.size() == 7);
    check_rational(corrected[0], 5, 8);
    check_rational(corrected[4], 7838, 14641);
    check_rational(top_fix[5], 5, 11);
    check_rational(corrected[5], 1819, 3993);
  }

  // Only n/k matters for the paper's recursion (core/mechanisms/ds-roo/README.md#the-mechanism): (k=2, n=5) and (k=4, n=10)
  // give the same table there; not for the corrected one, whose letters at their high ends depend on k.
  const auto a = dsroo_obscure_table_as_printed(0.3, 5, 2);
  const auto b = dsroo_obscure_table_as_printed(0.3, 10, 4);
  REQUIRE(a.size() == b.size());
  for (std::size_t m = 0; m < a.size(); ++m) CHECK(a[m] == Approx(b[m]).epsilon(1e-13));
}

TEST_CASE("roo: DS-ROO tables are non-increasing, in [0, 1], at least the old tables, and equal to them where those "
          "were private", "[roo][dsroo]") {
  const std::vector<double> epsilons = {0.0, 1e-4, 1e-3, 0.01, 0.05, 0.1, 0.3, std::log(1.5), 0.7, 1.0, 2.0, 5.0,
                                        20.0, 700.0, 1000.0};
  std::size_t tables = 0;
  std::size_t top_fixes_that_matter = 0;
  std::size_t corrections_that_matter = 0;
  std::size_t private_old_tables = 0;
  std::vector<std::size_t> ks;
  for (std::size_t k = 1; k <= 12; ++k) ks.push_back(k);
  ks.push_back(19);  // the second defect needs more letters: k = 19, n = 114 at e^ε = 11/10 is the smallest seen
  ks.push_back(20);
  for (const std::size_t k : ks) {
    std::vector<std::size_t> ns;
    for (std::size_t n = 1; n <= 150; ++n) ns.push_back(n);
    for (const std::size_t n : {997u, 1000u, 1024u, 12345u}) ns.push_back(n);
    for (const std::size_t n : ns) {
      for (const double epsilon : epsilons) {
        ++tables;
        const std::vector<double> corrected = dsroo_obscure_table(epsilon, n, k);
        const std::vector<double> top_fix = dsroo_obscure_table_top_fix_only(epsilon, n, k);
        const std::vector<double> printed = dsroo_obscure_table_as_printed(epsilon, n, k);
        const std::size_t M = n / k;
        REQUIRE(corrected.size() == M + 1);
        REQUIRE(top_fix.size() == M + 1);
        REQUIRE(printed.size() == M + 1);
        REQUIRE(all_finite(corrected));
        REQUIRE(all_finite(top_fix));
        REQUIRE(all_finite(printed));
        REQUIRE(corrected[0] == (M == 0 && k == 1 ? 0.0 : roo_obscure_probability(epsilon, n, k)));
        const double scale = corrected[0];
        for (std::size_t m = 0; m <= M; ++m) {
          if (!(corrected[m] >= 0.0 && corrected[m] <= 1.0) ||
              (m > 0 && !(corrected[m] <= corrected[m - 1] * (1.0 + 1e-13) + 1e-300))) {
            FAIL_CHECK("k " << k << " n " << n << " epsilon " << epsilon << " m " << m << ": q_m = " << corrected[m]
                            << ", q_{m-1} = " << (m > 0 ? corrected[m - 1] : 1.0));
          }
          // The least table lies above the paper's recursion (its constraint (16) is one of the list) — for k >= 2;
          // k = 1 has no neighbours and the table is (q_0, 0, …, 0).
          if (k >= 2 && !(corrected[m] >= top_fix[m] - 1e-12 * scale)) {
            FAIL_CHECK("k " << k << " n " << n << " epsilon " << epsilon << " m " << m << ": corrected " << corrected[m]
                            << " below the top-fix table's " << top_fix[m]);
          }
          // The top-fix table is the printed one below M.
          if (m < M && std::fabs(top_fix[m] - printed[m]) > 1e-11) {
            FAIL_CHECK("k " << k << " n " << n << " epsilon " << epsilon << " m " << m << ": top fix " << top_fix[m]
                            << " vs printed " << printed[m]);
          }
        }
        if (M >= 1 && n % k != 0) {
          // The top fix raises q_M to max(printed q_M, t_M) and nothing else.
          const double e1 = std::expm1(std::min(epsilon, 700.0));
          const double den = static_cast<double>(n - M * k);
          const double t = std::isinf(e1) ? 0.0
                                          : static_cast<double>(k) * (1.0 - static_cast<double>(M) * e1) /
                                                (static_cast<double>(k) + e1 * den);
          const double expected = std::max({0.0, printed[M], t});
          if (std::fabs(top_fix[M] - expected) > 1e-11 * std::max(1.0, expected)) {
            FAIL_CHECK("k " << k << " n " << n << " epsilon " << epsilon << ": q_M = " << top_fix[M] << ", expected "
                            << expected);
          }
          if (top_fix[M] > printed[M] + 1e-12) ++top_fixes_that_matter;
        }
        bool differs = false;
        for (std::size_t m = 0; m <= M; ++m) differs = differs || corrected[m] > top_fix[m] + 1e-9 * scale;
        if (differs) ++corrections_that_matter;
        // Where the old table was already private (k >= 3: the construction's list is exactly the pairs that exist),
        // it is feasible, so the least table is at most it: the two agree. (Its constraint (16) holds with equality,
        // so "private" here is up to rounding: a structural check, not a privacy one.)
        if (k >= 3 && epsilon > 0.0 &&
            dsroo_worst_log_ratio(top_fix, n, k).log_ratio <= epsilon * (1.0 + 1e-9) + 1e-15) {
          ++private_old_tables;
          for (std::size_t m = 0; m <= M; ++m) {
            // (the corrected pass rounds every bound up: ~2^-50 per step, accumulated over up to ~10^4 steps here)
            if (std::fabs(corrected[m] - top_fix[m]) > 1e-9 * scale) {
              FAIL_CHECK("k " << k << " n " << n << " epsilon " << epsilon << " m " << m << ": the old table was "
                              << "private but the corrected one differs: " << corrected[m] << " vs " << top_fix[m]);
            }
          }
        }
        // Single entries without the table are bit-identical (checked on part of the grid: O(M²) each).
        if (n <= 40) {
          for (std::size_t m = 0; m <= M; ++m) CHECK(dsroo_obscure_probability(epsilon, n, k, m) == corrected[m]);
        }
      }
    }
  }
  INFO("tables " << tables << ", printed q_M raised by the top fix in " << top_fixes_that_matter
                 << ", top-fix table raised by the correction in " << corrections_that_matter
                 << ", old table private in " << private_old_tables);
  CHECK(top_fixes_that_matter > 100);  // the first defect's regime is not empty on this grid
  CHECK(corrections_that_matter > 0);  // nor the second's
  CHECK(private_old_tables > 1000);
}

TEST_CASE("roo: the printed DS-ROO violates eps-DP at k=3, n=5, e^eps = 3/2, the fixed DS-ROO does not",
          "[roo][dsroo][privacy]") {
  const double epsilon = std::log(1.5);
  const std::vector<double> printed = dsroo_obscure_table_as_printed(epsilon, 5, 3);
  REQUIRE(printed.size() == 2);
  const double t1 = 3.0 * (1.0 - std::expm1(epsilon)) / (3.0 + std::expm1(epsilon) * (5.0 - 3.0));
  check_rational(t1, 3, 8);
  check_rational(printed[1], 7, 22);
  CHECK(printed[1] < t1);  // Lemma 3 fails at m = M = 1

  const std::vector<double> x = {1, 2, 2};
  const std::vector<double> x_tilde = {2, 1, 2};  // one record moved from letter 1 to letter 0
  const double ratio = table_mixture(printed, x, 5)[1] / table_mixture(printed, x_tilde, 5)[1];
  check_rational(ratio, 25, 16);
  CHECK(ratio > 1.5 * (1.0 + 1e-9));
  CHECK(std::log(ratio) == Approx(0.446287).margin(1e-6).epsilon(0));  // the actual ε = ln(25/16)

  const DsRooSampler fixed(epsilon, 5);
  const double fixed_ratio = fixed.distribution(x)[1] / fixed.distribution(x_tilde)[1];
  CHECK(fixed_ratio <= 1.5);
  CHECK(fixed_ratio == Approx(1.5).epsilon(1e-11));  // and still tight

  const Audit printed_audit =
      audit(3, 5, epsilon, [&](const std::vector<double>& counts) { return table_mixture(printed, counts, 5); });
  CHECK(printed_audit.violations >= 1);
  CHECK(printed_audit.max_log_ratio == Approx(std::log(25.0 / 16.0)).epsilon(1e-12));
  const Audit fixed_audit = audit(3, 5, epsilon, [&](const std::vector<double>& c) { return fixed.distribution(c); });
  CHECK(fixed_audit.violations == 0);
  CHECK(fixed_audit.max_log_ratio <= epsilon);
}

// ---- exhaustive privacy audit ---------------------------------------------------------------------------------

TEST_CASE("ds-roo: the analytic worst pair equals the exhaustive worst pair, for any table", "[roo][dsroo][privacy]") {
  // dsroo_worst_log_ratio looks at O(M) pairs only (the ends of each letter's count range). Against every pair of
  // every histogram, for the corrected, old and printed tables and for random tables (neither monotone nor private
  // in general, some with zeros): the maxima must agree.
  std::mt19937_64 rng(20261127);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::size_t compared = 0;
  std::size_t infinite = 0;
  for (std::size_t k = 2; k <= 4; ++k) {
    for (std::size_t n = 1; n <= 24; ++n) {
      for (const double epsilon : {0.01, 0.1, std::log(1.5), 1.0}) {
        std::vector<std::vector<double>> tables = {dsroo_obscure_table(epsilon, n, k),
                                                   dsroo_obscure_table_top_fix_only(epsilon, n, k),
                                                   dsroo_obscure_table_as_printed(epsilon, n, k)};
        for (int r = 0; r < 3; ++r) {
          std::vector<double> random(n / k + 1);
          for (double& q : random) q = r == 2 && unit(rng) < 0.3 ? 0.0 : unit(rng);
          tables.push_back(random);
        }
        for (const std::vector<double>& table : tables) {
          ++compared;
          const Audit exhaustive = audit(k, n, epsilon, [&](const std::vector<double>& c) {
            const double m = *std::min_element(c.begin(), c.end());
            return released_law(table.at(static_cast<std::size_t>(m)), c, n);
          });
          const DsRooWorstPair analytic = dsroo_worst_log_ratio(table, n, k);
          INFO("k " << k << " n " << n << " epsilon " << epsilon << ": exhaustive " << exhaustive.max_log_ratio
                    << ", analytic " << analytic.log_ratio << " (m " << analytic.m << ", m~ " << analytic.m_tilde
                    << ", c " << analytic.count << ", c~ " << analytic.count_tilde << ")");
          if (std::isinf(exhaustive.max_log_ratio)) {
            ++infinite;
            CHECK(std::isinf(analytic.log_ratio));
            continue;
          }
          // The analytic value is an upper bound within 2^-50 relative (+2^-95) of the exact one; long double is
          // within ~1e-18 of it.
          CHECK(analytic.log_ratio >= exhaustive.max_log_ratio - 1e-17);
          CHECK(analytic.log_ratio <= exhaustive.max_log_ratio + 1e-14 * std::fabs(exhaustive.max_log_ratio) + 1e-17);
        }
      }
    }
  }
  CHECK(compared == 3 * 24 * 4 * 6);
  CHECK(infinite > 0);  // random tables with q_0 = 0 reach +∞ (a letter absent from x̃), and the checker says so
}

// ---- extremes -----------------------------------------------------------------------------------------------

TEST_CASE("ds-roo: q_m from the checkpointed run equals the full table at every m", "[roo]") {
  // DsRooSampler runs the recursion once per k and re-runs ⌈√(J+1)⌉ steps from a checkpoint per call; the values
  // must be the full run's, bit for bit, including past the run's end and at m = M.
  struct Case {
    double epsilon;
    std::size_t records;
    std::size_t k;
  };
  for (const Case c : {Case{0.05, 2000, 3}, Case{1.0, 997, 7}, Case{0.001, 5000, 2}, Case{3.0, 60, 4}, Case{0.2, 100, 10}}) {
    const DsRooSampler sampler(c.epsilon, static_cast<double>(c.records));
    // The sampler runs at ε′ = ε − (1e-12·ε + 1e-14); dsroo_obscure_table is the plain recursion at the ε given.
    const double margin = 1e-12 * c.epsilon + 1e-14;
    const std::vector<double> table = dsroo_obscure_table(c.epsilon - margin, c.records, c.k);
    const std::size_t M = c.records / c.k;
    for (std::size_t m = 0; m <= M; ++m) {
      // counts with minimum m: m on letter 0, the rest spread over the others (each >= m)
      std::vector<double> counts(c.k, static_cast<double>(m));
      counts[1] += static_cast<double>(c.records - m * c.k);
      INFO("eps = " << c.epsilon << " n = " << c.records << " k = " << c.k << " m = " << m);
      CHECK(sampler.obscure_probability(counts) == table[m]);
    }
  }
}

TEST_CASE("ds-roo: the old top-fix table loses 3.36 eps at the audit's witness, the corrected sampler at most eps",
          "[roo][dsroo][privacy]") {
  // ε = 0.01, k = 1000 letters, n = 99999: h has 999 letters with 99 records and h[0] = 1098 (minimum 99); g moves one
  // record from letter 1 to letter 2 (minimum 98). Letter 0 does not change, but q does (q_98 → q_99), and with the
  // old table its probability moves by more than e^ε (docs/errata.md#ds-roo-unchanged-letters).
  const double epsilon = 0.01;
  const std::size_t n = 99999;
  const std::size_t k = 1000;
  std::vector<double> h(k, 99.0);
  h[0] = 1098;
  std::vector<double> g = h;
  g[1] -= 1;
  g[2] += 1;
  const std::vector<double> old = dsroo_obscure_table_top_fix_only(epsilon, n, k);
  const long double old_ratio = released_law(old[99], h, n)[0] / released_law(old[98], g, n)[0];
  const double old_loss = static_cast<double>(std::log(old_ratio));
  CHECK(old_loss == Approx(0.0335944).epsilon(1e-5));
  CHECK(old_loss > 3.3 * epsilon);  // the test can fail: the old table is not ε-DP
  const DsRooWorstPair old_worst = dsroo_worst_log_ratio(old, n, k);
  CHECK(old_worst.log_ratio == Approx(old_loss).epsilon(1e-12));
  CHECK(old_worst.log_ratio >= old_loss);
  CHECK(old_worst.m == 99);
  CHECK(old_worst.m_tilde == 98);
  CHECK(old_worst.count == 1098);
  CHECK(old_worst.count_tilde == 1098);

  const DsRooSampler sampler(epsilon, static_cast<double>(n));
  const long double ratio = released_law(sampler.obscure_probability(h), h, n)[0] /
                            released_law(sampler.obscure_probability(g), g, n)[0];
  CHECK(std::log(ratio) <= epsilon);
  const std::vector<double> distribution_h = sampler.distribution(h);
  const std::vector<double> distribution_g = sampler.distribution(g);
  CHECK(static_cast<long double>(distribution_h[0]) <=
        std::exp(static_cast<long double>(epsilon)) * static_cast<long double>(distribution_g[0]));
  const DsRooWorstPair worst = dsroo_worst_log_ratio(sampler, k);
  CHECK(worst.log_ratio <= epsilon);
  // The corrected table near the top (core/mechanisms/ds-roo/README.md#reference-values): q_99 = 0.1291 where the old one
  // had 0.00498.
  const std::vector<double> table = sampler.obscure_table(k);
  check_printed(table[99], 0.1291032, 7);
  check_printed(old[99], 0.0049834, 7);
  check_printed(table[0], 0.4987515, 7);

  // The audit's worst configuration: ε = 0.001, k = 10^4, n = 999999 (4.48·ε with the old table).
  const std::vector<double> old_big = dsroo_obscure_table_top_fix_only(0.001, 999999, 10000);
  const DsRooWorstPair old_big_worst = dsroo_worst_log_ratio(old_big, 999999, 10000);
  CHECK(old_big_worst.log_ratio / 0.001 == Approx(4.4753500).epsilon(1e-6));
  CHECK(old_big_worst.count == 10098);
  CHECK(dsroo_worst_log_ratio(DsRooSampler(0.001, 999999), 10000).log_ratio <= 0.001);
}

TEST_CASE("ds-roo: the analytic worst pair of the sampler's table is at most eps on a grid up to n = 10^6",
          "[roo][dsroo][privacy]") {
  // ε from 1e-3 to 5, k from 2 to 10^4, n up to 10^6 (the audit's grid was ε <= 0.1): the table the sampler draws from
  // (obscure_table, bit for bit what prepare() uses), all O(M) pairs, no slack. Every table here passes the sampler's
  // own verification (no fallback), and the old table fails on part of the grid.
  std::size_t configurations = 0;
  std::size_t old_violations = 0;
  double worst_fraction = 0.0;
  for (const double epsilon : {0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1.0, 5.0}) {
    for (const std::size_t k : {std::size_t{2}, std::size_t{3}, std::size_t{10}, std::size_t{100}, std::size_t{1000},
                                std::size_t{10000}}) {
      for (const std::size_t n : {k, k + 1, 10 * k + 3, std::size_t{99999}, std::size_t{100000}, std::size_t{999999},
                                  std::size_t{1000000}}) {
        ++configurations;
        INFO("epsilon " << epsilon << " k " << k << " n " << n);
        const DsRooSampler sampler(epsilon, static_cast<double>(n));
        const detail::DsRooPlan plan = detail::dsroo_plan(epsilon, n, k);
        CHECK(plan.verified);
        const DsRooWorstPair worst = dsroo_worst_log_ratio(sampler, k);
        INFO("worst " << worst.log_ratio << " at m " << worst.m << ", m~ " << worst.m_tilde << ", c " << worst.count
                      << ", c~ " << worst.count_tilde);
        CHECK(worst.log_ratio <= epsilon);
        worst_fraction = std::max(worst_fraction, worst.log_ratio / epsilon);
        if (n / k + 1 <= kMaxDsRooTableLength &&
            dsroo_worst_log_ratio(dsroo_obscure_table_top_fix_only(epsilon, n, k), n, k).log_ratio >
                epsilon * (1.0 + 1e-9)) {
          ++old_violations;
        }
      }
    }
  }
  INFO(configurations << " configurations, worst log ratio / ε " << worst_fraction << ", old table over ε in "
                      << old_violations);
  CHECK(configurations == 8 * 6 * 7);
  CHECK(worst_fraction <= 1.0);
  CHECK(worst_fraction > 0.999);  // tight: the self pair at m = 0 is ROO's
  CHECK(old_violations > 10);
  WARN("analytic grid: " << configurations << " configurations, worst log ratio / ε = "
                         << std::to_string(worst_fraction - 1.0) << " + 1 (old table over ε in " << old_violations
                         << ")");
}

TEST_CASE("ds-roo: a table that fails the verification falls back to ROO's q_0 for every m", "[roo][dsroo][privacy]") {
  // The plan verifies the table it builds; the old recursion (the hook's top_fix_only) fails there at the audit's
  // witness, so the plan must be the fallback: ROO's rounded-up q_0 for every m, which is ε-DP.
  const double epsilon = 0.01;
  const std::uint64_t n = 99999;
  const std::uint64_t k = 1000;
  const detail::DsRooPlan failed = detail::dsroo_plan(epsilon, n, k, detail::DsRooRecursion::top_fix_only);
  CHECK_FALSE(failed.verified);
  CHECK(failed.constant);
  const double roo_q = RooSampler(epsilon, static_cast<double>(n)).obscure_probability(k);
  CHECK(failed.constant_q == roo_q);
  std::vector<double> table(n / k + 1);
  for (std::uint64_t m = 0; m <= n / k; ++m) {
    table[m] = detail::dsroo_lookup(failed, m,
                                    [&](std::uint64_t j, double q) { return detail::dsroo_step(failed, j, q); });
    CHECK(table[m] == roo_q);
  }
  CHECK(dsroo_worst_log_ratio(table, n, k).log_ratio <= epsilon);
  // Where the old recursion was private (the paper's own set-up) it passes, and the plan keeps it.
  const detail::DsRooPlan kept = detail::dsroo_plan(0.1, 1000, 9, detail::DsRooRecursion::top_fix_only);
  CHECK(kept.verified);
  CHECK_FALSE(kept.constant);
  // The corrected recursion passes at the witness.
  const detail::DsRooPlan corrected = detail::dsroo_plan(epsilon, n, k);
  CHECK(corrected.verified);
  CHECK_FALSE(corrected.constant);
  CHECK(corrected.last == n / k);

  // At tiny ε, rounding is as large as the margin and the verification may fail: then the sampler is ROO. Either
  // way its released law is ε-DP.
  for (const double tiny : {1e-9, 3e-8, 1e-7}) {
    for (const std::size_t nn : {std::size_t{11}, std::size_t{103}, std::size_t{1003}}) {
      const DsRooSampler sampler(tiny, static_cast<double>(nn));
      const detail::DsRooPlan plan = detail::dsroo_plan(tiny, nn, 10);
      INFO("epsilon " << tiny << " n " << nn << (plan.verified ? " verified" : " fallback"));
      if (!plan.verified) {
        const std::vector<double> t = sampler.obscure_table(10);
        const double roo_q = RooSampler(tiny, static_cast<double>(nn)).obscure_probability(10);
        for (std::size_t m = 0; m + 1 < t.size(); ++m) CHECK(t[m] == roo_q);
      }
      CHECK(dsroo_worst_log_ratio(sampler, 10).log_ratio <= tiny);
    }
  }
}
