// The linear samplers (Park's pure one, k-RR, the global functional-LDP one of Ghoukasian et al. Thm 3.5).
// Reference values: core/mechanisms/linear/README.md, docs/experiments.md#ghoukasian-et-al., the figures' worst-case
// risks in tests/golden/functional-ldp.json.
#include "privsample.hpp"

#include <catch2/catch.hpp>

#include "golden.hpp"
#include "mechanisms/functional_ldp_test_support.hpp"

using namespace privsample;
using namespace privsample::functional_ldp_test;

namespace {
// A table of tests/golden/functional-ldp.json: its rows of numbers (the figures' k, budget and printed risks).
std::vector<std::vector<double>> golden_rows(const char* key) {
  return privsample_test::read_golden("functional-ldp.json")[key].get<std::vector<std::vector<double>>>();
}
}  // namespace

// ---- privacy profiles and λ_T(g) -------------------------------------------------------------------------

TEST_CASE("functional-LDP: trivial regime clamps lambda to 1 and the risk to 0", "[functional_ldp]") {
  const std::vector<double> inside = {0.3, 0.2, 0.25, 0.15, 0.05, 0.05};  // ratios to kPrior6 within [1/2, 2]
  SECTION("pure, e^eps >= gamma^2") {
    const LocalLinearSampler s(pure(2.0 * std::log(3.0) + 1e-9), kPrior6, 3.0);
    CHECK(s.lambda() == 1.0);
    CHECK(s.worst_case_risk(NamedDivergence::kl, 6) == 0.0);
    const LocalLinearSampler edge(pure(1.5), kPrior6, 2.0);  // e^1.5 = 4.48 > 4
    CHECK(edge.lambda() == 1.0);
    const std::vector<double> q = edge.distribution(inside);
    for (std::size_t x = 0; x < q.size(); ++x) CHECK(q[x] == Approx(inside[x]).epsilon(1e-14));
    CHECK(edge.worst_case_risk(NamedDivergence::chi2, 6) == 0.0);
  }
  SECTION("(eps,delta), delta above (gamma^2 - e^eps)/(gamma(gamma+1))") {
    const double gamma = 2.0;
    const double threshold = (gamma * gamma - std::exp(1.0)) / (gamma * (gamma + 1.0));
    CHECK(gamma / (gamma - 1.0) * linear_weight(approx(1.0, threshold + 0.01), gamma + 1.0) > 1.0);
    const LocalLinearSampler s(approx(1.0, threshold + 0.01), kPrior6, gamma);
    CHECK(s.lambda() == 1.0);
    CHECK(s.worst_case_risk(NamedDivergence::tv, 6) == 0.0);
    const LocalLinearSampler below(approx(1.0, threshold - 0.01), kPrior6, gamma);
    CHECK(below.lambda() < 1.0);
    CHECK(below.worst_case_risk(NamedDivergence::tv, 6) > 0.0);
  }
  SECTION("Gaussian, mu = 1.5 and gamma = 2 (spec 4.6: the unclamped weight is 1.0633)") {
    check_printed(2.0 * linear_weight(gauss(1.5), 3.0), 1.0633, 4);
    const LocalLinearSampler s(gauss(1.5), kPrior6, 2.0);
    CHECK(s.lambda() == 1.0);
    CHECK(s.worst_case_risk(NamedDivergence::hellinger, 6) == 0.0);
    const std::vector<double> q = s.distribution(inside);
    for (std::size_t x = 0; x < q.size(); ++x) CHECK(q[x] == Approx(inside[x]).epsilon(1e-14));
  }
  SECTION("global finite is never trivial") {
    for (const Guarantee& g : {pure(5.0), approx(3.0, 0.5), gauss(5.0)}) {
      const LinearSampler s(g);
      CHECK(s.lambda(3) < 1.0);
      CHECK(s.worst_case_risk(NamedDivergence::tv, 3) > 0.0);
    }
    CHECK(LinearSampler(pure(1.0)).worst_case_risk(NamedDivergence::kl, 1) == 0.0);  // k = 1
  }
}

TEST_CASE("functional-LDP: GDP worst-case risks, Figs 7-9 (docs/experiments.md)", "[functional_ldp]") {
  struct Row {
    std::size_t k;
    double nu, lambda_global, lambda_local, kl_g, kl_l, tv_g, tv_l, hel_g, hel_l;
  };
  std::vector<Row> rows;
  for (const auto& r : golden_rows("gaussian")) {
    REQUIRE(r.size() == 10);
    rows.push_back({static_cast<std::size_t>(r[0]), r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9]});
  }
  REQUIRE(rows.size() == 12);
  for (const Row& row : rows) {
    INFO("k = " << row.k << ", nu = " << row.nu);
    const LinearSampler global(gauss(row.nu));
    const LocalLinearSampler local(gauss(row.nu), uniform(row.k), static_cast<double>(row.k) / 2.0 - 1.0);
    check_printed(global.lambda(row.k), row.lambda_global, 6);
    check_printed(local.lambda(), row.lambda_local, 6);
    check_printed(global.worst_case_risk(NamedDivergence::kl, row.k), row.kl_g, 6);
    check_printed(local.worst_case_risk(NamedDivergence::kl, row.k), row.kl_l, 6);
    check_printed(global.worst_case_risk(NamedDivergence::tv, row.k), row.tv_g, 6);
    check_printed(local.worst_case_risk(NamedDivergence::tv, row.k), row.tv_l, 6);
    check_printed(global.worst_case_risk(NamedDivergence::hellinger, row.k), row.hel_g, 6);
    check_printed(local.worst_case_risk(NamedDivergence::hellinger, row.k), row.hel_l, 6);
  }
}

TEST_CASE("functional-LDP: pure worst-case risks, Figs 3, 5, 6 (docs/experiments.md) via the linear samplers",
          "[functional_ldp]") {
  struct Row {
    std::size_t k;
    double eps, kl_g, kl_l, tv_g, tv_l, hel_g, hel_l;
  };
  std::vector<Row> rows;
  for (const auto& r : golden_rows("pure")) {
    REQUIRE(r.size() == 8);
    rows.push_back({static_cast<std::size_t>(r[0]), r[1], r[2], r[3], r[4], r[5], r[6], r[7]});
  }
  REQUIRE(rows.size() == 12);
  for (const Row& row : rows) {
    INFO("k = " << row.k << ", eps = " << row.eps);
    const double gamma = static_cast<double>(row.k) / 2.0 - 1.0;
    const LinearSampler global(pure(row.eps));
    const LocalLinearSampler local(pure(row.eps), uniform(row.k), gamma);
    const LocalClipSampler clip(row.eps, uniform(row.k), gamma);
    const NamedDivergence fs[] = {NamedDivergence::kl, NamedDivergence::tv, NamedDivergence::hellinger};
    const double global_values[] = {row.kl_g, row.tv_g, row.hel_g};
    const double local_values[] = {row.kl_l, row.tv_l, row.hel_l};
    for (int i = 0; i < 3; ++i) {
      check_printed(global.worst_case_risk(fs[i], row.k), global_values[i], 6);
      check_printed(local.worst_case_risk(fs[i], row.k), local_values[i], 6);
      // the pure local linear risk equals the local clip risk; the global linear risk equals Park's
      CHECK(local.worst_case_risk(fs[i], row.k) == Approx(clip.worst_case_risk(fs[i], row.k)).epsilon(1e-12));
      CHECK(global.worst_case_risk(fs[i], row.k) == Approx(finite_minimax_risk(fs[i], row.k, row.eps)).epsilon(1e-12));
    }
  }
}

TEST_CASE("functional-LDP: privacy of the global linear sampler over adversarial pairs", "[functional_ldp][privacy]") {
  std::size_t pairs = 0;
  for (std::size_t k : {2, 3, 7}) {
    const std::vector<std::vector<double>> inputs = adversarial_inputs(uniform(k), 0.0, 11 + k);
    for (const Guarantee& g : {pure(0.1), pure(1.0), pure(4.0), approx(0.5, 0.05), approx(1.5, 0.2), approx(0.0, 0.3),
                               gauss(0.3), gauss(1.0), gauss(2.5)}) {
      INFO("k = " << k << ", notion " << notion_name(g.notion) << " eps " << g.epsilon << " delta " << g.delta << " mu "
                  << g.mu);
      const LinearSampler s(g);
      const PrivacyReport report = check_privacy(s, g, inputs);
      pairs += report.pairs;
      if (g.notion == PrivacyNotion::pure_ldp) CHECK(report.worst_ratio == Approx(std::exp(g.epsilon)).epsilon(1e-12));
      // tight: two point masses attain the profile at the minimiser β* (so the check above can fail)
      const LinearWeight w = solve_linear_weight(g, static_cast<double>(k));
      const double attained =
          hockey_stick_divergence(s.distribution(point_mass(k, 0)), s.distribution(point_mass(k, k - 1)), w.beta);
      CHECK(attained == Approx(privacy_profile(g, w.beta)).margin(1e-10).epsilon(0));
    }
  }
  CHECK(pairs > 10000);
}

TEST_CASE("functional-LDP: sample() draws from distribution()", "[functional_ldp]") {
  SeededRandom bits(12345);
  const LocalLinearSampler local(gauss(1.0), kPrior6, 3.0);
  const LinearSampler global(approx(1.0, 0.05));
  const std::vector<double> p = {0, 0, 5, 0, 0, 1};
  for (int which = 0; which < 2; ++which) {
    const std::vector<double> q = which == 0 ? local.distribution(p) : global.distribution(p);
    std::vector<double> counts(6, 0.0);
    const int n = 40000;
    for (int i = 0; i < n; ++i) counts[which == 0 ? local.sample(p, bits) : global.sample(p, bits)] += 1.0;
    for (std::size_t x = 0; x < 6; ++x) {
      const double sd = std::sqrt(n * q[x] * (1.0 - q[x]));
      CHECK(std::fabs(counts[x] - n * q[x]) <= 5.0 * sd + 1.0);
    }
  }
}

TEST_CASE("linear (eps, delta): the hockey-stick of point masses is <= delta in extended precision", "[functional-ldp]") {
  // The audit found 1.00000000025e-6 > 1e-6 at eps = 20, delta = 1e-6: lambda is now rounded toward delta. Checked for
  // distribution()'s values and for the released law (coin lambda, else uniform), over a grid of eps (to the 700 cap),
  // delta (down to 1e-15) and k, with e^eps in x87 extended precision (the sampler rounds it down in doubles).
  std::size_t checked = 0;
  for (const double epsilon : {0.01, 0.1, 1.0, 5.0, 20.0, 50.0, 300.0, 700.0}) {
    for (const double delta : {1e-15, 1e-12, 1e-9, 1e-6, 1e-3, 0.1, 0.5}) {
      for (const std::size_t k : {std::size_t{2}, std::size_t{3}, std::size_t{10}, std::size_t{1000}, std::size_t{100000}}) {
        const LinearSampler s({PrivacyNotion::approximate_ldp, epsilon, delta, 0.0, 0.0});
        std::vector<double> a(k, 0.0), b(k, 0.0);
        a[0] = 1.0;
        b[k - 1] = 1.0;
        const std::vector<double> qa = s.distribution(a);
        const std::vector<double> qb = s.distribution(b);
        const long double growth = std::exp(static_cast<long double>(epsilon));
        long double hockey = 0.0L;
        for (std::size_t y = 0; y < k; ++y) hockey += std::max(0.0L, static_cast<long double>(qa[y]) - growth * qb[y]);
        const long double l = s.lambda(k);
        const long double released = std::max(0.0L, l + (1.0L - l) * (1.0L - growth) / static_cast<long double>(k));
        INFO("eps = " << epsilon << " delta = " << delta << " k = " << k << " hockey-stick " << static_cast<double>(hockey)
                      << " released " << static_cast<double>(released));
        CHECK(hockey <= static_cast<long double>(delta));
        CHECK(released <= static_cast<long double>(delta));
        ++checked;
      }
    }
  }
  CHECK(checked == 280);
}

