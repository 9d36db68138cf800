// The analyst's side: estimators from counts of released samples (estimate.hpp). Statistical properties are
// measured by simulation with fixed seeds: unbiasedness (mean over populations within a few standard errors),
// coverage of the 95% intervals over >= 500 simulated populations, variance equal to the closed form.
#include "analysis/estimate.hpp"
#include "analysis/channel.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "mechanisms/mechanism.hpp"
#include "base/randomness.hpp"
#include "analysis/simulate.hpp"
#include "test_support.hpp"

using namespace privsample;
using privsample_test::kNaN;

namespace {

Mechanism mech(const std::string& name, double epsilon, std::vector<double> prior = {}, double gamma = 0.0,
                     double records = 0.0, double delta = -1.0) {
  MechanismOptions o;
  o.epsilon = epsilon;
  if (!prior.empty()) o.prior = prior;
  if (gamma > 0.0) o.gamma = gamma;
  if (records > 0.0) o.records = records;
  if (delta >= 0.0) o.delta = delta;
  return make_finite_mechanism(name, o);
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

// Q̄ = Σ_x items_x · distribution(e_x) / N for point-mass users.
std::vector<double> released_truth(const Mechanism& m, const std::vector<double>& items) {
  const std::size_t k = items.size();
  const auto inputs = point_mass_inputs(m, k);
  std::vector<double> q(k, 0.0);
  double n = 0.0;
  for (std::size_t x = 0; x < k; ++x) {
    n += items[x];
    if (items[x] == 0.0) continue;
    const auto row = distribution(m, inputs[x]);
    for (std::size_t y = 0; y < k; ++y) q[y] += items[x] * row[y];
  }
  for (double& v : q) v /= n;
  return q;
}

struct Coverage {
  double per_category = 0.0;   // fraction of (population, category) pairs covered
  double simultaneous = 0.0;   // fraction of populations with every category covered
};

}  // namespace

TEST_CASE("estimate: bad counts are rejected with the parameter, index and value", "[estimate]") {
  const Mechanism linear = mech("linear", 1.0);
  const std::vector<double> negative{5, 1, 0, -2};
  CHECK(message_of([&] { (void)estimate_released(linear, negative); }) ==
        "counts[3] = -2: counts must be integers >= 0");
  const std::vector<double> fractional{5, 1.5, 0, 2};
  CHECK(message_of([&] { (void)estimate_population(linear, fractional); }) ==
        "counts[1] = 1.5: counts must be integers >= 0");
  const std::vector<double> nan{5, 1, kNaN};
  CHECK(message_of([&] { (void)estimate_point_masses(linear, nan); }) ==
        "counts[2] = NaN: counts must be integers >= 0");
  const std::vector<double> inf{privsample_test::kInf, 1};
  CHECK(message_of([&] { (void)estimate(linear, inf); }) == "counts[0] = Infinity: counts must be integers >= 0");
  // an integer past 2^53 is refused for what it is, not as "not an integer"
  const std::vector<double> huge{1e16, 1};
  CHECK(message_of([&] { (void)estimate_released(linear, huge); }) ==
        "counts[0] = 10000000000000000: counts must be at most 2^53 = 9007199254740992 (beyond it a number cannot hold "
        "every integer)");
  const std::vector<double> largest{9007199254740992.0, 1};
  CHECK_NOTHROW(estimate_released(linear, largest));
  const std::vector<double> zeros{0, 0, 0};
  CHECK(message_of([&] { (void)estimate_released(linear, zeros); }) ==
        "counts are all zero: at least one released sample is needed");
  const std::vector<double> empty;
  CHECK(message_of([&] { (void)estimate_released(linear, empty); }) == "counts is empty: give one count per category");
  const Mechanism local = mech("local-linear", 1.0, {0.5, 0.25, 0.25}, 2.0);
  const std::vector<double> four{1, 2, 3, 4};
  CHECK(message_of([&] { (void)estimate_population(local, four); }) ==
        "counts has 4 entries but the 'local-linear' mechanism has k = 3 categories (the length of its prior, reference or grid)");
  const Mechanism local_clip = mech("local", 1.0, {0.5, 0.25, 0.25}, 2.0);
  CHECK_THROWS_AS(estimate_released(local_clip, four), std::invalid_argument);
  MechanismOptions moll;
  moll.epsilon = 1.0;
  moll.reference = std::vector<double>{0.5, 0.5};
  const Mechanism mollifier = make_finite_mechanism("mollifier", moll);
  CHECK_THROWS_AS(estimate_released(mollifier, four), std::invalid_argument);
  const std::vector<double> good{3, 2, 1};
  CHECK(message_of([&] { (void)estimate_released(linear, good, 0.0); }) ==
        "alpha = 0: must be in (0, 1) (confidence level 1 - alpha)");
  CHECK_THROWS_AS(estimate_population(mech("minimax", 1.0), good), std::domain_error);
  CHECK_THROWS_AS(estimate_population(mech("linear", 0.0), good), std::domain_error);
  CHECK_THROWS_AS(estimate_point_masses(mech("linear", 0.0), good), std::domain_error);
}

TEST_CASE("estimate: normal quantile, Wilson interval and simplex projection", "[estimate]") {
  CHECK(normal_upper_quantile(0.025) == Approx(1.959963984540054).epsilon(1e-14));
  CHECK(normal_upper_quantile(0.5) == Approx(0.0).margin(1e-15).epsilon(0));
  CHECK(normal_upper_quantile(1e-10) == Approx(6.361340902404056).epsilon(1e-12));
  CHECK(normal_upper_quantile(0.975) == Approx(-1.959963984540054).epsilon(1e-14));
  // Wilson 95% for 10/100: (0.0552, 0.1744) (Agresti & Coull 1998 style hand computation).
  const Interval w = wilson_interval(10, 100, 1.959963984540054);
  CHECK(w.lower == Approx(0.05522914).epsilon(1e-6));
  CHECK(w.upper == Approx(0.17436566).epsilon(1e-6));
  const Interval zero = wilson_interval(0, 50, 1.96);
  CHECK(zero.lower == 0.0);
  CHECK(zero.upper > 0.0);
  const Interval all = wilson_interval(50, 50, 1.96);
  CHECK(all.upper == 1.0);
  // Projection onto the simplex: a pmf is fixed; a shift is removed; negative parts are cut.
  const std::vector<double> pmf{0.2, 0.3, 0.5};
  const auto same = project_to_simplex(pmf);
  for (std::size_t i = 0; i < 3; ++i) CHECK(same[i] == Approx(pmf[i]).margin(1e-15).epsilon(0));
  const auto shifted = project_to_simplex(std::vector<double>{0.5, 0.6, 0.7});  // θ = 0.8/3
  CHECK(shifted[0] == Approx(0.7 / 3.0));
  CHECK(shifted[1] == Approx(1.0 / 3.0));
  CHECK(shifted[2] == Approx(1.3 / 3.0));
  const auto cut = project_to_simplex(std::vector<double>{1.2, -0.1, -0.1});
  CHECK(cut[0] == Approx(1.0));
  CHECK(cut[1] == 0.0);
  CHECK(cut[2] == 0.0);
  const auto two = project_to_simplex(std::vector<double>{0.7, 0.6, -0.3});  // θ = 0.15 on the first two
  CHECK(two[0] == Approx(0.55));
  CHECK(two[1] == Approx(0.45));
  CHECK(two[2] == 0.0);
}

TEST_CASE("estimate: affine maps agree with distribution()", "[estimate]") {
  const std::vector<double> prior{0.4, 0.3, 0.2, 0.1};
  std::vector<std::pair<std::string, Mechanism>> cases{
      {"linear", mech("linear", 1.3)},
      {"linear (eps, delta)", mech("linear", 1.0, {}, 0.0, 0.0, 1e-3)},
      {"local-linear", mech("local-linear", 0.5, prior, 3.0)},
      {"roo", mech("roo", 0.7, {}, 0.0, 10.0)},
  };
  MechanismOptions gauss;
  gauss.mu = 1.5;
  cases.emplace_back("linear (Gaussian)", make_finite_mechanism("linear", gauss));
  // A record histogram of n = 10 records for roo, a pmf inside N_3(P0) for local-linear, any pmf otherwise.
  const std::vector<double> records{4, 3, 2, 1};
  const std::vector<double> inside{0.3, 0.35, 0.25, 0.1};
  for (const auto& [label, m] : cases) {
    INFO(label);
    const auto map = affine_map(m, 4);
    REQUIRE(map.has_value());
    CHECK(map->lambda > 0.0);
    CHECK(map->lambda <= 1.0);
    const std::vector<double>& hist = label == "roo" ? records : inside;
    const auto q = distribution(m, hist);
    double total = 0.0;
    for (const double v : hist) total += v;
    for (std::size_t x = 0; x < 4; ++x) CHECK(q[x] == Approx(map->lambda * hist[x] / total + map->offset[x]).epsilon(1e-12));
  }
  CHECK_FALSE(affine_map(mech("minimax", 1.0), 4).has_value());
  CHECK_FALSE(affine_map(mech("local", 1.0, prior, 2.0), 4).has_value());
  CHECK_FALSE(affine_map(mech("ds-roo", 1.0, {}, 0.0, 10.0), 4).has_value());
}

TEST_CASE("estimate: on point masses minimax and linear are the same k-RR channel", "[estimate]") {
  for (const double eps : {0.1, 1.0, 4.0}) {
    const Mechanism minimax = mech("minimax", eps);
    const Mechanism linear = mech("linear", eps);
    const auto inputs = point_mass_inputs(minimax, 6);
    const ChannelMatrix a = channel_matrix(minimax, inputs);
    const ChannelMatrix b = channel_matrix(linear, inputs);
    CHECK((a - b).cwiseAbs().maxCoeff() < 1e-15);
    // k-RR: e^ε/(e^ε+k−1) on the diagonal, 1/(e^ε+k−1) off it.
    CHECK(a(2, 2) == Approx(std::exp(eps) / (std::exp(eps) + 5.0)).epsilon(1e-13));
    CHECK(a(2, 3) == Approx(1.0 / (std::exp(eps) + 5.0)).epsilon(1e-13));
  }
  // The point-mass inversion of linear equals its affine inversion (same channel on point masses).
  const std::vector<double> counts{120, 80, 50, 30, 20};
  const auto affine = estimate_population(mech("linear", 1.0), counts);
  const auto inverted = estimate_point_masses(mech("minimax", 1.0), counts);
  for (std::size_t x = 0; x < counts.size(); ++x) {
    CHECK(inverted.estimate[x] == Approx(affine.estimate[x]).margin(1e-12).epsilon(0));
    // Var of the k-RR inversion: (Σ_y M_xy² Q_y − π_x²)/N with M = W^{−T} ≠ the diagonal Q_x(1−Q_x)/(Nλ²) in
    // general? For k-RR both are the same: M = (I − (1−λ)/k·J)/λ and Σ_y M_xy Q_y = π_x.
    CHECK(inverted.variance[x] == Approx(affine.variance[x]).epsilon(1e-9));
  }
}

TEST_CASE("estimate: released intervals contain Q-hat and report the radius", "[estimate]") {
  const std::vector<double> counts{500, 300, 150, 50, 0};
  const auto r = estimate_released(mech("minimax", 1.0), counts, 0.05, NamedDivergence::tv);
  CHECK(r.users == 1000.0);
  CHECK(r.confidence == Approx(0.95));
  REQUIRE(r.radius.has_value());
  CHECK(*r.radius == Approx(worst_case_risk(mech("minimax", 1.0), NamedDivergence::tv, 5)));
  for (std::size_t x = 0; x < 5; ++x) {
    CHECK(r.lower[x] <= r.pointwise_lower[x]);
    CHECK(r.pointwise_lower[x] <= r.q[x]);
    CHECK(r.q[x] <= r.pointwise_upper[x]);
    CHECK(r.pointwise_upper[x] <= r.upper[x]);
    CHECK(r.lower[x] >= 0.0);
    CHECK(r.upper[x] <= 1.0);
  }
  const auto laplace = estimate_released(mech("laplace-projection", 1.0, {}, 0.0, 10.0), counts);
  CHECK_FALSE(laplace.radius.has_value());
  const auto report = estimate(mech("laplace-projection", 1.0, {}, 0.0, 10.0), counts);
  CHECK_FALSE(report.population.has_value());
  CHECK_FALSE(report.point_masses.has_value());
}

// The coverage of the released-distribution intervals and of the affine / point-mass population intervals over 600
// simulated point-mass populations of N = 3000 users (truth: the realised Q̄, P̄ = π).
TEST_CASE("estimate: 95% intervals cover at least 94% over 600 simulated populations", "[estimate][statistical]") {
  const std::vector<double> population{0.35, 0.25, 0.2, 0.12, 0.08};
  const std::size_t k = population.size();
  const std::vector<std::pair<std::string, Mechanism>> cases{
      {"linear", mech("linear", 1.0)},
      {"linear (eps, delta)", mech("linear", 1.0, {}, 0.0, 0.0, 1e-2)},
      {"roo", mech("roo", 0.5, {}, 0.0, 4.0)},
      {"minimax (point-mass inversion)", mech("minimax", 2.0)},
      {"local (point-mass inversion)", mech("local", 2.0, {0.3, 0.3, 0.2, 0.1, 0.1}, 4.0)},
      {"mollifier (point-mass inversion)", mech("mollifier", 2.0)},
  };
  constexpr int kPopulations = 600;
  constexpr std::size_t kUsers = 3000;
  SeededRandom bits(20261124);
  for (const auto& [label, m] : cases) {
    const bool affine = affine_map(m, k).has_value();
    double released_pointwise = 0.0, released_all = 0.0, pointwise = 0.0, all = 0.0;
    double bias_sum[8] = {};
    for (int rep = 0; rep < kPopulations; ++rep) {
      std::vector<double> items;
      for (const auto c : multinomial(bits, kUsers, population)) items.push_back(static_cast<double>(c));
      const std::vector<double> counts = release_point_masses(m, items, bits);
      const std::vector<double> q_truth = released_truth(m, items);
      const ReleasedEstimate r = estimate_released(m, counts);
      bool every = true;
      for (std::size_t x = 0; x < k; ++x) {
        const bool in = r.pointwise_lower[x] <= q_truth[x] && q_truth[x] <= r.pointwise_upper[x];
        released_pointwise += in ? 1.0 : 0.0;
        every = every && r.lower[x] <= q_truth[x] && q_truth[x] <= r.upper[x];
      }
      released_all += every ? 1.0 : 0.0;
      const PopulationEstimate p = affine ? estimate_population(m, counts) : estimate_point_masses(m, counts);
      every = true;
      for (std::size_t x = 0; x < k; ++x) {
        const double truth = items[x] / static_cast<double>(kUsers);
        pointwise += (p.lower[x] <= truth && truth <= p.upper[x]) ? 1.0 : 0.0;
        every = every && p.simultaneous_lower[x] <= truth && truth <= p.simultaneous_upper[x];
        bias_sum[x] += (p.estimate[x] - truth) / p.standard_error[x];
      }
      all += every ? 1.0 : 0.0;
    }
    const double n_pairs = static_cast<double>(kPopulations * k);
    INFO(label << ": released pointwise " << released_pointwise / n_pairs << ", released simultaneous "
               << released_all / kPopulations << ", population pointwise " << pointwise / n_pairs
               << ", population simultaneous " << all / kPopulations);
    CHECK(released_pointwise / n_pairs >= 0.94);
    CHECK(released_all / kPopulations >= 0.94);
    CHECK(pointwise / n_pairs >= 0.94);
    CHECK(all / kPopulations >= 0.94);
    // Unbiased: the mean standardised error over 600 populations is within 4/sqrt(600) of 0.
    for (std::size_t x = 0; x < k; ++x) CHECK(std::fabs(bias_sum[x] / kPopulations) < 4.0 / std::sqrt(600.0));
    WARN(label << ": coverage released pointwise " << released_pointwise / n_pairs << ", released simultaneous "
               << released_all / kPopulations << ", population pointwise " << pointwise / n_pairs
               << ", population simultaneous " << all / kPopulations);
  }
}

namespace {

// Runs simulate_once() `populations` times (each a SimulationResult with a population estimate over k categories) and
// checks that the estimate is unbiased for the realised truth (the mean z-score of every category within 4 standard
// errors of 0) and that the pointwise intervals cover it at least 94% of the time (nominal 95%, conservative).
template <class Simulate>
void check_unbiased_and_covering(const char* label, std::size_t k, int populations, Simulate simulate_once) {
  std::vector<double> z_sum(k, 0.0);
  double covered = 0.0;
  for (int rep = 0; rep < populations; ++rep) {
    const SimulationResult s = simulate_once();
    REQUIRE(s.estimate.population.has_value());
    const PopulationEstimate& p = *s.estimate.population;
    for (std::size_t x = 0; x < k; ++x) {
      z_sum[x] += (p.estimate[x] - s.truth[x]) / p.standard_error[x];
      covered += (p.lower[x] <= s.truth[x] && s.truth[x] <= p.upper[x]) ? 1.0 : 0.0;
    }
  }
  for (std::size_t x = 0; x < k; ++x) CHECK(std::fabs(z_sum[x] / populations) < 4.0 / std::sqrt(populations));
  CHECK(covered / (populations * k) >= 0.94);
  WARN(label << ": pointwise coverage " << covered / (populations * k));
}

}  // namespace

// Heterogeneous users (Dirichlet around the population, and local-linear users inside N_γ(P0)): the affine
// estimate is unbiased for the realised P̄ and its (conservative) intervals cover.
TEST_CASE("estimate: affine estimate is unbiased for heterogeneous users", "[estimate][statistical]") {
  const std::vector<double> population{0.4, 0.3, 0.2, 0.1};
  const std::size_t k = 4;
  constexpr int kPopulations = 1000;
  constexpr std::size_t kUsers = 1000;
  SeededRandom bits(77);
  SECTION("linear, Dirichlet(2 * population) users") {
    const Mechanism m = mech("linear", 1.5);
    SimulationOptions o;
    o.model = PopulationModel::dirichlet;
    o.users = kUsers;
    o.concentration = 2.0;
    o.point_mass_inversion = false;
    check_unbiased_and_covering("linear, Dirichlet users", k, kPopulations, [&] { return simulate(m, population, o, bits); });
  }
  SECTION("local-linear, users inside N_gamma(P0)") {
    const std::vector<double> prior{0.25, 0.25, 0.25, 0.25};
    const Mechanism m = mech("local-linear", 0.5, prior, 2.0);
    SimulationOptions o;
    o.point_mass_inversion = false;
    check_unbiased_and_covering("local-linear, users in N_gamma", k, kPopulations, [&] {
      // P_i = 0.7·P0 + 0.3·D with D ~ Dirichlet(1): P/P0 ∈ [0.7, 1.9], inside N_2(P0).
      std::vector<double> users;
      for (std::size_t i = 0; i < kUsers; ++i) {
        const auto d = dirichlet(bits, std::vector<double>(k, 1.0));
        for (std::size_t x = 0; x < k; ++x) users.push_back(0.7 * prior[x] + 0.3 * d[x]);  // ratio in [0.7, 1.9]
      }
      return simulate_given(m, users, k, o, bits);
    });
  }
}

// Per category, the mean and the variance of an estimator over `reps` populations of `users` identical users whose
// released counts are Multinomial(users, q); `estimate(counts)` returns the estimate vector.
namespace {

template <class Estimator>
std::pair<std::vector<double>, std::vector<double>> estimator_moments(SeededRandom& bits, const std::vector<double>& q,
                                                                     int reps, std::uint64_t users, Estimator estimate) {
  const std::size_t k = q.size();
  std::vector<double> sum(k, 0.0), sum2(k, 0.0);
  for (int rep = 0; rep < reps; ++rep) {
    std::vector<double> counts;
    for (const auto c : multinomial(bits, users, q)) counts.push_back(static_cast<double>(c));
    const std::vector<double> e = estimate(counts);
    for (std::size_t x = 0; x < k; ++x) {
      sum[x] += e[x];
      sum2[x] += e[x] * e[x];
    }
  }
  std::vector<double> mean(k), var(k);
  for (std::size_t x = 0; x < k; ++x) {
    mean[x] = sum[x] / reps;
    var[x] = sum2[x] / reps - mean[x] * mean[x];
  }
  return {mean, var};
}

}  // namespace

// Identical users: counts ~ Multinomial(N, Q) exactly, so Var(p̂_x) = Q_x(1 − Q_x)/(N λ²) exactly.
TEST_CASE("estimate: empirical variance equals the closed form", "[estimate][statistical]") {
  const std::vector<double> p{0.5, 0.3, 0.15, 0.05};
  const std::size_t k = p.size();
  constexpr int kReps = 4000;
  constexpr std::uint64_t kUsers = 1000;
  SeededRandom bits(5);
  SECTION("linear (affine inversion)") {
    const Mechanism m = mech("linear", 1.0);
    const auto q = distribution(m, p);
    const double lambda = affine_map(m, k)->lambda;
    const auto [mean, var] =
        estimator_moments(bits, q, kReps, kUsers, [&](const std::vector<double>& c) { return estimate_population(m, c).estimate; });
    for (std::size_t x = 0; x < k; ++x) {
      const double formula = q[x] * (1.0 - q[x]) / (static_cast<double>(kUsers) * lambda * lambda);
      // The sample variance of 4000 draws has relative standard error ~sqrt(2/4000) = 2.2%.
      CHECK(var[x] == Approx(formula).epsilon(0.1));
      CHECK(mean[x] == Approx(p[x]).margin(4.0 * std::sqrt(formula / kReps)).epsilon(0));
    }
  }
  SECTION("local clip sampler (point-mass inversion)") {
    const Mechanism m = mech("local", 1.0, {0.3, 0.3, 0.2, 0.2}, 3.0);
    const auto w = channel_matrix(m, point_mass_inputs(m, k));
    std::vector<double> q(k, 0.0);
    for (std::size_t x = 0; x < k; ++x)
      for (std::size_t y = 0; y < k; ++y) q[y] += p[x] * w(static_cast<Eigen::Index>(x), static_cast<Eigen::Index>(y));
    // The exact covariance W^{−T} Σ_Q W^{−1} with the true Q.
    Eigen::MatrixXd sigma(k, k);
    for (std::size_t a = 0; a < k; ++a)
      for (std::size_t b = 0; b < k; ++b)
        sigma(static_cast<Eigen::Index>(a), static_cast<Eigen::Index>(b)) =
            ((a == b ? q[a] : 0.0) - q[a] * q[b]) / static_cast<double>(kUsers);
    const Eigen::MatrixXd minv = w.transpose().inverse();
    const Eigen::MatrixXd cov = minv * sigma * minv.transpose();
    const auto [mean, var] =
        estimator_moments(bits, q, kReps, kUsers, [&](const std::vector<double>& c) { return estimate_point_masses(m, c).estimate; });
    for (std::size_t x = 0; x < k; ++x) {
      const double formula = cov(static_cast<Eigen::Index>(x), static_cast<Eigen::Index>(x));
      CHECK(var[x] == Approx(formula).epsilon(0.1));
      CHECK(mean[x] == Approx(p[x]).margin(4.0 * std::sqrt(formula / kReps)).epsilon(0));
    }
  }
}
