// Subset selection (subset_selection.hpp): its subset size d, its coin against the proof, its report law by
// chi-square over every subset. The validation of its reports, unbiasedness and the variance by simulation:
// tests/native/frequency_oracles_test.cpp; the audit: tests/native/privacy_audit_test.cpp.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "mechanisms/subset-selection/subset_selection.hpp"
#include "oracle_support.hpp"
#include "privsample.hpp"

using namespace privsample;
using namespace privsample_test;

TEST_CASE("subset-selection: d is floor or ceil of k/(e^eps + 1), whichever has the smaller variance, in [1, k - 1]",
          "[subset-selection][oracle]") {
  struct Row {
    double epsilon;
    std::size_t k, d;
  };
  for (const Row& row : {Row{1.0, 10, 2}, Row{1.0, 100, 27}, Row{1.0, 1000, 269}, Row{4.0, 10, 1}, Row{4.0, 100, 1},
                         Row{4.0, 1000, 18}, Row{0.0, 10, 5}, Row{1e-6, 2, 1}, Row{50.0, 1000, 1}, Row{0.1, 3, 1}}) {
    INFO("epsilon = " << row.epsilon << ", k = " << row.k);
    const SubsetSelectionOracle o(row.epsilon, row.k);
    CHECK(o.subset_size() == row.d);
    if (row.epsilon == 0.0) continue;
    // the other candidate is never better (Ye and Barg's variance at f -> 0, written out here)
    const auto variance = [&](double d) {
      const double e = std::exp(row.epsilon);
      const double k = static_cast<double>(row.k);
      const double p = d * e / (d * e + k - d);
      const double q = (p * (d - 1.0) + (1.0 - p) * d) / (k - 1.0);
      return q * (1.0 - q) / ((p - q) * (p - q));
    };
    const double ideal = static_cast<double>(row.k) / (std::exp(row.epsilon) + 1.0);
    for (const double other : {std::floor(ideal), std::ceil(ideal)}) {
      const double d = std::clamp(other, 1.0, static_cast<double>(row.k - 1));
      CHECK(variance(static_cast<double>(row.d)) <= variance(d) * (1.0 + 1e-12));
    }
  }
}

TEST_CASE("subset-selection: p_in(k - d)/((1 - p_in)d) <= e^eps exactly, and no more than the margin below",
          "[subset-selection][oracle]") {
  for (const double epsilon : {0.0, 1e-6, 0.1, 1.0, 4.0, 10.0, 30.0}) {
    for (const std::size_t k : {std::size_t{2}, std::size_t{10}, std::size_t{1000}, std::size_t{100000}}) {
      INFO("epsilon = " << epsilon << ", k = " << k);
      const SubsetSelectionOracle o(epsilon, k);
      const long double include = o.coins().include;
      const long double scale = o.coins().out_of == 0 ? 0x1.0p64L : static_cast<long double>(o.coins().out_of);
      CHECK((o.coins().out_of != 0) == (epsilon == 0.0));
      const auto d = static_cast<long double>(o.subset_size());
      const long double ratio = include * (static_cast<long double>(k) - d) / ((scale - include) * d);
      CHECK(ratio <= std::exp(static_cast<long double>(epsilon)));
      CHECK(1.0L / ratio <= std::exp(static_cast<long double>(epsilon)));
      if (epsilon <= 10.0) CHECK(ratio >= std::exp(epsilon) * (1.0 - 1.1e-12 * epsilon - 1e-13));
    }
  }
}

TEST_CASE("subset-selection: reports follow Pr(S | v) = e^eps/Z or 1/Z over every subset (chi-square)",
          "[subset-selection][oracle]") {
  for (const auto& [epsilon, k] : {std::pair{0.3, std::size_t{6}}, std::pair{1.0, std::size_t{7}},
                                   std::pair{3.0, std::size_t{5}}}) {
    const SubsetSelectionOracle o(epsilon, k);
    std::vector<std::vector<std::uint8_t>> subsets;
    for (const auto& bytes : all_bitsets(k)) {
      std::size_t size = 0;
      for (const std::uint8_t b : bytes) size += static_cast<std::size_t>(std::popcount(b));
      if (size == o.subset_size()) subsets.push_back(bytes);
    }
    for (const std::size_t item : {std::size_t{0}, k - 1}) {
      INFO("epsilon = " << epsilon << ", k = " << k << ", d = " << o.subset_size() << ", item = " << item);
      CHECK(report_law_p_value(o, item, subsets, 200000, 41 + item) > kGoodnessOfFitLevel);
    }
  }
}
