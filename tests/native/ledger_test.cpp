// The privacy-budget ledger's arithmetic (docs/analysis/ledger.md): golden totals for each account, the budget
// check at and just past its boundary, refusal of notions an account does not count, property tests over random
// sequences of releases, and validation of every field.
#include "analysis/ledger.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using namespace privsample;

namespace {

Guarantee pure(double epsilon) { return {PrivacyNotion::pure_ldp, epsilon, 0.0, 0.0, 0.0}; }
Guarantee approx(double epsilon, double delta) { return {PrivacyNotion::approximate_ldp, epsilon, delta, 0.0, 0.0}; }
Guarantee gaussian(double mu) { return {PrivacyNotion::gaussian_ldp, 0.0, 0.0, mu, 0.0}; }
Guarantee record(double epsilon, double records) { return {PrivacyNotion::record_dp, epsilon, 0.0, 0.0, records}; }

// The message of the exception check_release throws, or "" when it allows the release.
std::string refusal(const std::vector<Guarantee>& spent, const Guarantee& request, const Guarantee* budget,
                    const std::string& purpose = "survey") {
  try {
    check_release(purpose, spent, request, budget);
  } catch (const std::domain_error& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("ledger: golden totals of basic composition in each account", "[ledger]") {
  const std::vector<Guarantee> ldp = {pure(0.5), approx(1.0, 1e-6), pure(0.25), approx(0.125, 2e-6)};
  const LedgerTotal a = composed_total("p", ldp, LedgerAccount::ldp);
  CHECK(a.epsilon == 1.875);  // every term is a dyadic rational: the sum is exact
  CHECK(a.delta == Approx(3e-6).epsilon(1e-15));
  CHECK(a.releases == 4);

  // μ-GDP: sqrt(Σμ²) — 3, 4 → 5 exactly; 1, 1 → √2; twelve releases of 1 → √12.
  CHECK(composed_total("p", std::vector{gaussian(3), gaussian(4)}, LedgerAccount::gaussian_ldp).mu == 5.0);
  CHECK(composed_total("p", std::vector{gaussian(1), gaussian(1)}, LedgerAccount::gaussian_ldp).mu == std::sqrt(2.0));
  CHECK(composed_total("p", std::vector<Guarantee>(12, gaussian(1)), LedgerAccount::gaussian_ldp).mu ==
        Approx(std::sqrt(12.0)).epsilon(1e-15));

  // Record-level: Σε over record-dp releases and pure-LDP releases at their ε (whatever n each release had).
  const LedgerTotal r = composed_total("p", std::vector{record(1, 10), pure(0.5), record(0.25, 3)}, LedgerAccount::record_dp);
  CHECK(r.epsilon == 1.75);
  CHECK(r.delta == 0.0);

  // No release: nothing spent.
  const LedgerTotal none = composed_total("p", std::vector<Guarantee>{}, LedgerAccount::ldp);
  CHECK(none.epsilon == 0.0);
  CHECK(none.releases == 0);
}

TEST_CASE("ledger: the budget check allows up to the budget and refuses past it, naming everything", "[ledger]") {
  const Guarantee budget = validated_budget(pure(2.0), "budget");
  const std::vector<Guarantee> spent = {pure(1.0), pure(0.5)};
  CHECK(refusal(spent, pure(0.5), &budget).empty());  // 2 = 2: allowed
  const std::string message = refusal(spent, pure(0.625), &budget);
  CHECK(contains(message, "purpose 'survey'"));
  CHECK(contains(message, "spent epsilon = 1.5 (2 releases)"));
  CHECK(contains(message, "requested epsilon = 0.625"));
  CHECK(contains(message, "together 2.125 > budget epsilon = 2"));

  // δ: a pure budget refuses any δ > 0; an (ε, δ) budget counts both.
  CHECK(contains(refusal({}, approx(0.1, 1e-9), &budget), "delta = 0"));
  const Guarantee both = validated_budget(approx(3.0, 1e-6), "budget");
  CHECK(refusal({approx(1, 5e-7)}, approx(1, 5e-7), &both).empty());
  CHECK(contains(refusal({approx(1, 5e-7)}, approx(1, 6e-7), &both), "budget delta = 0.000001"));

  // μ: sqrt(3² + 4²) = 5 fits a budget of 5 exactly; a hair more does not.
  const Guarantee mu5 = validated_budget(gaussian(5.0), "budget");
  CHECK(refusal({gaussian(3)}, gaussian(4), &mu5).empty());
  const std::string mu_message = refusal({gaussian(3)}, gaussian(std::nextafter(4.0, 5.0)), &mu5);
  CHECK(contains(mu_message, "spent mu = 3 (1 release)"));
  CHECK(contains(mu_message, "budget mu = 5"));

  // Rounding (docs/analysis/ledger.md#rounding): ten releases at the double 0.1 sum to more than 1 exactly, so the
  // tenth is refused against a budget of 1; four at 0.25 sum to 1 exactly and fit.
  const Guarantee one = validated_budget(pure(1.0), "budget");
  CHECK(refusal(std::vector<Guarantee>(9, pure(0.1)), pure(0.1), &one) != "");
  CHECK(refusal(std::vector<Guarantee>(3, pure(0.25)), pure(0.25), &one).empty());

  // Without a budget everything of the purpose's notion is allowed.
  CHECK(refusal(std::vector<Guarantee>(50, pure(1000)), pure(1000), nullptr).empty());
}

TEST_CASE("ledger: an account refuses notions it does not count, and converts only pure LDP into record-level DP",
          "[ledger]") {
  const Guarantee ldp_budget = validated_budget(pure(10), "budget");
  const Guarantee mu_budget = validated_budget(gaussian(10), "budget");
  const Guarantee record_budget = validated_budget(record(10, 0), "budget");
  CHECK(contains(refusal({}, gaussian(1), &ldp_budget), "cannot be composed"));
  CHECK(contains(refusal({}, record(1, 5), &ldp_budget), "record-dp, epsilon = 1, records = 5"));
  CHECK(contains(refusal({}, pure(1), &mu_budget), "mu-Gaussian LDP"));
  CHECK(contains(refusal({}, approx(1, 1e-6), &mu_budget), "cannot be composed"));
  CHECK(refusal({}, pure(1), &record_budget).empty());
  CHECK(contains(refusal({}, approx(1, 1e-6), &record_budget), "cannot be composed"));
  CHECK(contains(refusal({}, gaussian(1), &record_budget), "cannot be composed"));
  // Without a budget, the first release fixes the account, whatever its notion.
  CHECK(refusal({}, gaussian(1), nullptr).empty());
  CHECK(refusal({}, record(1, 4), nullptr).empty());
  CHECK(contains(refusal({gaussian(1)}, pure(1), nullptr), "the notion of its first release"));
  CHECK(refusal({record(1, 3)}, pure(1), nullptr).empty());
  CHECK(contains(refusal({pure(1)}, record(1, 3), nullptr), "cannot be composed"));
  // A stored entry of the wrong notion is reported with its index.
  CHECK_THROWS_WITH(composed_total("x", std::vector{pure(1), gaussian(1)}, LedgerAccount::ldp),
                    Catch::Contains("purpose 'x'") && Catch::Contains("its release 1 (gaussian-ldp, mu = 1)"));
}

TEST_CASE("ledger: remaining budget", "[ledger]") {
  const Guarantee budget = validated_budget(approx(2, 1e-5), "budget");
  const LedgerTotal left = remaining_budget(composed_total("p", std::vector{approx(0.5, 1e-6), pure(1)}, LedgerAccount::ldp), budget);
  CHECK(left.epsilon == 0.5);
  CHECK(left.delta == Approx(9e-6).epsilon(1e-14));
  const LedgerTotal over = remaining_budget(composed_total("p", std::vector{pure(3)}, LedgerAccount::ldp), budget);
  CHECK(over.epsilon == 0.0);
  // μ: what is left is the largest μ one more release may have: sqrt(5² − 3²) = 4.
  CHECK(remaining_budget(composed_total("p", std::vector{gaussian(3)}, LedgerAccount::gaussian_ldp), validated_budget(gaussian(5), "b")).mu == 4.0);
}

TEST_CASE("ledger: properties over random sequences of releases", "[ledger]") {
  std::mt19937_64 rng(20261125);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int trial = 0; trial < 2000; ++trial) {
    const auto n = static_cast<std::size_t>(unit(rng) * 20);
    std::vector<Guarantee> eps;
    std::vector<Guarantee> mus;
    for (std::size_t i = 0; i < n; ++i) {
      eps.push_back(unit(rng) < 0.5 ? pure(unit(rng) * 3) : approx(unit(rng) * 3, unit(rng) * 1e-3));
      mus.push_back(gaussian(1e-3 + unit(rng) * 5));
    }
    // The total does not depend on the order of the releases.
    std::vector<Guarantee> shuffled = mus;
    std::shuffle(shuffled.begin(), shuffled.end(), rng);
    const double mu = composed_total("p", mus, LedgerAccount::gaussian_ldp).mu;
    REQUIRE(composed_total("p", shuffled, LedgerAccount::gaussian_ldp).mu == Approx(mu).epsilon(1e-14));
    // μ composes below Σμ and above max μ.
    double sum = 0.0;
    double largest = 0.0;
    for (const Guarantee& g : mus) {
      sum += g.mu;
      largest = std::max(largest, g.mu);
    }
    REQUIRE(mu <= sum * (1 + 1e-14));
    REQUIRE(mu >= largest);
    // A budget a little above the total with the next release allows it; a little below refuses it.
    const Guarantee next = pure(unit(rng) * 2);
    std::vector<Guarantee> with = eps;
    with.push_back(next);
    const LedgerTotal total = composed_total("p", with, LedgerAccount::ldp);
    const Guarantee above = validated_budget(approx(total.epsilon * (1 + 1e-9) + 1e-12, std::min(0.999, total.delta * (1 + 1e-9) + 1e-15)), "b");
    const Guarantee below = validated_budget(approx(total.epsilon * (1 - 1e-9), std::min(0.999, total.delta * (1 + 1e-9) + 1e-15)), "b");
    REQUIRE(refusal(eps, next, &above).empty());
    if (total.epsilon > 0) REQUIRE(!refusal(eps, next, &below).empty());
    // Spent + remaining = budget when the budget is not exceeded.
    const LedgerTotal left = remaining_budget(total, above);
    REQUIRE(left.epsilon + total.epsilon == Approx(above.epsilon).epsilon(1e-12));
  }
}

TEST_CASE("ledger: every field is validated, with its name and value in the message", "[ledger]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  CHECK_THROWS_WITH(validated_release(pure(-1), "guarantee"), "guarantee.epsilon = -1: must be a finite number in [0, 1000]");
  CHECK_THROWS_WITH(validated_release(pure(nan), "guarantee"), Catch::StartsWith("guarantee.epsilon = NaN"));
  CHECK_THROWS_WITH(validated_release(approx(1, 1), "g"), "g.delta = 1: must be in [0, 1)");
  CHECK_THROWS_WITH(validated_release(gaussian(0), "g"), "g.mu = 0: must be a finite number in (0, 100]");
  CHECK_THROWS_WITH(validated_release(record(1, 2.5), "g"), "g.records = 2.5: must be an integer in [1, 1e9]");
  CHECK_THROWS_WITH(validated_budget(pure(inf), "budgets.survey"), "budgets.survey.epsilon = Infinity: must be a finite number >= 0");
  CHECK_THROWS_WITH(validated_budget(gaussian(-1), "b"), "b.mu = -1: must be a finite number >= 0");
  CHECK_THROWS_WITH(validated_budget(approx(1, -0.5), "b"), "b.delta = -0.5: must be in [0, 1)");
  CHECK_THROWS_WITH(notion_from_name("ldp"), Catch::StartsWith("notion = 'ldp': must be one of"));
  CHECK(notion_from_name("approx-ldp") == PrivacyNotion::approximate_ldp);
  CHECK(validated_budget(approx(1, 0), "b").notion == PrivacyNotion::pure_ldp);
  // A stored entry that is damaged makes the check throw instead of counting it as nothing.
  const Guarantee budget = validated_budget(pure(5), "b");
  CHECK_THROWS_AS(check_release("p", std::vector{pure(nan)}, pure(1), &budget), std::invalid_argument);
  CHECK_THROWS_WITH(check_release("p", std::vector{pure(1), pure(-2)}, pure(1), &budget), Catch::StartsWith("entries[1].guarantee.epsilon = -2"));
}

TEST_CASE("ledger: budgets as a page states them", "[ledger]") {
  const Guarantee e = budget_from_options({std::nullopt, 2.0, std::nullopt, std::nullopt}, "budgets.a");
  CHECK(e.notion == PrivacyNotion::pure_ldp);
  CHECK(e.epsilon == 2.0);
  const Guarantee ed = budget_from_options({std::nullopt, 2.0, 1e-6, std::nullopt}, "budgets.a");
  CHECK(ed.notion == PrivacyNotion::approximate_ldp);
  CHECK(ed.delta == 1e-6);
  CHECK(budget_from_options({std::nullopt, std::nullopt, std::nullopt, 1.5}, "b").notion == PrivacyNotion::gaussian_ldp);
  CHECK(budget_from_options({std::string("record-dp"), 3.0, std::nullopt, std::nullopt}, "b").notion == PrivacyNotion::record_dp);
  CHECK(account_of_budget(budget_from_options({std::string("ldp"), 3.0, std::nullopt, std::nullopt}, "b")) == LedgerAccount::ldp);
  CHECK_THROWS_WITH(budget_from_options({std::nullopt, 1.0, std::nullopt, 1.0}, "budgets.a"), Catch::StartsWith("budgets.a: a mu-Gaussian LDP budget is { mu } alone"));
  CHECK_THROWS_WITH(budget_from_options({}, "budgets.a"), Catch::StartsWith("budgets.a: a budget is { epsilon }"));
  CHECK_THROWS_WITH(budget_from_options({std::string("record-dp"), 1.0, 1e-6, std::nullopt}, "b"), "b: a record-dp budget is pure epsilon-DP: no delta");
  CHECK_THROWS_WITH(budget_from_options({std::string("pure"), 1.0, std::nullopt, std::nullopt}, "b"), "b.notion = 'pure': must be 'ldp', 'gaussian-ldp' or 'record-dp'");
  CHECK_THROWS_WITH(budget_from_options({std::nullopt, -1.0, std::nullopt, std::nullopt}, "b"), "b.epsilon = -1: must be a finite number >= 0");
}
