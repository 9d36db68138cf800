// OUE (oue.hpp): its coins against the proof's inequality, its report law by chi-square, the levels the audit relies
// on, the layout of its reports, and its factory's messages. Unbiasedness and the variance by simulation:
// tests/native/frequency_oracles_test.cpp; the registry-wide audit: tests/native/privacy_audit_test.cpp.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

#include "mechanisms/oue/oue.hpp"
#include "oracle_support.hpp"
#include "privsample.hpp"

using namespace privsample;
using namespace privsample_test;

TEST_CASE("oue: q = ceil(2^32/(e^eps' + 1))/2^32 is >= 1/(e^eps + 1), so (1 - q)/q <= e^eps exactly", "[oue][oracle]") {
  for (const double epsilon : {0.0, 1e-9, 1e-6, 0.01, 0.5, 1.0, 2.0, 4.0, 10.0, 20.0, 22.0, 23.0, 50.0, 700.0, 1000.0}) {
    INFO("epsilon = " << epsilon);
    const OueOracle o(epsilon, 10);
    CHECK(o.coins().item_one == (std::uint32_t{1} << 31));
    const long double t = o.coins().other_one;
    // (2^32 − t)/t <= e^ε  ⟺  2^32 <= t·(1 + e^ε), in extended precision (e^ε rounded there: 1e-19 relative)
    CHECK(0x1.0p32L <= t * (1.0L + std::exp(static_cast<long double>(std::min(epsilon, 700.0)))));
    // and it is the smallest such threshold up to the margin: one unit less breaks it, or q is already 2^-32
    if (t > 1.0L) CHECK(0x1.0p32L > (t - 1.0L) * (1.0L + std::exp(static_cast<long double>(epsilon))));
    CHECK((t == 1.0L) == (epsilon > 22.2));
  }
  // reference values: 2^32/(e + 1) = 1155094609.32…, 2^32/(e^4 + 1) = 77250183.57…
  CHECK(OueOracle(1.0, 10).coins().other_one == 1155094610U);
  CHECK(OueOracle(4.0, 10).coins().other_one == 77250184U);
}

TEST_CASE("oue: reports follow the law of k independent coins (chi-square over all 2^k reports)", "[oue][oracle]") {
  const std::vector<std::vector<std::uint8_t>> reports = all_bitsets(5);
  for (const double epsilon : {0.5, 2.0}) {
    const OueOracle o(epsilon, 5);
    for (const std::size_t item : {std::size_t{0}, std::size_t{3}}) {
      INFO("epsilon = " << epsilon << ", item = " << item);
      CHECK(report_law_p_value(o, item, reports, 200000, 11 + item) > kGoodnessOfFitLevel);
    }
  }
}

TEST_CASE("oue: a report's probabilities under two items are in the ratio of their levels", "[oue][oracle]") {
  const OueOracle o(1.0, 12);
  const ReportLevels l = o.levels();
  SeededRandom bits(3);
  std::vector<std::uint8_t> report(o.report_bytes());
  for (int t = 0; t < 200; ++t) {
    o.report(static_cast<std::size_t>(t % 12), bits, report);
    for (std::size_t v = 0; v < 12; ++v) {
      for (std::size_t w = 0; w < 12; ++w) {
        const long double expected = (OueOracle::supports(report, v) ? l.supported : l.unsupported) /
                                     (OueOracle::supports(report, w) ? l.supported : l.unsupported);
        const long double ratio = o.report_probability(report, v) / o.report_probability(report, w);
        CHECK(std::fabs(static_cast<double>(ratio / expected - 1.0L)) < 1e-17);
      }
    }
  }
  // the levels are p/q and (1 − p)/(1 − q): their ratio is (1 − q)/q
  const long double q = std::ldexp(static_cast<long double>(o.coins().other_one), -32);
  CHECK(static_cast<double>(l.supported / l.unsupported) == Approx(static_cast<double>((1.0L - q) / q)).epsilon(1e-15));
}

TEST_CASE("oue: the report's layout: item i is bit 7 - i mod 8 of byte i/8, padding 0", "[oue][oracle]") {
  // ε = 700 makes q = 2^-32: the report is almost surely the item's bit alone (set with probability 1/2)
  const OueOracle o(700.0, 11);
  SeededRandom bits(5);
  std::vector<std::uint8_t> report(o.report_bytes());
  REQUIRE(report.size() == 2);
  std::size_t set = 0;
  for (int t = 0; t < 400; ++t) {
    o.report(9, bits, report);
    CHECK((report[1] & 0x1F) == 0);  // items 11..15 do not exist
    CHECK(report[0] == 0);
    CHECK((report[1] == 0 || report[1] == 0x40));  // item 9: byte 1, bit 6
    set += report[1] == 0x40 ? 1 : 0;
  }
  CHECK(set > 150);
  CHECK(set < 250);
  char text[4];
  write_hex(std::vector<std::uint8_t>{0x40, 0xa5}, text);
  CHECK(std::string(text, 4) == "40a5");
}

TEST_CASE("oue: the factory names the user's option and value", "[oue][oracle]") {
  MechanismOptions o;
  o.epsilon = 1.0;
  CHECK_THROWS_WITH(OueOracle::make(o), Catch::Contains("options.categories is required for 'oue'"));
  for (const double k : {1.0, 2.5, -3.0, 1e8, kNaN}) {
    o.categories = k;
    CHECK_THROWS_WITH(OueOracle::make(o), Catch::StartsWith("options.categories = ") &&
                                              Catch::Contains("must be an integer in [2, 10000000]"));
  }
  o.categories = 4.0;
  o.epsilon = -1.0;
  CHECK_THROWS_WITH(OueOracle::make(o), Catch::StartsWith("options.epsilon = -1"));
  o.epsilon = 1.0;
  o.delta = 0.1;
  CHECK_THROWS_WITH(OueOracle::make(o), Catch::Contains("option 'delta' is not supported by 'oue'"));
  o.delta.reset();
  const OueOracle made = OueOracle::make(o);
  CHECK(made.categories() == 4);
  CHECK(made.guarantee().notion == PrivacyNotion::pure_ldp);
  CHECK(made.guarantee().epsilon == 1.0);
}
