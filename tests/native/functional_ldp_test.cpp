// Functional LDP (privacy/functional_ldp.hpp): privacy profiles, λ_T(g), worst-case risks of the figures.
// Reference values: docs/notions.md, docs/experiments.md#ghoukasian-et-al.
#include "privsample.hpp"

#include <catch2/catch.hpp>

#include "mechanisms/functional_ldp_test_support.hpp"

using namespace privsample;
using namespace privsample::functional_ldp_test;

// ---- privacy profiles and λ_T(g) -------------------------------------------------------------------------

TEST_CASE("functional-LDP: privacy profiles (docs/notions.md)", "[functional_ldp]") {
  check_printed(privacy_profile(gauss(1.0), 0.0), 0.38292492, 8);
  check_printed(privacy_profile(gauss(1.0), 1.0), 0.12693674, 8);
  check_printed(privacy_profile(gauss(2.0), 1.0), 0.50986166, 8);
  check_printed(privacy_profile(gauss(0.5), 0.3), 0.09635282, 8);
  // δ_μ(0) = 2Φ(μ/2) − 1, and the complement is computed without cancellation
  for (double mu : {0.1, 1.0, 3.0, 10.0}) {
    CHECK(privacy_profile(gauss(mu), 0.0) == Approx(std::erf(mu / (2.0 * std::sqrt(2.0)))).epsilon(1e-14));
    for (double beta : {0.0, 0.3, 2.0, 20.0, 300.0}) {
      CHECK(privacy_profile(gauss(mu), beta) + privacy_profile_complement(gauss(mu), beta) ==
            Approx(1.0).epsilon(1e-14));
    }
    CHECK(privacy_profile(gauss(mu), std::numeric_limits<double>::infinity()) == 0.0);
  }
  // δ_μ is decreasing in β, and tiny tails do not go negative
  double previous = 2.0;
  for (double beta = 0.0; beta <= 60.0; beta += 0.5) {
    const double d = privacy_profile(gauss(1.5), beta);
    CHECK(d <= previous);
    CHECK(d >= 0.0);
    previous = d;
  }
  // pure: (e^ε − e^β)/(e^ε + 1) below ε, 0 above; (ε,δ): δ + (1−δ)× that
  CHECK(privacy_profile(pure(1.0), 0.0) == Approx((std::exp(1.0) - 1.0) / (std::exp(1.0) + 1.0)).epsilon(1e-15));
  CHECK(privacy_profile(pure(1.0), 0.5) ==
        Approx((std::exp(1.0) - std::exp(0.5)) / (std::exp(1.0) + 1.0)).epsilon(1e-15));
  CHECK(privacy_profile(pure(1.0), 1.0) == 0.0);
  CHECK(privacy_profile(pure(1.0), 7.0) == 0.0);
  CHECK(privacy_profile(approx(1.0, 0.1), 0.5) ==
        Approx(1.0 - 0.9 * (std::exp(0.5) + 1.0) / (std::exp(1.0) + 1.0)).epsilon(1e-15));
  CHECK(privacy_profile(approx(1.0, 0.1), 2.0) == 0.1);
  CHECK(privacy_profile(approx(1.0, 0.1), std::numeric_limits<double>::infinity()) == 0.1);
  // ε = 1000 without overflow
  CHECK(privacy_profile(pure(1000.0), 0.0) == 1.0);
  CHECK(privacy_profile(pure(1000.0), 999.0) == Approx(-std::expm1(-1.0)).epsilon(1e-15));
  CHECK(std::isfinite(privacy_profile_complement(approx(1000.0, 0.2), 500.0)));
  // Φ and log Φ in both tails
  CHECK(log_normal_cdf(-40.0) == Approx(-804.608442013753788).epsilon(1e-15));
  CHECK(log_normal_cdf(-37.5) == Approx(-707.668989317507191).epsilon(1e-15));
  CHECK(log_normal_cdf(-200.0) == Approx(-20006.2172808981904).epsilon(1e-15));
  CHECK(log_normal_cdf(-30.0) == Approx(-454.321243956343197).epsilon(1e-15));
  CHECK(normal_cdf(-30.0) == Approx(4.90671392714818706e-198).epsilon(1e-14));
  CHECK(log_normal_cdf(10.0) == Approx(-7.61985302416052606e-24).epsilon(1e-14));
  CHECK(normal_cdf(-1.0) == Approx(0.15865525393145705).epsilon(1e-15));
}

TEST_CASE("functional-LDP: lambda_T(G_nu) table (core/mechanisms/linear/README.md)", "[functional_ldp]") {
  struct Row {
    double T, nu, lambda, beta;
  };
  const Row rows[] = {
      {2, 0.5, 0.197413, 0},       {2, 1, 0.382925, 0},       {2, 2, 0.682689, 0},       {2, 3, 0.866386, 0},
      {4, 0.5, 0.168921, 0.2821},  {4, 1, 0.344621, 0.4788},  {4, 2, 0.652070, 0.7191},  {4, 3, 0.850885, 0.8495},
      {10, 0.5, 0.109548, 0.5483}, {10, 1, 0.254444, 0.9427}, {10, 2, 0.568829, 1.4312}, {10, 3, 0.805564, 1.6961},
  };
  for (const Row& row : rows) {
    INFO("T = " << row.T << ", nu = " << row.nu);
    const LinearWeight w = solve_linear_weight(gauss(row.nu), row.T);
    check_printed(w.lambda, row.lambda, 6);
    CHECK(linear_weight(gauss(row.nu), row.T) == w.lambda);
    if (row.beta == 0.0) {
      CHECK(w.beta < 1e-6);  // the endpoint minimiser (T = 2: λ_2 = δ_ν(0) = 2Φ(ν/2) − 1)
      CHECK(w.lambda == Approx(2.0 * normal_cdf(row.nu / 2.0) - 1.0).epsilon(1e-14));
    } else {
      check_printed(w.beta, row.beta, 4);
    }
    CHECK(w.lambda + row.T * w.floor == Approx(1.0).epsilon(1e-15));
  }
  check_printed(linear_weight(gauss(0.5), 10.0), 0.109548, 6);
  const LocalLinearSampler local(gauss(0.5), uniform(20), 9.0);
  check_printed(local.lambda(), 0.123241, 6);
  CHECK(local.lambda() == Approx(9.0 / 8.0 * linear_weight(gauss(0.5), 10.0)).epsilon(1e-10));
}

TEST_CASE("functional-LDP: lambda_T(G_mu) against 50-digit references", "[functional_ldp]") {
  // inf_β of the objective computed with mpmath at 50 significant digits (dense scan + golden section)
  struct Reference {
    double mu, T, lambda;
  };
  const Reference references[] = {
      {0.01, 3.0, 0.0036385840104128648}, {0.01, 1e4, 4.0329258703865209e-6}, {0.1, 1e4, 4.7860279211796951e-5},
      {0.3, 100.0, 0.011260712852402456}, {1.0, 3.0, 0.36709242986546856},    {1.0, 1e4, 0.0031662140377745848},
      {3.0, 100.0, 0.62433605419838476},  {6.0, 3.0, 0.99715122405471329},    {6.0, 1e4, 0.94540353710430241},
      {10.0, 1e4, 0.99998041472515161},   {0.1, 1e7, 7.0422091097716405e-8},  {2.0, 101.0, 0.31321225165807337},
  };
  for (const Reference& r : references) {
    INFO("mu = " << r.mu << ", T = " << r.T);
    const LinearWeight w = solve_linear_weight(gauss(r.mu), r.T);
    CHECK(w.lambda == Approx(r.lambda).margin(4e-16).epsilon(1e-14));
    CHECK(w.floor == Approx((1.0 - r.lambda) / r.T).epsilon(1e-11));  // the reference's 1 − λ has ~17 digits
  }
}

TEST_CASE("functional-LDP: the minimisation finds the infimum over a brute-force beta scan", "[functional_ldp]") {
  // λ_T(g) = inf_β h(β); h evaluated from privacy_profile on a fine scan may never beat the solver.
  for (const Guarantee& g :
       {gauss(0.05), gauss(0.7), gauss(2.5), gauss(6.0), pure(0.3), pure(2.0), approx(1.0, 0.05), approx(0.2, 0.3)}) {
    for (double T : {1.0, 1.5, 2.0, 3.0, 7.0, 50.0, 1e4}) {
      const double lambda = linear_weight(g, T);
      double scan = std::numeric_limits<double>::infinity();
      for (int i = 0; i <= 6000; ++i) {
        const double beta = 40.0 * i / 6000.0;
        scan = std::min(scan, (std::expm1(beta) + T * privacy_profile(g, beta)) / (std::exp(beta) + T - 1.0));
      }
      INFO("notion " << notion_name(g.notion) << " eps " << g.epsilon << " mu " << g.mu << " T " << T);
      CHECK(lambda <= scan + 1e-15);
      CHECK(lambda >= scan - 1e-4);  // the scan's resolution
      CHECK(lambda >= 0.0);
      CHECK(lambda <= 1.0 + 1e-15);
    }
  }
}

TEST_CASE("functional-LDP: pure and (eps,delta) closed forms (core/mechanisms/linear/README.md)", "[functional_ldp]") {
  for (double eps : {0.0, 0.1, 1.0, 3.0}) {
    for (double T : {2.0, 4.0, 10.0, 1000.0}) {
      const double e = std::exp(eps);
      CHECK(linear_weight(pure(eps), T) == Approx((e - 1.0) / (e + T - 1.0)).margin(1e-16).epsilon(1e-14));
      for (double delta : {0.0, 0.01, 0.2}) {
        CHECK(linear_weight(approx(eps, delta), T) ==
              Approx((e - 1.0 + T * delta) / (e + T - 1.0)).margin(1e-16).epsilon(1e-14));
        const LinearWeight w = solve_linear_weight(approx(eps, delta), T);
        CHECK(w.floor == Approx((1.0 - delta) / (e + T - 1.0)).epsilon(1e-14));
        CHECK(w.beta == eps);
      }
    }
    // T < 2 (c1 + c2 < 2, eq. (29)): the infimum is at β = 0
    // (both sides round differently: agreement to a few ulps, as for T >= 2 above)
    CHECK(linear_weight(pure(eps), 1.5) == Approx((std::exp(eps) - 1.0) / (std::exp(eps) + 1.0)).margin(1e-16).epsilon(1e-14));
    CHECK(linear_weight(approx(eps, 0.1), 1.0) ==
          Approx((std::exp(eps) - 1.0 + 0.2) / (std::exp(eps) + 1.0)).margin(1e-16).epsilon(1e-14));
  }
  // Prop C.2 / Cor C.4 on P̃_{c1,c2}: λ* = λ_T/(1−c1) and the risk constants
  struct Class {
    double c1, c2;
  };
  for (const Class& c : {Class{0.0, 10.0}, Class{1.0 / 3.0, 3.0}, Class{0.2, 5.0}, Class{0.5, 2.5}}) {
    const double T = (c.c2 - c.c1) / (1.0 - c.c1);
    for (double eps : {0.1, 0.5, 1.0}) {
      for (double delta : {0.0, 0.01, 0.05}) {
        const double e = std::exp(eps);
        INFO("c1 " << c.c1 << " c2 " << c.c2 << " eps " << eps << " delta " << delta);
        REQUIRE(delta <= (c.c2 - c.c1 * e) * (1.0 - c.c1) / (c.c2 - c.c1));  // eq. (15): non-trivial
        const double base = (1.0 - c.c1) * e + c.c2 - 1.0;
        const double lambda = linear_weight(approx(eps, delta), T) / (1.0 - c.c1);
        CHECK(lambda == Approx((e - 1.0 + T * delta) / base).epsilon(1e-13));
        const LinearRiskConstants r = linear_risk_constants(c.c1, c.c2, lambda);
        CHECK(r.r1 == Approx(c.c1 * base / ((c.c2 - c.c1) * (1.0 - delta))).margin(1e-15).epsilon(1e-13));
        CHECK(r.r2 == Approx(c.c2 * base / ((c.c2 - c.c1) * (e + (c.c2 - 1.0) * delta / (1.0 - c.c1)))).epsilon(1e-13));
        CHECK((1.0 - r.r1) / (r.r2 - r.r1) == Approx(((1.0 - c.c1) * e + (c.c2 - 1.0) * delta) / base).epsilon(1e-12));
        CHECK((r.r2 - 1.0) / (r.r2 - r.r1) == Approx((c.c2 - 1.0) * (1.0 - delta) / base).epsilon(1e-12));
      }
    }
  }
  // Local (ε,δ) constants (core/mechanisms/local-linear/README.md#reference-values): λ_loc = γ(e^ε−1+(γ+1)δ)/((γ−1)(e^ε+γ)), r1, r2, via the sampler
  for (double gamma : {2.0, 3.0, 9.0}) {
    for (double eps : {0.1, 1.0}) {
      for (double delta : {0.0, 0.01}) {
        const double e = std::exp(eps);
        REQUIRE(delta <= (gamma * gamma - e) / (gamma * (gamma + 1.0)));
        const LocalLinearSampler s(approx(eps, delta), uniform(12), gamma);
        // the sampler keeps its worst pair's divergence 2^-43 below δ (rounding toward privacy, linear_samplers.hpp),
        // which lowers λ by at most ~2.5e-13 here (twice the margin times dλ/dH, the steps doubling)
        const double closed = gamma * (e - 1.0 + (gamma + 1.0) * delta) / ((gamma - 1.0) * (e + gamma));
        CHECK(s.lambda() == Approx(closed).epsilon(1e-13).margin(5e-13));
        CHECK(s.lambda() < closed);
        const LinearRiskConstants r = linear_risk_constants(1.0 / gamma, gamma, s.lambda());
        CHECK(r.r1 == Approx((e + gamma) / (gamma * (gamma + 1.0) * (1.0 - delta))).epsilon(1e-11));
        CHECK(r.r2 == Approx(gamma * (e + gamma) / ((gamma + 1.0) * (e + gamma * delta))).epsilon(1e-11));
        CHECK(s.worst_case_risk(NamedDivergence::tv, 12) ==
              Approx(chord_risk(f_divergence(NamedDivergence::tv), r.r1, r.r2)));
      }
    }
  }
  // the global sampler uses the closed form
  const LinearSampler global(approx(1.0, 0.01));
  CHECK(global.lambda(10) == Approx((std::exp(1.0) - 1.0 + 0.1) / (std::exp(1.0) + 9.0)).epsilon(1e-14));
  CHECK(global.guarantee().notion == PrivacyNotion::approximate_ldp);
  CHECK(global.guarantee().delta == 0.01);
}

TEST_CASE("functional-LDP: eps up to 1000 and large mu without overflow", "[functional_ldp]") {
  for (double eps : {40.0, 700.0, 1000.0}) {
    INFO("eps = " << eps);
    CHECK(std::isfinite(linear_weight(pure(eps), 1e7)));
    CHECK(linear_weight(pure(eps), 10.0) <= 1.0);
    const LinearSampler s(pure(eps));
    const std::vector<double> q = s.distribution(point_mass(5, 2));
    for (double v : q) CHECK(v > 0.0);  // a positive floor, a finite ratio
    CHECK(std::isfinite(max_ratio(q, s.distribution(point_mass(5, 0)))));
    CHECK(max_ratio(q, s.distribution(point_mass(5, 0))) <= std::exp(std::min(eps, 700.0)) * (1.0 + 1e-12));
    CHECK(std::isfinite(s.worst_case_risk(NamedDivergence::kl, 5)));
    const LinearSampler a(approx(eps, 0.1));
    for (double v : a.distribution(point_mass(5, 2))) CHECK(v > 0.0);
    const LocalLinearSampler local(pure(eps), kPrior6, 3.0);
    CHECK(local.lambda() == 1.0);
    CHECK(local.worst_case_risk(NamedDivergence::kl, 6) == 0.0);
  }
  for (double mu : {20.0, 37.0, 100.0}) {
    INFO("mu = " << mu);
    CHECK(std::isfinite(linear_weight(gauss(mu), 20.0)));
    const LinearSampler s(gauss(mu));
    const std::vector<double> q = s.distribution(point_mass(4, 1));
    for (double v : q) CHECK(v > 0.0);  // runs at min(μ, 37): the uniform share stays a normal double
    CHECK(s.guarantee().mu == mu);
  }
}

// ---- tables of the paper's figures -----------------------------------------------------------------------

TEST_CASE("functional-LDP: D_f(P||Q(P)) <= worst_case_risk, attained by the worst inputs", "[functional_ldp][risk]") {
  const NamedDivergence fs[] = {NamedDivergence::kl, NamedDivergence::tv, NamedDivergence::hellinger,
                                NamedDivergence::chi2};
  const Guarantee notions[] = {pure(0.5), pure(2.0), approx(1.0, 0.05), gauss(0.5), gauss(2.0)};
  std::mt19937_64 rng(2024);
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  std::gamma_distribution<double> spiky(0.3, 1.0);
  std::size_t checks = 0;

  SECTION("global: every P, worst case a point mass") {
    for (std::size_t k : {2, 5, 20}) {
      for (const Guarantee& g : notions) {
        const LinearSampler s(g);
        for (const NamedDivergence f : fs) {
          const double bound = s.worst_case_risk(f, k);
          for (int trial = 0; trial < 200; ++trial) {
            std::vector<double> p(k);
            for (double& v : p) v = trial % 2 == 0 ? spiky(rng) : (u01(rng) < 0.5 ? 0.0 : u01(rng));
            p[static_cast<std::size_t>(trial) % k] += 1e-3;
            CHECK(divergence(f, p, s.distribution(p)) <= bound * (1.0 + 1e-12) + 1e-15);
            ++checks;
          }
          const std::vector<double> delta_x = point_mass(k, k / 2);
          CHECK(divergence(f, delta_x, s.distribution(delta_x)) == Approx(bound).epsilon(1e-12));
        }
      }
    }
    CHECK(checks > 10000);
  }

  SECTION("local: P in N_gamma(P0), worst case gamma*p0 on a block of P0-mass 1/(gamma+1)") {
    for (double gamma : {2.0, 3.0, 4.5}) {
      for (const Guarantee& g : notions) {
        const LocalLinearSampler s(g, kPrior6, gamma);
        for (const NamedDivergence f : fs) {
          const double bound = s.worst_case_risk(f, kPrior6.size());
          for (int trial = 0; trial < 150; ++trial) {
            std::vector<double> p(kPrior6.size());
            if (trial % 3 == 0) {  // ratios in [γ^{-1/2}, γ^{1/2}]: after normalising, within [1/γ, γ]
              for (std::size_t x = 0; x < p.size(); ++x) p[x] = kPrior6[x] * std::pow(gamma, u01(rng) - 0.5);
            } else {  // projections of arbitrary (also sparse) inputs: on or inside the boundary
              std::vector<double> raw(p.size());
              for (double& v : raw) v = trial % 3 == 1 ? spiky(rng) : (u01(rng) < 0.6 ? 0.0 : u01(rng));
              raw[static_cast<std::size_t>(trial) % raw.size()] += 1e-3;
              p = s.projection(raw);
            }
            CHECK(divergence(f, p, s.distribution(p)) <= bound * (1.0 + 1e-12) + 1e-15);
            ++checks;
          }
        }
      }
    }
    CHECK(checks > 5000);
    // attainment with uniform P0 and k divisible by γ+1 (P0 is then (1/(γ+1), γ+1, 1)-decomposable)
    struct Setup {
      std::size_t k;
      double gamma;
    };
    for (const Setup& setup : {Setup{20, 9.0}, Setup{12, 3.0}, Setup{10, 4.0}, Setup{9, 2.0}}) {
      const std::size_t block = setup.k / static_cast<std::size_t>(setup.gamma + 1.0);
      std::vector<double> worst(setup.k);
      for (std::size_t x = 0; x < setup.k; ++x) {
        worst[x] = (x < block ? setup.gamma : 1.0 / setup.gamma) / static_cast<double>(setup.k);
      }
      REQUIRE(total(worst) == Approx(1.0).epsilon(1e-14));
      for (const Guarantee& g : notions) {
        const LocalLinearSampler s(g, uniform(setup.k), setup.gamma);
        for (const NamedDivergence f : fs) {
          INFO("k " << setup.k << " gamma " << setup.gamma << " notion " << notion_name(g.notion) << " f "
                    << divergence_name(f));
          CHECK(divergence(f, worst, s.distribution(worst)) ==
                Approx(s.worst_case_risk(f, setup.k)).margin(1e-15).epsilon(1e-11));
        }
      }
    }
    // core/mechanisms/local/README.md#reference-values: k = 20, γ = 9, ε = 1, A = 2 atoms
    const LocalLinearSampler s(pure(1.0), uniform(20), 9.0);
    std::vector<double> worst(20, 1.0 / 180.0);
    worst[0] = worst[1] = 9.0 / 20.0;
    const std::vector<double> q = s.distribution(worst);
    check_printed(divergence(NamedDivergence::kl, worst, q), 1.0163447, 7);
    check_printed(divergence(NamedDivergence::tv, worst, q), 0.6680307, 7);
    check_printed(divergence(NamedDivergence::hellinger, worst, q), 0.2659502, 7);
    check_printed(divergence(NamedDivergence::chi2, worst, q), 2.5048614, 7);
  }
}

TEST_CASE("functional-LDP: the projection is the f-projection onto N_gamma(P0)", "[functional_ldp][risk]") {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  const LocalLinearSampler s(gauss(1.0), kPrior6, 3.0);
  for (int trial = 0; trial < 100; ++trial) {
    std::vector<double> p(6);
    for (double& v : p) v = u01(rng) < 0.4 ? 0.0 : u01(rng);
    p[static_cast<std::size_t>(trial) % 6] += 0.01;
    const std::vector<double> projection = s.projection(p);
    CHECK(total(projection) == Approx(1.0).epsilon(1e-14));
    for (std::size_t x = 0; x < 6; ++x) {
      CHECK(projection[x] >= kPrior6[x] / 3.0 * (1.0 - 1e-15));
      CHECK(projection[x] <= kPrior6[x] * 3.0 * (1.0 + 1e-15));
    }
    // no feasible point (ratios in [γ^{-1/2}, γ^{1/2}], normalised) is closer in KL or TV
    for (int other = 0; other < 20; ++other) {
      std::vector<double> candidate(6);
      for (std::size_t x = 0; x < 6; ++x) candidate[x] = kPrior6[x] * std::pow(3.0, u01(rng) - 0.5);
      for (const NamedDivergence f : {NamedDivergence::kl, NamedDivergence::tv}) {
        CHECK(divergence(f, p, projection) <= divergence(f, p, candidate) + 1e-12);
      }
    }
  }
  // inside the neighbourhood the projection is the identity
  const std::vector<double> inside = {0.3, 0.25, 0.2, 0.12, 0.1, 0.03};
  const std::vector<double> same = s.projection(inside);
  for (std::size_t x = 0; x < 6; ++x) CHECK(same[x] == Approx(inside[x]).epsilon(1e-14));
}

// ---- sampling and validation -------------------------------------------------------------------------------

TEST_CASE("functional-LDP: invalid parameters are rejected with clear messages", "[functional_ldp]") {
  using Catch::Matchers::Contains;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH(LinearSampler(pure(nan)), Contains("epsilon = NaN"));
  CHECK_THROWS_WITH(LinearSampler(pure(-1.0)), Contains("epsilon = -1"));
  CHECK_THROWS_WITH(LinearSampler(approx(1.0, 1.0)), Contains("delta = 1"));
  CHECK_THROWS_WITH(LinearSampler(approx(1.0, -0.1)), Contains("delta = -0.1"));
  CHECK_THROWS_WITH(LinearSampler(gauss(0.0)), Contains("mu = 0"));
  CHECK_THROWS_WITH(LinearSampler(gauss(nan)), Contains("mu = NaN"));
  CHECK_THROWS_WITH(LinearSampler(Guarantee{PrivacyNotion::record_dp, 1.0}), Contains("record-dp"));
  CHECK_THROWS_WITH(LocalLinearSampler(pure(1.0), kPrior6, 1.0), Contains("gamma = 1: must be"));
  CHECK_THROWS_WITH(LocalLinearSampler(pure(1.0), kPrior6, 0.5), Contains("gamma = 0.5"));
  CHECK_THROWS_WITH(LocalLinearSampler(pure(1.0), kPrior6, std::numeric_limits<double>::infinity()),
                    Contains("gamma = Infinity"));
  CHECK_THROWS_WITH(LocalLinearSampler(pure(1.0), {0.5, 0.5, 0.0}, 3.0), Contains("prior[2] = 0"));
  // counts or probabilities: the same sampler either way
  CHECK(LocalLinearSampler(pure(1.0), {5.0, 6.0}, 3.0).distribution(std::vector<double>{1, 2}) ==
        LocalLinearSampler(pure(1.0), {5.0 / 11.0, 6.0 / 11.0}, 3.0).distribution(std::vector<double>{1, 2}));
  CHECK_THROWS_WITH(LocalLinearSampler(pure(1.0), {}, 3.0), Contains("prior is empty"));
  CHECK_THROWS_WITH(LocalLinearSampler(gauss(-2.0), kPrior6, 3.0), Contains("mu = -2"));

  const LocalLinearSampler local(pure(1.0), kPrior6, 3.0);
  CHECK_THROWS_WITH(local.worst_case_risk(NamedDivergence::kl, 5), Contains("k = 5 but the prior has 6 categories"));
  CHECK_THROWS_WITH(local.distribution(std::vector<double>{1, 2, 3}), Contains("k = 3 but the prior has 6 categories"));
  CHECK_THROWS_WITH(local.distribution(std::vector<double>{1, -2, 3, 1, 1, 1}), Contains("hist[1] = -2"));
  CHECK_THROWS_WITH(local.distribution(std::vector<double>(6, 0.0)), Contains("all zeros"));
  const LinearSampler global(gauss(1.0));
  CHECK_THROWS_WITH(global.distribution(std::vector<double>{}), Contains("hist is empty"));
  CHECK_THROWS_WITH(global.distribution(std::vector<double>{1, nan}), Contains("hist[1] = NaN"));
  CHECK_THROWS_WITH(global.worst_case_risk(NamedDivergence::kl, 0), Contains("k is empty"));

  CHECK_THROWS_WITH(linear_weight(pure(1.0), 0.5), Contains("T = 0.5"));
  CHECK_THROWS_WITH(linear_weight(pure(1.0), nan), Contains("T = NaN"));
  CHECK_THROWS_WITH(privacy_profile(gauss(1.0), -0.1), Contains("beta = -0.1"));
  CHECK_THROWS_WITH(privacy_profile(approx(1.0, 2.0), 0.1), Contains("delta = 2"));
  const std::vector<double> a = {0.5, 0.5};
  const std::vector<double> b = {1.0};
  CHECK_THROWS_WITH(hockey_stick_divergence(a, b, 0.0), Contains("same length"));
  CHECK_THROWS_WITH(hockey_stick_divergence(a, std::vector<double>{0.5, -1.0}, 0.0), Contains("q[1] = -1"));
  CHECK_THROWS_WITH(hockey_stick_divergence(a, a, nan), Contains("beta = NaN"));
  CHECK(hockey_stick_divergence(a, std::vector<double>{1.0, 0.0}, 3.0) == 0.5);
  CHECK(hockey_stick_divergence(a, std::vector<double>{0.25, 0.75}, std::numeric_limits<double>::infinity()) == 0.0);
  CHECK(hockey_stick_divergence(a, a, 0.0) == 0.0);
  CHECK_THROWS_WITH(linear_risk_constants(1.0, 3.0, 0.5), Contains("c1 = 1"));
  CHECK_THROWS_WITH(linear_risk_constants(0.0, 1.0, 0.5), Contains("c2 = 1"));
  CHECK_THROWS_WITH(linear_risk_constants(0.0, 3.0, 1.5), Contains("lambda = 1.5"));
  const LinearRiskConstants at_one = linear_risk_constants(0.25, 4.0, 1.0);
  CHECK(at_one.r1 == 1.0);
  CHECK(at_one.r2 == 1.0);
  const LinearRiskConstants at_zero = linear_risk_constants(0.0, 4.0, 0.0);
  CHECK(at_zero.r1 == 0.0);
  CHECK(at_zero.r2 == 4.0);
}

TEST_CASE("running_linear_weight: the GDP weight a sampler runs at passes the profile on a dense beta grid",
          "[functional-ldp][gdp]") {
  // H(β) = max(0, λ + f(1 − e^β)), f = (1−λ)/T, is the worst pair's hockey-stick of the mixture (Lemma C.1); the
  // re-checked weight keeps it under δ_μ(β) on 4001 β values the solver never looked at, in long double.
  int checked = 0;
  for (const double mu : {1e-6, 1e-3, 0.1, 0.5, 1.0, 2.0, 5.0, 20.0, 37.0, 100.0}) {
    for (const double T : {1.0, 1.5, 2.0, 3.0, 10.0, 1e3, 1e7, 1e12}) {
      const Guarantee g{PrivacyNotion::gaussian_ldp, 0.0, 0.0, mu, 0.0};
      const LinearWeight w = running_linear_weight(g, T);
      INFO("mu = " << mu << ", T = " << T << ", lambda = " << w.lambda);
      REQUIRE(w.lambda >= 0.0);
      REQUIRE(w.lambda <= linear_weight(g, T));
      const long double lambda = w.lambda;
      const long double f = (1.0L - lambda) / static_cast<long double>(T);
      const double beta_top = std::max(60.0, mu * mu / 2.0 + 6.0 * mu + 6.0);
      for (int i = 0; i <= 4000; ++i) {
        const double beta = beta_top * std::pow(static_cast<double>(i) / 4000.0, 3.0);
        const long double h = std::max(0.0L, lambda + f * (1.0L - std::exp(static_cast<long double>(beta))));
        REQUIRE(h <= static_cast<long double>(privacy_profile(g, beta)) + 1e-16L);
        ++checked;
      }
    }
  }
  CHECK(checked == 80 * 4001);
}


