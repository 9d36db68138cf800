// Functional-LDP linear samplers: privacy profiles, λ_T(g), the global (Thm 3.5) and local (Thm 4.1) linear
// samplers. Reference values: docs/mechanisms/linear.md, docs/mechanisms/local-linear.md, docs/experiments.md#ghoukasian-et-al.
#include "privacy/functional_ldp.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "mechanisms/clip_samplers.hpp"
#include "model/divergence.hpp"
#include "mechanisms/linear_samplers.hpp"
#include "mechanisms/minimax.hpp"
#include "base/randomness.hpp"
#include "test_support.hpp"

using namespace privsample;

namespace {

Guarantee pure(double epsilon) { return {PrivacyNotion::pure_ldp, epsilon}; }
Guarantee approx(double epsilon, double delta) { return {PrivacyNotion::approximate_ldp, epsilon, delta}; }
Guarantee gauss(double mu) { return {PrivacyNotion::gaussian_ldp, 0.0, 0.0, mu}; }

// "To the printed digits": |computed − printed| <= half a unit of the last printed digit.
void check_printed(double computed, double printed, int digits) {
  const double half_unit = 0.5 * std::pow(10.0, -digits);
  INFO("computed " << std::to_string(computed) << " (" << computed << "), printed " << printed);
  CHECK(std::fabs(computed - printed) <= half_unit * (1.0 + 1e-9) + 1e-13);
}

std::vector<double> uniform(std::size_t k) { return std::vector<double>(k, 1.0 / static_cast<double>(k)); }

std::vector<double> point_mass(std::size_t k, std::size_t x) {
  std::vector<double> p(k, 0.0);
  p[x] = 1.0;
  return p;
}

double max_ratio(const std::vector<double>& q1, const std::vector<double>& q2) {
  double worst = 0.0;
  for (std::size_t x = 0; x < q1.size(); ++x) {
    worst =
        std::max(worst, q2[x] == 0.0 ? (q1[x] == 0.0 ? 0.0 : std::numeric_limits<double>::infinity()) : q1[x] / q2[x]);
  }
  return worst;
}

double total(const std::vector<double>& v) {
  double s = 0.0;
  for (double x : v) s += x;
  return s;
}

// Adversarial inputs for a prior p0 and neighbourhood parameter γ (γ <= 0: no neighbourhood-specific inputs).
std::vector<std::vector<double>> adversarial_inputs(const std::vector<double>& p0, double gamma, std::uint64_t seed) {
  const std::size_t k = p0.size();
  std::vector<std::vector<double>> inputs;
  // all point masses (Case B for atoms with p0 < 1/(γ+1))
  for (std::size_t x = 0; x < k; ++x) inputs.push_back(point_mass(k, x));
  // sparse two-atom inputs, even and lopsided
  for (std::size_t x = 0; x + 1 < k; ++x) {
    std::vector<double> p(k, 0.0);
    p[x] = 1.0;
    p[k - 1 - x == x ? (x + 1) % k : k - 1 - x] = 1.0;
    inputs.push_back(p);
    std::vector<double> q(k, 0.0);
    q[x] = 0.999;
    q[x + 1] = 0.001;
    inputs.push_back(q);
  }
  inputs.push_back(p0);
  inputs.push_back(uniform(k));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  if (gamma > 1.0) {
    // at the boundary of N_γ(P0): γ·p0 on a set S, p0/γ elsewhere (normalised by the sampler), and the
    // exact boundary points P̂ of sparse sets; beyond it: ratios γ², γ^{-2}
    for (std::size_t mask = 1; mask < (std::size_t{1} << std::min<std::size_t>(k, 6)); mask += 3) {
      std::vector<double> at(k), beyond(k);
      for (std::size_t x = 0; x < k; ++x) {
        const bool in = (mask >> (x % 6)) & 1U;
        at[x] = in ? gamma * p0[x] : p0[x] / gamma;
        beyond[x] = in ? gamma * gamma * p0[x] : p0[x] / (gamma * gamma);
      }
      inputs.push_back(at);
      inputs.push_back(beyond);
    }
    for (int i = 0; i < 6; ++i) {  // random ratios in [1/γ, γ]: inside or on the edge after normalising
      std::vector<double> p(k);
      for (std::size_t x = 0; x < k; ++x) p[x] = p0[x] * std::pow(gamma, 2.0 * u01(rng) - 1.0);
      inputs.push_back(p);
    }
  }
  // random histograms: flat Dirichlet, spiky Dirichlet(0.2), and sparse random supports
  std::gamma_distribution<double> spiky(0.2, 1.0);
  for (int i = 0; i < 10; ++i) {
    std::vector<double> flat(k), spike(k), sparse(k);
    for (std::size_t x = 0; x < k; ++x) {
      flat[x] = -std::log(1.0 - u01(rng));
      spike[x] = spiky(rng) + 1e-300;
      sparse[x] = u01(rng) < 0.35 ? u01(rng) : 0.0;
    }
    sparse[i % k] += 0.5;
    inputs.push_back(flat);
    inputs.push_back(spike);
    inputs.push_back(sparse);
  }
  return inputs;
}

struct PrivacyReport {
  std::size_t pairs = 0;
  double worst_excess = -1.0;  // max over pairs and β of hockey − δ_g(β)
  double worst_ratio = 0.0;    // pure: max over pairs of max_x q_P(x)/q_P'(x)
};

// Checks every ordered pair of outputs against the notion's definition (both orders of each pair).
template <class Sampler>
PrivacyReport check_privacy(const Sampler& sampler, const Guarantee& g,
                            const std::vector<std::vector<double>>& inputs) {
  std::vector<std::vector<double>> outputs;
  outputs.reserve(inputs.size());
  for (const auto& p : inputs) {
    outputs.push_back(sampler.distribution(p));
    REQUIRE(std::fabs(total(outputs.back()) - 1.0) < 1e-12);
  }
  std::vector<double> betas;
  for (int i = 0; i <= 40; ++i) betas.push_back(0.25 * i);
  if (g.notion != PrivacyNotion::gaussian_ldp) betas.push_back(g.epsilon);
  std::vector<double> profile;
  for (double beta : betas) profile.push_back(privacy_profile(g, beta));
  PrivacyReport report;
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    for (std::size_t j = 0; j < outputs.size(); ++j) {
      if (i == j) continue;
      ++report.pairs;
      const auto& q1 = outputs[i];
      const auto& q2 = outputs[j];
      switch (g.notion) {
        case PrivacyNotion::pure_ldp: {
          const double ratio = max_ratio(q1, q2);
          report.worst_ratio = std::max(report.worst_ratio, ratio);
          if (!(ratio <= std::exp(g.epsilon) * (1.0 + 1e-12))) {
            FAIL("pure ratio " << ratio << " > e^eps = " << std::exp(g.epsilon) << " for inputs " << i << ", " << j);
          }
          break;
        }
        case PrivacyNotion::approximate_ldp: {
          const double hockey = hockey_stick_divergence(q1, q2, g.epsilon);
          if (!(hockey <= g.delta * (1.0 + 1e-12) + 1e-15)) {
            FAIL("E_{e^eps} = " << hockey << " > delta = " << g.delta << " for inputs " << i << ", " << j);
          }
          break;
        }
        default:
          break;
      }
      for (std::size_t b = 0; b < betas.size(); ++b) {
        const double excess = hockey_stick_divergence(q1, q2, betas[b]) - profile[b];
        report.worst_excess = std::max(report.worst_excess, excess);
        if (!(excess <= 1e-12)) {
          FAIL("E_{e^beta} exceeds delta_g(beta) by " << excess << " at beta = " << betas[b] << " for inputs " << i
                                                      << ", " << j);
        }
      }
    }
  }
  return report;
}

const std::vector<double> kPrior6 = {0.35, 0.25, 0.2, 0.1, 0.07, 0.03};

}  // namespace

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

TEST_CASE("functional-LDP: lambda_T(G_nu) table (docs/mechanisms/linear.md)", "[functional_ldp]") {
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

TEST_CASE("functional-LDP: pure and (eps,delta) closed forms (docs/mechanisms/linear.md)", "[functional_ldp]") {
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
  // Local (ε,δ) constants (docs/mechanisms/local-linear.md#reference-values): λ_loc = γ(e^ε−1+(γ+1)δ)/((γ−1)(e^ε+γ)), r1, r2, via the sampler
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
  const FunctionalLinearSampler global(approx(1.0, 0.01));
  CHECK(global.lambda(10) == Approx((std::exp(1.0) - 1.0 + 0.1) / (std::exp(1.0) + 9.0)).epsilon(1e-14));
  CHECK(global.guarantee().notion == PrivacyNotion::approximate_ldp);
  CHECK(global.guarantee().delta == 0.01);
}

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
      const FunctionalLinearSampler s(g);
      CHECK(s.lambda(3) < 1.0);
      CHECK(s.worst_case_risk(NamedDivergence::tv, 3) > 0.0);
    }
    CHECK(FunctionalLinearSampler(pure(1.0)).worst_case_risk(NamedDivergence::kl, 1) == 0.0);  // k = 1
  }
}

TEST_CASE("functional-LDP: eps up to 1000 and large mu without overflow", "[functional_ldp]") {
  for (double eps : {40.0, 700.0, 1000.0}) {
    INFO("eps = " << eps);
    CHECK(std::isfinite(linear_weight(pure(eps), 1e7)));
    CHECK(linear_weight(pure(eps), 10.0) <= 1.0);
    const FunctionalLinearSampler s(pure(eps));
    const std::vector<double> q = s.distribution(point_mass(5, 2));
    for (double v : q) CHECK(v > 0.0);  // a positive floor, a finite ratio
    CHECK(std::isfinite(max_ratio(q, s.distribution(point_mass(5, 0)))));
    CHECK(max_ratio(q, s.distribution(point_mass(5, 0))) <= std::exp(std::min(eps, 700.0)) * (1.0 + 1e-12));
    CHECK(std::isfinite(s.worst_case_risk(NamedDivergence::kl, 5)));
    const FunctionalLinearSampler a(approx(eps, 0.1));
    for (double v : a.distribution(point_mass(5, 2))) CHECK(v > 0.0);
    const LocalLinearSampler local(pure(eps), kPrior6, 3.0);
    CHECK(local.lambda() == 1.0);
    CHECK(local.worst_case_risk(NamedDivergence::kl, 6) == 0.0);
  }
  for (double mu : {20.0, 37.0, 100.0}) {
    INFO("mu = " << mu);
    CHECK(std::isfinite(linear_weight(gauss(mu), 20.0)));
    const FunctionalLinearSampler s(gauss(mu));
    const std::vector<double> q = s.distribution(point_mass(4, 1));
    for (double v : q) CHECK(v > 0.0);  // runs at min(μ, 37): the uniform share stays a normal double
    CHECK(s.guarantee().mu == mu);
  }
}

// ---- tables of the paper's figures -----------------------------------------------------------------------

TEST_CASE("functional-LDP: GDP worst-case risks, Figs 7-9 (docs/experiments.md)", "[functional_ldp]") {
  struct Row {
    std::size_t k;
    double nu, lambda_global, lambda_local, kl_g, kl_l, tv_g, tv_l, hel_g, hel_l;
  };
  const Row rows[] = {
      {10, 0.1, 0.018449, 0.038239, 2.148971, 0.750715, 0.883396, 0.577056, 0.658527, 0.183457},
      {10, 0.5, 0.109548, 0.205968, 1.616498, 0.480431, 0.801407, 0.476419, 0.554362, 0.123403},
      {10, 1, 0.254444, 0.432140, 1.111699, 0.245039, 0.671001, 0.340716, 0.426415, 0.064991},
      {10, 2, 0.568829, 0.846187, 0.491111, 0.022175, 0.388054, 0.092288, 0.217730, 0.005778},
      {20, 0.1, 0.011095, 0.020755, 2.804451, 1.621389, 0.939460, 0.783396, 0.753951, 0.378830},
      {20, 0.5, 0.072417, 0.123241, 2.130343, 1.151904, 0.881203, 0.701407, 0.655331, 0.294140},
      {20, 1, 0.187919, 0.286249, 1.476117, 0.715345, 0.771477, 0.571001, 0.521959, 0.196813},
      {20, 2, 0.492993, 0.639932, 0.657118, 0.211578, 0.481657, 0.288054, 0.280039, 0.060883},
      {100, 0.1, 0.002988, 0.005453, 4.346048, 3.508409, 0.987042, 0.954765, 0.886167, 0.703116},
      {100, 0.5, 0.023469, 0.039785, 3.404161, 2.690261, 0.966765, 0.921806, 0.817696, 0.623946},
      {100, 1, 0.078213, 0.119429, 2.436910, 1.869814, 0.912569, 0.845348, 0.704313, 0.505183},
      {100, 2, 0.314238, 0.397120, 1.136015, 0.807162, 0.678904, 0.578765, 0.433347, 0.263503},
  };
  for (const Row& row : rows) {
    INFO("k = " << row.k << ", nu = " << row.nu);
    const FunctionalLinearSampler global(gauss(row.nu));
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
  const Row rows[] = {
      {10, 0.1, 2.213047, 0.772593, 0.890633, 0.583519, 0.669293, 0.187987},
      {10, 0.5, 1.865440, 0.553768, 0.845172, 0.508125, 0.606518, 0.140451},
      {10, 1, 1.461150, 0.327171, 0.768031, 0.395390, 0.518368, 0.085987},
      {10, 2, 0.796614, 0.054992, 0.549147, 0.151214, 0.328544, 0.014530},
      {20, 0.1, 2.900977, 1.678242, 0.945031, 0.790633, 0.765544, 0.387829},
      {20, 0.5, 2.527653, 1.370634, 0.920154, 0.745172, 0.717429, 0.335992},
      {20, 1, 2.078154, 1.016345, 0.874839, 0.668031, 0.646219, 0.265950},
      {20, 2, 1.272949, 0.451808, 0.719995, 0.449147, 0.470845, 0.128662},
      {100, 0.1, 4.506221, 3.640249, 0.988960, 0.957943, 0.894928, 0.713124},
      {100, 0.5, 4.111636, 3.259038, 0.983619, 0.947448, 0.872012, 0.682291},
      {100, 1, 3.622207, 2.789936, 0.973276, 0.927441, 0.836526, 0.635391},
      {100, 2, 2.667103, 1.896400, 0.930547, 0.848963, 0.736460, 0.509817},
  };
  for (const Row& row : rows) {
    INFO("k = " << row.k << ", eps = " << row.eps);
    const double gamma = static_cast<double>(row.k) / 2.0 - 1.0;
    const FunctionalLinearSampler global(pure(row.eps));
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

TEST_CASE("functional-LDP: test vectors, local-linear and global-linear columns (docs/mechanisms/local-linear.md)", "[functional_ldp]") {
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

  const FunctionalLinearSampler global(pure(1.0));
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

TEST_CASE("functional-LDP: privacy of the global linear sampler over adversarial pairs", "[functional_ldp][privacy]") {
  std::size_t pairs = 0;
  for (std::size_t k : {2, 3, 7}) {
    const std::vector<std::vector<double>> inputs = adversarial_inputs(uniform(k), 0.0, 11 + k);
    for (const Guarantee& g : {pure(0.1), pure(1.0), pure(4.0), approx(0.5, 0.05), approx(1.5, 0.2), approx(0.0, 0.3),
                               gauss(0.3), gauss(1.0), gauss(2.5)}) {
      INFO("k = " << k << ", notion " << notion_name(g.notion) << " eps " << g.epsilon << " delta " << g.delta << " mu "
                  << g.mu);
      const FunctionalLinearSampler s(g);
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
        const FunctionalLinearSampler s(g);
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
    // docs/mechanisms/local.md#reference-values: k = 20, γ = 9, ε = 1, A = 2 atoms
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

TEST_CASE("functional-LDP: sample() draws from distribution()", "[functional_ldp]") {
  SeededRandom bits(12345);
  const LocalLinearSampler local(gauss(1.0), kPrior6, 3.0);
  const FunctionalLinearSampler global(approx(1.0, 0.05));
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

TEST_CASE("functional-LDP: invalid parameters are rejected with clear messages", "[functional_ldp]") {
  using Catch::Matchers::Contains;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH(FunctionalLinearSampler(pure(nan)), Contains("epsilon = NaN"));
  CHECK_THROWS_WITH(FunctionalLinearSampler(pure(-1.0)), Contains("epsilon = -1"));
  CHECK_THROWS_WITH(FunctionalLinearSampler(approx(1.0, 1.0)), Contains("delta = 1"));
  CHECK_THROWS_WITH(FunctionalLinearSampler(approx(1.0, -0.1)), Contains("delta = -0.1"));
  CHECK_THROWS_WITH(FunctionalLinearSampler(gauss(0.0)), Contains("mu = 0"));
  CHECK_THROWS_WITH(FunctionalLinearSampler(gauss(nan)), Contains("mu = NaN"));
  CHECK_THROWS_WITH(FunctionalLinearSampler(Guarantee{PrivacyNotion::record_dp, 1.0}), Contains("record-dp"));
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
  const FunctionalLinearSampler global(gauss(1.0));
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

TEST_CASE("linear (eps, delta): the hockey-stick of point masses is <= delta in extended precision", "[functional-ldp]") {
  // The audit found 1.00000000025e-6 > 1e-6 at eps = 20, delta = 1e-6: lambda is now rounded toward delta. Checked for
  // distribution()'s values and for the released law (coin lambda, else uniform), over a grid of eps (to the 700 cap),
  // delta (down to 1e-15) and k, with e^eps in x87 extended precision (the sampler rounds it down in doubles).
  std::size_t checked = 0;
  for (const double epsilon : {0.01, 0.1, 1.0, 5.0, 20.0, 50.0, 300.0, 700.0}) {
    for (const double delta : {1e-15, 1e-12, 1e-9, 1e-6, 1e-3, 0.1, 0.5}) {
      for (const std::size_t k : {std::size_t{2}, std::size_t{3}, std::size_t{10}, std::size_t{1000}, std::size_t{100000}}) {
        const FunctionalLinearSampler s({PrivacyNotion::approximate_ldp, epsilon, delta, 0.0, 0.0});
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
                    Matches("prior\\[0\\] = 1e-300: at epsilon = 50 the sampler's floor.*at this epsilon.*"));
  CHECK_THROWS_WITH(LocalLinearSampler(approx(50.0, 1e-9), {1e-300, 0.5, 0.5}, 1e12),
                    Contains("at epsilon = 50, delta = 1e-9 the sampler's floor") &&
                        Contains("at these parameters (or use a smaller epsilon or delta)"));
  CHECK_THROWS_WITH(LocalLinearSampler(gauss(30.0), {1e-300, 0.5, 0.5}, 1e12),
                    Contains("at mu = 30 the sampler's floor") && Contains("(or use a smaller mu)"));
}
