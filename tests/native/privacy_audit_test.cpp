// The registry-wide privacy audit (privacy_audit.hpp): every finite mechanism of the registry that releases through a
// plan, for every notion it takes, over a grid of ε (δ, μ) and k, checked where it is weakest on the law its releases
// draw from: the plan's worst case over every input (the analytic worst pair), the worst pair among adversarial inputs
// (point masses, clip breakpoints, prior blocks, adversarial doubles), and distribution()'s doubles to within their
// documented rounding. The record-level mechanisms have
// their own analytic search (reveal_or_obscure_test.cpp); laplace-projection's guarantee is the idealised real-valued
// Laplace mechanism's (docs), so it has no exact released law to audit.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "privsample.hpp"
#include "mechanisms/mechanism.hpp"
#include "base/numeric.hpp"
#include "analysis/privacy_audit.hpp"
#include "privacy/functional_ldp.hpp"
#include "mechanisms/registry.hpp"
#include "test_support.hpp"

using namespace privsample;
using namespace privsample_test;

namespace {

struct Case {
  std::string label;
  std::vector<double> hist;
};

// A public prior with a wide spread of masses (one tiny entry where the ε allows it).
std::vector<double> prior_of(std::size_t k, bool tiny) {
  std::vector<double> p(k);
  for (std::size_t x = 0; x < k; ++x) p[x] = 1.0 + static_cast<double>((x * 7) % 11);
  if (tiny && k > 2) p[k - 1] = 1e-12;
  double total = 0.0;
  for (double v : p) total += v;
  for (double& v : p) v /= total;
  return p;
}

std::vector<std::size_t> atoms_to_try(std::size_t k) {
  std::vector<std::size_t> xs;
  if (k <= 12) {
    for (std::size_t x = 0; x < k; ++x) xs.push_back(x);
  } else {
    xs = {0, 1, k / 2, k - 2, k - 1};
  }
  return xs;
}

// Inputs that reach the ends of a box: point masses (the top at one atom, the floor at the others), two-level inputs
// whose top atoms sit exactly at a clip breakpoint (ratio e^ε between the levels), prior blocks (γ·p0 on a block,
// p0/γ elsewhere), near point masses, and adversarial doubles; plus random pmfs.
std::vector<Case> adversarial_inputs(std::size_t k, double epsilon, const std::vector<double>& prior, double gamma) {
  std::vector<Case> out;
  for (const std::size_t x : atoms_to_try(k)) {
    out.push_back({"point mass at " + std::to_string(x), point_mass(k, x)});
    if (k > 1) {
      std::vector<double> near = point_mass(k, x, 1.0 - 1e-9);
      near[(x + 1) % k] = 1e-9;
      out.push_back({"near point mass at " + std::to_string(x), near});
      std::vector<double> tiny = point_mass(k, x);
      tiny[(x + 1) % k] = 1e-300;
      tiny[(x + 2) % k] = 5e-324;
      out.push_back({"point mass with 1e-300 and a subnormal beside it at " + std::to_string(x), tiny});
      // the negligible-count edge: 2^-400 of the largest survives (p = 2^-400), the double below it counts as 0
      std::vector<double> edge = point_mass(k, x);
      edge[(x + 1) % k] = 0x1p-400;
      edge[(x + 2) % k] = std::nextafter(0x1p-400, 0.0);
      out.push_back({"point mass with 2^-400 and the double below it beside it at " + std::to_string(x), edge});
    }
  }
  out.push_back({"uniform", uniform(k)});
  std::vector<double> ulp_apart(k, 0.2);
  ulp_apart[k - 1] = std::nextafter(0.2, 1.0);
  out.push_back({"uniform with one entry an ulp up", ulp_apart});
  std::vector<double> huge(k, 1.0);
  huge[0] = 9007199254740992.0;  // 2^53 counts beside single counts
  out.push_back({"2^53 counts beside ones", huge});
  const double level = std::exp(std::min(epsilon, 600.0));
  for (const std::size_t j : {std::size_t{1}, std::size_t{2}, k / 2, k - 1}) {
    if (j == 0 || j >= k) continue;
    std::vector<double> two(k, 1.0);
    for (std::size_t x = 0; x < j; ++x) two[x] = level;
    out.push_back({std::to_string(j) + " atoms e^eps above the rest (a clip breakpoint)", two});
  }
  if (!prior.empty()) {
    out.push_back({"the prior", prior});
    for (const std::size_t j : {std::size_t{1}, k / 3, k / 2}) {
      if (j == 0 || j >= k) continue;
      std::vector<double> block(k);
      for (std::size_t x = 0; x < k; ++x) block[x] = x < j ? prior[x] * gamma : prior[x] / gamma;
      out.push_back({"prior block of " + std::to_string(j) + " atoms at gamma*p0", block});
    }
  }
  std::mt19937_64 rng(static_cast<std::uint64_t>(k * 1000 + epsilon * 10));
  for (int i = 0; i < 4; ++i) out.push_back({"random pmf " + std::to_string(i), random_pmf(k, rng, i % 2 ? 0.6 : 0.0)});
  return out;
}

struct Variant {
  MechanismOptions options;
  std::string label;
};

std::vector<Variant> variants_of(const MechanismSpec& spec, double epsilon, std::size_t k) {
  std::vector<Variant> out;
  const bool wants_prior = std::find(spec.required.begin(), spec.required.end(), "prior") != spec.required.end();
  const bool wants_reference = std::find(spec.optional.begin(), spec.optional.end(), "reference") != spec.optional.end();
  MechanismOptions base;
  base.epsilon = epsilon;
  if (wants_prior) {
    base.prior = prior_of(k, epsilon < 20.0);
    base.gamma = 3.0;
  }
  out.push_back({base, "pure"});
  if (wants_reference) {
    MechanismOptions o = base;
    o.reference = prior_of(k, epsilon < 20.0);
    out.push_back({o, "pure, reference"});
  }
  if (wants_prior) {
    MechanismOptions o = base;
    o.gamma = 1e4;
    out.push_back({o, "pure, gamma 1e4"});
  }
  if (std::find(spec.optional.begin(), spec.optional.end(), "outsideNeighbourhood") != spec.optional.end()) {
    MechanismOptions o = base;  // γ = 3: the trivial regime from ε = 2 ln 3 on, where the projection's box is used
    o.outside_neighbourhood = "projection";
    out.push_back({o, "pure, outside the neighbourhood: projection"});
  }
  if (spec.notion == NotionRule::ldp_from_options) {
    for (const double delta : {1e-16, 1e-9, 1e-3, 0.3}) {
      MechanismOptions o = base;
      o.delta = delta;
      out.push_back({o, "delta " + format_value(delta)});
    }
    if (epsilon == 1.0) {
      for (const double mu : {0.05, 0.5, 2.0, 10.0, 50.0}) {
        MechanismOptions o = base;
        o.epsilon.reset();
        o.mu = mu;
        out.push_back({o, "mu " + format_value(mu)});
      }
    }
  }
  return out;
}

struct Coverage {
  std::size_t configurations = 0;
  std::size_t refused = 0;
  std::size_t plan_atoms = 0;
  std::size_t pairs = 0;
};

// The audits of one configuration's releases, counted in `coverage`; returns the plan's finding.
// 1. the plan: every input; 2. the searched pairs of released laws: no worse than the plan allows;
// 3. distribution()'s doubles, taken as exact numbers: within their rounding (a few ulps of each value) of the
//    guarantee; the released law is what carries it exactly. An output box built at the wrong ε (local-linear's
//    weight once gave ε + 1.4e-12) shows there.
AuditFinding audit_configuration(const std::vector<Release>& releases,
                                 const std::vector<std::vector<double>>& distributions,
                                 const std::vector<std::string>& labels, const Guarantee& g, Coverage& coverage) {
  ++coverage.configurations;
  const AuditFinding plan = audit_release_plan(releases.front().plan(), g);
  INFO("plan: " << plan.witness << ": worst " << plan.worst << " against " << plan.bound);
  CHECK(plan.holds());
  coverage.plan_atoms += plan.pairs;
  const AuditFinding pairs = audit_released_pairs(releases, g, labels);
  INFO("pairs: " << pairs.witness << ": worst " << pairs.worst << " against " << pairs.bound);
  CHECK(pairs.holds());
  CHECK(pairs.excess <= plan.excess + 1e-18 * std::max(1.0, std::fabs(plan.worst)));
  coverage.pairs += pairs.pairs;
  const AuditFinding shown = audit_distribution_pairs(distributions, g, labels);
  INFO("distribution(): " << shown.witness << ": worst " << shown.worst);
  if (g.notion == PrivacyNotion::pure_ldp) CHECK(shown.worst <= shown.bound + 1e-14);
  if (g.notion == PrivacyNotion::approximate_ldp) CHECK(shown.worst <= shown.bound + 1e-15);
  return plan;
}

}  // namespace

TEST_CASE("privacy audit: every plan-released mechanism of the registry holds its guarantee where it is weakest",
          "[privacy][audit]") {
  Coverage coverage;
  double worst_margin = std::numeric_limits<double>::infinity();
  std::string worst_where;
  for (const MechanismSpec& spec : mechanism_registry()) {
    if (spec.space != MechanismSpace::finite || spec.notion == NotionRule::record_level) continue;
    for (const double epsilon : {1e-6, 0.01, 0.1, 1.0, 5.0, 20.0, 50.0, 700.0, 1000.0}) {
      for (const std::size_t k : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{10}, std::size_t{300}}) {
        for (const Variant& variant : variants_of(spec, epsilon, k)) {
          const std::string where = std::string(spec.name) + " (" + variant.label + ") at epsilon = " +
                                    format_value(epsilon) + ", k = " + std::to_string(k);
          INFO(where);
          Mechanism mechanism = [&]() -> Mechanism {
            try {
              return make_finite_mechanism(spec.name, variant.options);
            } catch (const std::invalid_argument&) {
              return MinimaxSampler(0.0);  // refused by design (e.g. a prior entry whose floor would underflow)
            }
          }();
          if (std::holds_alternative<MinimaxSampler>(mechanism) && spec.name != "minimax") {
            ++coverage.refused;
            continue;
          }
          const Guarantee g = guarantee(mechanism);
          const std::vector<double> prior = variant.options.prior.value_or(std::vector<double>{});
          const std::vector<Case> inputs = adversarial_inputs(k, epsilon, prior, variant.options.gamma.value_or(1.0));
          std::vector<Release> releases;
          std::vector<std::string> labels;
          std::vector<std::vector<double>> distributions;
          for (const Case& c : inputs) {
            std::optional<Release> r = released_law(mechanism, c.hist);
            REQUIRE(r.has_value());
            releases.push_back(std::move(*r));
            labels.push_back(c.label);
            distributions.push_back(distribution(mechanism, c.hist));
          }
          const AuditFinding plan = audit_configuration(releases, distributions, labels, g, coverage);
          if (g.notion == PrivacyNotion::pure_ldp && plan.bound > 0.0 && -plan.excess / plan.bound < worst_margin) {
            worst_margin = -plan.excess / plan.bound;
            worst_where = where;
          }
        }
      }
    }
  }
  WARN("privacy audit coverage: " << coverage.configurations << " mechanism configurations (" << coverage.refused
                                  << " refused by design), " << coverage.plan_atoms << " plan atoms / beta points, "
                                  << coverage.pairs << " released pairs; smallest pure-LDP margin (relative to epsilon) "
                                  << worst_margin << " at " << worst_where);
  CHECK(coverage.configurations > 500);
}

TEST_CASE("privacy audit: the audit finds a plan whose floor mass is 1e-12 too small", "[privacy][audit]") {
  const double epsilon = 1.0;
  ReleasePlan plan = uniform_clip_release_plan(10, 1.0 / (std::exp(epsilon) + 9.0), epsilon);
  Guarantee g{PrivacyNotion::pure_ldp, epsilon};
  REQUIRE(audit_release_plan(plan, g).holds());
  // The floor mass 1e-12 below what the caps were computed for: the top law ends 1e-12 relative above e^ε.
  plan.share *= 1.0 - 1e-12;
  const AuditFinding broken = audit_release_plan(plan, g);
  CHECK_FALSE(broken.holds());
  CHECK(broken.worst > epsilon);
}

TEST_CASE("privacy audit: the old envelope draw's law breaks the bound the audit checks", "[privacy][audit]") {
  // The released law of an envelope draw is fl(q_x/top) normalised: its normalisation differs between inputs, so a
  // point mass's top and another input's floor can be e^ε apart by more than e^ε. The audit, given those laws as
  // exact numbers, must see it; this is why every finite sampler now releases through a plan.
  const double epsilon = 1.0;
  const std::size_t k = 3;
  const double floor = 1.0 / (std::exp(epsilon) + 2.0);
  const double top = std::exp(epsilon) * floor;
  // Laws ∝ fl(q/top): point mass (top, floor, floor) and (floor, top, floor), rounded as the envelope rounded them.
  auto envelope_law = [&](std::vector<double> q) {
    double total = 0.0;
    for (double& v : q) total += (v = v / top);
    for (double& v : q) v /= total;
    return q;
  };
  const std::vector<std::vector<double>> laws{envelope_law({top, floor, floor}), envelope_law({floor, top, floor})};
  const AuditFinding f = audit_distribution_pairs(laws, Guarantee{PrivacyNotion::pure_ldp, epsilon});
  INFO(f.witness << " " << f.worst - epsilon);
  CHECK(std::fabs(f.worst - epsilon) < 1e-15);  // within rounding: the audit measures at 1e-18, so it reports the sign
}

TEST_CASE("privacy audit: the Gaussian and approximate plan checks find a weight that is too large", "[privacy][audit]") {
  Guarantee approx{PrivacyNotion::approximate_ldp, 1.0, 1e-6};
  const std::size_t k = 10;
  // The largest λ for (ε, δ) on k categories: (e^ε − 1 + kδ)/(e^ε + k − 1); a plan a hair above it must fail.
  const double lambda = (std::expm1(1.0) + 10.0 * 1e-6) / (std::exp(1.0) + 9.0);
  CHECK(audit_release_plan(mixture_release_plan(lambda * (1 - 1e-9), PublicBase::uniform(k)), approx).holds());
  CHECK_FALSE(audit_release_plan(mixture_release_plan(lambda * (1 + 1e-9), PublicBase::uniform(k)), approx).holds());
  Guarantee gaussian{PrivacyNotion::gaussian_ldp, 0.0, 0.0, 1.0};
  const double mu_lambda = linear_weight(gaussian, 10.0);
  CHECK(audit_release_plan(mixture_release_plan(mu_lambda * (1 - 1e-9), PublicBase::uniform(k)), gaussian).holds());
  CHECK_FALSE(audit_release_plan(mixture_release_plan(mu_lambda * (1 + 1e-6), PublicBase::uniform(k)), gaussian).holds());
}

TEST_CASE("privacy audit: every continuous mechanism of the registry holds its guarantee on its cells", "[privacy][audit]") {
  Coverage coverage;
  std::size_t outside_class = 0;
  for (const MechanismSpec& spec : mechanism_registry()) {
    if (spec.space != MechanismSpace::continuous) continue;
    for (const double epsilon : {1e-6, 0.1, 1.0, 5.0, 50.0, 700.0}) {
      for (const std::size_t cells : {std::size_t{2}, std::size_t{40}, std::size_t{400}}) {
        // A Gaussian-like reference/prior on the cells, with tails far below the underflow limit at large ε.
        std::vector<double> h(cells);
        for (std::size_t i = 0; i < cells; ++i) {
          const double z = (static_cast<double>(i) - static_cast<double>(cells) / 2.0) / (static_cast<double>(cells) / 10.0);
          h[i] = std::exp(-0.5 * z * z);
        }
        std::vector<Variant> variants;
        MechanismOptions base;
        base.epsilon = epsilon;
        const auto wants = [&](std::string_view key) {
          return std::find(spec.required.begin(), spec.required.end(), key) != spec.required.end();
        };
        if (wants("reference")) {
          base.reference = h;
          base.c2 = 2.0 / std::accumulate(h.begin(), h.end(), 0.0);  // c2·Σh = 2
        }
        if (wants("prior")) {
          base.prior = h;
          base.gamma = 3.0;
        }
        variants.push_back({base, "pure"});
        if (std::find(spec.optional.begin(), spec.optional.end(), "outsideNeighbourhood") != spec.optional.end()) {
          MechanismOptions o = base;
          o.outside_neighbourhood = "projection";
          variants.push_back({o, "outside the neighbourhood: projection"});
        }
        if (spec.notion == NotionRule::ldp_from_options) {
          for (const double delta : {1e-12, 1e-3}) {
            MechanismOptions o = base;
            o.delta = delta;
            variants.push_back({o, "delta " + format_value(delta)});
          }
          if (epsilon == 1.0) {
            MechanismOptions o = base;
            o.epsilon.reset();
            o.mu = 1.0;
            variants.push_back({o, "mu 1"});
          }
        }
        for (const Variant& variant : variants) {
          const std::string where = "continuous " + std::string(spec.name) + " (" + variant.label +
                                    ") at epsilon = " + format_value(epsilon) + ", cells = " + std::to_string(cells);
          INFO(where);
          std::optional<Mechanism> mechanism;
          try {
            mechanism = make_continuous_mechanism(spec.name, variant.options);
          } catch (const std::invalid_argument&) {
            ++coverage.refused;
            continue;
          }
          const Guarantee g = guarantee(*mechanism);
          std::vector<Case> inputs = adversarial_inputs(cells, epsilon, h, 2.0);
          std::vector<Release> releases;
          std::vector<std::string> labels;
          std::vector<std::vector<double>> distributions;
          for (const Case& c : inputs) {
            try {
              releases.push_back(*released_law(*mechanism, c.hist));
              distributions.push_back(distribution(*mechanism, c.hist));
              labels.push_back(c.label);
            } catch (const std::invalid_argument& e) {
              // the linear samplers (and a trivial clip box) take densities of their class only; nothing else throws
              REQUIRE_THAT(e.what(), Catch::Contains("outside the class"));
              ++outside_class;
            }
          }
          if (releases.empty()) continue;
          (void)audit_configuration(releases, distributions, labels, g, coverage);
        }
      }
    }
  }
  WARN("continuous privacy audit coverage: " << coverage.configurations << " configurations (" << coverage.refused
                                             << " refused by design), " << coverage.plan_atoms << " plan cells / beta "
                                             << "points, " << coverage.pairs << " released pairs, " << outside_class
                                             << " inputs outside a class (refused)");
  CHECK(coverage.configurations > 100);
}

TEST_CASE("privacy audit: the record-level mechanisms hold ε-DP of every record on the law they draw from",
          "[privacy][audit]") {
  // ROO and DS-ROO release q/k + (1 − q)·c_y/n with q the table's double: dsroo_worst_log_ratio searches the complete,
  // analytic list of replace-one pairs (core/mechanisms/ds-roo/README.md#the-worst-pair) over every minimum count. ROO is the
  // constant table of its own q.
  std::size_t configurations = 0;
  std::size_t pairs = 0;
  double worst_ratio = 0.0;
  for (const double epsilon : {1e-3, 0.01, 0.1, 0.5, 1.0, 5.0, 50.0, 700.0}) {
    for (const std::size_t k : {std::size_t{2}, std::size_t{3}, std::size_t{10}, std::size_t{1000}}) {
      for (const std::size_t n : {std::size_t{1}, std::size_t{5}, std::size_t{99}, std::size_t{1000},
                                  std::size_t{99999}, std::size_t{1000000}}) {
        INFO("epsilon = " << epsilon << ", k = " << k << ", n = " << n);
        const DsRooSampler ds(epsilon, static_cast<double>(n));
        const std::vector<double> table = ds.obscure_table(k);
        const DsRooWorstPair w = dsroo_worst_log_ratio(table, n, k);
        INFO("ds-roo worst " << w.log_ratio << " at m = " << w.m << ", m~ = " << w.m_tilde << ", counts " << w.count
                             << " -> " << w.count_tilde);
        CHECK(w.log_ratio <= std::min(epsilon, 700.0));
        const RooSampler roo(epsilon, static_cast<double>(n));
        const std::vector<double> constant(n / k + 1, roo.obscure_probability(k));
        const DsRooWorstPair r = dsroo_worst_log_ratio(constant, n, k);
        CHECK(r.log_ratio <= std::min(epsilon, 700.0));
        configurations += 2;
        pairs += 2 * 14 * (n / k + 1);
        if (epsilon >= 0.01) worst_ratio = std::max(worst_ratio, std::max(w.log_ratio, r.log_ratio) / epsilon);
      }
    }
  }
  // The search finds the paper's defect: the table with only the top-index fix breaks ε at the audit's witness.
  const std::vector<double> old = dsroo_obscure_table_top_fix_only(0.01, 99999, 1000);
  CHECK(dsroo_worst_log_ratio(old, 99999, 1000).log_ratio > 3.3 * 0.01);
  WARN("record-level privacy audit: " << configurations << " configurations, ~" << pairs
                                      << " analytic pair families; largest log-ratio / epsilon " << worst_ratio);
}

// ---- frequency oracles ----------------------------------------------------------------------------------------------

TEST_CASE("privacy audit: every frequency oracle holds pure eps-LDP at its worst report, with no slack",
          "[privacy][audit][oracle]") {
  std::size_t configurations = 0;
  std::size_t witnesses = 0;
  double smallest_margin = std::numeric_limits<double>::infinity();
  std::string smallest_where;
  for (const MechanismSpec& spec : oracle_registry()) {
    for (const double epsilon : {0.0, 1e-6, 0.01, 0.1, 1.0, 4.0, 10.0, 20.0, 50.0, 100.0, 700.0, 1000.0}) {
      // k = 2, 3, and powers of two and their neighbours (Hadamard response's K)
      for (const std::size_t k : {2, 3, 4, 5, 7, 8, 9, 10, 255, 256, 257, 1023, 1024, 1025}) {
        MechanismOptions o;
        o.epsilon = epsilon;
        o.categories = static_cast<double>(k);
        const Oracle oracle = make_oracle(spec.name, o);
        const AuditFinding f = audit_oracle(oracle);
        INFO(spec.name << " at epsilon = " << epsilon << ", k = " << k << ": " << f.witness << ": worst " << f.worst
                       << " against " << f.bound);
        CHECK(f.holds());
        CHECK(f.pairs >= 5);  // the levels and at least four witness reports
        ++configurations;
        witnesses += f.pairs - 1;
        if (epsilon > 0.0 && -f.excess / f.bound < smallest_margin) {
          smallest_margin = -f.excess / f.bound;
          smallest_where = std::string(spec.name) + " at epsilon = " + format_value(epsilon) + ", k = " + std::to_string(k);
        }
      }
    }
  }
  WARN("oracle privacy audit: " << configurations << " configurations, " << witnesses
                                << " witness reports; smallest margin (relative to epsilon) " << smallest_margin << " at "
                                << smallest_where);
  CHECK(configurations == 4 * 12 * 14);
}

namespace {

// The largest log-ratio of report_probability over every report in `reports` and every ordered pair of items.
template <class O, class Report>
double exhaustive_log_ratio(const O& o, const std::vector<Report>& reports) {
  long double worst = 0.0L;
  for (const Report& r : reports) {
    long double top = 0.0L;
    long double bottom = std::numeric_limits<long double>::infinity();
    for (std::size_t v = 0; v < o.categories(); ++v) {
      const long double p = o.report_probability(r, v);
      top = std::max(top, p);
      bottom = std::min(bottom, p);
    }
    if (top == 0.0L) continue;
    worst = std::max(worst, bottom == 0.0L ? std::numeric_limits<long double>::infinity()
                                           : std::log1p((top - bottom) / bottom));
  }
  return static_cast<double>(worst);
}

std::vector<std::vector<std::uint8_t>> bitsets_of(std::size_t k, std::size_t weight) {
  std::vector<std::vector<std::uint8_t>> out;
  for (std::uint32_t m = 0; m < (1U << k); ++m) {
    if (weight != 0 && static_cast<std::size_t>(std::popcount(m)) != weight) continue;
    std::vector<std::uint8_t> bytes(bitset_bytes(k), 0);
    for (std::size_t i = 0; i < k; ++i) {
      if ((m >> i) & 1U) bytes[i >> 3] = static_cast<std::uint8_t>(bytes[i >> 3] | (0x80U >> (i & 7)));
    }
    out.push_back(bytes);
  }
  return out;
}

std::vector<std::uint64_t> integers_below(std::uint64_t n) {
  std::vector<std::uint64_t> out(n);
  for (std::uint64_t i = 0; i < n; ++i) out[i] = i;
  return out;
}

}  // namespace

TEST_CASE("privacy audit: over every report of small oracles, no pair of items is further apart than the audit says",
          "[privacy][audit][oracle]") {
  // The audit's worst case (the levels) against the exhaustive search over every report and ordered pair of items,
  // where the reports can be listed: they agree to extended precision, so the two-level structure is the law's.
  std::size_t searched = 0;
  for (const double epsilon : {1e-6, 0.5, 1.0, 3.0, 20.0}) {
    for (const std::size_t k : {std::size_t{2}, std::size_t{3}, std::size_t{5}, std::size_t{6}}) {
      INFO("epsilon = " << epsilon << ", k = " << k);
      const OueOracle oue(epsilon, k);
      const HadamardOracle hadamard(epsilon, k);
      const SubsetSelectionOracle subset(epsilon, k);
      const OlhOracle olh(epsilon, k);
      const auto check = [&](const auto& o, const auto& reports) {
        const double exhaustive = exhaustive_log_ratio(o, reports);
        const AuditFinding f = audit_oracle(Oracle(o));
        CHECK(exhaustive <= f.bound);
        CHECK(exhaustive == Approx(f.worst).epsilon(1e-12));
        searched += reports.size();
      };
      check(oue, bitsets_of(k, 0));
      check(hadamard, integers_below(hadamard.report_values()));
      check(subset, bitsets_of(k, subset.subset_size()));
      if (olh.report_values() <= 200000) check(olh, integers_below(olh.report_values()));
    }
  }
  WARN("oracle exhaustive search: " << searched << " reports, every ordered pair of items");
}

TEST_CASE("privacy audit: the oracle audit finds coins that break eps", "[privacy][audit][oracle]") {
  const Guarantee g{PrivacyNotion::pure_ldp, 1.0};
  // OUE with q one unit of 2^-32 below the rounded-up threshold: q < 1/(e + 1)
  const OueOracle oue(1.0, 10);
  CHECK(audit_oracle(Oracle(oue)).holds());
  const AuditFinding broken_oue =
      audit_oracle(Oracle(OueOracle(g, 10, {oue.coins().item_one, oue.coins().other_one - 1})));
  CHECK_FALSE(broken_oue.holds());
  CHECK(broken_oue.excess > 0.0);
  // Hadamard response's flip computed at eps·(1 + 1e-12) and rounded down: 1e-12 over
  const auto flip_at = [](double e) { return static_cast<std::uint64_t>(std::floor(std::ldexp(1.0 / (1.0 + std::exp(e)), 64))); };
  CHECK_FALSE(audit_oracle(Oracle(HadamardOracle(g, 10, {flip_at(1.0 * (1.0 + 1e-12))}))).holds());
  CHECK(audit_oracle(Oracle(HadamardOracle(g, 10, {flip_at(1.0 * (1.0 - 1e-12))}))).holds());
  // OLH's keep for g − 1 other values computed with g − 2: e^eps·(g − 1)/(g − 2)
  const OlhOracle olh(1.0, 10);
  const std::uint64_t g_range = olh.hash_range();
  const double wrong_share = static_cast<double>(g_range - 2) / (std::exp(1.0) + static_cast<double>(g_range - 2));
  CHECK_FALSE(audit_oracle(Oracle(OlhOracle(g, 10, g_range, olh.prime(), {0 - scaled_up(wrong_share, 64)}))).holds());
  CHECK(audit_oracle(Oracle(OlhOracle(g, 10, g_range, olh.prime(), olh.coins()))).holds());
  // subset selection's p_in for d items used with d − 1 (the ratio p_in(k − d)/((1 − p_in)d) grows as d falls)
  const SubsetSelectionOracle subset(1.0, 10);
  REQUIRE(subset.subset_size() >= 2);
  CHECK(audit_oracle(Oracle(SubsetSelectionOracle(g, 10, subset.subset_size(), subset.coins()))).holds());
  const AuditFinding broken_subset =
      audit_oracle(Oracle(SubsetSelectionOracle(g, 10, subset.subset_size() - 1, subset.coins())));
  CHECK_FALSE(broken_subset.holds());
  INFO(broken_subset.witness);
}
