// The advisor (analysis/advise.hpp): its closed forms against the oracles' and k-RR's, its choice against the errors
// measured by simulation at a grid of (k, ε, N), and its messages.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "analysis/advise.hpp"
#include "analysis/frequency_estimate.hpp"
#include "mechanisms/mechanism.hpp"
#include "oracle_support.hpp"
#include "privsample.hpp"

using namespace privsample;
using namespace privsample_test;

namespace {

// Σ_v (f̂_v − f_v)², averaged over `reps` collections of N users holding items ∝ 1/(v + 1), for one candidate.
double measured_total_error(const std::string& name, double epsilon, std::size_t k, std::size_t users,
                            std::size_t reps, std::uint64_t seed) {
  const std::vector<std::size_t> holders = skewed_holders(users, k);
  SeededRandom bits(seed);
  double total = 0.0;
  MechanismOptions options;
  options.epsilon = epsilon;
  for (std::size_t r = 0; r < reps; ++r) {
    std::vector<double> estimate(k);
    if (name == "linear") {  // k-RR: the linear sampler's releases on the users' point masses
      const Mechanism m = make_finite_mechanism("linear", options);
      const double e = std::exp(epsilon);
      const double p = e / (e + static_cast<double>(k) - 1.0);
      const double q = 1.0 / (e + static_cast<double>(k) - 1.0);
      std::vector<double> counts(k, 0.0);
      for (std::size_t v = 0; v < k; ++v) {
        std::vector<double> point(k, 0.0);
        point[v] = 1.0;
        for (const std::uint32_t x : sample_many(m, point, holders[v], bits)) counts[x] += 1.0;
      }
      for (std::size_t v = 0; v < k; ++v) estimate[v] = (counts[v] / static_cast<double>(users) - q) / (p - q);
    } else {
      MechanismOptions o = options;
      o.categories = static_cast<double>(k);
      const Oracle oracle = make_oracle(name, o);
      const FrequencyCounts c = simulated_counts(oracle, holders, bits);
      estimate = estimate_frequencies(oracle, c.counts, c.users).estimate;
    }
    for (std::size_t v = 0; v < k; ++v) {
      const double f = static_cast<double>(holders[v]) / static_cast<double>(users);
      total += (estimate[v] - f) * (estimate[v] - f);
    }
  }
  return total / static_cast<double>(reps);
}

}  // namespace

TEST_CASE("advise: frequencies: the smallest total variance of k-RR and the oracles, in closed form", "[advise]") {
  for (const double epsilon : {0.5, 1.0, 4.0}) {
    for (const double k : {2.0, 10.0, 100.0, 1000.0}) {
      INFO("epsilon = " << epsilon << ", k = " << k);
      const Advice a = advise(k, epsilon, 1000.0, AdviceGoal::frequencies);
      REQUIRE(a.candidates.size() == 5);
      for (std::size_t i = 1; i < a.candidates.size(); ++i) CHECK(a.candidates[i - 1].error <= a.candidates[i].error);
      for (const AdviceCandidate& c : a.candidates) {
        CHECK(a.error <= kAdviceTolerance * c.error);
        if (c.mechanism == "linear") {
          const double e = std::exp(epsilon);
          // k-RR: N·Σ Var = (e^ε + k − 2)(k − 1)... written out: [p(1 − p) + (k − 1)q(1 − q)]/(p − q)²
          const double p = e / (e + k - 1.0);
          const double q = 1.0 / (e + k - 1.0);
          CHECK(c.error * 1000.0 == Approx((p * (1 - p) + (k - 1) * q * (1 - q)) / ((p - q) * (p - q))).epsilon(1e-12));
          CHECK(c.report_bits == std::ceil(std::log2(k)));
        } else {
          MechanismOptions o;
          o.epsilon = epsilon;
          o.categories = k;
          const Oracle oracle = make_oracle(c.mechanism, o);
          // the per-item closed forms add up to the total, whatever the population
          double sum = 0.0;
          for (std::size_t v = 0; v < static_cast<std::size_t>(k); ++v) {
            sum += frequency_variance(oracle, v == 0 ? 1.0 : 0.0, 1000.0);
          }
          CHECK(c.error == Approx(sum).epsilon(1e-9));
        }
      }
      CHECK_THAT(a.reason, Catch::StartsWith("'" + a.mechanism + "' has "));
      CHECK_THAT(a.reason, Catch::Contains("predicted total squared error"));
      CHECK_THAT(a.reason, Catch::Contains("of the candidates within 1.050 times the smallest error it has the "
                                           "smallest report, then the fewest server operations"));
      CHECK_THAT(a.reason, Catch::Contains("bits; server: "));
    }
  }
  // k-RR at small k and large ε (k < 2e^ε + 1), an oracle at large k
  CHECK(advise(2.0, 4.0, 1000.0, AdviceGoal::frequencies).mechanism == "linear");
  CHECK(advise(1000.0, 1.0, 1000.0, AdviceGoal::frequencies).mechanism != "linear");
  CHECK(advise(1000.0, 1.0, 1000.0, AdviceGoal::frequencies).mechanism != "hadamard");
}

TEST_CASE("advise: frequencies: among the errors within the tolerance, the smallest report, then the cheapest server",
          "[advise]") {
  for (const double epsilon : {0.1, 0.5, 1.0, 2.0, 4.0, 8.0}) {
    for (const double k : {2.0, 5.0, 10.0, 30.0, 100.0, 1000.0, 1e4, 1e5, 1e6, 1e7}) {
      for (const double users : {100.0, 1e6}) {
        INFO("epsilon = " << epsilon << ", k = " << k << ", N = " << users);
        const Advice a = advise(k, epsilon, users, AdviceGoal::frequencies);
        CHECK(a.tolerance == 1.05);
        const double smallest = a.candidates.front().error;
        const auto chosen = std::find_if(a.candidates.begin(), a.candidates.end(),
                                         [&](const AdviceCandidate& c) { return c.mechanism == a.mechanism; });
        REQUIRE(chosen != a.candidates.end());
        CHECK(chosen->error == a.error);
        CHECK(a.error <= 1.05 * smallest);
        for (const AdviceCandidate& c : a.candidates) {
          INFO(c.mechanism << ": " << c.error << ", " << c.report_bits << " bits, " << c.server_operations);
          CHECK(c.server_operations >= users);  // every report is read at least once
          if (c.error > 1.05 * smallest) continue;
          CHECK(chosen->report_bits <= c.report_bits);
          if (chosen->report_bits == c.report_bits) CHECK(chosen->server_operations <= c.server_operations);
        }
        if (a.mechanism != a.candidates.front().mechanism) {
          CHECK_THAT(a.reason, Catch::StartsWith(message({"'", a.mechanism, "' has a predicted total squared error"})));
          CHECK_THAT(a.reason, Catch::Contains("times the smallest ('" + a.candidates.front().mechanism + "' "));
        }
      }
    }
  }
  // k = 10^6, ε = 1: subset selection's report is 10^6 bits, OLH's error within 1% of it with a report of 42 bits
  // (P = 1000003, g = 4: P²·g < 2^42) and about P/g steps per report instead of k.
  const Advice large = advise(1e6, 1.0, 1e4, AdviceGoal::frequencies);
  CHECK(large.candidates.front().mechanism == "subset-selection");
  CHECK(large.candidates.front().report_bits == 1e6);
  CHECK(large.mechanism == "olh");
  CHECK(large.error <= 1.01 * large.candidates.front().error);
  const auto olh = std::find_if(large.candidates.begin(), large.candidates.end(),
                                [](const AdviceCandidate& c) { return c.mechanism == "olh"; });
  CHECK(olh->report_bits == 42.0);
  CHECK(olh->server_operations == 1e4 * 250001.0);
  INFO(large.reason);
  CHECK_THAT(large.reason, Catch::StartsWith("'olh' has a predicted total squared error of the shares"));
  CHECK_THAT(large.reason, Catch::Contains("times the smallest ('subset-selection' "));
  CHECK_THAT(large.reason, Catch::Contains("a report of 1000000 bits)"));
  CHECK_THAT(large.reason, Catch::Contains("a report of 42 bits; server: a walk over each report's preimages"));
  // Small k: k-RR, the smallest report (k = 5 at ε = 1 ties subset selection with a one-item subset).
  CHECK(advise(5.0, 1.0, 1e4, AdviceGoal::frequencies).mechanism == "linear");
  CHECK(advise(10.0, 4.0, 1e4, AdviceGoal::frequencies).mechanism == "linear");
  // Small ε, large k: Hadamard response within the factor, with the smaller report than OLH's and a GROUP BY.
  CHECK(advise(1e6, 0.1, 1e4, AdviceGoal::frequencies).mechanism == "hadamard");
  // Where the others are beyond the factor, the smallest error: subset selection at k = 10, ε = 1.
  CHECK(advise(10.0, 1.0, 1e4, AdviceGoal::frequencies).mechanism == "subset-selection");
}

TEST_CASE("advise: frequencies: k-RR exactly while k < 2e^epsilon + 1, on a log grid of epsilon", "[advise]") {
  for (int i = -20; i <= 20; ++i) {
    const double epsilon = std::pow(10.0, i / 20.0);
    const double boundary = 2.0 * std::exp(epsilon) + 1.0;
    for (const double k : {std::floor(boundary) - 1.0, std::floor(boundary), std::ceil(boundary),
                           std::ceil(boundary) + 1.0, std::ceil(10.0 * boundary)}) {
      if (k < 2.0 || k == boundary) continue;
      INFO("epsilon = " << epsilon << ", k = " << k);
      const Advice a = advise(k, epsilon, 1e4, AdviceGoal::frequencies);
      CHECK((a.mechanism == "linear") == (k < boundary));
    }
  }
}

TEST_CASE("advise: frequencies: the predicted errors and the choice hold in simulation at a grid", "[advise][simulation]") {
  // Each candidate's mean total squared error over R collections against its prediction (relative standard error
  // about sqrt(2/(R·k)) for a sum of k independent squared errors; within 12%), and the advised mechanism's measured
  // error within 10% of the smallest measured (the rule's 5% and the measurement's noise).
  struct Point {
    double epsilon;
    std::size_t k, users, reps;
  };
  for (const Point& at : {Point{1.0, 10, 500, 300}, Point{4.0, 10, 500, 300}, Point{1.0, 100, 500, 100},
                          Point{4.0, 100, 2000, 60}, Point{0.5, 1000, 200, 15}}) {
    const Advice a = advise(static_cast<double>(at.k), at.epsilon, static_cast<double>(at.users), AdviceGoal::frequencies);
    double smallest = INFINITY;
    double advised = 0.0;
    for (const AdviceCandidate& c : a.candidates) {
      INFO(c.mechanism << " at epsilon = " << at.epsilon << ", k = " << at.k << ", N = " << at.users);
      const double measured = measured_total_error(c.mechanism, at.epsilon, at.k, at.users, at.reps, 7 + at.k);
      CHECK(measured / c.error == Approx(1.0).margin(0.12));
      smallest = std::min(smallest, measured);
      if (c.mechanism == a.mechanism) advised = measured;
    }
    INFO(a.reason);
    CHECK(advised <= 1.1 * smallest);
  }
}

TEST_CASE("advise: sample: the smallest worst-case risk of the samplers that take epsilon alone", "[advise]") {
  const Advice a = advise(10.0, 1.0, 1.0, AdviceGoal::sample, "tv");
  REQUIRE(!a.candidates.empty());
  CHECK(a.mechanism == "minimax");  // Park et al.: the minimax sampler is optimal for every f
  for (const AdviceCandidate& c : a.candidates) CHECK(c.server_operations == 0.0);  // nothing to count
  MechanismOptions o;
  o.epsilon = 1.0;
  CHECK(a.error == worst_case_risk(make_finite_mechanism("minimax", o), parse_divergence("tv"), 10));
  for (const AdviceCandidate& c : a.candidates) CHECK(a.error <= c.error);
}

TEST_CASE("advise: bad options are refused by name", "[advise]") {
  CHECK_THROWS_WITH(parse_advice_goal("median"), Catch::StartsWith("options.goal = 'median'"));
  CHECK_THROWS_WITH(advise(1.0, 1.0, 10.0, AdviceGoal::frequencies), Catch::StartsWith("options.k = 1"));
  CHECK_THROWS_WITH(advise(10.0, 0.0, 10.0, AdviceGoal::frequencies), Catch::StartsWith("options.epsilon = 0"));
  CHECK_THROWS_WITH(advise(10.0, 1.0, 0.5, AdviceGoal::frequencies), Catch::StartsWith("options.users = 0.5"));
}
