// Hadamard response (hadamard.hpp): K at powers of two and around them, the flip coin against the proof, the report
// law by chi-square, and the support counts by the fast transform against a direct count. Unbiasedness and the
// variance by simulation: tests/native/frequency_oracles_test.cpp; the audit: tests/native/privacy_audit_test.cpp.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "mechanisms/hadamard/hadamard.hpp"
#include "oracle_support.hpp"
#include "privsample.hpp"

using namespace privsample;
using namespace privsample_test;

TEST_CASE("hadamard: K is the smallest power of two >= k; reports are the integers below 2K", "[hadamard][oracle]") {
  for (const auto& [k, order] : {std::pair{2, 2}, {3, 4}, {4, 4}, {5, 8}, {7, 8}, {8, 8}, {9, 16}, {1023, 1024},
                                 {1024, 1024}, {1025, 2048}, {10000000, 16777216}}) {
    const HadamardOracle o(1.0, static_cast<std::size_t>(k));
    CHECK(o.order() == static_cast<std::uint64_t>(order));
    CHECK(o.report_values() == 2 * static_cast<std::uint64_t>(order));
  }
}

TEST_CASE("hadamard: f = ceil(2^64/(e^eps' + 1))/2^64 >= 1/(e^eps + 1): (1 - f)/f <= e^eps", "[hadamard][oracle]") {
  for (const double epsilon : {0.0, 1e-6, 0.1, 1.0, 4.0, 10.0, 30.0, 44.0, 50.0, 700.0}) {
    INFO("epsilon = " << epsilon);
    const long double flip = HadamardOracle(epsilon, 10).coins().flip;
    CHECK((0x1.0p64L - flip) / flip <= std::exp(static_cast<long double>(std::min(epsilon, 700.0))));
    // no more than the margin below it, where 2^-64 resolves the coin (at ε = 30 it is 6e-7 of f)
    if (epsilon <= 10.0) CHECK((0x1.0p64L - flip) / flip >= std::exp(epsilon) * (1.0 - 1.1e-12 * epsilon - 1e-13));
  }
}

TEST_CASE("hadamard: rows of H are orthogonal: a report supports another item with probability 1/2 exactly",
          "[hadamard][oracle]") {
  for (const std::size_t k : {std::size_t{3}, std::size_t{8}, std::size_t{9}}) {
    const HadamardOracle o(1.0, k);
    for (std::size_t v = 0; v < k; ++v) {
      for (std::size_t w = 0; w < k; ++w) {
        long double support = 0.0L;  // Pr(a report of item w supports v), summed over every report
        for (std::uint64_t r = 0; r < o.report_values(); ++r) {
          if (HadamardOracle::supports(r, v)) support += o.report_probability(r, w);
        }
        const SupportLaw law = o.support_law();
        CHECK(static_cast<double>(support) == Approx(static_cast<double>(v == w ? law.p : law.q)).epsilon(1e-15));
      }
    }
  }
}

TEST_CASE("hadamard: a report is 2·uniform_below(K) + bit from the same two words (the column drawn by a shift)",
          "[hadamard][oracle]") {
  // The chi-square below checks the law; this checks the draw word for word against its definition, so that the
  // shift that replaces uniform_below keeps every seeded report, at every K the client allows.
  for (const std::size_t k : {std::size_t{2}, std::size_t{3}, std::size_t{1000}, std::size_t{1024},
                              std::size_t{1025}, std::size_t{10000000}}) {
    INFO("k = " << k);
    const HadamardOracle o(1.0, k);
    SeededRandom bits(k);
    SeededRandom twin(k);
    for (int r = 0; r < 2000; ++r) {
      const std::size_t item = static_cast<std::size_t>(r) * 7919 % k;
      const std::uint64_t column = uniform_below(twin, o.order());
      const auto flip = static_cast<std::uint64_t>(twin.next_u64() < o.coins().flip);
      const auto parity = static_cast<std::uint64_t>(std::popcount(column & item) & 1);
      REQUIRE(o.report(item, bits) == 2 * column + (parity ^ flip));
    }
  }
}

TEST_CASE("hadamard: reports follow the law of a uniform column and a flipped bit (chi-square)", "[hadamard][oracle]") {
  for (const std::size_t k : {std::size_t{5}, std::size_t{8}}) {
    const HadamardOracle o(1.5, k);
    std::vector<std::uint64_t> reports;
    for (std::uint64_t r = 0; r < o.report_values(); ++r) reports.push_back(r);
    for (const std::size_t item : {std::size_t{0}, k - 1}) {
      INFO("k = " << k << ", item = " << item);
      CHECK(report_law_p_value(o, item, reports, 200000, 31 + item) > kGoodnessOfFitLevel);
    }
  }
}

TEST_CASE("hadamard: the transform's support counts equal a direct count, at k around powers of two",
          "[hadamard][oracle]") {
  for (const std::size_t k : {std::size_t{2}, std::size_t{7}, std::size_t{8}, std::size_t{9}, std::size_t{1023},
                              std::size_t{1024}, std::size_t{1025}}) {
    INFO("k = " << k);
    const HadamardOracle o(1.0, k);
    SeededRandom bits(k);
    std::vector<double> counts(o.report_values(), 0.0);
    std::vector<std::uint64_t> reports;
    for (int t = 0; t < 2000; ++t) {
      reports.push_back(o.report(static_cast<std::size_t>(t * 7919) % k, bits));
      counts[reports.back()] += 1.0;
    }
    const std::vector<double> transformed = o.support_counts(counts);
    REQUIRE(transformed.size() == k);
    for (std::size_t v = 0; v < k; v += std::max<std::size_t>(1, k / 50)) {
      double direct = 0.0;
      for (const std::uint64_t r : reports) direct += HadamardOracle::supports(r, v) ? 1.0 : 0.0;
      CHECK(transformed[v] == direct);
    }
  }
}
