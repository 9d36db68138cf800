#pragma once
// Test helpers shared by the functional-LDP tests (tests/native/functional_ldp_test.cpp) and the linear and local
// linear samplers' tests: notions, printed-digit checks, adversarial inputs around a reference and a privacy report.
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

#include "privsample.hpp"
#include "model/divergence.hpp"
#include "base/randomness.hpp"
#include "test_support.hpp"


namespace privsample::functional_ldp_test {

inline Guarantee pure(double epsilon) { return {PrivacyNotion::pure_ldp, epsilon}; }
inline Guarantee approx(double epsilon, double delta) { return {PrivacyNotion::approximate_ldp, epsilon, delta}; }
inline Guarantee gauss(double mu) { return {PrivacyNotion::gaussian_ldp, 0.0, 0.0, mu}; }

// "To the printed digits": |computed − printed| <= half a unit of the last printed digit.
inline void check_printed(double computed, double printed, int digits) {
  const double half_unit = 0.5 * std::pow(10.0, -digits);
  INFO("computed " << std::to_string(computed) << " (" << computed << "), printed " << printed);
  CHECK(std::fabs(computed - printed) <= half_unit * (1.0 + 1e-9) + 1e-13);
}

inline std::vector<double> uniform(std::size_t k) { return std::vector<double>(k, 1.0 / static_cast<double>(k)); }

inline std::vector<double> point_mass(std::size_t k, std::size_t x) {
  std::vector<double> p(k, 0.0);
  p[x] = 1.0;
  return p;
}

inline double max_ratio(const std::vector<double>& q1, const std::vector<double>& q2) {
  double worst = 0.0;
  for (std::size_t x = 0; x < q1.size(); ++x) {
    worst =
        std::max(worst, q2[x] == 0.0 ? (q1[x] == 0.0 ? 0.0 : std::numeric_limits<double>::infinity()) : q1[x] / q2[x]);
  }
  return worst;
}

inline double total(const std::vector<double>& v) {
  double s = 0.0;
  for (double x : v) s += x;
  return s;
}

// Adversarial inputs for a prior p0 and neighbourhood parameter γ (γ <= 0: no neighbourhood-specific inputs).
inline std::vector<std::vector<double>>
adversarial_inputs(const std::vector<double>& p0, double gamma, std::uint64_t seed) {
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

inline const std::vector<double> kPrior6 = {0.35, 0.25, 0.2, 0.1, 0.07, 0.03};

}  // namespace privsample::functional_ldp_test
