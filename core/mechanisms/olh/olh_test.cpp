// OLH (olh.hpp): its parameters (g, P; also as oracle_parameter gives them to JS) and coins against the proof, the
// hash family's exact collision probability, the report law by chi-square, and the support walk against a direct
// count. Unbiasedness and the variance by
// simulation: tests/native/frequency_oracles_test.cpp; the registry-wide audit: tests/native/privacy_audit_test.cpp.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

#include "mechanisms/olh/olh.hpp"
#include "mechanisms/oracles.hpp"
#include "oracle_support.hpp"
#include "privsample.hpp"

using namespace privsample;
using namespace privsample_test;

TEST_CASE("olh: g = round(e^eps + 1), P the smallest prime >= max(k, 16g), reports below 2^53", "[olh][oracle]") {
  struct Row {
    double epsilon;
    std::size_t k;
    std::uint64_t g, prime;
  };
  for (const Row& row : {Row{1e-6, 10, 2, 37}, Row{1.0, 10, 4, 67}, Row{1.0, 1000, 4, 1009}, Row{4.0, 10, 56, 907},
                         Row{4.0, 1000, 56, 1009}, Row{10.0, 1000, 22027, 352441}, Row{1.0, 10000000, 4, 10000019},
                         Row{10.0, 10000000, 90, 10000019}, Row{700.0, 10, 32765, 524243}}) {
    INFO("epsilon = " << row.epsilon << ", k = " << row.k);
    const OlhOracle o(row.epsilon, row.k);
    CHECK(o.hash_range() == row.g);
    CHECK(o.prime() == row.prime);
    CHECK(o.report_values() <= (std::uint64_t{1} << 53));
    // the same through the oracle dispatch, as ps.oracle('olh', …).parameters shows them
    MechanismOptions options;
    options.epsilon = row.epsilon;
    options.categories = static_cast<double>(row.k);
    const Oracle oracle = make_oracle("olh", options);
    const OracleParameter g = oracle_parameter(oracle, 0);
    const OracleParameter p = oracle_parameter(oracle, 1);
    CHECK((g.name == "g" && g.value == static_cast<double>(row.g)));
    CHECK((p.name == "P" && p.value == static_cast<double>(row.prime)));
    CHECK(p.name.data()[1] == '\0');  // NUL-terminated for the JS glue
    CHECK(oracle_parameter(oracle, 2).name.empty());
  }
  // The other oracles are counted from k alone.
  MechanismOptions options;
  options.epsilon = 1.0;
  options.categories = 10.0;
  for (const char* name : {"oue", "hadamard", "subset-selection"}) {
    CHECK(oracle_parameter(make_oracle(name, options), 0).name.empty());
  }
}

TEST_CASE("olh: keep/other = keep(g - 1)/(2^64 - keep) <= e^eps exactly, and no more than the margin below",
          "[olh][oracle]") {
  for (const double epsilon : {0.0, 1e-6, 0.1, 1.0, 4.0, 10.0, 30.0}) {
    for (const std::size_t k : {std::size_t{2}, std::size_t{100}, std::size_t{100000}}) {
      INFO("epsilon = " << epsilon << ", k = " << k);
      const OlhOracle o(epsilon, k);
      const long double keep = o.coins().keep;
      const long double others = static_cast<long double>(o.hash_range() - 1);
      const long double ratio = keep * others / (0x1.0p64L - keep);
      CHECK(ratio <= std::exp(static_cast<long double>(epsilon)));
      if (epsilon <= 10.0) CHECK(ratio >= std::exp(epsilon) * (1.0 - 1.1e-12 * epsilon - 1e-13));
    }
  }
}

TEST_CASE("olh: every pair of items collides under exactly sum n_j^2 of the P^2 seeds", "[olh][oracle]") {
  for (const double epsilon : {1e-6, 1.0, 2.0}) {
    const OlhOracle o(epsilon, 5);
    const std::uint64_t p = o.prime();
    const std::uint64_t g = o.hash_range();
    const std::uint64_t m = p / g;
    const std::uint64_t r = p % g;
    const std::uint64_t expected = r * (m + 1) * (m + 1) + (g - r) * m * m;
    INFO("epsilon = " << epsilon << ", P = " << p << ", g = " << g);
    for (std::size_t v = 0; v < 5; ++v) {
      for (std::size_t w = v + 1; w < 5; ++w) {
        std::uint64_t collisions = 0;
        for (std::uint64_t s = 0; s < p * p; ++s) collisions += o.hash(s, v) == o.hash(s, w) ? 1 : 0;
        CHECK(collisions == expected);
      }
    }
    CHECK(static_cast<double>(o.collision_probability()) ==
          Approx(static_cast<double>(expected) / static_cast<double>(p * p)).epsilon(1e-17));
  }
  // the hash without a division equals ((a·v + b) mod P) mod g, also at the largest seeds and items
  const OlhOracle big(1.0, 10000000);
  const std::uint64_t p = big.prime();
  SeededRandom bits(9);
  for (int t = 0; t < 100000; ++t) {
    const std::uint64_t s = t < 4 ? p * p - 1 - static_cast<std::uint64_t>(t) : uniform_below(bits, p * p);
    const std::uint64_t v = t % 2 ? 9999999 : uniform_below(bits, 10000000);
    CHECK(big.hash(s, v) == ((s / p) * v + s % p) % p % big.hash_range());
  }
}

TEST_CASE("olh: reports follow the law of a uniform seed and g-ary randomized response (chi-square)", "[olh][oracle]") {
  const OlhOracle o(0.5, 3);  // g = 3, P = 53: 8427 reports
  REQUIRE(o.hash_range() == 3);
  std::vector<std::uint64_t> reports;
  for (std::uint64_t r = 0; r < o.report_values(); ++r) reports.push_back(r);
  for (const std::size_t item : {std::size_t{0}, std::size_t{2}}) {
    INFO("item = " << item);
    CHECK(report_law_p_value(o, item, reports, 500000, 21 + item) > kGoodnessOfFitLevel);
  }
}

TEST_CASE("olh: the support walk counts what a direct count over every item counts", "[olh][oracle]") {
  for (const double epsilon : {1e-6, 1.0, 4.0, 10.0}) {
    for (const std::size_t k : {std::size_t{2}, std::size_t{10}, std::size_t{1000}}) {
      INFO("epsilon = " << epsilon << ", k = " << k);
      const OlhOracle o(epsilon, k);
      SeededRandom bits(static_cast<std::uint64_t>(epsilon * 100 + static_cast<double>(k)));
      std::vector<std::uint64_t> reports;
      for (int t = 0; t < 300; ++t) reports.push_back(o.report(static_cast<std::size_t>(t) % k, bits));
      for (std::uint64_t b = 0; b < 3; ++b) {  // a = 0: the hash is the constant b mod g
        for (std::uint64_t y = 0; y < 2; ++y) reports.push_back((0 * o.prime() + b) * o.hash_range() + y);
      }
      std::vector<double> walked(k, 0.0);
      o.add_support(reports, walked);
      std::vector<double> direct(k, 0.0);
      for (const std::uint64_t r : reports) {
        for (std::size_t v = 0; v < k; ++v) direct[v] += o.supports(r, v) ? 1.0 : 0.0;
      }
      CHECK(walked == direct);
    }
  }
}

TEST_CASE("olh: the factory names the user's option and value", "[olh][oracle]") {
  MechanismOptions o;
  o.epsilon = 1.0;
  o.categories = 0.5;
  CHECK_THROWS_WITH(OlhOracle::make(o), Catch::StartsWith("options.categories = 0.5: must be an integer in [2, "));
  o.categories = 3.0;
  o.mu = 1.0;
  CHECK_THROWS_WITH(OlhOracle::make(o), Catch::Contains("option 'mu' is not supported by 'olh' (supported: epsilon, categories)"));
}
