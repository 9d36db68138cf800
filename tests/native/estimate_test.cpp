// The analyst's side: estimators from counts of released samples (estimate.hpp). Statistical properties are
// measured by simulation with fixed seeds: unbiasedness (mean over populations within a few standard errors),
// coverage of the 95% intervals over >= 500 simulated populations, variance equal to the closed form.
#include "analysis/estimate.hpp"
#include "analysis/channel.hpp"
#include "base/binomial.hpp"

#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <numeric>
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
  // Exact intervals are solved for at most 10^9 reports: at 2^53 an upper bound's tail exceeded its target by 7%,
  // and the intervals covered 0.477 where 0.5 was stated (an adversarial review).
  const std::vector<double> largest{9007199254740992.0, 1};
  CHECK(message_of([&] { (void)estimate_released(linear, largest); }) ==
        "counts add up to 9007199254740992: intervals are exact for at most 10^9 reports (beyond, the incomplete beta "
        "function loses the precision an exact bound needs); estimate a sample of 10^9 of them");
  const std::vector<double> one_too_many{1e9, 1};
  CHECK_THROWS_WITH(estimate(linear, one_too_many), Catch::Contains("counts add up to 1000000001: "));
  const std::vector<double> most{1e9 - 1, 1};
  CHECK_NOTHROW(estimate(linear, most));
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
  // A reference with a zero (allowed: that category is never output) made the point-mass inversion's matrix infinite,
  // and estimate() threw "the matrix has an entry that is not finite", losing the released estimate too.
  MechanismOptions zero_reference;
  zero_reference.epsilon = 1.0;
  zero_reference.reference = std::vector<double>{1, 1, 1, 0};
  const Mechanism with_zero = make_finite_mechanism("mollifier", zero_reference);
  const std::vector<double> counts{10, 5, 3, 0};
  CHECK(message_of([&] { (void)estimate_point_masses(with_zero, counts); }) ==
        "the 'mollifier' mechanism never outputs category 3 (a reference or prior entry of 0?): its channel on point "
        "masses is singular, so users holding one item cannot be told apart there");
  const EstimateReport report = estimate(with_zero, counts);
  CHECK(report.released.q.size() == 4);
  CHECK(!report.point_masses);
}

TEST_CASE("estimate: normal quantile, Clopper-Pearson interval and simplex projection", "[estimate]") {
  CHECK(normal_upper_quantile(0.025) == Approx(1.959963984540054).epsilon(1e-14));
  CHECK(normal_upper_quantile(0.5) == Approx(0.0).margin(1e-15).epsilon(0));
  CHECK(normal_upper_quantile(1e-10) == Approx(6.361340902404056).epsilon(1e-12));
  CHECK(normal_upper_quantile(0.975) == Approx(-1.959963984540054).epsilon(1e-14));
  // Clopper–Pearson 95% for 10/100: (0.04900469, 0.17622260) (the beta quantiles B(0.025; 10, 91), B(0.975; 11, 90)).
  const Interval cp = clopper_pearson_interval(10, 100, 0.05);
  CHECK(cp.lower == Approx(0.04900469).epsilon(1e-6));
  CHECK(cp.upper == Approx(0.17622260).epsilon(1e-6));
  const Interval zero = clopper_pearson_interval(0, 50, 0.05);
  CHECK(zero.lower == 0.0);
  CHECK(zero.upper == Approx(1.0 - std::pow(0.025, 1.0 / 50.0)).epsilon(2e-8));  // (α/2)^{1/n} at x = 0
  const Interval all = clopper_pearson_interval(50, 50, 0.05);
  CHECK(all.upper == 1.0);
  CHECK(all.lower == Approx(std::pow(0.025, 1.0 / 50.0)).epsilon(2e-8));
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

// What the intervals' coverage rests on: the lower bound L of s successes in n solves P_L(X >= s) = tail and the
// upper bound U solves P_U(X <= s) = tail; each must sit on the side that widens the interval and within a relative
// 1e-6 of the root. Where the tail has a closed form (s = 0, s = n) against it exactly; elsewhere against the
// incomplete beta, whose own error (~1e-8 in the tail at n = 10^9) the tolerance 1e-7 on the tail absorbs.
// The same against sums independent of the incomplete beta: P_U(X <= s) and P_L(X >= s) summed term by term in long
// double (64-bit significands; each term from the last by the ratio (n − j + 1)/j · p/(1 − p)), for few successes in
// many trials, where the swapped continued fraction cancels most: no slack. At 10^10 trials an upper bound's tail
// exceeded its target by a relative 2.5e-7, at 2^53 by 7%; trials are now limited to 10^9 (kLargestExactTrials).
TEST_CASE("estimate: Clopper-Pearson bounds hold against term-by-term sums up to 10^9 trials", "[estimate]") {
  const auto at_most = [](double s, double n, double p) {  // P_p(X <= s)
    long double term = std::exp(static_cast<long double>(n) * std::log1p(-static_cast<long double>(p)));
    long double sum = term;
    const long double odds = static_cast<long double>(p) / (1.0L - static_cast<long double>(p));
    for (double j = 1.0; j <= s; j += 1.0) {
      term *= (static_cast<long double>(n) - j + 1.0L) / j * odds;
      sum += term;
    }
    return sum;
  };
  for (const double n : {1e6, 1e8, 1e9}) {
    for (const double s : {0.0, 1.0, 2.0, 5.0, 26.0, 300.0}) {
      for (const double tail : {0.25, 0.025, 2.5e-5, 2.5e-8}) {
        INFO("s = " << s << ", n = " << n << ", tail = " << tail);
        CHECK(at_most(s, n, binomial_upper_bound(s, n, tail)) <= tail);
        if (s > 0.0) CHECK(1.0L - at_most(s - 1.0, n, binomial_lower_bound(s, n, tail)) <= tail);
      }
    }
  }
  CHECK_THROWS_WITH(binomial_upper_bound(1.0, 1e9 + 1.0, 0.25), "trials = 1000000001: must be an integer in [1, 10^9]");
}

TEST_CASE("estimate: Clopper-Pearson and Chernoff-Hoeffding bounds are on the wide side of their equation, and tight",
          "[estimate]") {
  for (const double n : {1.0, 7.0, 100.0, 1e4, 1e6, 1e9}) {
    for (const double tail : {0.25, 0.025, 2.5e-5, 2.5e-8}) {
      for (const double share : {0.0, 1e-6, 0.003, 0.1, 0.5, 0.97, 1.0}) {
        const double s = std::round(share * n);
        INFO("s = " << s << ", n = " << n << ", tail = " << tail);
        const double lower = binomial_lower_bound(s, n, tail);
        const double upper = binomial_upper_bound(s, n, tail);
        CHECK(lower < upper);
        if (s > 0.0) {
          CHECK(binomial_sf(s - 1.0, n, lower) <= tail * (1.0 + 1e-7));
          CHECK(binomial_sf(s - 1.0, n, std::min(1.0, lower * (1.0 + 1e-6))) > tail);
        }
        if (s < n) {
          CHECK(binomial_cdf(s, n, upper) <= tail * (1.0 + 1e-7));
          CHECK(binomial_cdf(s, n, upper * (1.0 - 1e-6)) > tail);
        }
        // The closed forms: P_U(X <= 0) = (1 − U)^n, P_L(X >= n) = L^n.
        if (s == 0.0) CHECK(upper >= -std::expm1(std::log(tail) / n));
        if (s == n) CHECK(lower <= std::exp(std::log(tail) / n));
        if (s == 0.0) CHECK(upper <= -std::expm1(std::log(tail) / n) * (1.0 + 1e-6));
      }
    }
  }
  // The Chernoff–Hoeffding bounds: n·kl(mean ‖ bound) reaches ln(1/tail) at the bound (or the bound is 0 or 1), and
  // a relative 1e-6 inside it (less the bound's outward 1e-12) does not.
  const auto kl = [](double p, double q) {
    return (p > 0.0 ? p * std::log(p / q) : 0.0) + (p < 1.0 ? (1.0 - p) * std::log((1.0 - p) / (1.0 - q)) : 0.0);
  };
  for (const double n : {1.0, 30.0, 1e4, 1e7}) {
    for (const double tail : {0.025, 2.5e-5}) {
      for (const double mean : {0.0, 1e-4, 0.2, 0.5, 0.9, 1.0}) {
        INFO("mean = " << mean << ", n = " << n << ", tail = " << tail);
        const double budget = std::log(1.0 / tail);
        const double up = bounded_mean_upper_bound(mean, n, tail);
        const double down = bounded_mean_lower_bound(mean, n, tail);
        if (up < 1.0) {
          CHECK(n * kl(mean, up) >= budget * (1.0 - 1e-9));
          CHECK(n * kl(mean, mean + (up - 1e-12 - mean) * (1.0 - 1e-6)) < budget);
        }
        if (down > 0.0) {
          CHECK(n * kl(mean, down) >= budget * (1.0 - 1e-9));
          CHECK(n * kl(mean, mean - (mean - down - 1e-12) * (1.0 - 1e-6)) < budget);
        }
        CHECK(down <= mean);
        CHECK(up >= mean);
      }
    }
  }
  // Published 95% intervals: 5 of 10, (0.187086, 0.812914) (Clopper & Pearson's chart; any exact-binomial table).
  const Interval half = clopper_pearson_interval(5, 10, 0.05);
  CHECK(half.lower == Approx(0.1870860).epsilon(1e-6));
  CHECK(half.upper == Approx(0.8129140).epsilon(1e-6));
}

TEST_CASE("estimate: affine maps agree with distribution()", "[estimate]") {
  const std::vector<double> prior{0.4, 0.3, 0.2, 0.1};
  std::vector<std::pair<std::string, Mechanism>> cases{
      {"linear", mech("linear", 1.3)},
      {"linear (eps, delta)", mech("linear", 1.0, {}, 0.0, 0.0, 1e-3)},
      {"local-linear", mech("local-linear", 0.5, prior, 3.0)},
      {"roo", mech("roo", 0.7, {}, 0.0, 10.0)},
      {"local (identity box)", mech("local", 1.0, prior, 2.0)},
  };
  MechanismOptions gauss;
  gauss.mu = 1.5;
  cases.emplace_back("linear (Gaussian)", make_finite_mechanism("linear", gauss));
  // A record histogram of n = 10 records for roo, a pmf inside N_3(P0) for local-linear and inside local's identity
  // box (P/P0 in [b, b e^ε] = [0.636, 1.728] here), any pmf otherwise.
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
  CHECK_FALSE(affine_map(mech("ds-roo", 1.0, {}, 0.0, 10.0), 4).has_value());
}

// local: affine (the identity) on its box only, and the map says where N_γ(P0) reaches beyond it; the point-mass
// inversion of the local samplers says their users are never point masses.
TEST_CASE("estimate: local's identity box, its caveat, and the local samplers' point-mass caveat", "[estimate]") {
  const std::vector<double> prior{0.4, 0.3, 0.2, 0.1};
  const auto map = affine_map(mech("local", 1.0, prior, 2.0), 4);
  REQUIRE(map.has_value());
  CHECK(map->lambda == 1.0);
  CHECK(map->assumption.find("identity box 0.635") != std::string::npos);
  CHECK(map->caveat.find("no unbiased estimator") != std::string::npos);
  // Outside the box (but inside N_2(P0)) the sampler clips: q ≠ P, so the map does not hold there.
  const std::vector<double> edge{0.4 * 1.9, 0.3 * 0.5, 0.2 * 0.5, 0.1 * 0.6};
  double total = 0.0;
  for (const double v : edge) total += v;
  const auto q = distribution(mech("local", 1.0, prior, 2.0), edge);
  CHECK(std::fabs(q[0] - edge[0] / total) > 0.01);
  // The trivial regime (ε >= 2 ln γ): the box holds N_γ(P0), so only users outside N_γ(P0) are left to the caveat.
  const auto trivial = affine_map(mech("local", 2.0 * std::log(2.0) + 0.01, prior, 2.0), 4);
  CHECK(trivial->caveat.find("no unbiased estimator") == std::string::npos);
  CHECK(trivial->caveat.find("a user holding one item always is") != std::string::npos);
  CHECK(trivial->assumption.find("all of N_gamma(P0)") != std::string::npos);
  // The local-linear map's caveat: users outside N_γ(P0) are estimated through their projection.
  CHECK(affine_map(mech("local-linear", 1.0, prior, 2.0), 4)->caveat.find("projection") != std::string::npos);
  for (const std::string name : {"local", "local-linear"}) {
    const auto caveat = point_mass_caveat(mech(name, 1.0, prior, 2.0));
    REQUIRE(caveat.has_value());
    CHECK(caveat->find("holds no point mass") != std::string::npos);
    const std::vector<double> counts{40, 30, 20, 10};
    CHECK(estimate_point_masses(mech(name, 1.0, prior, 2.0), counts).caveat == *caveat);
  }
  CHECK_FALSE(point_mass_caveat(mech("minimax", 1.0)).has_value());
  CHECK(estimate_point_masses(mech("minimax", 1.0), std::vector<double>{4, 3, 2}).caveat.empty());
  // The population estimate of local carries its map's caveat.
  CHECK(estimate_population(mech("local", 1.0, prior, 2.0), std::vector<double>{40, 30, 20, 10}).caveat == map->caveat);
}

// Users outside 'local''s identity box b·P0 <= P <= b·e^ε·P0 — every point mass when k >= 2, since the box's floors
// b·p0 are > 0 — break the affine inversion, and the counts cannot show it: a point mass releases Q(e_x), which lies in
// the box, and a user holding Q(e_x) itself releases exactly that. So the caveat names them (as local-linear's does,
// from the same words), in and out of the trivial regime, and the estimate of point-mass users covers Q(e_x), not e_x.
TEST_CASE("estimate: local's caveat names users outside its identity box, point masses first", "[estimate]") {
  const std::vector<double> prior{21, 4, 7, 10, 1};
  const std::vector<double> item4{0, 0, 0, 0, 1};
  for (const double epsilon : {1.0, 8.0}) {  // 8 >= 2 ln 3: the trivial regime
    INFO("epsilon = " << epsilon);
    const Mechanism local = mech("local", epsilon, prior, 3.0);
    const std::string caveat = affine_map(local, 5)->caveat;
    CHECK(caveat.find("users outside the identity box") != std::string::npos);
    CHECK(caveat.find("a user holding one item always is") != std::string::npos);
    CHECK(caveat.find("the counts cannot show it") != std::string::npos);
    // Why no warning can exist: Q(e_4) is in the identity box, where 'local' releases its input unchanged.
    const std::vector<double> q = distribution(local, item4);
    const std::vector<double> again = distribution(local, q);
    for (std::size_t y = 0; y < 5; ++y) CHECK(again[y] == Approx(q[y]).epsilon(1e-12));
    // The expected counts of N = 2000 such users: the estimate is Q(e_4), far from the truth e_4, and no warning.
    std::vector<double> counts(5);
    double total = 0.0;
    for (std::size_t y = 0; y < 4; ++y) total += counts[y] = std::round(2000.0 * q[y]);
    counts[4] = 2000.0 - total;
    const PopulationEstimate p = estimate_population(local, counts);
    CHECK(p.caveat == caveat);
    CHECK(p.warnings.empty());
    CHECK(p.upper[4] < 1.0);
    CHECK(p.lower[0] > 0.0);
  }
  // The same words as local-linear's, from the one shared sentence.
  const std::string linear_caveat = affine_map(mech("local-linear", 1.0, prior, 3.0), 5)->caveat;
  CHECK(linear_caveat.find("a user holding one item always is") != std::string::npos);
  CHECK(linear_caveat.find("the counts cannot show it") != std::string::npos);
  // k = 1: the only pmf is inside every box, nothing to say.
  CHECK(affine_map(mech("local", 8.0, std::vector<double>{1.0}, 3.0), 1)->caveat.empty());
}

// A mechanism without its own k treats categories alike: its point-mass channel, read from one row, is the one built
// row by row.
TEST_CASE("estimate: the one-row point-mass channel of symmetric mechanisms equals the full channel", "[estimate]") {
  MechanismOptions gauss;
  gauss.mu = 0.7;
  const std::vector<std::pair<std::string, Mechanism>> cases{
      {"minimax", mech("minimax", 1.3)},          {"linear", mech("linear", 0.4)},
      {"linear (eps, delta)", mech("linear", 1.0, {}, 0.0, 0.0, 1e-4)},
      {"linear (mu)", make_finite_mechanism("linear", gauss)},
      {"mollifier", mech("mollifier", 2.0)},      {"roo", mech("roo", 0.7, {}, 0.0, 5.0)},
      {"ds-roo", mech("ds-roo", 1.5, {}, 0.0, 5.0)},
  };
  const std::vector<double> counts{31, 17, 9, 60, 2, 0, 11};
  for (const auto& [label, m] : cases) {
    INFO(label);
    const ChannelMatrix w = channel_matrix(m, point_mass_inputs(m, counts.size()));
    const double d = w(0, 0);
    const double o = w(0, 1);
    CHECK((w - (ChannelMatrix::Constant(w.rows(), w.cols(), o) + (d - o) * ChannelMatrix::Identity(w.rows(), w.cols())))
              .cwiseAbs()
              .maxCoeff() < 1e-14);
    const PopulationEstimate p = estimate_point_masses(m, counts);
    for (std::size_t x = 0; x < counts.size(); ++x) {
      CHECK(p.estimate[x] == Approx((counts[x] / 130.0 - o) / (d - o)).epsilon(1e-12).margin(1e-15));
    }
  }
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

// The interval layer on its own: counts of reports that need not sum to the number of reports (a frequency oracle's
// bits), the affine map, the general linear map, and what they refuse.
TEST_CASE("estimate: the interval layer", "[estimate]") {
  SECTION("proportions of reports: Clopper-Pearson pointwise, at alpha/k simultaneously") {
    const std::vector<double> bits{30, 0, 100, 55};  // 4 bits per report, 100 reports
    const TargetIntervals t = proportion_intervals(bits, 100, 0.05);
    for (std::size_t y = 0; y < bits.size(); ++y) {
      const Interval one = clopper_pearson_interval(bits[y], 100, 0.05);
      const Interval all = clopper_pearson_interval(bits[y], 100, 0.05 / 4.0);
      CHECK(t.estimate[y] == bits[y] / 100.0);
      CHECK(t.lower[y] == one.lower);
      CHECK(t.upper[y] == one.upper);
      CHECK(t.simultaneous_lower[y] == all.lower);
      CHECK(t.simultaneous_upper[y] == all.upper);
      CHECK(t.upper[y] > t.lower[y]);  // never of zero width
    }
    CHECK(t.method.find("Clopper-Pearson") != std::string::npos);
    CHECK_THROWS_WITH(proportion_intervals(std::vector<double>{3, 101}, 100, 0.05),
                      "counts[1] = 101: must be an integer in [0, reports = 100]");
    CHECK_THROWS_WITH(proportion_intervals(bits, 0.5, 0.05), "reports = 0.5: must be an integer in [1, 10^9]");
  }
  SECTION("an affine map: the same coverage, cut to [0, 1], never of zero width") {
    const std::vector<double> counts{0, 5, 95};
    const TargetIntervals released = proportion_intervals(counts, 100, 0.05);
    const std::vector<double> offset{0.1, 0.1, 0.1};
    const TargetIntervals p = affine_inversion_intervals(released, 0.7, offset, "p");
    CHECK(p.target == "p");
    CHECK(p.estimate[1] == Approx((0.05 - 0.1) / 0.7));
    // category 0: the released interval [0, 0.036] lies below the floor 0.1, so its image lies below 0: it is
    // reported as [0, its width], with a warning, instead of the point [0, 0]
    CHECK(p.lower[0] == 0.0);
    CHECK(p.upper[0] == Approx((released.upper[0] - released.lower[0]) / 0.7));
    CHECK(p.simultaneous_upper[0] > 0.0);
    REQUIRE_FALSE(p.warnings.empty());
    CHECK(p.warnings[0].find("category 0") != std::string::npos);
    CHECK(p.warnings[0].find("lies entirely below 0") != std::string::npos);
    CHECK_THROWS_AS(affine_inversion_intervals(released, 0.0, offset, "p"), std::invalid_argument);
    CHECK_THROWS_AS(affine_inversion_intervals(released, 0.7, std::vector<double>{0.1}, "p"), ShapeError);
  }
  SECTION("a general linear map: Chernoff-Hoeffding bounds around the unbiased estimate") {
    const std::vector<double> counts{50, 30, 20};
    Eigen::MatrixXd identity = Eigen::MatrixXd::Identity(3, 3);
    const std::vector<double> shift(3, 0.0);
    const TargetIntervals t = linear_inversion_intervals(counts, identity, shift, 0.05, "theta");
    for (std::size_t y = 0; y < 3; ++y) {
      CHECK(t.estimate[y] == Approx(counts[y] / 100.0));
      CHECK(t.lower[y] == Approx(bounded_mean_lower_bound(counts[y] / 100.0, 100, 0.025)).margin(1e-12));
      CHECK(t.upper[y] == Approx(bounded_mean_upper_bound(counts[y] / 100.0, 100, 0.025)).margin(1e-12));
      // wider than the exact binomial interval, as documented
      const Interval cp = clopper_pearson_interval(counts[y], 100, 0.05);
      CHECK(t.lower[y] <= cp.lower);
      CHECK(t.upper[y] >= cp.upper);
    }
    // A row with one value everywhere: the target is known exactly.
    Eigen::MatrixXd flat = Eigen::MatrixXd::Identity(3, 3);
    flat.row(1).setConstant(0.25);
    const TargetIntervals f = linear_inversion_intervals(counts, flat, shift, 0.05, "theta");
    CHECK(f.lower[1] == 0.25);
    CHECK(f.upper[1] == 0.25);
  }
}

// A warning is evidence against the assumption: for point-mass users it fires in at most α of the populations, and
// for counts no point-mass users could give (a category far below the mechanism's floor) it fires.
TEST_CASE("estimate: implausible counts warn; plausible ones rarely do", "[estimate][statistical]") {
  const Mechanism rr = mech("minimax", 4.0);
  // floor o = 1/(e^4 + 2) = 0.018: with N = 1000 at least ~18 releases of every category are expected
  const PopulationEstimate bad = estimate_point_masses(rr, std::vector<double>{0, 500, 500});
  REQUIRE_FALSE(bad.warnings.empty());
  CHECK(bad.warnings[0].find("implausible") != std::string::npos);
  CHECK(bad.warnings[0].find("every user holding one item") != std::string::npos);
  // Plausible counts: point-mass users at ε = 1, 400 populations each, at k = 5 with N = 200 and at k = 1000 with
  // N = 50 (where about α·k pointwise intervals miss in every sample): warnings in at most 5% of them (the box misses
  // the truth that rarely) — a count of 30 or more would refute that at level 1e-3.
  const Mechanism linear = mech("linear", 1.0);
  SeededRandom bits(4);
  std::vector<double> zipf(1000);
  for (std::size_t x = 0; x < zipf.size(); ++x) zipf[x] = 1.0 / static_cast<double>(x + 1);
  const double zipf_total = std::accumulate(zipf.begin(), zipf.end(), 0.0);
  for (double& z : zipf) z /= zipf_total;
  for (const auto& [users, population] : {std::pair{200, std::vector<double>{0.5, 0.3, 0.1, 0.1, 0.0}},
                                          std::pair{50, zipf}}) {
    CAPTURE(population.size());
    int warned = 0;
    int all_joint = 0;
    const auto joint = [](const std::string& w) { return w.starts_with("the counts are implausible under the assumption"); };
    for (int rep = 0; rep < 400; ++rep) {
      std::vector<double> items;
      for (const auto c : multinomial(bits, users, population)) items.push_back(static_cast<double>(c));
      const std::vector<double> counts = release_point_masses(linear, items, bits);
      const std::vector<std::string> mass = estimate_point_masses(linear, counts).warnings;
      const std::vector<std::string> ws = estimate_population(linear, counts).warnings;
      warned += std::any_of(mass.begin(), mass.end(), joint) ? 1 : 0;
      warned += std::any_of(ws.begin(), ws.end(), joint) ? 1 : 0;
      // Every warning is a joint one (a pointwise miss alone gives none).
      all_joint += std::all_of(ws.begin(), ws.end(), joint) ? 1 : 0;
    }
    CHECK(warned < 30);
    CHECK(all_joint == 400);
  }
}

// The reviewed case: 'linear', k = 1000, ε = 1, counts {0: 47, 1: 3}: category 1's released pointwise interval maps
// wholly above 1 while its wider simultaneous one keeps a part inside [0, 1]. The pointwise interval was reported as
// [0, 1] beside the simultaneous [0.0585, 1]; it lies inside it now.
TEST_CASE("estimate: pointwise intervals lie inside the simultaneous ones, both inside [0, 1]", "[estimate]") {
  std::vector<double> counts(1000, 0.0);
  counts[0] = 47;
  counts[1] = 3;
  const PopulationEstimate p = estimate_population(mech("linear", 1.0), counts);
  CHECK(p.simultaneous_lower[1] > 0.05);
  CHECK(p.lower[1] >= p.simultaneous_lower[1]);
  CHECK(p.upper[1] == 1.0);
  // Category 0 (47 of 50 reports, where k-RR keeps an item with probability 0.0027) is named by a simultaneous
  // warning; category 1, whose simultaneous interval reaches into [0, 1], is not.
  CAPTURE(p.warnings);
  REQUIRE(p.warnings.size() == 1);
  CHECK(p.warnings[0].find("interval of category 0 lies entirely above 1") != std::string::npos);
  // The layer itself, on random raw intervals through random affine maps: pointwise ⊆ simultaneous ⊆ [0, 1], never of
  // zero width unless a raw end sits on 0 or 1 exactly.
  SeededRandom bits(11);
  const auto uniform = [&] { return uniform01(bits); };
  for (int rep = 0; rep < 2000; ++rep) {
    const std::size_t k = 2 + rep % 7;
    std::vector<double> c(k);
    double n = 0.0;
    for (double& v : c) n += v = std::floor(uniform() * (rep % 3 == 0 ? 3.0 : 60.0));
    if (n == 0.0) c[0] = n = 1.0;
    const TargetIntervals released = proportion_intervals(c, n, 0.05);
    const std::vector<double> offset(k, uniform() * 0.5);
    const TargetIntervals t = affine_inversion_intervals(released, 0.01 + uniform(), offset, "p");
    for (std::size_t x = 0; x < k; ++x) {
      INFO("rep " << rep << " category " << x);
      CHECK(0.0 <= t.simultaneous_lower[x]);
      CHECK(t.simultaneous_lower[x] <= t.lower[x]);
      CHECK(t.lower[x] < t.upper[x]);
      CHECK(t.upper[x] <= t.simultaneous_upper[x]);
      CHECK(t.simultaneous_upper[x] <= 1.0);
    }
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

// Unbiasedness of the affine and point-mass estimates over 600 simulated point-mass populations of N = 3000 users
// (truth: the realised item frequencies). Their intervals' coverage is the grid's (estimate_coverage_test.cpp).
TEST_CASE("estimate: point-mass and affine estimates are unbiased over 600 simulated populations",
          "[estimate][statistical]") {
  const std::vector<double> population{0.35, 0.25, 0.2, 0.12, 0.08};
  const std::size_t k = population.size();
  struct Case {
    std::string label;
    Mechanism m;
    bool affine;
  };
  const std::vector<Case> cases{
      {"linear (affine)", mech("linear", 1.0), true},
      {"linear (eps, delta) (affine)", mech("linear", 1.0, {}, 0.0, 0.0, 1e-2), true},
      {"roo (affine)", mech("roo", 0.5, {}, 0.0, 4.0), true},
      {"minimax (point masses)", mech("minimax", 2.0), false},
      {"local (point masses)", mech("local", 2.0, {0.3, 0.3, 0.2, 0.1, 0.1}, 4.0), false},
      {"mollifier (point masses)", mech("mollifier", 2.0), false},
  };
  constexpr int kPopulations = 600;
  constexpr std::size_t kUsers = 3000;
  SeededRandom bits(20261124);
  for (const Case& c : cases) {
    INFO(c.label);
    std::vector<double> z_sum(k, 0.0);
    for (int rep = 0; rep < kPopulations; ++rep) {
      std::vector<double> items;
      for (const auto n : multinomial(bits, kUsers, population)) items.push_back(static_cast<double>(n));
      const std::vector<double> counts = release_point_masses(c.m, items, bits);
      const PopulationEstimate p = c.affine ? estimate_population(c.m, counts) : estimate_point_masses(c.m, counts);
      for (std::size_t x = 0; x < k; ++x) z_sum[x] += (p.estimate[x] - items[x] / kUsers) / p.standard_error[x];
    }
    // The mean standardised error over 600 populations is within 4/sqrt(600) of 0.
    for (std::size_t x = 0; x < k; ++x) CHECK(std::fabs(z_sum[x] / kPopulations) < 4.0 / std::sqrt(600.0));
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
