// The local linear sampler (Ghoukasian et al. Thm 4.1): test vectors, privacy over adversarial pairs, rounding of λ.
// Reference values: core/mechanisms/local-linear/README.md, docs/experiments.md#ghoukasian-et-al.
#include "privsample.hpp"

#include <catch2/catch.hpp>

#include "mechanisms/functional_ldp_test_support.hpp"

using namespace privsample;
using namespace privsample::functional_ldp_test;

// ---- privacy profiles and λ_T(g) -------------------------------------------------------------------------

namespace {

// The inputs that reach the local linear mixture's extremes, for a prior of a few categories: p0 restricted to each
// non-empty set A (2^k − 1 inputs). Its projection puts P̂ at the top γ·p0 on A when p0(A) <= 1/(γ+1) (Case B), and
// the input on the complement of A puts P̂ at its floor p0/γ on A (Case A) — the worst pair of the divergence bound
// (linear_samplers.cpp, local_mixture_exceeds), reached exactly when p0(A) = 1/(γ+1).
std::vector<std::vector<double>> local_extreme_inputs(const std::vector<double>& p0) {
  std::vector<std::vector<double>> inputs;
  for (std::size_t set = 1; set < (std::size_t{1} << p0.size()); ++set) {
    std::vector<double> p(p0.size(), 0.0);
    for (std::size_t x = 0; x < p0.size(); ++x) {
      if ((set >> x) & 1U) p[x] = p0[x];
    }
    inputs.push_back(p);
  }
  return inputs;
}

// Every ordered pair of the outputs against the notion, with no slack: pure, each category's largest output within
// e^ε of its smallest (within_ratio); (ε,δ), the hockey-stick of every pair <= δ (hockey_stick_within); μ-GDP, the
// same against δ_μ(β) (itself computed in doubles) on a few β. Returns the number of failing checks.
std::size_t local_privacy_failures(const LocalLinearSampler& s, const Guarantee& g,
                                   const std::vector<std::vector<double>>& inputs) {
  std::vector<std::vector<double>> outputs;
  for (const auto& p : inputs) outputs.push_back(s.distribution(p));
  std::size_t failures = 0;
  if (g.notion == PrivacyNotion::pure_ldp) {
    for (std::size_t x = 0; x < outputs.front().size(); ++x) {
      double low = 2.0;
      double high = 0.0;
      for (const auto& q : outputs) {
        low = std::min(low, q[x]);
        high = std::max(high, q[x]);
      }
      if (!privsample_test::within_ratio(high, low, g.epsilon)) ++failures;
    }
    return failures;
  }
  std::vector<std::pair<double, double>> points;  // (β, allowed divergence)
  if (g.notion == PrivacyNotion::approximate_ldp) {
    points.emplace_back(g.epsilon, g.delta);
  } else {
    for (const double beta : {0.0, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0}) {
      points.emplace_back(beta, privacy_profile(g, beta));
    }
  }
  for (const auto& a : outputs) {
    for (const auto& b : outputs) {
      for (const auto& [beta, allowed] : points) {
        if (!privsample_test::hockey_stick_within(a, b, beta, allowed)) ++failures;
      }
    }
  }
  return failures;
}

}  // namespace

TEST_CASE("functional-LDP: test vectors, local-linear and global-linear columns (core/mechanisms/local-linear/README.md)", "[functional_ldp]") {
  const std::vector<double> p0 = {0.4, 0.3, 0.2, 0.1};
  const LocalLinearSampler local(pure(1.0), p0, 3.0);
  check_printed(local.lambda(), 0.450734, 6);
  const LocalClipSampler clip(1.0, p0, 3.0);
  struct Vector {
    std::vector<double> p, projection, q;
    bool equals_clip;
  };
  const Vector vectors[] = {
      {{0.7, 0.1, 0.1, 0.1}, {0.7, 0.1, 0.1, 0.1}, {0.535220, 0.209853, 0.154927, 0.1}, false},
      {{1, 0, 0, 0}, {0.8, 0.1, 0.066667, 0.033333}, {0.580294, 0.209853, 0.139902, 0.069951}, true},
      {{0, 0, 0, 1}, {0.311111, 0.233333, 0.155556, 0.3}, {0.359935, 0.269951, 0.179967, 0.190147}, true},  // Case B
      {{0, 0.5, 0.5, 0}, {0.133333, 0.416667, 0.416667, 0.033333}, {0.279804, 0.352586, 0.297659, 0.069951}, false},
      {p0, p0, p0, false},
  };
  for (const Vector& v : vectors) {
    INFO("P = (" << v.p[0] << ", " << v.p[1] << ", " << v.p[2] << ", " << v.p[3] << ")");
    const std::vector<double> projection = local.projection(v.p);
    const std::vector<double> q = local.distribution(v.p);
    CHECK(total(projection) == Approx(1.0).epsilon(1e-14));
    CHECK(total(q) == Approx(1.0).epsilon(1e-14));
    for (std::size_t x = 0; x < 4; ++x) {
      check_printed(projection[x], v.projection[x], 6);
      check_printed(q[x], v.q[x], 6);
      CHECK(projection[x] >= p0[x] / 3.0 * (1.0 - 1e-15));
      CHECK(projection[x] <= p0[x] * 3.0 * (1.0 + 1e-15));
    }
    if (v.equals_clip) {
      const std::vector<double> c = clip.distribution(v.p);
      for (std::size_t x = 0; x < 4; ++x) CHECK(q[x] == Approx(c[x]).epsilon(1e-12));
    }
  }
  // counts give the same result as probabilities
  const std::vector<double> from_counts = local.distribution(std::vector<double>{7, 1, 1, 1});
  const std::vector<double> from_probabilities = local.distribution(std::vector<double>{0.7, 0.1, 0.1, 0.1});
  for (std::size_t x = 0; x < 4; ++x) CHECK(from_counts[x] == Approx(from_probabilities[x]).epsilon(1e-15));

  const LinearSampler global(pure(1.0));
  check_printed(global.lambda(4), 0.300489, 6);
  const std::vector<double> g1 = global.distribution(std::vector<double>{0.7, 0.1, 0.1, 0.1});
  const std::vector<double> g2 = global.distribution(std::vector<double>{0, 0, 0, 1});
  const double expected1[] = {0.385220, 0.204927, 0.204927, 0.204927};
  const double expected2[] = {0.174878, 0.174878, 0.174878, 0.475367};
  for (std::size_t x = 0; x < 4; ++x) {
    check_printed(g1[x], expected1[x], 6);
    check_printed(g2[x], expected2[x], 6);
  }
  CHECK(total(g1) == Approx(1.0).epsilon(1e-14));
}

// ---- privacy over adversarial families ------------------------------------------------------------------

TEST_CASE("functional-LDP: privacy of the local linear sampler over adversarial pairs", "[functional_ldp][privacy]") {
  std::size_t pairs = 0;
  for (double gamma : {2.0, 3.0, 7.5}) {
    const std::vector<std::vector<double>> inputs = adversarial_inputs(kPrior6, gamma, 7);
    for (const Guarantee& g : {pure(0.1), pure(1.0), pure(3.0), approx(0.5, 0.05), approx(1.5, 0.2), approx(0.0, 0.3),
                               gauss(0.3), gauss(1.0), gauss(2.5)}) {
      INFO("gamma = " << gamma << ", notion " << notion_name(g.notion) << " eps " << g.epsilon << " delta " << g.delta
                      << " mu " << g.mu);
      const LocalLinearSampler s(g, kPrior6, gamma);
      const PrivacyReport report = check_privacy(s, g, inputs);
      pairs += report.pairs;
      if (g.notion == PrivacyNotion::pure_ldp && s.lambda() < 1.0) {
        // tight: a Case-B point mass (P̂ = γ·p0 on a small atom) against a Case-A one (P̂ = p0/γ there)
        CHECK(report.worst_ratio == Approx(std::exp(g.epsilon)).epsilon(1e-12));
      }
    }
  }
  // non-integer γ, tiny prior atoms and a larger k
  std::vector<double> skewed(12);
  double mass = 0.0;
  for (std::size_t x = 0; x < skewed.size(); ++x) mass += (skewed[x] = std::pow(0.35, static_cast<double>(x)));
  for (double& v : skewed) v /= mass;
  for (const Guarantee& g : {pure(0.7), approx(0.4, 0.02), gauss(0.8)}) {
    const LocalLinearSampler s(g, skewed, 4.3);
    pairs += check_privacy(s, g, adversarial_inputs(skewed, 4.3, 99)).pairs;
  }
  CHECK(pairs > 20000);
}

TEST_CASE("functional-LDP: without the projection the local linear map is not private", "[functional_ldp][privacy]") {
  // λ_loc·P + (1−λ_loc)·P0 for a sparse P: the ratio on an atom with small p0 is (λ + (1−λ)p0)/((1−λ)p0).
  const double gamma = 3.0;
  for (const Guarantee& g : {pure(1.0), approx(1.0, 0.05), gauss(1.0)}) {
    const LocalLinearSampler s(g, kPrior6, gamma);
    const double lambda = s.lambda();
    auto unprojected = [&](const std::vector<double>& p) {
      std::vector<double> q(p.size());
      for (std::size_t x = 0; x < p.size(); ++x) q[x] = lambda * p[x] + (1.0 - lambda) * kPrior6[x];
      return q;
    };
    const std::vector<double> sparse = point_mass(6, 5);  // p0 = 0.03
    const std::vector<double> other = point_mass(6, 0);
    const std::vector<double> naive1 = unprojected(sparse);
    const std::vector<double> naive2 = unprojected(other);
    const std::vector<double> real1 = s.distribution(sparse);
    const std::vector<double> real2 = s.distribution(other);
    INFO("notion " << notion_name(g.notion));
    switch (g.notion) {
      case PrivacyNotion::pure_ldp:
        CHECK(max_ratio(naive1, naive2) > 10.0 * std::exp(g.epsilon));
        CHECK(max_ratio(real1, real2) <= std::exp(g.epsilon) * (1.0 + 1e-12));
        break;
      case PrivacyNotion::approximate_ldp:
        CHECK(hockey_stick_divergence(naive1, naive2, g.epsilon) > 2.0 * g.delta);
        CHECK(hockey_stick_divergence(real1, real2, g.epsilon) <= g.delta * (1.0 + 1e-12) + 1e-15);
        break;
      default: {
        double worst_naive = -1.0;
        double worst_real = -1.0;
        for (int i = 0; i <= 40; ++i) {
          const double beta = 0.25 * i;
          worst_naive = std::max(worst_naive, hockey_stick_divergence(naive1, naive2, beta) - privacy_profile(g, beta));
          worst_real = std::max(worst_real, hockey_stick_divergence(real1, real2, beta) - privacy_profile(g, beta));
        }
        CHECK(worst_naive > 0.05);
        CHECK(worst_real <= 1e-12);
      }
    }
  }
}

// ---- risk: the bound holds in the class and is attained ---------------------------------------------------

TEST_CASE("local-linear: the audit's witness keeps every ratio within e^eps for the doubles",
          "[functional_ldp][privacy]") {
  // λ from the closed form was a few ulps high; with λ ≈ 1 − 1.5e-4 the output box's floor λ/γ + 1 − λ is 2e-4, so the
  // box (built at ln(high/low), not at ε) let two outputs differ by e^ε·(1 + 1.4e-12).
  const std::vector<double> prior{0.5, 3.482448517969051e-5, 0.5};
  const double gamma = 14357.714045736931;
  const Guarantee g = pure(18.015364997914965);
  const LocalLinearSampler s(g, prior, gamma);
  CHECK(local_privacy_failures(s, g, local_extreme_inputs(prior)) == 0);
  const std::vector<double> top = s.distribution(point_mass(3, 1));
  const std::vector<double> bottom = s.distribution(point_mass(3, 0));
  CHECK(privsample_test::within_ratio(top[1], bottom[1], g.epsilon));
  CHECK(top[1] / bottom[1] == Approx(std::exp(g.epsilon)).epsilon(1e-9));  // and still tight
}

TEST_CASE("local-linear: a lambda scan keeps the worst pair within e^eps / delta / the GDP profile, no slack",
          "[functional_ldp][privacy]") {
  std::size_t samplers = 0;
  std::size_t refused = 0;
  std::size_t failures = 0;
  for (const double gamma : {1.001, 2.0, 7.5, 100.0, 14357.714045736931, 1e6, 1e12}) {
    const double kink = 1.0 / (gamma + 1.0);
    const std::vector<std::vector<double>> priors{
        {0.5, 0.5 / gamma, 0.5},                                // the witness's shape: γ·p0 = 0.5 on the small atom
        {kink, 0.3 * (1.0 - kink), 0.7 * (1.0 - kink)},         // a set of mass 1/(γ+1): the worst set for (ε,δ)
        {1e-200, 0.3, 0.7},                                     // tiny entries (refused where the floor underflows)
        {1e-12, 2e-12, 0.4, 0.6 - 3e-12},
        {0.25, 0.25, 0.25, 0.25}};
    for (const auto& prior : priors) {
      const std::vector<std::vector<double>> inputs = local_extreme_inputs(prior);
      for (const double epsilon : {1e-6, 0.1, 1.0, 5.0, 18.015364997914965, 30.0, 53.0, 100.0, 300.0, 700.0}) {
        for (const Guarantee& g :
             {pure(epsilon), approx(epsilon, 1e-15), approx(epsilon, 1e-9), approx(epsilon, 1e-3)}) {
          INFO("gamma = " << gamma << ", eps = " << epsilon << ", delta = " << g.delta << ", prior[0] = " << prior[0]);
          try {
            const LocalLinearSampler s(g, prior, gamma);
            const std::size_t failed = local_privacy_failures(s, g, inputs);
            CHECK(failed == 0);
            failures += failed;
            ++samplers;
          } catch (const std::invalid_argument&) {
            ++refused;
          }
        }
      }
      for (const double mu : {0.01, 0.5, 2.0, 8.0, 37.0}) {
        INFO("gamma = " << gamma << ", mu = " << mu << ", prior[0] = " << prior[0]);
        try {
          const LocalLinearSampler s(gauss(mu), prior, gamma);
          const std::size_t failed = local_privacy_failures(s, gauss(mu), inputs);
          CHECK(failed == 0);
          failures += failed;
          ++samplers;
        } catch (const std::invalid_argument&) {
          ++refused;
        }
      }
    }
  }
  // and 400 random (ε, γ), log-uniform over ε ∈ [1e-3, 700] and γ ∈ [1.001, 1e12], on the witness's shape
  std::mt19937_64 rng(18);
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  for (int trial = 0; trial < 400; ++trial) {
    const double epsilon = std::exp(std::log(1e-3) + u01(rng) * (std::log(700.0) - std::log(1e-3)));
    const double gamma = std::exp(std::log(1.001) + u01(rng) * (std::log(1e12) - std::log(1.001)));
    const std::vector<double> prior{0.5, 0.5 / gamma, 0.5};
    for (const Guarantee& g : {pure(epsilon), approx(epsilon, 1e-9)}) {
      INFO("gamma = " << gamma << ", eps = " << epsilon << ", delta = " << g.delta);
      const LocalLinearSampler s(g, prior, gamma);
      const std::size_t failed = local_privacy_failures(s, g, local_extreme_inputs(prior));
      CHECK(failed == 0);
      failures += failed;
      ++samplers;
    }
  }
  CHECK(failures == 0);
  CHECK(samplers > 2000);
  CHECK(refused < samplers / 5);
}

TEST_CASE("local-linear: a refused prior entry is reported at the user's parameters", "[functional_ldp]") {
  using Catch::Matchers::Contains;
  using Catch::Matchers::Matches;
  // the box used to be built at ln(high/low), and the message said "at epsilon = 50.00000012648048"
  CHECK_THROWS_WITH(LocalLinearSampler(pure(50.0), {1e-300, 0.5, 0.5}, 1e12),
                    Matches("prior\\[0\\] = 1e-300 \\(as a share of the total\\): at epsilon = 50 the sampler's "
                            "floor.*at this epsilon.*"));
  CHECK_THROWS_WITH(LocalLinearSampler(approx(50.0, 1e-9), {1e-300, 0.5, 0.5}, 1e12),
                    Contains("at epsilon = 50, delta = 1e-9 the sampler's floor") &&
                        Contains("at these parameters (or use a smaller epsilon or delta)"));
  CHECK_THROWS_WITH(LocalLinearSampler(gauss(30.0), {1e-300, 0.5, 0.5}, 1e12),
                    Contains("at mu = 30 the sampler's floor") && Contains("(or use a smaller mu)"));
}

TEST_CASE("local-linear: a prior entry whose projection floor p0/gamma is below 2^-960 is refused, naming what works",
          "[functional_ldp]") {
  using Catch::Matchers::Contains;
  // The output box's floor (λ/γ + 1 − λ)·p0 passed, but the projection's floor p0/γ was ~2^-1000 at γ = 1e12: its
  // subnormal rounding errors made a release's time say whether the user had mass on such entries.
  const double least = 0x1p-960 * 1e12;
  for (const Guarantee& g : {pure(1.0), approx(1.0, 1e-6), gauss(1.0), pure(1e-12)}) {
    CHECK_THROWS_WITH(LocalLinearSampler(g, {1e-280, 0.5, 0.5}, 1e12),
                      Contains("prior[0] = 1e-280 (as a share of the total): at gamma = 1000000000000 the "
                               "neighbourhood's floor") &&
                          Contains("is below 2^-960") && Contains("(or use a smaller gamma)"));
    CHECK_THROWS_WITH(LocalLinearSampler(g, {std::nextafter(least, 0.0), 0.5, 0.5}, 1e12),
                      Contains("entries of prior must be at least 1.026134200324594e-277 of the total at this gamma"));
    CHECK_NOTHROW(LocalLinearSampler(g, {least, 0.5, 0.5}, 1e12));
    CHECK_NOTHROW(LocalLinearSampler(g, {1e-280, 0.5, 0.5}, 1e3));
  }
}
