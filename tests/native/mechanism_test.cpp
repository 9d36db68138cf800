// The run-time registry behind the JS API: names, option rules, the notion each option set selects, and
// sample_many running the mechanism itself where distribution() is only an estimate.
#include "mechanisms/mechanism.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "base/randomness.hpp"

using namespace privsample;

TEST_CASE("registry: every listed name builds with its options", "[mechanism]") {
  MechanismOptions pure;
  pure.epsilon = 1.0;
  MechanismOptions with_prior = pure;
  with_prior.prior = std::vector<double>{0.5, 0.25, 0.25};
  with_prior.gamma = 2.0;
  MechanismOptions records = pure;
  records.records = 6.0;
  const std::vector<double> counts{3, 2, 1};
  for (const auto& name : finite_mechanism_names()) {
    INFO(name);
    const MechanismOptions& o = name == "local" || name == "local-linear" ? with_prior
                                : name == "roo" || name == "ds-roo" || name == "laplace-projection" ? records
                                                                                                    : pure;
    const Mechanism m = make_finite_mechanism(name, o);
    const std::vector<double> q = distribution(m, counts);
    REQUIRE(q.size() == 3);
    double total = 0.0;
    for (double v : q) {
      CHECK(v > 0.0);
      total += v;
    }
    CHECK(total == Approx(1.0).epsilon(1e-12));
  }
}

TEST_CASE("registry: the options of a linear sampler select the notion", "[mechanism]") {
  MechanismOptions o;
  o.epsilon = 1.0;
  CHECK(guarantee(make_finite_mechanism("linear", o)).notion == PrivacyNotion::pure_ldp);
  CHECK(std::holds_alternative<LinearSampler>(make_finite_mechanism("linear", o)));
  o.delta = 1e-3;
  const Guarantee approx = guarantee(make_finite_mechanism("linear", o));
  CHECK(approx.notion == PrivacyNotion::approximate_ldp);
  CHECK(approx.delta == 1e-3);
  MechanismOptions gaussian;
  gaussian.mu = 0.5;
  const Guarantee gdp = guarantee(make_finite_mechanism("linear", gaussian));
  CHECK(gdp.notion == PrivacyNotion::gaussian_ldp);
  CHECK(gdp.mu == 0.5);
  gaussian.epsilon = 1.0;
  CHECK_THROWS_WITH(make_finite_mechanism("linear", gaussian), Catch::Contains("cannot be combined"));
  MechanismOptions delta_only;
  delta_only.delta = 0.1;
  CHECK_THROWS_WITH(make_finite_mechanism("linear", delta_only), Catch::Contains("options.epsilon is required"));
}

TEST_CASE("registry: unknown names and unsupported options are named", "[mechanism]") {
  MechanismOptions o;
  o.epsilon = 1.0;
  CHECK_THROWS_WITH(make_finite_mechanism("laplace", o), Catch::Contains("'laplace'") && Catch::Contains("'roo'"));
  o.records = 10.0;
  CHECK_THROWS_WITH(make_finite_mechanism("minimax", o),
                    Catch::Contains("'records' is not supported by 'minimax'"));
  MechanismOptions roo;
  roo.epsilon = 1.0;
  CHECK_THROWS_WITH(make_finite_mechanism("ds-roo", roo), Catch::Contains("options.records is required"));
  roo.records = 10.0;
  roo.delta = 0.1;
  CHECK_THROWS_WITH(make_finite_mechanism("roo", roo), Catch::Contains("'delta' is not supported by 'roo'"));
}

TEST_CASE("registry: sample_many of laplace-projection draws fresh noise every run", "[mechanism][statistical]") {
  // With one record the noisy histogram is uniform with probability about 1/2 at ε = 0.1 and the record's
  // letter otherwise; replaying one noise draw for all samples would give a single letter every time.
  MechanismOptions o;
  o.epsilon = 0.1;
  o.records = 1.0;
  const Mechanism m = make_finite_mechanism("laplace-projection", o);
  SeededRandom bits(11);
  const std::vector<double> counts{1, 0, 0, 0};
  const std::vector<std::uint32_t> draws = sample_many(m, counts, 4000, bits);
  std::vector<int> seen(4, 0);
  for (auto d : draws) ++seen[d];
  for (int c : seen) CHECK(c > 100);
  CHECK_THROWS_AS(worst_case_risk(m, NamedDivergence::kl, 4), std::domain_error);
}

TEST_CASE("registry: a mechanism that keeps its weight for k answers exactly as a fresh one, for every k", "[mechanism]") {
  // keep_for_categories is what the JS sampler handle calls before each call with a histogram: the (ε,δ) and μ-GDP
  // linear sampler's weight for k is then solved once instead of on every call.
  std::vector<MechanismOptions> notions(3);
  notions[0].epsilon = 1.0;
  notions[0].delta = 1e-6;
  notions[1].mu = 1.0;
  notions[2].mu = 0.05;
  for (const MechanismOptions& options : notions) {
    const Mechanism fresh = make_finite_mechanism("linear", options);
    Mechanism kept = fresh;
    for (const std::size_t k : {std::size_t{1}, std::size_t{2}, std::size_t{10}, std::size_t{100}}) {
      keep_for_categories(kept, k);
      for (const std::size_t asked : {k, k + 1, std::size_t{3}}) {
        INFO("k kept " << k << ", asked " << asked << ", mu " << options.mu.value_or(0.0));
        std::vector<double> hist(asked);
        for (std::size_t x = 0; x < asked; ++x) hist[x] = static_cast<double>((7 * x) % 5) + 0.5;
        CHECK(distribution(kept, hist) == distribution(fresh, hist));
        CHECK(worst_case_risk(kept, NamedDivergence::kl, asked) == worst_case_risk(fresh, NamedDivergence::kl, asked));
        SeededRandom a(5);
        SeededRandom b(5);
        CHECK(sample_many(kept, hist, 50, a) == sample_many(fresh, hist, 50, b));
      }
    }
    // A k with no weight (0, or above the limit) is not kept, and the call still reports the histogram's fault.
    keep_for_categories(kept, 0);
    keep_for_categories(kept, kMaxCategories + 1);
    CHECK_THROWS_WITH(distribution(kept, std::vector<double>{}), Catch::Contains("empty"));
    CHECK(distribution(kept, std::vector<double>{1.0, 2.0}) == distribution(fresh, std::vector<double>{1.0, 2.0}));
  }
  // Mechanisms without per-k state are left as they are.
  MechanismOptions pure;
  pure.epsilon = 1.0;
  Mechanism minimax = make_finite_mechanism("minimax", pure);
  keep_for_categories(minimax, 10);
  CHECK(distribution(minimax, std::vector<double>{1.0, 2.0, 3.0}) ==
        distribution(make_finite_mechanism("minimax", pure), std::vector<double>{1.0, 2.0, 3.0}));
}
