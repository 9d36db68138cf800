// Subset selection (subset_selection.hpp): its subset size d, its coin against the proof, its report law by
// chi-square over every subset. The validation of its reports, unbiasedness and the variance by simulation:
// tests/native/frequency_oracles_test.cpp; the audit: tests/native/privacy_audit_test.cpp.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
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
    for (const std::size_t item : {std::size_t{0}, k / 2, k - 1}) {
      INFO("epsilon = " << epsilon << ", k = " << k << ", d = " << o.subset_size() << ", item = " << item);
      CHECK(report_law_p_value(o, item, subsets, 200000, 41 + item) > kGoodnessOfFitLevel);
    }
  }
}

TEST_CASE("subset-selection: open_gap moves every bit past the item one index up and sets the item's, every k and item",
          "[subset-selection][oracle]") {
  std::mt19937_64 rng(7);
  for (std::size_t k = 2; k <= 140; ++k) {
    const std::size_t bytes = (k + 7) / 8;
    for (int trial = 0; trial < 8; ++trial) {
      std::vector<bool> ranks(k - 1);
      for (std::size_t r = 0; r < k - 1; ++r) ranks[r] = trial == 0 || (trial > 1 && (rng() & 1U) == 1U);
      for (std::size_t item = 0; item < k; ++item) {
        const unsigned item_bit = (trial + item) % 2;
        std::vector<std::uint8_t> bits(bytes, 0);
        for (std::size_t r = 0; r < k - 1; ++r) {
          if (ranks[r]) bits[r >> 3] = static_cast<std::uint8_t>(bits[r >> 3] | (0x80U >> (r & 7)));
        }
        open_gap(bits, item, item_bit);
        for (std::size_t i = 0; i < 8 * bytes; ++i) {
          const bool expected = i < item ? ranks[i] : i == item ? item_bit == 1 : i < k && ranks[i - 1];
          const bool got = ((bits[i >> 3] >> (7 - (i & 7))) & 1U) == 1U;
          if (got != expected) FAIL("k = " << k << ", item = " << item << ", index " << i << ": " << got);
        }
      }
    }
  }
}

// The subset drawn over ranks and moved by open_gap is the one Floyd's loop draws over indices directly (rank r at
// index r + (r >= item)), word for word: seeded reports are those of the loop over indices.
TEST_CASE("subset-selection: reports over ranks equal, bit for bit, those drawn over indices from the same words",
          "[subset-selection][oracle]") {
  const auto by_index = [](const SubsetSelectionOracle& o, std::size_t k, std::size_t item, RandomBits& bits) {
    std::vector<std::uint8_t> out((k + 7) / 8, 0);
    const auto at = [item](std::uint64_t x) { return x + static_cast<std::uint64_t>(x >= item); };
    const auto has = [&](std::uint64_t i) { return (out[i >> 3] >> (7 - (i & 7))) & 1U; };
    const auto flip = [&](std::uint64_t i) {
      out[i >> 3] = static_cast<std::uint8_t>(out[i >> 3] ^ (0x80U >> (i & 7)));
    };
    const std::size_t d = o.subset_size();
    const std::uint64_t step = uniform_below(bits, d);
    std::uint64_t replaced = 0;
    for (std::uint64_t j = k - 1 - d, i = 0; j < k - 1; ++j, ++i) {
      const std::uint64_t t = at(uniform_below(bits, j + 1));
      const std::uint64_t pick = has(t) ? at(j) : t;
      flip(pick);
      if (i == step) replaced = pick;
    }
    const std::uint64_t coin = o.coins().out_of == 0 ? bits.next_u64() : uniform_below(bits, o.coins().out_of);
    const bool in = coin < o.coins().include;
    if (in) flip(replaced), flip(item);
    return out;
  };
  for (const double epsilon : {0.0, 0.1, 1.0, 4.0}) {
    for (const std::size_t k : {std::size_t{2}, std::size_t{3}, std::size_t{9}, std::size_t{16}, std::size_t{17},
                                std::size_t{64}, std::size_t{1000}}) {
      const SubsetSelectionOracle o(epsilon, k);
      for (const std::size_t item : {std::size_t{0}, std::size_t{1}, k / 2, k - 2, k - 1}) {
        for (std::uint64_t seed = 1; seed <= 40; ++seed) {
          SeededRandom a(seed), b(seed);
          std::vector<std::uint8_t> report((k + 7) / 8);
          o.report(item, a, report);
          INFO("epsilon = " << epsilon << ", k = " << k << ", item = " << item << ", seed = " << seed);
          REQUIRE(report == by_index(o, k, item, b));
          REQUIRE(a.next_u64() == b.next_u64());
        }
      }
    }
  }
}
