// MBDE baseline on grids (docs/baselines/mbde.md, docs/experiments.md#park-fig-1-gaussian-ring, docs/experiments.md#park-fig-4-1-d-gaussian-mixtures): the structural privacy bound
// q_T/q_0 ∈ [e^{−ε/2}, e^{ε/2}] on every cell, normalisation, that boosting moves q towards the data, and input
// validation.
#include "baselines/mbde.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <iostream>
#include <limits>
#include <stdexcept>
#include <vector>

#include "privsample.hpp"
#include "model/divergence.hpp"
#include "base/numeric.hpp"
#include "base/randomness.hpp"
#include "test_support.hpp"

using namespace privsample;
using namespace privsample_test;

namespace {

const std::vector<double> kEpsilons{0.1, 0.5, 1.0, 2.0, 5.0};  // docs/experiments.md#park-et-al

// A few SGD steps on a few samples: the bound is structural (it holds for any classifier output in [0, 1]), so the
// bound tests need not pay for a well-trained classifier; one reduced-preset run per ε covers realistic outputs.
MbdeSettings tiny_settings() {
  MbdeSettings s = MbdeSettings::reduced();
  s.training_samples = 100;
  s.batch_size = 50;
  s.epochs = 10;
  s.burn_in = 30;
  return s;
}

const Grid1D kGrid1{-4.0, 4.0, 200};      // the experiments' [−4, 4] (docs/experiments.md#park-fig-4-1-d-gaussian-mixtures)
const Grid2D kGrid2{-3.0, 3.0, 40, -3.0, 3.0, 40};  // the ring's [−3, 3]² (docs/experiments.md#park-fig-1-gaussian-ring), coarser

// 1-D data sets: a member of the paper's class (σ = 1, |μ| <= 1, docs/experiments.md#park-fig-4-1-d-gaussian-mixtures) and a clearly bimodal mixture.
std::vector<double> paper_class_mixture() {
  const std::vector<double> means{-0.7, 0.4, 1.0};
  const std::vector<double> weights{0.2, 0.5, 0.3};
  return gaussian_mixture(kGrid1, means, weights, 1.0);
}
std::vector<double> bimodal_mixture() {
  const std::vector<double> means{-2.0, 2.0};
  const std::vector<double> weights{0.5, 0.5};
  return gaussian_mixture(kGrid1, means, weights, 0.7);
}

// S = Σ_{t<=T} θ^t, the largest possible |log(q_T/q_0)| (mbde.hpp); S < ε/4.
double boost_sum(double theta, std::size_t rounds) {
  double sum = 0.0;
  double power = 1.0;
  for (std::size_t t = 0; t < rounds; ++t) {
    power *= theta;
    sum += power;
  }
  return sum;
}

// The checks every result must pass; returns the largest |log(q_T/q_0)| for reporting.
double check_result(const MbdeResult& r, double epsilon, std::size_t rounds) {
  REQUIRE(r.density.size() == r.reference.size());
  REQUIRE(r.log_ratio.size() == r.reference.size());
  CHECK(r.theta == Approx(epsilon / (epsilon + 4.0)).epsilon(1e-15));
  CHECK(std::fabs(compensated_total(r.density) - 1.0) <= 1e-12);
  CHECK(std::fabs(compensated_total(r.reference) - 1.0) <= 1e-12);
  const double lo = std::exp(-epsilon / 2.0) * (1.0 - 1e-12);
  const double hi = std::exp(epsilon / 2.0) * (1.0 + 1e-12);
  const double s = boost_sum(r.theta, rounds);
  double largest = 0.0;
  std::size_t violations = 0;
  std::size_t inner_violations = 0;
  for (std::size_t i = 0; i < r.density.size(); ++i) {
    REQUIRE(r.reference[i] > 0.0);
    const double ratio = r.density[i] / r.reference[i];
    if (!(ratio >= lo && ratio <= hi)) ++violations;
    // The tighter bound the construction gives: |log ratio| <= S < ε/4, and log_ratio is the reported ratio.
    if (!(std::fabs(r.log_ratio[i]) <= s * (1.0 + 1e-12) + 1e-15)) ++inner_violations;
    CHECK(std::log(ratio) == Approx(r.log_ratio[i]).margin(1e-12).epsilon(0));
    largest = std::max(largest, std::fabs(r.log_ratio[i]));
  }
  CHECK(violations == 0);
  CHECK(inner_violations == 0);
  CHECK(s < epsilon / 4.0);
  return largest;
}

}  // namespace

TEST_CASE("mbde: paper preset holds the settings of docs/baselines/mbde.md", "[mbde]") {
  const MbdeSettings p = MbdeSettings::paper();
  CHECK(p.rounds == 3);
  CHECK(p.hidden_width == 25);
  CHECK(p.hidden_layers == 3);
  CHECK(p.epochs == 750);
  CHECK(p.learning_rate == 0.01);
  CHECK(p.momentum == 0.9);
  CHECK(p.training_samples == 10000);
  CHECK(p.batch_size == 5000);
  CHECK(p.burn_in == 1000);
  CHECK(p.proposal_std == 1.0);
  CHECK(p.base_mean == 0.0);
  CHECK(p.base_std == 1.0);
  CHECK_NOTHROW(validate_settings(p));
  CHECK_NOTHROW(validate_settings(MbdeSettings::reduced()));
}

TEST_CASE("mbde: q_T/q_0 stays in [e^-eps/2, e^eps/2] on every cell (1-D mixtures)", "[mbde]") {
  const std::vector<std::vector<double>> datasets{paper_class_mixture(), bimodal_mixture()};
  std::uint64_t seed = 11;
  for (const double eps : kEpsilons) {
    for (const auto& p : datasets) {
      SeededRandom bits(seed++);
      const MbdeSettings s = tiny_settings();
      const MbdeResult r = mbde(kGrid1, p, eps, s, bits);
      const double largest = check_result(r, eps, s.rounds);
      std::cout << "mbde 1-D tiny eps = " << eps << ": max |log q_T/q_0| = " << largest << " (eps/2 = " << eps / 2
                << ")\n";
    }
    // One realistic classifier per ε (the reduced preset) on the bimodal set.
    SeededRandom bits(seed++);
    const MbdeResult r = mbde(kGrid1, datasets[1], eps, MbdeSettings::reduced(), bits);
    const double largest = check_result(r, eps, MbdeSettings::reduced().rounds);
    std::cout << "mbde 1-D reduced eps = " << eps << ": max |log q_T/q_0| = " << largest << "\n";
  }
}

TEST_CASE("mbde: q_T/q_0 stays in [e^-eps/2, e^eps/2] on every cell (2-D ring)", "[mbde]") {
  const std::vector<double> ring = gaussian_ring(kGrid2);  // docs/experiments.md#park-fig-1-gaussian-ring: 3 modes, σ² = 0.5, radius 1
  std::uint64_t seed = 101;
  for (const double eps : kEpsilons) {
    SeededRandom bits(seed++);
    const MbdeSettings s = tiny_settings();
    const MbdeResult r = mbde(kGrid2, ring, eps, s, bits);
    const double largest = check_result(r, eps, s.rounds);
    std::cout << "mbde 2-D ring eps = " << eps << ": max |log q_T/q_0| = " << largest << "\n";
  }
}

TEST_CASE("mbde: data points as input keep the bound (1-D and 2-D)", "[mbde]") {
  SeededRandom data_bits(7);
  const std::vector<double> p1 = bimodal_mixture();
  std::vector<double> points1(300);
  for (double& x : points1) x = draw_point(kGrid1, p1, data_bits);
  const std::vector<double> ring = gaussian_ring(kGrid2);
  std::vector<Point2D> points2(300);
  for (Point2D& x : points2) x = draw_point(kGrid2, ring, data_bits);
  std::uint64_t seed = 201;
  for (const double eps : kEpsilons) {
    SeededRandom bits(seed++);
    const MbdeSettings s = tiny_settings();
    check_result(mbde_from_points(kGrid1, points1, eps, s, bits), eps, s.rounds);
    check_result(mbde_from_points(kGrid2, points2, eps, s, bits), eps, s.rounds);
  }
}

TEST_CASE("mbde: eps = 0 returns q_0 and the base is the truncated N(0, 1)", "[mbde]") {
  SeededRandom bits(3);
  const MbdeResult r = mbde(kGrid1, bimodal_mixture(), 0.0, tiny_settings(), bits);
  const std::vector<double> mean{0.0};
  const std::vector<double> weight{1.0};
  const std::vector<double> base = gaussian_mixture(kGrid1, mean, weight, 1.0);  // docs/experiments.md#park-fig-4-1-d-gaussian-mixtures eq. 212
  REQUIRE(r.reference.size() == base.size());
  for (std::size_t i = 0; i < base.size(); ++i) {
    CHECK(r.reference[i] == Approx(base[i]).epsilon(1e-14));
    CHECK(r.density[i] == Approx(base[i]).epsilon(1e-14));
  }
}

TEST_CASE("mbde: the same seed gives the same output", "[mbde]") {
  SeededRandom a(42);
  SeededRandom b(42);
  const MbdeResult ra = mbde(kGrid1, paper_class_mixture(), 1.0, tiny_settings(), a);
  const MbdeResult rb = mbde(kGrid1, paper_class_mixture(), 1.0, tiny_settings(), b);
  CHECK(ra.density == rb.density);
}

TEST_CASE("mbde: moves q towards the data at eps = 5 (reduced preset)", "[mbde]") {
  // P = ½N(−2, 0.7²) + ½N(2, 0.7²) on [−4, 4] is far from q_0 = N(0, 1): KL(P‖q_0) = 1.412. At ε = 5,
  // θ = 5/9 and S = θ + θ² + θ³ = 1.04, so q may move by up to e^{±1.04}. With this preset, seeds 1–8 gave
  // KL(P‖q_T) = 0.942–0.969 (seeds 1–3: 0.958, 0.969, 0.942): a gap of >= 0.44 to KL(P‖q_0) against a seed-to-seed
  // spread of 0.027, so the strict decrease and the 10% decrease asserted below (0.9·1.412 = 1.27) are far from
  // chance. Runs are deterministic per seed (SeededRandom), so the test is not flaky either way.
  const std::vector<double> p = bimodal_mixture();
  const MbdeSettings s = MbdeSettings::reduced();
  for (const std::uint64_t seed : {1u, 2u, 3u}) {
    SeededRandom bits(seed);
    const auto start = std::chrono::steady_clock::now();
    const MbdeResult r = mbde(kGrid1, p, 5.0, s, bits);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    const double kl0 = divergence(NamedDivergence::kl, p, r.reference);
    const double kl_t = divergence(NamedDivergence::kl, p, r.density);
    std::cout << "mbde reduced preset, 200 cells, seed " << seed << ": " << ms << " ms, KL(P||q0) = " << kl0
              << ", KL(P||qT) = " << kl_t << "\n";
    CHECK(kl_t < kl0);
    CHECK(kl_t < 0.9 * kl0);
  }
}

TEST_CASE("mbde: bad inputs throw std::invalid_argument naming the parameter", "[mbde]") {
  SeededRandom bits(5);
  const std::vector<double> p = bimodal_mixture();
  const MbdeSettings good = tiny_settings();
  const double nan = std::numeric_limits<double>::quiet_NaN();

  CHECK_THROWS_AS(mbde(kGrid1, p, -0.1, good, bits), std::invalid_argument);
  CHECK_THROWS_WITH(mbde(kGrid1, p, -0.1, good, bits), Catch::Contains("epsilon"));
  CHECK_THROWS_WITH(mbde(kGrid1, p, nan, good, bits), Catch::Contains("epsilon"));

  MbdeSettings zero_rounds = good;
  zero_rounds.rounds = 0;
  CHECK_THROWS_AS(mbde(kGrid1, p, 1.0, zero_rounds, bits), std::invalid_argument);
  CHECK_THROWS_WITH(mbde(kGrid1, p, 1.0, zero_rounds, bits), Catch::Contains("settings.rounds"));
  MbdeSettings nan_lr = good;
  nan_lr.learning_rate = nan;
  CHECK_THROWS_WITH(mbde(kGrid1, p, 1.0, nan_lr, bits), Catch::Contains("settings.learning_rate"));
  MbdeSettings big_batch = good;
  big_batch.batch_size = good.training_samples + 1;
  CHECK_THROWS_WITH(mbde(kGrid1, p, 1.0, big_batch, bits), Catch::Contains("settings.batch_size"));
  MbdeSettings bad_momentum = good;
  bad_momentum.momentum = 1.0;
  CHECK_THROWS_WITH(mbde(kGrid1, p, 1.0, bad_momentum, bits), Catch::Contains("settings.momentum"));
  MbdeSettings bad_proposal = good;
  bad_proposal.proposal_std = 0.0;
  CHECK_THROWS_WITH(mbde(kGrid1, p, 1.0, bad_proposal, bits), Catch::Contains("settings.proposal_std"));

  std::vector<double> nan_density = p;
  nan_density[17] = nan;
  CHECK_THROWS_AS(mbde(kGrid1, nan_density, 1.0, good, bits), std::invalid_argument);
  CHECK_THROWS_WITH(mbde(kGrid1, nan_density, 1.0, good, bits), Catch::Contains("density"));
  const std::vector<double> short_density(10, 0.1);
  CHECK_THROWS_WITH(mbde(kGrid1, short_density, 1.0, good, bits), Catch::Contains("density"));
  const std::vector<double> empty;
  CHECK_THROWS_WITH(mbde(kGrid1, empty, 1.0, good, bits), Catch::Contains("density"));

  CHECK_THROWS_AS(mbde_from_points(kGrid1, empty, 1.0, good, bits), std::invalid_argument);
  CHECK_THROWS_WITH(mbde_from_points(kGrid1, empty, 1.0, good, bits), Catch::Contains("points"));
  const std::vector<double> nan_points{0.5, nan};
  CHECK_THROWS_WITH(mbde_from_points(kGrid1, nan_points, 1.0, good, bits), Catch::Contains("points[1]"));
  const std::vector<Point2D> empty2;
  CHECK_THROWS_WITH(mbde_from_points(kGrid2, empty2, 1.0, good, bits), Catch::Contains("points"));

  const Grid1D no_cells{-4.0, 4.0, 0};
  CHECK_THROWS_WITH(mbde(no_cells, p, 1.0, good, bits), Catch::Contains("grid.cells"));
}
