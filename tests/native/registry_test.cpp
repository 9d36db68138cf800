// The registry (registry.hpp) as the single source of names and option rules, and one privacy tester that walks
// it: every finite mechanism × adversarial inputs × its notion's check (the privacy profile δ_g(β) bounds every
// hockey-stick divergence between two inputs' outputs for the local notions; the e^ε ratio between neighbouring
// record sets for record-level DP).
#include "mechanisms/registry.hpp"

#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "privsample.hpp"
#include "privacy/functional_ldp.hpp"
#include "mechanisms/mechanism.hpp"
#include "test_support.hpp"

using namespace privsample;
using namespace privsample_test;

namespace {

// A valid value for every option: the same for every mechanism that takes it.
MechanismOptions all_options_of(const MechanismSpec& spec, bool gaussian = false) {
  MechanismOptions o;
  if (spec.notion == NotionRule::ldp_from_options && gaussian) {
    o.mu = 0.8;
  } else {
    o.epsilon = 1.0;
  }
  const auto wants = [&](std::string_view key) {
    return std::find(spec.required.begin(), spec.required.end(), key) != spec.required.end() ||
           std::find(spec.optional.begin(), spec.optional.end(), key) != spec.optional.end();
  };
  const std::vector<double> masses{0.375, 0.25, 0.125, 0.125, 0.125};
  if (wants("gamma")) o.gamma = 2.0;
  if (wants("records")) o.records = 4.0;
  if (wants("c1")) o.c1 = 0.25;
  if (wants("c2")) o.c2 = 3.0;
  if (wants("prior")) o.prior = masses;
  if (wants("reference")) o.reference = masses;
  if (wants("outsideNeighbourhood")) o.outside_neighbourhood = "projection";
  return o;
}

void build(const MechanismSpec& spec, const MechanismOptions& o) {
  if (spec.space == MechanismSpace::finite) {
    (void)make_finite_mechanism(spec.name, o);
  } else {
    (void)make_continuous_mechanism(spec.name, o);
  }
}

void clear(MechanismOptions& o, std::string_view key) {
  if (key == "gamma") o.gamma.reset();
  if (key == "records") o.records.reset();
  if (key == "c1") o.c1.reset();
  if (key == "c2") o.c2.reset();
  if (key == "categories") o.categories.reset();
  if (key == "prior") o.prior.reset();
  if (key == "reference") o.reference.reset();
}

void set(MechanismOptions& o, std::string_view key) {
  if (key == "epsilon") o.epsilon = 1.0;
  if (key == "delta") o.delta = 1e-3;
  if (key == "mu") o.mu = 1.0;
  if (key == "gamma") o.gamma = 2.0;
  if (key == "records") o.records = 4.0;
  if (key == "c1") o.c1 = 0.25;
  if (key == "c2") o.c2 = 3.0;
  if (key == "categories") o.categories = 5.0;
  if (key == "prior") o.prior = std::vector<double>{0.2, 0.2, 0.2, 0.2, 0.2};
  if (key == "reference") o.reference = std::vector<double>{0.2, 0.2, 0.2, 0.2, 0.2};
  if (key == "outsideNeighbourhood") o.outside_neighbourhood = "clip";
}

}  // namespace

TEST_CASE("registry: every mechanism builds from its required and optional options", "[registry]") {
  for (const auto& spec : mechanism_registry()) {
    INFO(std::string(spec.name) << (spec.space == MechanismSpace::finite ? " (finite)" : " (continuous)"));
    CHECK_NOTHROW(build(spec, all_options_of(spec)));
    if (spec.notion == NotionRule::ldp_from_options) CHECK_NOTHROW(build(spec, all_options_of(spec, true)));
    CHECK(mechanism_spec(spec.name, spec.space).summary == spec.summary);
  }
  CHECK(finite_mechanism_names() == mechanism_names(MechanismSpace::finite));
  CHECK(mechanism_names(MechanismSpace::continuous) ==
        std::vector<std::string>{"minimax", "linear", "local", "local-linear"});
}

TEST_CASE("registry: a missing required option and an unused option are refused by name", "[registry]") {
  for (const auto& spec : mechanism_registry()) {
    const std::string name(spec.name);
    INFO(name);
    for (const auto key : spec.required) {
      MechanismOptions o = all_options_of(spec);
      clear(o, key);
      CHECK_THROWS_WITH(build(spec, o), Catch::Contains("options." + std::string(key) + " is required for '" + name + "'"));
    }
    MechanismOptions no_epsilon = all_options_of(spec);
    no_epsilon.epsilon.reset();
    CHECK_THROWS_WITH(build(spec, no_epsilon), Catch::Contains("options.epsilon is required for '" + name + "'"));
    for (const auto& option : option_specs()) {
      const bool used = option.name == "epsilon" ||
                        (spec.notion == NotionRule::ldp_from_options && option.name == "delta") ||
                        std::find(spec.required.begin(), spec.required.end(), option.name) != spec.required.end() ||
                        std::find(spec.optional.begin(), spec.optional.end(), option.name) != spec.optional.end();
      if (used || option.name == "mu") continue;
      MechanismOptions o = all_options_of(spec);
      set(o, option.name);
      CHECK_THROWS_WITH(build(spec, o),
                        Catch::Contains("option '" + std::string(option.name) + "' is not supported by '" + name + "'"));
    }
    if (spec.notion != NotionRule::ldp_from_options) {
      MechanismOptions o = all_options_of(spec);
      o.mu = 1.0;
      CHECK_THROWS_WITH(build(spec, o), Catch::Contains("option 'mu' is not supported by '" + name + "'"));
    } else {
      MechanismOptions o = all_options_of(spec, true);
      o.delta = 1e-3;
      CHECK_THROWS_WITH(build(spec, o), Catch::Contains("cannot be combined"));
    }
  }
  CHECK_THROWS_WITH(mechanism_spec("clip", MechanismSpace::continuous),
                    Catch::Contains("mechanism = 'clip': unknown continuous mechanism; use one of 'minimax', 'linear'"));
}

TEST_CASE("registry: ldp_notion_of states a notion from epsilon, delta or mu alone", "[registry]") {
  MechanismOptions pure;
  pure.epsilon = 1.5;
  CHECK(ldp_notion_of(pure, "caller").notion == PrivacyNotion::pure_ldp);
  CHECK(ldp_notion_of(pure, "caller").epsilon == 1.5);
  MechanismOptions approx = pure;
  approx.delta = 1e-6;
  CHECK(ldp_notion_of(approx, "caller").notion == PrivacyNotion::approximate_ldp);
  CHECK(ldp_notion_of(approx, "caller").delta == 1e-6);
  MechanismOptions gaussian;
  gaussian.mu = 0.5;
  CHECK(ldp_notion_of(gaussian, "caller").notion == PrivacyNotion::gaussian_ldp);
  CHECK(ldp_notion_of(gaussian, "caller").mu == 0.5);
  MechanismOptions both = gaussian;
  both.epsilon = 1.0;
  CHECK_THROWS_WITH(ldp_notion_of(both, "caller"), Catch::Contains("options.mu (Gaussian LDP) cannot be combined") &&
                                                      Catch::Contains("'caller'"));
  CHECK_THROWS_WITH(ldp_notion_of(MechanismOptions{}, "caller"), Catch::Contains("options.epsilon is required for 'caller'"));
  MechanismOptions extra = pure;
  extra.gamma = 2.0;
  CHECK_THROWS_WITH(ldp_notion_of(extra, "caller"), Catch::Contains("option 'gamma' is not supported by 'caller'"));
  MechanismOptions negative;
  negative.mu = -1.0;
  CHECK_THROWS_AS(ldp_notion_of(negative, "caller"), std::invalid_argument);
}

TEST_CASE("registry: the JSON export lists every option and mechanism with its rules", "[registry]") {
  const std::string json{registry_json()};
  for (const auto& option : option_specs()) CHECK_THAT(json, Catch::Contains("{\"name\":\"" + std::string(option.name) + "\""));
  CHECK_THAT(json, Catch::Contains("{\"name\":\"local\",\"space\":\"finite\",\"notion\":\"pure-ldp\",\"required\":[\"epsilon\",\"prior\",\"gamma\"],\"optional\":[\"outsideNeighbourhood\"]"));
  CHECK_THAT(json, Catch::Contains("{\"name\":\"outsideNeighbourhood\",\"kind\":\"text\""));
  CHECK_THAT(json, Catch::Contains("{\"name\":\"linear\",\"space\":\"continuous\",\"notion\":\"ldp-from-options\",\"required\":[\"notion\",\"reference\",\"c2\"],\"optional\":[\"c1\"],\"defaults\":{\"c1\":0}"));
  CHECK(option_default(mechanism_spec("minimax", MechanismSpace::continuous), "c1") == 0.0);
  CHECK_THROWS_AS(option_default(mechanism_spec("minimax", MechanismSpace::finite), "c1"), std::logic_error);
  std::size_t entries = 0;
  for (auto at = json.find("{\"name\":"); at != std::string::npos; at = json.find("{\"name\":", at + 1)) ++entries;
  CHECK(entries == option_specs().size() + mechanism_registry().size() + oracle_registry().size());
}

TEST_CASE("registry: exactDistribution in the JSON export is has_exact_distribution of the mechanism it builds",
          "[registry]") {
  const std::string json{registry_json()};
  std::size_t estimated = 0;
  for (const auto& spec : mechanism_registry()) {
    const bool finite = spec.space == MechanismSpace::finite;
    INFO(std::string(spec.name) << (finite ? " (finite)" : " (continuous)"));
    const Mechanism m = finite ? make_finite_mechanism(spec.name, all_options_of(spec))
                               : make_continuous_mechanism(spec.name, all_options_of(spec));
    const auto entry = json.find("{\"name\":\"" + std::string(spec.name) + "\",\"space\":\"" +
                                 (finite ? "finite" : "continuous") + "\"");
    REQUIRE(entry != std::string::npos);
    const std::string expected = std::string("\"exactDistribution\":") + (has_exact_distribution(m) ? "true" : "false");
    CHECK(json.compare(json.find("\"exactDistribution\":", entry), expected.size(), expected) == 0);
    if (!has_exact_distribution(m)) ++estimated;
  }
  CHECK(estimated == 1);  // laplace-projection, whose distribution() is a Monte-Carlo estimate
}

namespace {

// Adversarial inputs on k categories: the point masses, the uniform histogram, two-point splits with tiny mass,
// and random shapes (test_support's structured families).
std::vector<std::vector<double>> adversarial_inputs(std::size_t k, std::mt19937_64& rng) {
  std::vector<std::vector<double>> inputs;
  for (std::size_t x = 0; x < k; ++x) inputs.push_back(point_mass(k, x));
  inputs.push_back(uniform(k));
  for (std::size_t x = 0; x + 1 < k; ++x) {
    std::vector<double> split(k, 0.0);
    split[x] = 1.0 - 1e-9;
    split[x + 1] = 1e-9;
    inputs.push_back(split);
  }
  for (int shape = 0; shape < 7; ++shape) inputs.push_back(random_histogram(k, rng, shape).counts);
  return inputs;
}

// Record sets of n records over k letters, as counts, and each set's neighbours (one record moved).
std::vector<std::vector<double>> record_sets(std::size_t k, int n, std::mt19937_64& rng) {
  std::vector<std::vector<double>> sets;
  for (std::size_t x = 0; x < k; ++x) sets.push_back(point_mass(k, x, n));
  std::uniform_int_distribution<std::size_t> letter(0, k - 1);
  for (int s = 0; s < 8; ++s) {
    std::vector<double> counts(k, 0.0);
    for (int r = 0; r < n; ++r) counts[letter(rng)] += 1.0;
    sets.push_back(counts);
  }
  return sets;
}

}  // namespace

TEST_CASE("privacy tester: every finite mechanism of the registry meets its notion on adversarial inputs",
          "[registry][privacy]") {
  std::mt19937_64 rng(20261125);
  for (const auto& spec : mechanism_registry()) {
    if (spec.space != MechanismSpace::finite) continue;
    // Its distribution() is a Monte-Carlo estimate of the output law (the guarantee holds for the noise, not
    // for the estimate); mechanism_test and reveal_or_obscure_test check it by its own construction.
    if (spec.name == "laplace-projection") continue;
    for (const double epsilon : {0.1, 1.0, 5.0, 50.0, 700.0}) {
      std::vector<MechanismOptions> variants;
      MechanismOptions base = all_options_of(spec);
      base.epsilon = epsilon;
      variants.push_back(base);
      if (spec.notion == NotionRule::ldp_from_options) {
        MechanismOptions approx = base;
        approx.delta = 1e-3;
        variants.push_back(approx);
        MechanismOptions gaussian = all_options_of(spec, true);
        gaussian.mu = std::min(epsilon, 50.0);
        variants.push_back(gaussian);
      }
      for (const auto& o : variants) {
        const Mechanism m = make_finite_mechanism(spec.name, o);
        const Guarantee g = guarantee(m);
        INFO(std::string(spec.name) << " notion " << static_cast<int>(g.notion) << " ε=" << g.epsilon
                                    << " δ=" << g.delta << " μ=" << g.mu);
        if (g.notion == PrivacyNotion::record_dp) {
          const int n = static_cast<int>(g.records);
          for (const auto& counts : record_sets(5, n, rng)) {
            const std::vector<double> q = distribution(m, counts);
            for (std::size_t from = 0; from < counts.size(); ++from) {
              if (counts[from] == 0.0) continue;
              for (std::size_t to = 0; to < counts.size(); ++to) {
                if (to == from) continue;
                std::vector<double> neighbour = counts;
                neighbour[from] -= 1.0;
                neighbour[to] += 1.0;
                const std::vector<double> r = distribution(m, neighbour);
                for (std::size_t y = 0; y < q.size(); ++y) {
                  REQUIRE(within_ratio(q[y], r[y], g.epsilon));
                }
              }
            }
          }
          continue;
        }
        const std::size_t k = o.prior ? o.prior->size() : 5;
        const auto inputs = adversarial_inputs(k, rng);
        std::vector<std::vector<double>> outputs;
        for (const auto& p : inputs) outputs.push_back(distribution(m, p));
        const double beta_top = g.notion == PrivacyNotion::gaussian_ldp ? 4.0 * g.mu + 4.0 : g.epsilon;
        for (const auto& qa : outputs) {
          for (const auto& qb : outputs) {
            for (int step = 0; step <= 8; ++step) {
              const double beta = beta_top * step / 8.0;
              REQUIRE(hockey_stick_divergence(qa, qb, beta) <= privacy_profile(g, beta) + 1e-12);
            }
            if (g.notion == PrivacyNotion::pure_ldp) {
              for (std::size_t y = 0; y < qa.size(); ++y) REQUIRE(within_ratio(qa[y], qb[y], g.epsilon));
            }
          }
        }
      }
    }
  }
}

TEST_CASE("registry: every option name maps to the MechanismOptions field of its kind, and nothing else does",
          "[registry]") {
  for (const OptionSpec& option : option_specs()) {
    INFO(option.name);
    CHECK((number_field(option.name) != nullptr) == (option.kind == OptionKind::number));
    CHECK((array_field(option.name) != nullptr) == (option.kind == OptionKind::numbers));
    CHECK((text_field(option.name) != nullptr) == (option.kind == OptionKind::text));
  }
  CHECK(text_field("outsideNeighbourhood") == &MechanismOptions::outside_neighbourhood);
  CHECK(text_field("epsilon") == nullptr);
  CHECK(number_field("epsilon") == &MechanismOptions::epsilon);
  CHECK(array_field("prior") == &MechanismOptions::prior);
  CHECK(number_field("seed") == nullptr);
  CHECK(array_field("epsilon") == nullptr);
  CHECK(number_field("") == nullptr);
}
