// Continuous data on grids: cell-mass densities and the continuous-space samplers solved exactly on
// cells. Docs: core/mechanisms/cells.md (constants, samplers, reference values), docs/experiments.md#park-et-al.
#include "privsample.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iostream>
#include <limits>
#include <numbers>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/divergence.hpp"
#include "privacy/functional_ldp.hpp"
#include "base/numeric.hpp"
#include "test_support.hpp"

using namespace privsample;
using namespace privsample_test;

namespace {

const std::vector<NamedDivergence> kDivergences{NamedDivergence::kl, NamedDivergence::tv, NamedDivergence::hellinger,
                                                NamedDivergence::chi2};

// A random member of the paper's 1-D class (docs/experiments.md#park-fig-4-1-d-gaussian-mixtures): k = min(Poisson(2) + 1, 10) modes, μ ~ U[−1, 1],
// λ ~ Dirichlet(1, …, 1), unit variance, truncated to the grid.
std::vector<double> random_paper_mixture(const Grid1D& grid, std::mt19937_64& rng) {
  std::poisson_distribution<int> modes(2.0);
  std::uniform_real_distribution<double> mean(-1.0, 1.0);
  std::exponential_distribution<double> dirichlet(1.0);
  const std::size_t k = std::min<std::size_t>(static_cast<std::size_t>(modes(rng)) + 1, 10);
  std::vector<double> means(k);
  std::vector<double> weights(k);
  for (std::size_t i = 0; i < k; ++i) {
    means[i] = mean(rng);
    weights[i] = dirichlet(rng);
  }
  return gaussian_mixture(grid, means, weights, 1.0);
}

// `count` random members of the paper's class on `grid`, drawn from a generator seeded with `seed`.
std::vector<std::vector<double>> random_paper_mixtures(const Grid1D& grid, std::uint64_t seed, int count) {
  std::mt19937_64 rng(seed);
  std::vector<std::vector<double>> out;
  for (int i = 0; i < count; ++i) out.push_back(random_paper_mixture(grid, rng));
  return out;
}

// max_i a_i/b_i over cells where either is positive (+∞ if b_i = 0 < a_i).
double max_ratio(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] == 0.0) continue;
    worst = std::max(worst, b[i] == 0.0 ? kInf : a[i] / b[i]);
  }
  return worst;
}

double total_error(const std::vector<double>& q) { return std::fabs(compensated_total(q) - 1.0); }

// Adversarial inputs on a 1-D grid of [−4, 4]: narrow spikes, a point mass on one cell, densities far outside
// the class (a Laplace spike at the edge), a uniform density, and zeros almost everywhere.
std::vector<std::vector<double>> adversarial_densities(const Grid1D& grid) {
  std::vector<std::vector<double>> out;
  const std::vector<double> one{1.0};
  out.push_back(gaussian_mixture(grid, std::vector<double>{0.3}, one, 1e-3));    // narrow spike
  out.push_back(gaussian_mixture(grid, std::vector<double>{-3.99}, one, 1e-2));  // spike at the edge
  out.push_back(laplace_mixture(grid, std::vector<double>{3.0}, one, 0.05));     // violates p <= c2·h
  out.push_back(gaussian_mixture(grid, std::vector<double>{0.0, 1.0}, std::vector<double>{0.5, 0.5}, 1.0));
  out.push_back(std::vector<double>(grid.cells, 1.0));  // uniform
  std::vector<double> point(grid.cells, 0.0);
  point[grid.cells / 3] = 1.0;
  out.push_back(point);
  std::vector<double> two(grid.cells, 0.0);
  two.front() = 1e-300;
  two.back() = 1.0;
  out.push_back(two);
  return out;
}

}  // namespace

TEST_CASE("continuous: generic constants c1 = 0.5, c2 = 2 (core/mechanisms/cells.md)", "[continuous][vectors]") {
  const ContinuousConstants k = continuous_constants(0.5, 2.0, 0.5);
  CHECK_FALSE(k.trivial);
  CHECK(k.alpha == Approx(1.0 / 3.0).epsilon(1e-15));
  CHECK(k.b == Approx(0.822206).margin(half_unit(6)).epsilon(0));
  CHECK(k.ceiling == Approx(1.355588).margin(half_unit(6)).epsilon(0));
  CHECK(k.r1 == Approx(0.608120).margin(half_unit(6)).epsilon(0));
  CHECK(k.r2 == Approx(1.475374).margin(half_unit(6)).epsilon(0));
  CHECK(k.gamma == Approx(0.355588).margin(half_unit(6)).epsilon(0));
  CHECK(chord_risk(f_divergence(NamedDivergence::kl), k.r1, k.r2) == Approx(0.093480).margin(half_unit(6)).epsilon(0));
  CHECK(chord_risk(f_divergence(NamedDivergence::tv), k.r1, k.r2) == Approx(0.214804).margin(half_unit(6)).epsilon(0));
  // identities of core/mechanisms/cells.md#classes-and-constants
  CHECK(k.c2 * k.alpha + k.c1 * (1.0 - k.alpha) == Approx(1.0).epsilon(1e-15));
  CHECK(k.ceiling * k.alpha + k.b * (1.0 - k.alpha) == Approx(1.0).epsilon(1e-15));
  CHECK(k.b == Approx(k.gamma * k.c1 + 1.0 - k.gamma).epsilon(1e-14));
  CHECK(k.ceiling == Approx(k.gamma * k.c2 + 1.0 - k.gamma).epsilon(1e-14));

  // The same through the samplers, with an unnormalised reference (Σh = 3: raw c1 = 0.5/3, c2 = 2/3).
  const std::size_t n = 999;
  const std::vector<double> h(n, 3.0 / static_cast<double>(n));
  const MinimaxOnCells clip(0.5, h, 0.5 / 3.0, 2.0 / 3.0);
  CHECK(clip.density_class().c1 == Approx(0.5).epsilon(1e-14));
  CHECK(clip.density_class().c2 == Approx(2.0).epsilon(1e-14));
  CHECK(clip.worst_case_risk(NamedDivergence::kl) == Approx(0.093480).margin(half_unit(6)).epsilon(0));
  CHECK(clip.worst_case_risk(NamedDivergence::tv) == Approx(0.214804).margin(half_unit(6)).epsilon(0));
  const LinearOnCells linear({PrivacyNotion::pure_ldp, 0.5}, h, 0.5 / 3.0, 2.0 / 3.0);
  CHECK(linear.lambda() == Approx(0.355588).margin(half_unit(6)).epsilon(0));
  CHECK(linear.worst_case_risk(NamedDivergence::kl) == Approx(0.093480).margin(half_unit(6)).epsilon(0));

  // The extreme input P_A (c2·h on a set of h-mass α, c1·h elsewhere) attains R for both samplers (core/mechanisms/cells.md#minimax-clip-sampler).
  std::vector<double> extreme(n);
  for (std::size_t i = 0; i < n; ++i) extreme[i] = (i < n / 3 ? 2.0 : 0.5) / static_cast<double>(n);
  const std::vector<double> q_clip = clip.distribution(extreme);
  const std::vector<double> q_linear = linear.distribution(extreme);
  for (const NamedDivergence f : kDivergences) {
    INFO(divergence_name(f));
    CHECK(divergence(f, extreme, q_clip) == Approx(clip.worst_case_risk(f)).epsilon(1e-12));
    CHECK(divergence(f, extreme, q_linear) == Approx(clip.worst_case_risk(f)).epsilon(1e-12));
  }

  // ε = 2 is the trivial case (2 <= 0.5·e²): identity, R = 0.
  CHECK(continuous_constants(0.5, 2.0, 2.0).trivial);
  const MinimaxOnCells trivial(2.0, h, 0.5 / 3.0, 2.0 / 3.0);
  CHECK(trivial.worst_case_risk(NamedDivergence::kl) == 0.0);
  const std::vector<double> q = trivial.distribution(extreme);
  for (std::size_t i = 0; i < n; ++i) CHECK(q[i] == Approx(extreme[i]).epsilon(1e-14));
  CHECK(trivial.normaliser(extreme) == 1.0);
}

TEST_CASE("continuous: truncated-Gaussian test vectors (core/mechanisms/cells.md)", "[continuous][vectors]") {
  const Grid1D grid{-4.0, 4.0, 20000};
  const std::vector<double> h = gaussian_mixture_envelope(grid);
  CHECK(compensated_total(h) == Approx(1.79761187).margin(half_unit(8)).epsilon(0));  // c2 = ∫h̃ (docs/experiments.md#park-fig-4-1-d-gaussian-mixtures)

  // Constants of docs/experiments.md#park-fig-4-1-d-gaussian-mixtures at ε = 0.1 / 0.5 / 1 / 2 / 5 and the class bound R.
  const std::vector<double> eps{0.1, 0.5, 1.0, 2.0, 5.0};
  const std::vector<double> b{0.944728, 0.734819, 0.511282, 0.219578, 0.012047};
  const std::vector<double> r2{1.721709, 1.483776, 1.293425, 1.107945, 1.005374};
  const std::vector<double> risk_kl{0.5433, 0.3946, 0.2573, 0.1025, 0.0054};
  const std::vector<double> risk_tv{0.4192, 0.3260, 0.2269, 0.0974, 0.0053};
  const std::vector<double> risk_h{0.2379, 0.1791, 0.1207, 0.0500, 0.0027};
  for (std::size_t e = 0; e < eps.size(); ++e) {
    INFO("epsilon = " << eps[e]);
    const MinimaxOnCells sampler(eps[e], h, 0.0, 1.0);
    CHECK(sampler.constants().alpha == Approx(0.55629361).margin(half_unit(8)).epsilon(0));
    CHECK(sampler.constants().b == Approx(b[e]).margin(half_unit(6)).epsilon(0));
    CHECK(sampler.constants().r2 == Approx(r2[e]).margin(half_unit(6)).epsilon(0));
    CHECK(sampler.constants().r1 == 0.0);
    CHECK(sampler.worst_case_risk(NamedDivergence::kl) == Approx(risk_kl[e]).margin(half_unit(4)).epsilon(0));
    CHECK(sampler.worst_case_risk(NamedDivergence::tv) == Approx(risk_tv[e]).margin(half_unit(4)).epsilon(0));
    CHECK(sampler.worst_case_risk(NamedDivergence::hellinger) == Approx(risk_h[e]).margin(half_unit(4)).epsilon(0));
  }

  struct Row {
    double mu, epsilon, r, kl, tv, hellinger;
  };
  const std::vector<Row> rows{
      {1, 0.1, 0.824335, 0.306383, 0.319305, 0.100615}, {1, 0.5, 0.845307, 0.198992, 0.236875, 0.066492},
      {1, 1, 0.874045, 0.109365, 0.155496, 0.036903},   {1, 2, 0.927304, 0.027355, 0.060276, 0.009158},
      {1, 5, 0.994228, 0.000107, 0.002816, 0.000033},   {0, 0.1, 0.849381, 0.138530, 0.219096, 0.038383},
      {0, 0.5, 0.874171, 0.071827, 0.147341, 0.019935}, {0, 1, 0.911483, 0.027087, 0.083761, 0.007451},
      {0, 2, 0.970324, 0.002223, 0.022807, 0.000586},   {0, 5, 0.999790, 0.000000, 0.000195, 0.000000},
  };
  for (const Row& row : rows) {
    INFO("mu = " << row.mu << ", epsilon = " << row.epsilon);
    const std::vector<double> p = gaussian_mixture(grid, std::vector<double>{row.mu}, std::vector<double>{1.0}, 1.0);
    REQUIRE(in_class(density_class(h, 0.0, 1.0), p));  // the |μ| = 1 tail touches the envelope exactly
    const MinimaxOnCells sampler(row.epsilon, h, 0.0, 1.0);
    const ClipNormalised solved = sampler.solve(p);
    CHECK(solved.kind == ClipCase::root);
    const double r = *sampler.normaliser(p);
    CHECK(r == Approx(row.r).margin(half_unit(6)).epsilon(0));
    CHECK(r > sampler.constants().r1);  // r1 < r_P <= r2 (core/mechanisms/cells.md#minimax-clip-sampler)
    CHECK(r <= sampler.constants().r2);
    CHECK(divergence(NamedDivergence::kl, p, solved.q) == Approx(row.kl).margin(half_unit(6)).epsilon(0));
    CHECK(divergence(NamedDivergence::tv, p, solved.q) == Approx(row.tv).margin(half_unit(6)).epsilon(0));
    CHECK(divergence(NamedDivergence::hellinger, p, solved.q) == Approx(row.hellinger).margin(half_unit(6)).epsilon(0));
  }
}

TEST_CASE("continuous: Q* and Q-dagger on the paper's class: box, r1 <= p/q <= r2, risk bound, dominance",
          "[continuous][property]") {
  const Grid1D grid{-4.0, 4.0, 2000};
  const std::vector<double> raw_h = gaussian_mixture_envelope(grid);
  const std::vector<std::vector<double>> inputs = random_paper_mixtures(grid, 20261123, 25);
  for (const double epsilon : {0.1, 1.0, 5.0}) {
    const MinimaxOnCells clip(epsilon, raw_h, 0.0, 1.0);
    const LinearOnCells linear({PrivacyNotion::pure_ldp, epsilon}, raw_h, 0.0, 1.0);
    const ContinuousConstants& k = clip.constants();
    const std::vector<double>& h = clip.density_class().h;
    CHECK(linear.lambda() == Approx(k.gamma).epsilon(1e-13));
    for (std::size_t j = 0; j < inputs.size(); ++j) {
      INFO("epsilon = " << epsilon << ", input " << j);
      const std::vector<double>& p = inputs[j];
      REQUIRE(in_class(clip.density_class(), p));
      const std::vector<double> q = clip.distribution(p);
      const std::vector<double> q_linear = linear.distribution(p);
      CHECK(total_error(q) <= 1e-12);
      CHECK(total_error(q_linear) <= 1e-12);
      bool box = true;
      bool ratio = true;
      bool linear_box = true;
      for (std::size_t i = 0; i < q.size(); ++i) {
        box = box && q[i] >= k.b * h[i] && q[i] <= k.ceiling * h[i];
        linear_box =
            linear_box && q_linear[i] >= k.b * h[i] * (1.0 - 1e-14) && q_linear[i] <= k.ceiling * h[i] * (1.0 + 1e-14);
        const double t = p[i] / q[i];
        ratio = ratio && t >= k.r1 * (1.0 - 1e-12) && t <= k.r2 * (1.0 + 1e-12);
        const double t_linear = p[i] / q_linear[i];
        ratio = ratio && t_linear >= k.r1 * (1.0 - 1e-12) && t_linear <= k.r2 * (1.0 + 1e-12);
      }
      CHECK(box);
      CHECK(linear_box);
      CHECK(ratio);
      for (const NamedDivergence f : kDivergences) {
        INFO(divergence_name(f));
        const double d_clip = divergence(f, p, q);
        const double d_linear = divergence(f, p, q_linear);
        CHECK(d_clip <= clip.worst_case_risk(f) + 1e-12);
        CHECK(d_linear <= linear.worst_case_risk(f) + 1e-12);
        CHECK(d_clip <= d_linear + 1e-12);  // Prop 3.4: Q* is the f-projection onto the mollifier
      }
    }
  }
}

TEST_CASE("continuous: ratio bound e^eps over adversarial densities (Q*, local clip, local linear)",
          "[continuous][privacy]") {
  const Grid1D grid{-4.0, 4.0, 800};
  const std::vector<double> raw_h = gaussian_mixture_envelope(grid);
  const std::vector<double> p0 =
      gaussian_mixture(grid, std::vector<double>{0.0}, std::vector<double>{1.0}, 1.0);  // public reference
  const std::vector<std::vector<double>> inputs = adversarial_densities(grid);
  for (const double epsilon : {1e-6, 0.5, 2.0, 8.0}) {
    INFO("epsilon = " << epsilon);
    const MinimaxOnCells clip(epsilon, raw_h, 0.0, 1.0);
    const LocalOnCells local_clip(epsilon, p0, 4.0);
    const LocalLinearOnCells local_linear({PrivacyNotion::pure_ldp, epsilon}, p0, 4.0);
    const double bound = std::exp(epsilon) * (1.0 + 1e-12);
    std::vector<std::vector<double>> outputs[3];
    for (const auto& p : inputs) {
      outputs[0].push_back(clip.distribution(p));
      outputs[1].push_back(local_clip.distribution(p));
      outputs[2].push_back(local_linear.distribution(p));
    }
    for (int s = 0; s < 3; ++s) {
      INFO("sampler " << s << " (0 = Q*, 1 = local clip, 2 = local linear)");
      double worst = 0.0;
      for (const auto& a : outputs[s]) {
        CHECK(total_error(a) <= 1e-12);
        for (const auto& b : outputs[s]) worst = std::max(worst, max_ratio(a, b));
      }
      CHECK(worst <= bound);
    }
  }
}

TEST_CASE("continuous: local linear keeps every ratio within e^eps where the prior's tail cells underflow",
          "[continuous][privacy]") {
  // The audit's witness: N(0, 1) on [−40, 40] has cells of mass 0 and subnormal mass past ±37; the local linear
  // sampler kept the subnormal ones, whose floors have no relative precision (ratio 3 at ε = 1, infinite at ε = 20).
  // They are now never output, as in the other continuous samplers. Checked through distribution(), no slack.
  const Grid1D grid{-40.0, 40.0, 4000};
  const std::vector<double> one{1.0};
  const std::vector<double> p0 = gaussian_mixture(grid, std::vector<double>{0.0}, one, 1.0);
  std::vector<std::vector<double>> inputs;
  for (const std::size_t cell : {0, 100, 140, 145, 148, 150, 152, 155, 160, 170, 200, 300, 1000, 2000, 2001, 3000, 3800,
                                 3830, 3840, 3845, 3848, 3850, 3852, 3855, 3860, 3900, 3999}) {
    std::vector<double> point(grid.cells, 0.0);
    point[cell] = 1.0;
    inputs.push_back(point);
  }
  inputs.push_back(std::vector<double>(grid.cells, 1.0));
  inputs.push_back(p0);
  inputs.push_back(gaussian_mixture(grid, std::vector<double>{-38.5}, one, 0.5));
  inputs.push_back(gaussian_mixture(grid, std::vector<double>{38.5, 0.0}, std::vector<double>{1.0, 1e-9}, 0.5));
  inputs.push_back(gaussian_mixture(grid, std::vector<double>{0.0}, one, 1e-3));
  for (const Guarantee& g : {Guarantee{PrivacyNotion::pure_ldp, 1.0}, Guarantee{PrivacyNotion::pure_ldp, 20.0},
                             Guarantee{PrivacyNotion::pure_ldp, 700.0},
                             Guarantee{PrivacyNotion::approximate_ldp, 20.0, 1e-9},
                             Guarantee{PrivacyNotion::gaussian_ldp, 0.0, 0.0, 3.0}}) {
    INFO("notion " << notion_name(g.notion) << ", epsilon " << g.epsilon << ", mu " << g.mu);
    const LocalLinearOnCells sampler(g, p0, 1e6);
    std::vector<std::vector<double>> outputs;
    for (const auto& p : inputs) outputs.push_back(sampler.distribution(p));
    std::size_t never_output = 0;
    std::size_t violations = 0;
    for (std::size_t i = 0; i < grid.cells; ++i) {
      double low = 2.0;
      double high = 0.0;
      for (const auto& q : outputs) {
        low = std::min(low, q[i]);
        high = std::max(high, q[i]);
      }
      if (high == 0.0) ++never_output;
      if (g.notion == PrivacyNotion::pure_ldp && !within_ratio(high, low, g.epsilon)) ++violations;
      if (high > 0.0) {
        // Every output cell keeps floors of at least 2^-960, its output box's and its projection box's (P0/γ): smaller
        // ones have subnormal rounding errors, which made a release's time follow the data.
        CHECK(low >= kSmallestBoxFloor);
        CHECK(sampler.prior()[i] / 1e6 >= kSmallestBoxFloor);
      }
    }
    CHECK(violations == 0);
    CHECK(never_output >= 248);  // at least the 152 cells of mass 0 and the 96 of subnormal mass
    for (const auto& q : outputs) CHECK(total_error(q) <= 1e-12);
    if (g.notion == PrivacyNotion::approximate_ldp) {
      for (const auto& a : outputs) {
        for (const auto& b : outputs) CHECK(hockey_stick_within(a, b, g.epsilon, g.delta));
      }
    }
    if (g.notion == PrivacyNotion::gaussian_ldp) {
      for (const double beta : {0.0, 1.0, 5.0, 20.0}) {
        for (const auto& a : outputs) {
          for (const auto& b : outputs) CHECK(hockey_stick_within(a, b, beta, privacy_profile(g, beta)));
        }
      }
    }
  }
}

TEST_CASE("continuous: local samplers around P0 (core/mechanisms/cells.md): block input attains the risk",
          "[continuous][local]") {
  // P0 uniform on [0, 1] with 1000 cells, γ = 4: blocks of γ+1 = 5 × 200 cells have mass exactly 1/5.
  const Grid1D grid{0.0, 1.0, 1000};
  const std::vector<double> p0(grid.cells, 2.5);  // any scale
  const double gamma = 4.0;
  std::vector<double> block(grid.cells);
  for (std::size_t i = 0; i < grid.cells; ++i) block[i] = (i < 200 ? gamma : 1.0 / gamma) / 1000.0;
  for (const double epsilon : {0.5, 1.0, 2.0}) {
    INFO("epsilon = " << epsilon);
    const LocalOnCells clip(epsilon, p0, gamma);
    const LocalLinearOnCells linear({PrivacyNotion::pure_ldp, epsilon}, p0, gamma);
    const std::vector<double> q_clip = clip.distribution(block);
    const std::vector<double> q_linear = linear.distribution(block);
    for (const NamedDivergence f : kDivergences) {
      INFO(divergence_name(f));
      CHECK(clip.worst_case_risk(f) == Approx(linear.worst_case_risk(f)).epsilon(1e-12));  // same r1, r2
      CHECK(divergence(f, block, q_clip) == Approx(clip.worst_case_risk(f)).epsilon(1e-10));
      CHECK(divergence(f, block, q_linear) == Approx(linear.worst_case_risk(f)).epsilon(1e-10));
    }
  }
  // Trivial regime ε >= 2 ln γ: risk 0 and the output is the input (for members of N_γ).
  const LocalOnCells trivial(2.0 * std::log(gamma) + 0.1, p0, gamma);
  CHECK(trivial.worst_case_risk(NamedDivergence::kl) == 0.0);
  const std::vector<double> q = trivial.distribution(block);
  for (std::size_t i = 0; i < q.size(); ++i) CHECK(q[i] == Approx(block[i]).epsilon(1e-13));
}

TEST_CASE("continuous: local samplers on Gaussian and Laplace densities: risk bound and Prop 5.2",
          "[continuous][local]") {
  const Grid1D grid{-4.0, 4.0, 1600};
  const std::vector<double> one{1.0};
  const std::vector<double> p0 = gaussian_mixture(grid, std::vector<double>{0.0}, one, 1.0);
  const double gamma = 4.0;
  std::vector<std::vector<double>> members;
  for (const double mu : {-0.3, 0.1, 0.25})
    members.push_back(gaussian_mixture(grid, std::vector<double>{mu}, one, 1.0));
  members.push_back(gaussian_mixture(grid, std::vector<double>{-0.2, 0.3}, std::vector<double>{0.4, 0.6}, 1.05));
  const DensityClass neighbourhood = density_class(p0, 1.0 / gamma, gamma);  // N_γ(P0) = P̃_{1/γ, γ, P0}
  for (const double epsilon : {0.5, 1.0, 2.0}) {
    const LocalOnCells clip(epsilon, p0, gamma);
    for (const Guarantee& g :
         {Guarantee{PrivacyNotion::pure_ldp, epsilon}, Guarantee{PrivacyNotion::approximate_ldp, epsilon, 0.01},
          Guarantee{PrivacyNotion::gaussian_ldp, 0.0, 0.0, epsilon}}) {
      const LocalLinearOnCells linear(g, p0, gamma);
      for (std::size_t j = 0; j < members.size(); ++j) {
        INFO("epsilon = " << epsilon << ", notion " << notion_name(g.notion) << ", member " << j);
        const std::vector<double>& p = members[j];
        REQUIRE(in_class(neighbourhood, p));
        const std::vector<double> projected = linear.projection(p);
        for (std::size_t i = 0; i < p.size(); ++i) CHECK(projected[i] == Approx(p[i]).epsilon(1e-12));
        const std::vector<double> q_clip = clip.distribution(p);
        const std::vector<double> q_linear = linear.distribution(p);
        CHECK(total_error(q_linear) <= 1e-12);
        for (const NamedDivergence f : kDivergences) {
          INFO(divergence_name(f));
          CHECK(divergence(f, p, q_clip) <= clip.worst_case_risk(f) + 1e-12);
          CHECK(divergence(f, p, q_linear) <= linear.worst_case_risk(f) + 1e-12);
          if (g.notion == PrivacyNotion::pure_ldp)
            CHECK(divergence(f, p, q_clip) <= divergence(f, p, q_linear) + 1e-12);
        }
      }
    }
  }
  // Laplace class of Ghoukasian et al. Example 3.1 (core/mechanisms/cells.md#densities-and-envelopes; 1-D, scale 1): L(m, 1), |m| <= 1, around h = L(0, 1) with
  // c1 = e^{−1}, c2 = e. The grid [−12, 12] keeps all but ~e^{−11} of each mass, so the truncated pmfs stay
  // inside the class widened by 0.1%.
  const Grid1D wide{-12.0, 12.0, 2400};
  const std::vector<double> h = laplace_mixture(wide, std::vector<double>{0.0}, one, 1.0);
  const double c1 = std::exp(-1.0) * 0.999;
  const double c2 = std::exp(1.0) * 1.001;
  for (const double epsilon : {0.5, 1.5}) {
    const MinimaxOnCells clip(epsilon, h, c1, c2);
    const LinearOnCells linear({PrivacyNotion::pure_ldp, epsilon}, h, c1, c2);
    for (const double m : {-1.0, -0.4, 0.0, 0.7, 1.0}) {
      INFO("epsilon = " << epsilon << ", m = " << m);
      const std::vector<double> p = laplace_mixture(wide, std::vector<double>{m}, one, 1.0);
      REQUIRE(in_class(clip.density_class(), p));
      const std::vector<double> q = clip.distribution(p);
      const std::vector<double> q_linear = linear.distribution(p);
      for (const NamedDivergence f : kDivergences) {
        CHECK(divergence(f, p, q) <= clip.worst_case_risk(f) + 1e-12);
        CHECK(divergence(f, p, q_linear) <= linear.worst_case_risk(f) + 1e-12);
      }
    }
  }
}

TEST_CASE("continuous: (eps, delta) and Gaussian local linear samplers keep their hockey-stick profile",
          "[continuous][privacy]") {
  const Grid1D grid{-4.0, 4.0, 400};
  const std::vector<double> p0 = gaussian_mixture(grid, std::vector<double>{0.5}, std::vector<double>{1.0}, 1.5);
  const std::vector<std::vector<double>> inputs = adversarial_densities(grid);
  for (const Guarantee& g :
       {Guarantee{PrivacyNotion::approximate_ldp, 1.0, 0.05}, Guarantee{PrivacyNotion::gaussian_ldp, 0.0, 0.0, 1.0}}) {
    INFO("notion " << notion_name(g.notion));
    const LocalLinearOnCells sampler(g, p0, 3.0);
    CHECK(sampler.lambda() > 0.0);
    CHECK(sampler.lambda() < 1.0);
    std::vector<std::vector<double>> outputs;
    for (const auto& p : inputs) outputs.push_back(sampler.distribution(p));
    for (const double beta : {0.0, 0.5, 1.0, 2.0}) {
      double worst = 0.0;
      for (const auto& a : outputs) {
        for (const auto& b : outputs) worst = std::max(worst, hockey_stick_divergence(a, b, beta));
      }
      INFO("beta = " << beta);
      CHECK(worst <= privacy_profile(g, beta) + 1e-12);
    }
  }
}

TEST_CASE("continuous: global linear sampler keeps its (eps, delta) / Gaussian profile on the class",
          "[continuous][privacy]") {
  const Grid1D grid{-4.0, 4.0, 400};
  const std::vector<double> raw_h = gaussian_mixture_envelope(grid);
  const std::vector<std::vector<double>> members = random_paper_mixtures(grid, 99, 12);
  for (const Guarantee& g :
       {Guarantee{PrivacyNotion::approximate_ldp, 0.5, 0.02}, Guarantee{PrivacyNotion::gaussian_ldp, 0.0, 0.0, 0.8}}) {
    INFO("notion " << notion_name(g.notion));
    const LinearOnCells sampler(g, raw_h, 0.0, 1.0);
    CHECK(sampler.guarantee().notion == g.notion);
    std::vector<std::vector<double>> outputs;
    for (const auto& p : members) outputs.push_back(sampler.distribution(p));
    for (const double beta : {0.0, 0.3, 1.0}) {
      double worst = 0.0;
      for (const auto& a : outputs) {
        for (const auto& b : outputs) worst = std::max(worst, hockey_stick_divergence(a, b, beta));
      }
      INFO("beta = " << beta);
      CHECK(worst <= privacy_profile(g, beta) + 1e-12);
    }
    for (std::size_t j = 0; j < members.size(); ++j) {
      for (const NamedDivergence f : kDivergences) {
        CHECK(divergence(f, members[j], outputs[j]) <= sampler.worst_case_risk(f) + 1e-12);
      }
    }
  }
}

TEST_CASE("continuous: 2-D ratio bound and references with empty cells", "[continuous][privacy]") {
  const Grid2D grid{-3.0, 3.0, 40, -3.0, 3.0, 40};
  const std::vector<double> envelope = cell_masses(grid, [](double x, double y) {
    const double d = std::max(0.0, std::hypot(x, y) - 1.0);
    return std::exp(-d * d) / std::numbers::pi;
  });
  std::vector<std::vector<double>> inputs;
  inputs.push_back(gaussian_ring(grid));
  inputs.push_back(laplace_mixture(grid, std::vector<Point2D>{{2.9, -2.9}}, std::vector<double>{1.0}, 0.02));
  inputs.push_back(kernel_density(grid, std::vector<Point2D>{{0.0, 0.0}, {0.05, 0.02}, {-2.5, 1.0}}));
  inputs.push_back(gaussian_mixture(grid, std::vector<Point2D>{{0.7, 0.7}}, std::vector<double>{1.0}, 0.05));
  for (const double epsilon : {0.3, 3.0}) {
    INFO("epsilon = " << epsilon);
    const MinimaxOnCells clip(epsilon, envelope, 0.0, 1.0);
    const LocalOnCells around_ring(epsilon, inputs[0], 5.0);
    std::vector<std::vector<double>> a_out;
    std::vector<std::vector<double>> b_out;
    for (const auto& p : inputs) {
      a_out.push_back(clip.distribution(p));
      b_out.push_back(around_ring.distribution(p));
    }
    double worst = 0.0;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      CHECK(total_error(a_out[i]) <= 1e-12);
      CHECK(total_error(b_out[i]) <= 1e-12);
      for (std::size_t j = 0; j < inputs.size(); ++j) {
        worst = std::max({worst, max_ratio(a_out[i], a_out[j]), max_ratio(b_out[i], b_out[j])});
      }
    }
    CHECK(worst <= std::exp(epsilon) * (1.0 + 1e-12));
  }
  // A reference that is zero on the left half: those cells are never output, and a density living only there
  // gets the data-independent output (clip_normalise Case B with no support inside the reference).
  std::vector<double> half(100, 0.0);
  for (std::size_t i = 50; i < 100; ++i) half[i] = 1.0;
  const MinimaxOnCells clip(1.0, half, 0.0, 1.5);
  std::vector<double> left(100, 0.0);
  for (std::size_t i = 0; i < 50; ++i) left[i] = 1.0;
  std::vector<double> right(100, 0.0);
  right[75] = 1.0;
  const std::vector<double> q_left = clip.distribution(left);
  const std::vector<double> q_right = clip.distribution(right);
  CHECK(total_error(q_left) <= 1e-12);
  CHECK(total_error(q_right) <= 1e-12);
  bool zero_outside = true;
  for (std::size_t i = 0; i < 50; ++i) zero_outside = zero_outside && q_left[i] == 0.0 && q_right[i] == 0.0;
  CHECK(zero_outside);
  CHECK(std::max(max_ratio(q_left, q_right), max_ratio(q_right, q_left)) <= std::exp(1.0) * (1.0 + 1e-12));
}

TEST_CASE("continuous: densities are exact cell masses", "[continuous][densities]") {
  const Grid1D grid{-3.0, 5.0, 400};
  const std::vector<double> means{-0.5, 1.0, 2.5};
  const std::vector<double> weights{0.2, 0.5, 0.3};
  const double sigma = 0.7;
  const std::vector<double> p = gaussian_mixture(grid, means, weights, sigma);
  CHECK(total_error(p) <= 1e-14);
  // against quadrature of the pdf (smooth, so 5-point Gauss–Legendre per cell is accurate to ~1e-12)
  std::vector<double> quad = cell_masses(grid, [&](double x) {
    double v = 0.0;
    for (std::size_t j = 0; j < means.size(); ++j) {
      const double z = (x - means[j]) / sigma;
      v += weights[j] * std::exp(-0.5 * z * z) / (sigma * std::sqrt(2.0 * std::numbers::pi));
    }
    return v;
  });
  const double quad_total = compensated_total(quad);
  for (double& v : quad) v /= quad_total;
  double worst = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) worst = std::max(worst, std::fabs(p[i] - quad[i]) / quad[i]);
  CHECK(worst <= 1e-9);

  // Laplace: cell edges on the means so quadrature sees no kink inside a cell
  const Grid1D lgrid{-2.0, 2.0, 400};
  const std::vector<double> lmeans{-1.0, 0.5};
  const std::vector<double> lweights{0.5, 0.5};
  const std::vector<double> lp = laplace_mixture(lgrid, lmeans, lweights, 0.3);
  std::vector<double> lquad = cell_masses(lgrid, [&](double x) {
    return 0.5 * (std::exp(-std::fabs(x + 1.0) / 0.3) + std::exp(-std::fabs(x - 0.5) / 0.3)) / 0.6;
  });
  const double lquad_total = compensated_total(lquad);
  for (double& v : lquad) v /= lquad_total;
  worst = 0.0;
  for (std::size_t i = 0; i < lp.size(); ++i) worst = std::max(worst, std::fabs(lp[i] - lquad[i]) / lquad[i]);
  CHECK(worst <= 1e-9);
  // far tails keep relative precision (no cancellation to 0)
  const std::vector<double> tail =
      gaussian_mixture(Grid1D{-30.0, 30.0, 60}, std::vector<double>{0.0}, std::vector<double>{1.0}, 1.0);
  CHECK(tail.front() > 0.0);
  CHECK(tail.front() == Approx(tail.back()).epsilon(1e-12));

  // 2-D: the ring against quadrature of its pdf, and its cells in image layout (index iy·nx + ix)
  const Grid2D g2{-3.0, 3.0, 60, -3.0, 3.0, 50};
  const std::vector<double> ring = gaussian_ring(g2);
  CHECK(ring.size() == cell_count(g2));
  CHECK(total_error(ring) <= 1e-14);
  std::vector<double> rquad = cell_masses(g2, [](double x, double y) {
    double v = 0.0;
    for (int j = 0; j < 3; ++j) {
      const double angle = 2.0 * std::numbers::pi * j / 3.0;
      const double dx = x - std::cos(angle);
      const double dy = y - std::sin(angle);
      v += std::exp(-(dx * dx + dy * dy)) / (3.0 * std::numbers::pi);  // σ² = 0.5
    }
    return v;
  });
  const double rquad_total = compensated_total(rquad);
  worst = 0.0;
  for (std::size_t i = 0; i < ring.size(); ++i) {
    worst = std::max(worst, std::fabs(ring[i] - rquad[i] / rquad_total) / ring[i]);
  }
  CHECK(worst <= 1e-7);
  // the cell holding the first mode (1, 0) is the heaviest in its row
  const std::size_t mode = cell_index(g2, 1.0 + 1e-9, 0.0 + 1e-9);
  CHECK(mode == 25 * 60 + 40);
  // 2-D Laplace is the product of the 1-D masses per component
  const Grid1D ax{-2.0, 2.0, 40};
  const Grid2D lg2{-2.0, 2.0, 40, -2.0, 2.0, 40};
  const std::vector<double> l2 = laplace_mixture(lg2, std::vector<Point2D>{{0.3, -0.6}}, std::vector<double>{1.0}, 0.5);
  const std::vector<double> lx = laplace_mixture(ax, std::vector<double>{0.3}, std::vector<double>{1.0}, 0.5);
  const std::vector<double> ly = laplace_mixture(ax, std::vector<double>{-0.6}, std::vector<double>{1.0}, 0.5);
  worst = 0.0;
  for (std::size_t iy = 0; iy < 40; ++iy) {
    for (std::size_t ix = 0; ix < 40; ++ix) {
      worst = std::max(worst, std::fabs(l2[iy * 40 + ix] - lx[ix] * ly[iy]) / (lx[ix] * ly[iy]));
    }
  }
  CHECK(worst <= 1e-12);
}

TEST_CASE("continuous: envelope bounds every mixture of the paper's class", "[continuous][densities]") {
  const Grid1D grid{-4.0, 4.0, 3000};
  const std::vector<double> h = gaussian_mixture_envelope(grid);
  std::mt19937_64 rng(7);
  for (int i = 0; i < 30; ++i) {
    const std::vector<double> p = random_paper_mixture(grid, rng);
    bool below = true;
    for (std::size_t c = 0; c < p.size(); ++c) below = below && p[c] <= h[c] * (1.0 + 1e-12);
    CHECK(below);
  }
}

// The ring envelope of docs/experiments.md#park-fig-1-gaussian-ring bounds every member of its class cell by cell:
// mixtures of N(μ, 0.5·I) with ‖μ‖ <= 1 (on and inside the unit circle, the ring itself), truncated to the grid.
TEST_CASE("continuous: the ring envelope bounds the ring's class cell by cell", "[continuous][densities]") {
  const Grid2D grid{-3.0, 3.0, 30, -3.0, 3.0, 30};
  const std::vector<double> h = gaussian_ring_envelope(grid, 0.5, 1.0);
  double total = 0.0;
  for (double v : h) total += v;
  // ∫h̃ = 3.772454 on ℝ² (docs/experiments.md); the cell sup and the truncation bound make Σ a little larger.
  CHECK(total > 3.772454);
  CHECK(total < 6.0);
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<Point2D> means{{1.0, 0.0}, {0.0, -1.0}, {std::sqrt(0.5), std::sqrt(0.5)}, {0.0, 0.0}, {-0.3, 0.5}};
  while (means.size() < 25) {
    const double x = unit(rng);
    const double y = unit(rng);
    if (x * x + y * y <= 1.0) means.push_back({x, y});
  }
  for (const Point2D& mean : means) {
    const std::vector<double> p = gaussian_mixture(grid, std::vector<Point2D>{mean}, std::vector<double>{1.0}, std::sqrt(0.5));
    std::size_t above = 0;
    for (std::size_t c = 0; c < p.size(); ++c) above += p[c] > h[c] ? 1 : 0;
    CHECK(above == 0);
  }
  const std::vector<double> ring = gaussian_ring(grid, 3, 0.5, 1.0);
  for (std::size_t c = 0; c < ring.size(); ++c) REQUIRE(ring[c] <= h[c]);
  // A looser class (radius 2) has a larger envelope; a finer grid changes Σ towards ∫h̃ (cell sup shrinks).
  const std::vector<double> wide = gaussian_ring_envelope(grid, 0.5, 2.0);
  for (std::size_t c = 0; c < h.size(); ++c) CHECK(wide[c] >= h[c]);
  const std::vector<double> fine = gaussian_ring_envelope(Grid2D{-3.0, 3.0, 120, -3.0, 3.0, 120}, 0.5, 1.0);
  double fine_total = 0.0;
  for (double v : fine) fine_total += v;
  CHECK(fine_total < total);
  CHECK(fine_total > 3.772454);
  CHECK_THROWS_WITH(gaussian_ring_envelope(grid, 0.0, 1.0), Catch::Contains("variance"));
  CHECK_THROWS_WITH(gaussian_ring_envelope(grid, 0.5, -1.0), Catch::Contains("radius = -1"));
  CHECK_THROWS_WITH(gaussian_ring_envelope(Grid2D{-3.0, 3.0, 0, -3.0, 3.0, 30}, 0.5, 1.0), Catch::Contains("grid"));
}

TEST_CASE("continuous: kernel density estimate", "[continuous][densities]") {
  const Grid1D grid{-5.0, 5.0, 500};
  const std::vector<double> points{-1.0, -0.2, 0.4, 0.5, 2.0};
  // given bandwidth: the equal-weight Gaussian mixture on the points
  const std::vector<double> kde = kernel_density(grid, points, 0.3);
  const std::vector<double> mixture = gaussian_mixture(grid, points, std::vector<double>(points.size(), 1.0), 0.3);
  for (std::size_t i = 0; i < kde.size(); ++i) CHECK(kde[i] == Approx(mixture[i]).epsilon(1e-14));
  // Scott's rule: σ̂·n^{−1/5} with σ̂ the (n − 1) standard deviation
  double mean = 0.0;
  for (const double x : points) mean += x / 5.0;
  double ss = 0.0;
  for (const double x : points) ss += (x - mean) * (x - mean);
  const double scott = std::sqrt(ss / 4.0) * std::pow(5.0, -0.2);
  CHECK(scott_bandwidth(points) == Approx(scott).epsilon(1e-14));
  const std::vector<double> auto_kde = kernel_density(grid, points);
  const std::vector<double> by_hand = gaussian_mixture(grid, points, std::vector<double>(points.size(), 1.0), scott);
  for (std::size_t i = 0; i < kde.size(); ++i) CHECK(auto_kde[i] == Approx(by_hand[i]).epsilon(1e-13));
  // 2-D: per-axis Scott bandwidths σ̂_d·n^{−1/6}; with a given bandwidth, the isotropic mixture
  const Grid2D g2{-3.0, 3.0, 30, -3.0, 3.0, 30};
  const std::vector<Point2D> pts{{0.0, 0.0}, {1.0, 0.5}, {-0.5, 1.5}, {0.2, -1.0}};
  const std::vector<double> k2 = kernel_density(g2, pts, 0.4);
  const std::vector<double> m2 = gaussian_mixture(g2, pts, std::vector<double>(pts.size(), 1.0), 0.4);
  for (std::size_t i = 0; i < k2.size(); ++i) CHECK(k2[i] == Approx(m2[i]).epsilon(1e-14));
  const std::vector<double> k2auto = kernel_density(g2, pts);
  CHECK(total_error(k2auto) <= 1e-14);
}

TEST_CASE("continuous: draws match q and points lie in their cells", "[continuous][sampling]") {
  const Grid1D grid{-4.0, 4.0, 20};
  const std::vector<double> h = gaussian_mixture_envelope(grid);
  const std::vector<double> p =
      gaussian_mixture(grid, std::vector<double>{-0.8, 0.9}, std::vector<double>{0.7, 0.3}, 1.0);
  const MinimaxOnCells sampler(1.0, h, 0.0, 1.0);
  const std::vector<double> q = sampler.distribution(p);
  const std::vector<double> edges = cell_edges(grid);
  SeededRandom bits(42);
  const std::size_t n = 200000;
  std::vector<std::size_t> counts(grid.cells, 0);
  std::vector<std::size_t> within(10, 0);  // position inside the cell, in tenths: uniform
  bool inside = true;
  const DiscreteSampler cells(q);
  for (std::size_t t = 0; t < n; ++t) {
    const std::size_t c = cells.draw(bits);
    const double x = point_in_cell(grid, c, bits);
    inside = inside && x >= edges[c] && x <= edges[c + 1];
    ++counts[c];
    const double u = (x - edges[c]) / (edges[c + 1] - edges[c]);
    ++within[std::min<std::size_t>(9, static_cast<std::size_t>(u * 10.0))];
  }
  CHECK(inside);
  CHECK(chi_square_survival(chi_square_statistic(counts, q, n), static_cast<int>(grid.cells) - 1) >=
        kGoodnessOfFitLevel);
  CHECK(chi_square_survival(chi_square_statistic(within, std::vector<double>(10, 0.1), n), 9) >= kGoodnessOfFitLevel);
  // draw_point (the convenience path) lands in the cell chosen with the right frequencies too
  std::vector<std::size_t> via_draw(grid.cells, 0);
  for (std::size_t t = 0; t < 20000; ++t) ++via_draw[cell_index(grid, draw_point(grid, q, bits))];
  CHECK(chi_square_survival(chi_square_statistic(via_draw, q, 20000), static_cast<int>(grid.cells) - 1) >=
        kGoodnessOfFitLevel);

  // 2-D
  const Grid2D g2{-3.0, 3.0, 6, -2.0, 2.0, 5};
  const std::vector<double> ring = gaussian_ring(g2);
  const LocalOnCells local(1.0, std::vector<double>(30, 1.0), 3.0);
  const std::vector<double> q2 = local.distribution(ring);
  std::vector<std::size_t> counts2(30, 0);
  bool inside2 = true;
  const DiscreteSampler cells2(q2);
  for (std::size_t t = 0; t < 100000; ++t) {
    const std::size_t c = cells2.draw(bits);
    const Point2D pt = point_in_cell(g2, c, bits);
    const double xa = -3.0 + static_cast<double>(c % 6);
    const double ya = -2.0 + 0.8 * static_cast<double>(c / 6);
    inside2 = inside2 && pt[0] >= xa && pt[0] <= xa + 1.0 && pt[1] >= ya - 1e-15 && pt[1] <= ya + 0.8 + 1e-15;
    ++counts2[c];
  }
  CHECK(inside2);
  CHECK(chi_square_survival(chi_square_statistic(counts2, q2, 100000), 29) >= kGoodnessOfFitLevel);
  std::vector<std::size_t> via_draw2(30, 0);
  for (std::size_t t = 0; t < 20000; ++t) {
    const Point2D pt = draw_point(g2, q2, bits);
    ++via_draw2[cell_index(g2, pt[0], pt[1])];
  }
  CHECK(chi_square_survival(chi_square_statistic(via_draw2, q2, 20000), 29) >= kGoodnessOfFitLevel);
}

TEST_CASE("continuous: bad inputs name the parameter", "[continuous][validation]") {
  const std::vector<double> one{1.0};
  CHECK_THROWS_WITH(gaussian_mixture(Grid1D{-1.0, 1.0, 0}, one, one, 1.0), Catch::Contains("grid.cells"));
  CHECK_THROWS_WITH(gaussian_mixture(Grid1D{1.0, 1.0, 10}, one, one, 1.0), Catch::Contains("grid.lo"));
  CHECK_THROWS_WITH(gaussian_mixture(Grid1D{2.0, 1.0, 10}, one, one, 1.0), Catch::Contains("grid.hi"));
  CHECK_THROWS_WITH(gaussian_mixture(Grid1D{kNaN, 1.0, 10}, one, one, 1.0), Catch::Contains("NaN"));
  CHECK_THROWS_WITH(gaussian_mixture(Grid1D{0.0, kInf, 10}, one, one, 1.0), Catch::Contains("grid.hi"));
  CHECK_THROWS_WITH(gaussian_ring(Grid2D{-3.0, 3.0, 0, -3.0, 3.0, 5}), Catch::Contains("grid.nx"));
  CHECK_THROWS_WITH(gaussian_ring(Grid2D{-3.0, 3.0, 5, 3.0, -3.0, 5}), Catch::Contains("grid.yLo"));
  CHECK_THROWS_WITH(gaussian_ring(Grid2D{-3.0, 3.0, 5000, -3.0, 3.0, 5000}), Catch::Contains("grid.nx * grid.ny"));
  const Grid1D grid{-4.0, 4.0, 100};
  CHECK_THROWS_WITH(gaussian_mixture(grid, one, one, 0.0), Catch::Contains("sigma"));
  CHECK_THROWS_WITH(gaussian_mixture(grid, one, one, kNaN), Catch::Contains("sigma"));
  CHECK_THROWS_WITH(laplace_mixture(grid, one, one, -1.0), Catch::Contains("scale"));
  CHECK_THROWS_WITH(gaussian_mixture(grid, std::vector<double>{kNaN}, one, 1.0), Catch::Contains("means[0]"));
  CHECK_THROWS_WITH(gaussian_mixture(grid, one, std::vector<double>{1.0, 2.0}, 1.0), Catch::Contains("weights"));
  CHECK_THROWS_WITH(gaussian_mixture(grid, one, std::vector<double>{-1.0}, 1.0), Catch::Contains("weights[0]"));
  CHECK_THROWS_WITH(gaussian_mixture(grid, std::vector<double>{1e6}, one, 1.0), Catch::Contains("no mass"));
  CHECK_THROWS_WITH(kernel_density(grid, one), Catch::Contains("bandwidth"));
  CHECK_THROWS_WITH(kernel_density(grid, std::vector<double>{1.0, 1.0}), Catch::Contains("bandwidth"));
  CHECK_THROWS_WITH(kernel_density(grid, one, -0.1), Catch::Contains("bandwidth"));
  CHECK_THROWS_WITH(kernel_density(grid, std::vector<double>{0.0, kInf}, 0.1), Catch::Contains("points[1]"));
  CHECK_THROWS_WITH(cell_masses(grid, [](double) { return -1.0; }), Catch::Contains("density("));
  CHECK_THROWS_WITH(cell_masses(grid, [](double) { return kNaN; }), Catch::Contains("density("));

  const std::vector<double> h(100, 0.01);  // normalised
  CHECK_THROWS_WITH(continuous_constants(1.0, 2.0, 1.0), Catch::Contains("c1"));
  CHECK_THROWS_WITH(continuous_constants(0.5, 1.0, 1.0), Catch::Contains("c2"));
  CHECK_THROWS_WITH(continuous_constants(0.5, 2.0, kNaN), Catch::Contains("epsilon"));
  CHECK_THROWS_WITH(MinimaxOnCells(1.0, h, 1.0, 2.0), Catch::Contains("c1"));
  CHECK_THROWS_WITH(MinimaxOnCells(1.0, h, 1.5, 2.0), Catch::Contains("c1"));
  CHECK_THROWS_WITH(MinimaxOnCells(1.0, h, 0.0, 1.0), Catch::Contains("c2"));
  CHECK_THROWS_WITH(MinimaxOnCells(1.0, h, 0.5, 0.4), Catch::Contains("c2"));
  CHECK_THROWS_WITH(MinimaxOnCells(1.0, h, -0.1, 2.0), Catch::Contains("c1"));
  CHECK_THROWS_WITH(MinimaxOnCells(1.0, h, kNaN, 2.0), Catch::Contains("c1"));
  CHECK_THROWS_WITH(MinimaxOnCells(kNaN, h, 0.0, 2.0), Catch::Contains("epsilon"));
  CHECK_THROWS_WITH(MinimaxOnCells(-1.0, h, 0.0, 2.0), Catch::Contains("epsilon"));
  std::vector<double> bad_h = h;
  bad_h[7] = -0.01;
  CHECK_THROWS_WITH(MinimaxOnCells(1.0, bad_h, 0.0, 2.0), Catch::Contains("reference[7]"));
  CHECK_THROWS_WITH(MinimaxOnCells(1.0, std::vector<double>(10, 0.0), 0.0, 2.0), Catch::Contains("reference"));

  const MinimaxOnCells clip(1.0, h, 0.0, 2.0);
  std::vector<double> bad_p(100, 1.0);
  bad_p[3] = kNaN;
  CHECK_THROWS_WITH(clip.distribution(bad_p), Catch::Contains("density"));
  CHECK_THROWS_WITH(clip.distribution(std::vector<double>(99, 1.0)), Catch::Contains("density"));
  // Q* itself takes any density (privacy holds for every input) ...
  std::vector<double> spike(100, 0.0);
  spike[0] = 1.0;
  CHECK_NOTHROW(clip.distribution(spike));
  // ... but the mechanisms that are private only on the class reject densities outside it.
  const LinearOnCells linear({PrivacyNotion::pure_ldp, 1.0}, h, 0.0, 2.0);
  CHECK_THROWS_WITH(linear.distribution(spike), Catch::Contains("density") && Catch::Contains("class"));
  const MinimaxOnCells trivial(2.0, h, 0.5, 2.0);  // 2 <= 0.5·e²: identity
  REQUIRE(trivial.constants().trivial);
  CHECK_THROWS_WITH(trivial.distribution(spike), Catch::Contains("density") && Catch::Contains("class"));
  CHECK_THROWS_WITH(LinearOnCells({PrivacyNotion::approximate_ldp, 1.0, 1.0}, h, 0.0, 2.0),
                    Catch::Contains("delta"));
  CHECK_THROWS_WITH(LocalOnCells(1.0, h, 1.0), Catch::Contains("gamma"));
  CHECK_THROWS_WITH(LocalOnCells(1.0, bad_h, 2.0), Catch::Contains("prior[7]"));
  CHECK_THROWS_WITH(LocalLinearOnCells({PrivacyNotion::gaussian_ldp, 0.0, 0.0, kNaN}, h, 2.0),
                    Catch::Contains("mu"));
  SeededRandom bits(1);
  CHECK_THROWS_WITH(draw_point(grid, std::vector<double>(3, 1.0), bits), Catch::Contains("q has 3"));
  CHECK_THROWS_WITH(point_in_cell(grid, 100, bits), Catch::Contains("cell = 100"));
}

TEST_CASE("continuous: 500 x 500 Gaussian ring privatization (timing, printed only)", "[continuous][timing]") {
  using Clock = std::chrono::steady_clock;
  const Grid2D grid{-3.0, 3.0, 500, -3.0, 3.0, 500};
  const auto t0 = Clock::now();
  const std::vector<double> p = gaussian_ring(grid);
  const auto t1 = Clock::now();
  // The paper's envelope h̃ (docs/experiments.md#park-fig-1-gaussian-ring): (1/(2πσ²))·exp(−[max(0, ‖x‖ − 1)]²/(2σ²)), σ² = 0.5, by quadrature.
  const std::vector<double> envelope = cell_masses(grid, [](double x, double y) {
    const double d = std::max(0.0, std::hypot(x, y) - 1.0);
    return std::exp(-d * d) / std::numbers::pi;
  });
  const auto t2 = Clock::now();
  const MinimaxOnCells sampler(0.5, envelope, 0.0, 1.0);
  const std::vector<double> q = sampler.distribution(p);
  const auto t3 = Clock::now();
  SeededRandom bits(5);
  const Point2D point = draw_point(grid, q, bits);
  const auto t4 = Clock::now();
  const auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
  std::cout << "[continuous timing] 500x500 ring, eps = 0.5: density " << ms(t0, t1) << " ms, envelope quadrature "
            << ms(t1, t2) << " ms, sampler + clip-normalise " << ms(t2, t3) << " ms, one draw " << ms(t3, t4)
            << " ms; r_P = " << *sampler.normaliser(p) << ", KL = " << divergence(NamedDivergence::kl, p, q)
            << ", point (" << point[0] << ", " << point[1] << ")\n";
  CHECK(total_error(q) <= 1e-12);
  const std::vector<double>& h = sampler.density_class().h;
  bool box = true;
  for (std::size_t i = 0; i < q.size(); ++i) {
    box = box && q[i] >= sampler.constants().b * h[i] && q[i] <= sampler.constants().ceiling * h[i];
  }
  CHECK(box);
}

TEST_CASE("continuous: released cells follow distribution() with the same words for every density",
          "[continuous][statistical]") {
  // Two very different inputs through the local clip sampler: the released cells follow each q (chi-square), and
  // every release reads the same words (one coin, then one word for the data part or the base's words: a law fixed
  // by the public plan), whatever the density.
  const privsample::Grid1D grid{-4.0, 4.0, 40};
  const std::vector<double> means{0.0};
  const std::vector<double> one{1.0};
  const std::vector<double> prior = privsample::gaussian_mixture(grid, means, one, 1.5);
  privsample::MechanismOptions options;
  options.epsilon = 1.0;
  options.prior = prior;
  options.gamma = 3.0;
  const privsample::Mechanism sampler = privsample::make_continuous_mechanism("local", options);
  const std::vector<double> spike = privsample::gaussian_mixture(grid, std::vector<double>{3.5}, one, 0.05);
  const std::vector<double> broad = privsample::gaussian_mixture(grid, means, one, 2.0);
  constexpr int kDraws = 40000;
  std::vector<double> mean_words;
  for (const auto* density : {&spike, &broad}) {
    const std::vector<double> q = privsample::distribution(sampler, *density);
    const privsample::Release release = *privsample::released_law(sampler, *density);
    privsample_test::CountingBits bits(17);
    std::vector<double> counts(q.size(), 0.0);
    for (int d = 0; d < kDraws; ++d) counts[release.draw_once(bits)] += 1.0;
    double chi2 = 0.0;
    for (std::size_t i = 0; i < q.size(); ++i) {
      const double expected = kDraws * q[i];
      chi2 += (counts[i] - expected) * (counts[i] - expected) / expected;
    }
    CHECK(chi2 < 39.0 + 6.0 * std::sqrt(2.0 * 39.0));  // 39 degrees of freedom, ~6 sd: a wrong law fails by far
    mean_words.push_back(static_cast<double>(bits.words) / kDraws);
  }
  CHECK(std::fabs(mean_words[0] - mean_words[1]) < 0.02);
}
