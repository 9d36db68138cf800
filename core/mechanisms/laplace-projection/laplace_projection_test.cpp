// The Laplace-projection baseline of Tasnim et al.
// Reference values: docs/experiments.md#tasnim-et-al.
#include "privsample.hpp"

#include <catch2/catch.hpp>

#include "mechanisms/records_test_support.hpp"

using namespace privsample;
using namespace privsample::records_test;

// ---- q tables ---------------------------------------------------------------------------------------------

TEST_CASE("roo: Laplace projection sample frequencies roughly match the distribution() estimate", "[roo][laplace]") {
  const std::vector<double> counts = {5, 1, 0, 10};
  const LaplaceProjectionSampler lap(1.0, 16);
  const auto estimate = lap.distribution(counts);
  REQUIRE(estimate.size() == 4);
  double total = 0.0;
  for (const double v : estimate) total += v;
  CHECK(total == Approx(1.0).epsilon(1e-12));
  CHECK(lap.distribution(counts) == estimate);  // fixed internal seed: deterministic
  // The noise pulls mass towards the rare letters and away from the frequent ones.
  CHECK(estimate[2] > 0.0);
  CHECK(estimate[3] < 10.0 / 16.0);
  CHECK(estimate[3] > estimate[0]);
  CHECK(estimate[0] > estimate[1]);

  constexpr std::size_t kDraws = 20000;
  const auto observed = frequencies(lap, counts, kDraws, 4242);
  for (std::size_t y = 0; y < 4; ++y) {
    const double frequency = static_cast<double>(observed[y]) / kDraws;
    INFO("y " << y << " frequency " << frequency << " estimate " << estimate[y]);
    CHECK(std::fabs(frequency - estimate[y]) < 0.015);
  }

  // Less noise, closer to P̂: TV(E[P̃], P̂) falls as ε grows, and ε = 1000 is essentially P̂.
  auto tv_to_empirical = [&](double epsilon) {
    const auto q = LaplaceProjectionSampler(epsilon, 16).distribution(counts);
    double tv = 0.0;
    for (std::size_t y = 0; y < 4; ++y) tv += 0.5 * std::fabs(q[y] - counts[y] / 16.0);
    return tv;
  };
  const double tv01 = tv_to_empirical(0.1);
  const double tv1 = tv_to_empirical(1.0);
  const double tv10 = tv_to_empirical(10.0);
  CHECK(tv01 > tv1);
  CHECK(tv1 > tv10);
  CHECK(tv_to_empirical(1000.0) < 1e-3);

  CHECK(lap.guarantee().notion == PrivacyNotion::record_dp);
  CHECK(lap.guarantee().epsilon == 1.0);
  CHECK(lap.guarantee().records == 16.0);
  CHECK_THROWS_AS(lap.worst_case_risk(NamedDivergence::tv, 4), std::domain_error);
  CHECK_THROWS_WITH(lap.worst_case_risk(NamedDivergence::kl, 4),
                    Catch::Contains("laplace-projection has no closed-form worst-case risk"));
  CHECK_THROWS_AS(lap.worst_case_risk(f_divergence(NamedDivergence::kl), 4), std::domain_error);
}

// ---- worst-case risk -------------------------------------------------------------------------------------------

