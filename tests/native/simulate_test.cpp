// Simulation of N users (simulate.hpp): the binomial / multinomial / gamma draws by goodness of fit, the point-mass
// fast path against the per-user loop, the population models and the error metrics.
#include "analysis/simulate.hpp"
#include "analysis/channel.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/binomial.hpp"
#include "mechanisms/mechanism.hpp"
#include "base/randomness.hpp"
#include "mechanism_examples.hpp"
#include "test_support.hpp"

using namespace privsample;
using privsample_test::chi_square_survival;
using privsample_test::kGoodnessOfFitLevel;
using Catch::Matchers::Contains;

namespace {

Mechanism named(const std::string& name, double epsilon) {
  MechanismOptions o;
  o.epsilon = epsilon;
  return make_finite_mechanism(name, o);
}

// Pearson's χ² of `draws` binomial draws against Bin(n, p), cells merged from the tails until each expects >= 20.
double binomial_fit_pvalue(std::uint64_t n, double p, int draws, std::uint64_t seed) {
  SeededRandom bits(seed);
  const double mean = static_cast<double>(n) * p;
  const double sd = std::sqrt(mean * (1.0 - p));
  const double from = std::max(0.0, std::floor(mean - 8.0 * sd - 2.0));
  const double to = std::min(static_cast<double>(n), std::ceil(mean + 8.0 * sd + 2.0));
  std::vector<double> observed(static_cast<std::size_t>(to - from) + 1, 0.0);
  bool in_range = true;
  for (int i = 0; i < draws; ++i) {
    const double x = static_cast<double>(binomial(bits, n, p));
    in_range = in_range && x <= static_cast<double>(n);
    const double cell = std::clamp(x, from, to) - from;
    observed[static_cast<std::size_t>(cell)] += 1.0;
  }
  // Expected cell masses (the end cells take the tails), then merge neighbours until each expects >= 20.
  REQUIRE(in_range);
  std::vector<double> expected(observed.size());
  for (std::size_t c = 0; c < observed.size(); ++c) {
    const double x = from + static_cast<double>(c);
    const double upper = c + 1 == observed.size() ? 1.0 : binomial_cdf(x, static_cast<double>(n), p);
    const double lower = c == 0 ? 0.0 : binomial_cdf(x - 1.0, static_cast<double>(n), p);
    expected[c] = (upper - lower) * draws;
  }
  double stat = 0.0;
  int cells = 0;
  double o_acc = 0.0, e_acc = 0.0;
  for (std::size_t c = 0; c < observed.size(); ++c) {
    o_acc += observed[c];
    e_acc += expected[c];
    if (e_acc >= 20.0 || c + 1 == observed.size()) {
      if (e_acc > 0.0) {
        stat += (o_acc - e_acc) * (o_acc - e_acc) / e_acc;
        ++cells;
      }
      o_acc = e_acc = 0.0;
    }
  }
  if (cells < 2) return 1.0;
  return chi_square_survival(stat, cells - 1);
}

}  // namespace

TEST_CASE("simulate: binomial draws fit Bin(n, p) by chi-square", "[simulate][statistical]") {
  struct Case {
    std::uint64_t n;
    double p;
  };
  // Inversion only (small n·p), BTRS (large n·p), p > ½ (symmetry), extreme p.
  const std::vector<Case> cases{{1, 0.3},       {5, 0.3},     {40, 0.5},       {1000, 0.01},  {1000, 0.3},
                                {100000, 0.3},  {100000, 0.999}, {1000000, 2e-5}, {1000000, 0.5}, {7, 1.0}};
  std::uint64_t seed = 1;
  for (const Case& c : cases) {
    INFO("n = " << c.n << ", p = " << c.p);
    const double pvalue = binomial_fit_pvalue(c.n, c.p, 200000, seed++);
    CHECK(pvalue > kGoodnessOfFitLevel);
  }
  SeededRandom bits(3);
  // n = 3·10^9 (beyond 32 bits): mean and variance over 20000 draws.
  double s = 0.0, s2 = 0.0;
  for (int i = 0; i < 20000; ++i) {
    const double x = static_cast<double>(binomial(bits, 3000000000ULL, 0.25)) - 7.5e8;
    s += x;
    s2 += x * x;
  }
  const double var = 3e9 * 0.25 * 0.75;
  CHECK(std::fabs(s / 20000.0) < 5.0 * std::sqrt(var / 20000.0));
  CHECK(s2 / 20000.0 == Approx(var).epsilon(0.06));
  CHECK(binomial(bits, 10, 0.0) == 0);
  CHECK(binomial(bits, 10, 1.0) == 10);
  CHECK(binomial(bits, 0, 0.5) == 0);
  CHECK_THROWS_AS(binomial(bits, 10, 1.5), std::invalid_argument);
  CHECK_THROWS_AS(binomial(bits, 10, std::nan("")), std::invalid_argument);
}

TEST_CASE("simulate: a binomial draw takes a bounded number of random words whatever n is", "[simulate]") {
  // The multinomials of the point-mass fast path draw k binomials of up to N trials each: their cost must not grow
  // with N (a splitting recursion takes O(log n) gamma draws, about 3 words each).
  for (const std::uint64_t n : {std::uint64_t{1000}, std::uint64_t{1'000'000}, std::uint64_t{1'000'000'000}}) {
    for (const double p : {0.5, 0.03, 0.9}) {
      privsample_test::CountingBits bits(9);
      for (int i = 0; i < 2000; ++i) (void)binomial(bits, n, p);
      INFO("n = " << n << ", p = " << p << ": " << static_cast<double>(bits.words) / 2000.0 << " words per draw");
      CHECK(bits.words < 2000 * 8);
    }
  }
}

TEST_CASE("simulate: multinomial counts sum to n and fit the probabilities", "[simulate][statistical]") {
  SeededRandom bits(11);
  const std::vector<double> probs{0.5, 0.0, 0.2, 0.2, 0.1};
  std::vector<std::size_t> total(probs.size(), 0);
  constexpr std::uint64_t kN = 1000;
  constexpr int kReps = 2000;
  for (int rep = 0; rep < kReps; ++rep) {
    const auto c = multinomial(bits, kN, probs);
    std::uint64_t sum = 0;
    for (std::size_t x = 0; x < c.size(); ++x) {
      sum += c[x];
      total[x] += c[x];
    }
    REQUIRE(sum == kN);
    REQUIRE(c[1] == 0);
  }
  const double stat = privsample_test::chi_square_statistic(total, probs, kN * kReps);
  CHECK(chi_square_survival(stat, 3) > kGoodnessOfFitLevel);
  // The first coordinate is Bin(n, p_0): its variance over replications is n p (1−p) = 250.
  double s = 0.0, s2 = 0.0;
  for (int rep = 0; rep < kReps; ++rep) {
    const double c0 = static_cast<double>(multinomial(bits, kN, probs)[0]);
    s += c0;
    s2 += c0 * c0;
  }
  const double var = s2 / kReps - (s / kReps) * (s / kReps);
  CHECK(var == Approx(250.0).epsilon(0.12));
}

TEST_CASE("simulate: gamma and Dirichlet draws have the right moments", "[simulate][statistical]") {
  SeededRandom bits(12);
  for (const double shape : {0.3, 1.0, 4.5, 100.0}) {
    INFO("shape " << shape);
    double s = 0.0, s2 = 0.0;
    constexpr int kDraws = 100000;
    for (int i = 0; i < kDraws; ++i) {
      const double g = gamma_draw(bits, shape);
      s += g;
      s2 += g * g;
    }
    const double mean = s / kDraws;
    const double var = s2 / kDraws - mean * mean;
    CHECK(mean == Approx(shape).margin(5.0 * std::sqrt(shape / kDraws)).epsilon(0));
    CHECK(var == Approx(shape).epsilon(0.05));
  }
  const std::vector<double> alpha{2.0, 1.0, 0.5, 0.5};
  std::vector<double> mean(4, 0.0);
  for (int i = 0; i < 20000; ++i) {
    const auto d = dirichlet(bits, alpha);
    for (std::size_t x = 0; x < 4; ++x) mean[x] += d[x] / 20000.0;
  }
  for (std::size_t x = 0; x < 4; ++x) CHECK(mean[x] == Approx(alpha[x] / 4.0).margin(0.01).epsilon(0));
}

TEST_CASE("simulate: the point-mass fast path has the law of the per-user loop", "[simulate][statistical]") {
  // Both give counts whose mean is Σ_x items_x·distribution(e_x); compare the totals of many runs by chi-square.
  const Mechanism m = named("minimax", 1.0);
  // 5 holders < 2k: drawn one per holder; the others as multinomials.
  const std::vector<double> items{300, 0, 195, 5};
  const auto inputs = point_mass_inputs(m, 4);
  std::vector<double> expected(4, 0.0);
  for (std::size_t x = 0; x < 4; ++x) {
    const auto row = distribution(m, inputs[x]);
    for (std::size_t y = 0; y < 4; ++y) expected[y] += items[x] * row[y] / 500.0;
  }
  SeededRandom bits(21);
  std::vector<std::size_t> fast(4, 0), slow(4, 0);
  for (int rep = 0; rep < 200; ++rep) {
    const auto a = release_point_masses(m, items, bits);
    const auto b = release_point_masses_per_user(m, items, bits);
    double ta = 0.0, tb = 0.0;
    for (std::size_t y = 0; y < 4; ++y) {
      fast[y] += static_cast<std::size_t>(a[y]);
      slow[y] += static_cast<std::size_t>(b[y]);
      ta += a[y];
      tb += b[y];
    }
    REQUIRE(ta == 500.0);
    REQUIRE(tb == 500.0);
  }
  const std::size_t n = 200 * 500;
  CHECK(chi_square_survival(privsample_test::chi_square_statistic(fast, expected, n), 3) > kGoodnessOfFitLevel);
  CHECK(chi_square_survival(privsample_test::chi_square_statistic(slow, expected, n), 3) > kGoodnessOfFitLevel);
}

TEST_CASE("simulate: one call runs N users end to end", "[simulate]") {
  SeededRandom bits(31);
  const std::vector<double> population{50, 30, 15, 5};
  SimulationOptions o;
  o.users = 1'000'000;
  SECTION("point masses, k-RR: estimate close to the truth") {
    const SimulationResult s = simulate(named("linear", 2.0), population, o, bits);
    double users = 0.0;
    for (const double v : s.items) users += v;
    CHECK(users == 1e6);
    double released = 0.0;
    for (const double v : s.counts) released += v;
    CHECK(released == 1e6);
    REQUIRE(s.estimate.population.has_value());
    REQUIRE(s.estimate.point_masses.has_value());
    REQUIRE(s.population_errors.has_value());
    CHECK(s.population_errors->max_abs < 0.005);  // se ≈ sqrt(0.25/(1e6·0.5²)) = 1e-3
    CHECK(s.population_errors->tv <= s.released_errors.tv);
    CHECK(s.population_errors->l2 <= std::sqrt(2.0) * s.population_errors->tv + 1e-15);
  }
  SECTION("point masses, minimax: the point-mass inversion is the estimate") {
    const SimulationResult s = simulate(named("minimax", 2.0), population, o, bits);
    CHECK_FALSE(s.estimate.population.has_value());
    REQUIRE(s.point_mass_errors.has_value());
    CHECK(s.point_mass_errors->max_abs < 0.005);
  }
  SECTION("Dirichlet users") {
    o.users = 2000;
    o.model = PopulationModel::dirichlet;
    o.concentration = 5.0;
    const SimulationResult s = simulate(named("linear", 1.0), population, o, bits);
    double total = 0.0;
    for (const double v : s.truth) total += v;
    CHECK(total == Approx(1.0));
    CHECK(s.items.empty());
  }
  SECTION("record-level users (roo): Dirichlet users hold n records each") {
    MechanismOptions ro;
    ro.epsilon = 1.0;
    ro.records = 5.0;
    o.users = 3000;
    o.model = PopulationModel::dirichlet;
    const SimulationResult s = simulate(make_finite_mechanism("roo", ro), population, o, bits);
    // Every user's P is a record histogram / 5: the truth is a multiple of 1/(5·3000).
    for (const double v : s.truth) CHECK(std::fabs(v * 15000.0 - std::round(v * 15000.0)) < 1e-6);
    REQUIRE(s.estimate.population.has_value());
    CHECK(s.population_errors->max_abs < 0.1);
  }
  SECTION("given users: each row is validated") {
    const std::vector<double> users{1, 0, 0, 1, -1, 2};
    CHECK_THROWS_WITH(simulate_given(named("linear", 1.0), users, 2, o, bits),
                      "users[2][0] = -1: counts must be finite and >= 0");
    const std::vector<double> fine{1, 0, 0, 1, 1, 1};
    const SimulationResult s = simulate_given(named("linear", 1.0), fine, 2, o, bits);
    CHECK(s.truth[0] == Approx(0.5));
    CHECK(s.truth[1] == Approx(0.5));
  }
  SECTION("bad options are named") {
    o.users = 0;
    CHECK_THROWS_WITH(simulate(named("linear", 1.0), population, o, bits),
                      "options.users = 0: must be an integer in [1, 1000000000]");
    o.users = 10;
    std::vector<double> huge(kMaxCategories + 1, 1.0);
    CHECK_THROWS_WITH(simulate(named("linear", 1.0), huge, o, bits),
                      "options.population has 10000001 categories: at most 10000000 are supported");
    huge = {};
    o.model = PopulationModel::dirichlet;
    o.users = 1'000'000'000;  // 10^9 users of k = 4: an hours-long loop, refused up front
    CHECK_THROWS_WITH(simulate(named("linear", 1.0), population, o, bits),
                      Contains("options.users = 1000000000: model 'dirichlet' draws a histogram of k = 4 categories") &&
                          Contains("at most 100000000"));
    o.users = 10;
    o.concentration = -1.0;
    CHECK_THROWS_WITH(simulate(named("linear", 1.0), population, o, bits),
                      "options.concentration = -1: must be finite and > 0");
    o.concentration.reset();
    const std::vector<double> users{1, 0, 0, 1, 2};  // 5 entries, not a multiple of k = 2
    CHECK_THROWS_WITH(simulate_given(named("linear", 1.0), users, 2, o, bits), Contains("users has 5 entries"));
  }
  SECTION("an option the model does not use is refused, not ignored") {
    // point masses have no concentration: it used to be ignored silently
    o.concentration = 0.1;
    CHECK_THROWS_WITH(simulate(named("linear", 1.0), population, o, bits),
                      Contains("options.concentration = 0.1: model 'point-masses'") &&
                          Contains("use model 'dirichlet'"));
    const std::vector<double> fine{1, 0, 0, 1, 1, 1};
    CHECK_THROWS_WITH(simulate_given(named("linear", 1.0), fine, 2, o, bits),
                      Contains("options.concentration = 0.1: model 'given'"));
    o.concentration.reset();
    // 'given' takes the users' histograms as the population: a population passed along is refused
    CHECK_THROWS_WITH(simulate_given(named("linear", 1.0), fine, 2, o, bits, population),
                      Contains("options.population: model 'given' takes the users' histograms"));
    CHECK_NOTHROW(simulate_given(named("linear", 1.0), fine, 2, o, bits));
    // the Dirichlet model without a concentration uses 1
    o.model = PopulationModel::dirichlet;
    o.users = 50;
    SeededRandom a(3);
    SeededRandom b(3);
    SimulationOptions explicit_one = o;
    explicit_one.concentration = 1.0;
    CHECK(simulate(named("linear", 1.0), population, o, a).counts ==
          simulate(named("linear", 1.0), population, explicit_one, b).counts);
  }
}

TEST_CASE("simulate: error metrics", "[simulate]") {
  const std::vector<double> truth{0.5, 0.5, 0.0};
  const std::vector<double> estimate{0.25, 0.5, 0.25};
  const EstimationErrors e = estimation_errors(truth, estimate);
  CHECK(e.tv == Approx(0.25));
  CHECK(e.max_abs == Approx(0.25));
  CHECK(e.l2 == Approx(std::sqrt(0.125)));
  CHECK(e.kl == Approx(0.5 * std::log(2.0)));
  const std::vector<double> missing{1.0, 0.0, 0.0};
  CHECK(std::isinf(estimation_errors(truth, missing).kl));
}

// The papers' random mixtures (docs/experiments.md#park-fig-4-1-d-gaussian-mixtures): the golden mixtures are the
// ones the former JavaScript set-up generator (xoshiro256** seeded by splitmix64, same draw order) gave for seed 1,
// so the figures' clients did not change when the generator moved into the core.
TEST_CASE("simulate: random_mixtures reproduces the seeded set-up draws and has the papers' shape", "[simulate]") {
  SeededRandom bits(1);
  const std::vector<MixtureParameters> m = random_mixtures(bits, 500);
  REQUIRE(m.size() == 500);
  const std::vector<double> means0{0.39435683311992298, -0.71285592651112761, -0.85790956786157535, -0.23763110661876463};
  const std::vector<double> weights0{0.23284163667244234, 0.092547593651425758, 0.31106653531703138, 0.36354423435910060};
  const std::vector<double> means2{0.76249294435827553, -0.14408198896704461, -0.21012995355588493, 0.29828638863751267};
  REQUIRE(m[0].means.size() == 4);
  REQUIRE(m[1].means.size() == 5);
  REQUIRE(m[2].means.size() == 4);
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(m[0].means[i] == means0[i]);  // the uniforms are bit-identical
    CHECK(m[2].means[i] == means2[i]);
    CHECK(m[0].weights[i] == Approx(weights0[i]).epsilon(1e-14).margin(0));  // log1p(−u) vs log(1 − u): ulps
  }
  double components = 0.0;
  for (const MixtureParameters& x : m) {
    REQUIRE(x.means.size() >= 1);
    REQUIRE(x.means.size() <= 10);
    REQUIRE(x.weights.size() == x.means.size());
    double total = 0.0;
    for (double v : x.means) CHECK((v >= -1.0 && v <= 1.0));
    for (double w : x.weights) {
      CHECK(w > 0.0);
      total += w;
    }
    CHECK(total == Approx(1.0).margin(1e-12).epsilon(0));
    components += static_cast<double>(x.means.size());
  }
  // E[min(Poisson(2) + 1, 10)] = 3 (the cap changes it by < 1e-4); sd of the mean over 500 draws ≈ 0.063.
  CHECK(std::abs(components / 500.0 - 3.0) < 0.25);

  SeededRandom again(1);
  SeededRandom other(2);
  const std::vector<MixtureParameters> same = random_mixtures(again, 500);
  const std::vector<MixtureParameters> different = random_mixtures(other, 500);
  CHECK(same[499].means == m[499].means);
  CHECK(different[0].means != m[0].means);

  SeededRandom wide(3);
  for (const MixtureParameters& x : random_mixtures(wide, 50, 5.0, 3, 2.5)) {
    CHECK(x.means.size() <= 3);
    for (double v : x.means) CHECK((v >= -2.5 && v <= 2.5));
  }
  SeededRandom bad(4);
  CHECK_THROWS_WITH(random_mixtures(bad, 2'000'000), Catch::Contains("count = 2000000"));
  CHECK_THROWS_WITH(random_mixtures(bad, 1, 0.0), Catch::Contains("poissonMean = 0"));
  CHECK_THROWS_WITH(random_mixtures(bad, 1, 2.0, 0), Catch::Contains("maxComponents = 0"));
  CHECK_THROWS_WITH(random_mixtures(bad, 1, 2.0, 10, std::nan("")), Catch::Contains("meanRange = NaN"));
}

TEST_CASE("simulate: every mechanism's point-mass law is its distribution() at each point mass", "[simulate]") {
  for (const double epsilon : {0.1, 1.0, 5.0}) {
    for (const std::size_t k : {std::size_t{1}, std::size_t{2}, std::size_t{7}, std::size_t{60}}) {
      std::vector<std::pair<std::string, MechanismOptions>> all = privsample_test::mechanism_examples(k, epsilon);
      for (const auto& [label, o] : privsample_test::mechanism_examples(k, epsilon)) {
        if (label == "local") {  // ε = 5 >= 2 ln 3: the trivial regime, where 'projection' has its own box
          MechanismOptions projection = o;
          projection.outside_neighbourhood = "projection";
          all.emplace_back("local (outside the neighbourhood: projection)", projection);
        }
      }
      for (const auto& [label, o] : all) {
        const Mechanism m = make_finite_mechanism(label.substr(0, label.find(' ')), o);
        const std::optional<PointMassLaw> law = point_mass_law(m, k);
        INFO(label << " at epsilon = " << epsilon << ", k = " << k);
        if (!has_exact_distribution(m)) {
          CHECK_FALSE(law.has_value());
          continue;
        }
        REQUIRE(law.has_value());
        const double mass = guarantee(m).notion == PrivacyNotion::record_dp ? 40.0 : 1.0;
        for (std::size_t x = 0; x < k; ++x) {
          std::vector<double> e(k, 0.0);
          e[x] = mass;
          const std::vector<double> q = distribution(m, e);
          for (std::size_t y = 0; y < k; ++y) {
            double from_law = law->floor[y] + (law->theta.empty() ? 0.0 : law->theta[x] * law->lift[y]);
            if (y == x) from_law += law->spike[x];
            CHECK(from_law == Approx(q[y]).margin(1e-12).epsilon(1e-9));
          }
        }
      }
    }
  }
}

TEST_CASE("simulate: point-mass users drawn by the law, or laplace-projection's own draw, match one draw per user",
          "[simulate][statistical]") {
  // The same users released both ways; the counts are two samples of one multinomial law: a chi-square two-sample test.
  const std::size_t k = 6;
  const std::vector<double> items{4000, 0, 2500, 800, 1200, 1500};
  for (const std::string name : {"minimax", "local", "local-linear", "ds-roo", "laplace-projection"}) {
    MechanismOptions o;
    o.epsilon = 1.0;
    if (name == "local" || name == "local-linear") {
      o.prior = std::vector<double>{1, 2, 3, 1, 2, 3};
      o.gamma = 2.0;
    }
    if (name == "ds-roo" || name == "laplace-projection") o.records = 5.0;
    const Mechanism m = make_finite_mechanism(name, o);
    SeededRandom a(11);
    SeededRandom b(12);
    const std::vector<double> fast = release_point_masses(m, items, a);
    const std::vector<double> slow = release_point_masses_per_user(m, items, b);
    double statistic = 0.0;
    int bins = 0;
    for (std::size_t y = 0; y < k; ++y) {
      const double total = fast[y] + slow[y];
      if (total == 0.0) continue;
      statistic += (fast[y] - slow[y]) * (fast[y] - slow[y]) / total;  // equal sample sizes
      ++bins;
    }
    INFO(name << ": chi-square " << statistic << " on " << bins - 1 << " degrees of freedom");
    CHECK(chi_square_survival(statistic, bins - 1) > 1e-4);
  }
}

TEST_CASE("simulate: laplace-projection's point-mass users, drawn by the exponential race, match sample() per user",
          "[simulate][statistical]") {
  // All users on letter 0, so the own-letter share (the race's outcome) is the first cell; the others by symmetry.
  // Settings where the own noisy count is often <= 0 (n = 1, small ε), where every noisy count is <= 0 often (k = 2),
  // and where the own letter rarely wins (k = 200).
  struct Case {
    double epsilon;
    double records;
    std::size_t k;
  };
  for (const Case c : {Case{0.5, 1, 2}, Case{0.5, 1, 3}, Case{1.0, 5, 30}, Case{2.0, 40, 200}, Case{0.1, 3, 12}}) {
    MechanismOptions o;
    o.epsilon = c.epsilon;
    o.records = c.records;
    const Mechanism m = make_finite_mechanism("laplace-projection", o);
    std::vector<double> items(c.k, 0.0);
    items[0] = 40000;
    SeededRandom a(21);
    SeededRandom b(22);
    const std::vector<double> fast = release_point_masses(m, items, a);
    const std::vector<double> slow = release_point_masses_per_user(m, items, b);
    // Two equal samples of one multinomial law; the other letters pooled into 3 cells so each cell expects enough.
    std::vector<double> f{fast[0], 0, 0, 0};
    std::vector<double> g{slow[0], 0, 0, 0};
    for (std::size_t y = 1; y < c.k; ++y) {
      f[1 + y % 3] += fast[y];
      g[1 + y % 3] += slow[y];
    }
    double statistic = 0.0;
    int bins = 0;
    for (std::size_t y = 0; y < f.size(); ++y) {
      if (f[y] + g[y] == 0.0) continue;
      statistic += (f[y] - g[y]) * (f[y] - g[y]) / (f[y] + g[y]);
      ++bins;
    }
    INFO("epsilon = " << c.epsilon << ", n = " << c.records << ", k = " << c.k << ": own letter " << fast[0]
                      << " (race) vs " << slow[0] << " (per user); chi-square " << statistic);
    CHECK(chi_square_survival(statistic, bins - 1) > kGoodnessOfFitLevel);
  }
}

TEST_CASE("simulate: laplace-projection's point-mass users take a few random words each, whatever k is", "[simulate]") {
  // The others' noisy counts are summarised by one closed-form draw, not by a count of positive ones and their sum.
  MechanismOptions o;
  o.epsilon = 1.0;
  o.records = 40.0;
  const Mechanism m = make_finite_mechanism("laplace-projection", o);
  for (const std::size_t k : {std::size_t{10}, std::size_t{10000}, std::size_t{100000}}) {
    std::vector<double> items(k, 0.0);
    for (std::size_t x = 0; x < k; x += 1 + k / 100) items[x] = 200.0;
    double users = 0.0;
    for (const double i : items) users += i;
    privsample_test::CountingBits bits(4);
    (void)release_point_masses(m, items, bits);
    INFO("k = " << k << ": " << static_cast<double>(bits.words) / users << " words per user");
    CHECK(static_cast<double>(bits.words) < 5.0 * users);
  }
}

TEST_CASE("simulate: 10^6 point-mass users at k = 10^5 take O(k) work", "[simulate]") {
  // Before the point-mass laws every item class cost distribution(e_x), O(k) each: O(k²) = 10^10 here.
  const std::size_t k = 100000;
  std::vector<double> items(k, 10.0);
  MechanismOptions o;
  o.epsilon = 1.0;
  const Mechanism m = make_finite_mechanism("minimax", o);
  SeededRandom bits(5);
  const auto start = std::chrono::steady_clock::now();
  const std::vector<double> counts = release_point_masses(m, items, bits);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  double total = 0.0;
  for (const double c : counts) total += c;
  CHECK(total == 1e6);
  CHECK(seconds < 2.0);  // O(k²) would take minutes
}
