// The clip samplers around a reference measure: LocalClipSampler (Thm 5.1, core/mechanisms/local/README.md) and the
// Husain relative-mollifier projection (core/mechanisms/mollifier/README.md).
#include "privsample.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <random>
#include <span>
#include <stdexcept>
#include <vector>

#include "model/histogram.hpp"
#include "base/numeric.hpp"
#include "base/errors.hpp"
#include "privacy/privacy_box.hpp"
#include "golden.hpp"
#include "test_support.hpp"

using namespace privsample;
using namespace privsample_test;

TEST_CASE("local clip: test vectors of core/mechanisms/local/README.md (k = 4, P0 = (.4,.3,.2,.1), gamma = 3, eps = 1), "
          "tests/golden/clip-samplers.json",
          "[local_clip][vectors]") {
  const auto golden = read_golden("clip-samplers.json")["local"];
  const auto p0 = golden["prior"].get<std::vector<double>>();
  const double tolerance = golden["tolerance"].get<double>() + 1e-12;
  const LocalClipSampler sampler(golden["epsilon"].get<double>(), p0, golden["gamma"].get<double>());
  REQUIRE(golden["vectors"].size() == 6);
  for (const auto& row : golden["vectors"]) {
    const auto p = row["p"].get<std::vector<double>>();
    const auto want = row["q"].get<std::vector<double>>();
    const double r = row["r"].get<double>();  // 0 in Case B
    INFO(row["label"].get<std::string>());
    const std::vector<double> q = sampler.distribution(p);
    REQUIRE(q.size() == 4);
    for (std::size_t x = 0; x < 4; ++x) CHECK(q[x] == Approx(want[x]).margin(tolerance).epsilon(0));
    CHECK(std::fabs(compensated_total(q) - 1.0) <= 1e-12);
    CHECK(sampler.normaliser(p) == Approx(r).margin(tolerance).epsilon(0));
    CHECK(sampler.solve(p).kind == (r == 0.0 ? ClipCase::sparse_support : ClipCase::root));
  }
  // counts instead of probabilities: the same output
  const std::vector<double> from_counts = sampler.distribution(std::vector<double>{70, 10, 10, 10});
  const std::vector<double> from_probabilities = sampler.distribution(std::vector<double>{0.7, 0.1, 0.1, 0.1});
  for (std::size_t x = 0; x < 4; ++x) CHECK(from_counts[x] == Approx(from_probabilities[x]).epsilon(1e-15));
}

TEST_CASE("local clip: the block input attains R_loc (core/mechanisms/local/README.md: k = 20, gamma = 9, eps = 1)",
          "[local_clip][risk]") {
  const std::size_t k = 20;
  const double gamma = 9.0;
  const std::vector<double> p0 = uniform(k);
  const LocalClipSampler sampler(1.0, p0, gamma);
  std::vector<double> p(k, 1.0 / (20.0 * gamma));  // p0/γ off the block
  p[3] = p[11] = gamma / 20.0;                       // γ·p0 on a block of P0-mass 1/(γ+1)
  const std::vector<double> q = sampler.distribution(p);
  struct Expected {
    NamedDivergence f;
    double value;
  };
  for (const auto& [f, value] : {Expected{NamedDivergence::kl, 1.0163447}, Expected{NamedDivergence::tv, 0.6680307},
                                 Expected{NamedDivergence::hellinger, 0.2659502},
                                 Expected{NamedDivergence::chi2, 2.5048614}}) {
    INFO(divergence_name(f));
    CHECK(divergence(f, p, q) == Approx(value).margin(half_unit(7)).epsilon(0));
    CHECK(sampler.worst_case_risk(f, k) == Approx(value).margin(half_unit(7)).epsilon(0));
    CHECK(local_clip_risk(f_divergence(f), 1.0, gamma) == Approx(value).margin(half_unit(7)).epsilon(0));
  }
  CHECK_THROWS_AS(sampler.worst_case_risk(NamedDivergence::kl, k + 1), std::invalid_argument);
  // trivial regime ε >= 2 log γ: the risk is 0 and q = P on N_γ(P0)
  const LocalClipSampler trivial(2.0 * std::log(gamma) + 0.01, p0, gamma);
  CHECK(trivial.worst_case_risk(NamedDivergence::kl, k) == 0.0);
  const std::vector<double> same = trivial.distribution(p);
  for (std::size_t x = 0; x < k; ++x) CHECK(same[x] == Approx(p[x]).epsilon(1e-14));
}

namespace {

std::size_t local_clip_sweep(bool representable) {
  std::size_t cases = 0;
  std::mt19937_64 rng(5150);
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  for (std::size_t k : {2, 3, 5, 12, 40}) {
    for (double gamma : {1.5, 3.0, 9.0, 50.0}) {
      std::vector<double> p0(k);
      for (double& v : p0) v = 0.05 + u01(rng);
      const double total = compensated_total(p0);
      for (double& v : p0) v /= total;
      for (double eps : epsilon_grid()) {
        const LocalClipSampler sampler(eps, p0, gamma);
        const double shrink = std::exp(-effective_epsilon(eps));
        const double ceiling = (gamma + 1.0) / (gamma * shrink + 1.0);  // b·e^ε
        const double floor = ceiling * shrink;                           // b
        std::vector<double> lo(k);
        std::vector<double> hi(k);
        for (std::size_t x = 0; x < k; ++x) {
          lo[x] = floor * sampler.prior()[x];
          hi[x] = ceiling * sampler.prior()[x];
        }
        std::vector<Histogram> inputs = structured_histograms(k, rng);
        for (int i = 0; i < 20; ++i) inputs.push_back(random_histogram(k, rng, i));
        // inside N_γ(P0): ratios to p0 in [1/γ, γ]
        for (int i = 0; i < 10; ++i) {
          std::vector<double> p(k);
          for (std::size_t x = 0; x < k; ++x) p[x] = p0[x] * std::pow(gamma, 2.0 * u01(rng) - 1.0);
          inputs.push_back({"inside the neighbourhood (before normalising)", p});
        }
        std::vector<double> largest(k, 0.0);
        std::vector<double> smallest(k, kInf);
        for (const auto& h : inputs) {
          INFO("k = " << k << ", gamma = " << gamma << ", epsilon = " << eps << ", p: " << h.label);
          // Classified by the caller's masses; the sampler solves for p, whose masses below 2^-400 of the largest
          // (subnormal ones included) are 0: its breakpoints are always representable.
          const std::vector<double> p = normalized_pmf(h.counts);
          CHECK(breakpoints_representable(p, lo, hi));
          if (breakpoints_representable(exactly_normalized_pmf(h.counts), lo, hi) != representable) continue;
          ++cases;
          const std::vector<double> q = sampler.distribution(h.counts);
          REQUIRE(q.size() == k);
          CHECK(std::fabs(compensated_total(q) - 1.0) <= 1e-12);
          const ReferenceClip ref = reference_clip(p, lo, hi);
          double worst = 0.0;
          std::size_t outside = 0;
          for (std::size_t x = 0; x < k; ++x) {
            worst = std::max(worst, static_cast<double>(std::fabs(static_cast<long double>(q[x]) - ref.q[x])));
            outside += !(q[x] > 0.0 && q[x] >= lo[x] * (1.0 - 1e-14) && q[x] <= hi[x] * (1.0 + 1e-14));
            largest[x] = std::max(largest[x], q[x]);
            smallest[x] = std::min(smallest[x], q[x]);
          }
          CHECK(worst <= 1e-12);
          CHECK(outside == 0);
          // in N_γ(P0) the worst-case risk bounds D_f (Lemma C.7)
          bool inside = true;
          for (std::size_t x = 0; x < k; ++x) {
            const double ratio = p[x] / sampler.prior()[x];
            inside = inside && ratio >= (1.0 / gamma) * (1.0 + 1e-12) && ratio <= gamma * (1.0 - 1e-12);
          }
          if (inside) {
            for (auto f : {NamedDivergence::kl, NamedDivergence::tv, NamedDivergence::hellinger,
                           NamedDivergence::chi2}) {
              INFO(divergence_name(f));
              CHECK(divergence(f, p, q) <= sampler.worst_case_risk(f, k) * (1.0 + 1e-12) + 1e-15);
            }
          }
        }
        // pure ε-LDP per atom over all inputs
        for (std::size_t x = 0; x < k && smallest[x] < kInf; ++x) {
          INFO("k = " << k << ", gamma = " << gamma << ", epsilon = " << eps << ", atom " << x);
          CHECK(std::log(largest[x]) - std::log(smallest[x]) <= effective_epsilon(eps) + 1e-12);
        }
      }
    }
  }
  return cases;
}

}  // namespace

TEST_CASE("local clip: box, ratio and risk over random priors and adversarial inputs", "[local_clip][property]") {
  CHECK(local_clip_sweep(true) >= 5000);
}

TEST_CASE("local clip: inputs whose breakpoints would leave the double range (subnormal next to ordinary masses: "
          "those count as 0)",
          "[local_clip][edge]") {
  CHECK(local_clip_sweep(false) >= 50);
}


TEST_CASE("local clip: outsideNeighbourhood 'projection' releases the paper's P̂ in the trivial regime "
          "(README.md#trivial-regime: k = 4, uniform P0, gamma = 2, eps = 2)",
          "[local_clip][trivial]") {
  MechanismOptions o;
  o.epsilon = 2.0;
  o.prior = uniform(4);
  o.gamma = 2.0;
  const std::vector<double> point = point_mass(4, 0);
  const Mechanism clip = make_finite_mechanism("local", o);
  o.outside_neighbourhood = "clip";
  const Mechanism clip_named = make_finite_mechanism("local", o);
  o.outside_neighbourhood = "projection";
  const Mechanism projection = make_finite_mechanism("local", o);
  // The library's: the point mass clipped into [b·p0, b·e^ε·p0], b = 3/(2 + e^2); Case B puts the top on the point.
  const double b = 3.0 / (2.0 + std::exp(2.0));
  const std::vector<double> clipped = distribution(clip, point);
  CHECK(clipped[0] == Approx(b * std::exp(2.0) / 4.0).epsilon(1e-14));
  CHECK(clipped[1] == Approx((1.0 - b * std::exp(2.0) / 4.0) / 3.0).epsilon(1e-14));
  CHECK(distribution(clip_named, point) == clipped);
  // The paper's: P̂, the projection onto N_γ(P0) = {p0/γ <= P <= γ·p0}: γ·p0 = 1/2 on the point, 1/6 elsewhere.
  const std::vector<double> projected = distribution(projection, point);
  CHECK(projected[0] == Approx(0.5).epsilon(1e-15));
  for (std::size_t x = 1; x < 4; ++x) CHECK(projected[x] == Approx(1.0 / 6.0).epsilon(1e-15));
  // Inside N_γ(P0) both release P; the risk is 0 for both.
  const std::vector<double> inside{0.4, 0.2, 0.2, 0.2};
  const std::vector<double> a = distribution(clip, inside);
  const std::vector<double> c = distribution(projection, inside);
  for (std::size_t x = 0; x < 4; ++x) {
    CHECK(a[x] == Approx(inside[x]).epsilon(1e-14));
    CHECK(c[x] == Approx(inside[x]).epsilon(1e-14));
  }
  CHECK(worst_case_risk(projection, NamedDivergence::tv, 4) == 0.0);
  // ε-LDP on the law sample() draws from: every output of the projection over point masses and the inside input
  // lies in [p0/γ, γ·p0], a ratio γ² = 4 <= e^2, checked on the released probabilities without slack.
  std::vector<double> largest(4, 0.0);
  std::vector<double> smallest(4, kInf);
  for (std::size_t y = 0; y <= 4; ++y) {
    const std::vector<double> input = y < 4 ? point_mass(4, y) : inside;
    const std::vector<double> released = *released_probabilities(projection, input);
    for (std::size_t x = 0; x < 4; ++x) {
      largest[x] = std::max(largest[x], released[x]);
      smallest[x] = std::min(smallest[x], released[x]);
    }
  }
  for (std::size_t x = 0; x < 4; ++x) CHECK(largest[x] <= exp_toward_zero(2.0) * smallest[x]);
}

TEST_CASE("local clip: outsideNeighbourhood changes nothing outside the trivial regime, and on cells",
          "[local_clip][trivial]") {
  std::mt19937_64 rng(77);
  const std::vector<double> p0{0.4, 0.3, 0.2, 0.1};
  for (const double eps : {0.1, 1.0, 2.0 * std::log(3.0) - 1e-9}) {
    MechanismOptions o;
    o.epsilon = eps;
    o.prior = p0;
    o.gamma = 3.0;
    const Mechanism clip = make_finite_mechanism("local", o);
    o.outside_neighbourhood = "projection";
    const Mechanism projection = make_finite_mechanism("local", o);
    for (int i = 0; i < 10; ++i) {
      const std::vector<double> p = i < 4 ? point_mass(4, static_cast<std::size_t>(i)) : random_pmf(4, rng, 0.0);
      CHECK(distribution(clip, p) == distribution(projection, p));
    }
  }
  // On cells the same option draws N_γ(P0)'s box in the trivial regime: a point mass goes to γ·p0 at its cell.
  MechanismOptions o;
  o.epsilon = 3.0;
  o.prior = std::vector<double>{1.0, 1.0, 1.0, 1.0};
  o.gamma = 2.0;
  o.outside_neighbourhood = "projection";
  const std::vector<double> q = distribution(make_continuous_mechanism("local", o), point_mass(4, 2));
  CHECK(q[2] == Approx(0.5).epsilon(1e-15));
  CHECK(q[0] == Approx(1.0 / 6.0).epsilon(1e-15));
}

TEST_CASE("local clip: options.outsideNeighbourhood is validated by the factory", "[local_clip][validation]") {
  MechanismOptions o;
  o.epsilon = 1.0;
  o.prior = uniform(3);
  o.gamma = 2.0;
  o.outside_neighbourhood = "project";
  CHECK_THROWS_AS(make_finite_mechanism("local", o), std::invalid_argument);
  CHECK_THROWS_WITH(make_finite_mechanism("local", o),
                    Catch::Contains("options.outsideNeighbourhood = 'project'") && Catch::Contains("'projection'"));
  CHECK_THROWS_WITH(make_continuous_mechanism("local", o), Catch::Contains("options.outsideNeighbourhood = 'project'"));
  o.outside_neighbourhood = "projection";
  CHECK_THROWS_WITH(make_finite_mechanism("local-linear", o),
                    Catch::Contains("option 'outsideNeighbourhood' is not supported by 'local-linear'"));
  MechanismOptions m;
  m.epsilon = 1.0;
  m.outside_neighbourhood = "clip";
  CHECK_THROWS_WITH(make_finite_mechanism("minimax", m),
                    Catch::Contains("option 'outsideNeighbourhood' is not supported"));
}
