// The clip samplers around a reference measure: LocalClipSampler (Thm 5.1, docs/mechanisms/local.md) and the
// Husain relative-mollifier projection (docs/mechanisms/mollifier.md).
#include "mechanisms/clip_samplers.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <random>
#include <span>
#include <stdexcept>
#include <vector>

#include "model/histogram.hpp"
#include "mechanisms/minimax.hpp"
#include "base/numeric.hpp"
#include "base/errors.hpp"
#include "privacy/privacy_box.hpp"
#include "golden.hpp"
#include "test_support.hpp"

using namespace privsample;
using namespace privsample_test;

TEST_CASE("local clip: test vectors of docs/mechanisms/local.md (k = 4, P0 = (.4,.3,.2,.1), gamma = 3, eps = 1), "
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

TEST_CASE("local clip: the block input attains R_loc (docs/mechanisms/local.md: k = 20, gamma = 9, eps = 1)",
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
          const std::vector<double> p = normalized_pmf(h.counts);
          if (breakpoints_representable(p, lo, hi) != representable) continue;
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

TEST_CASE("local clip: inputs whose breakpoints leave the double range (subnormal next to ordinary masses)",
          "[local_clip][edge]") {
  CHECK(local_clip_sweep(false) >= 50);
}

TEST_CASE("mollifier: docs/mechanisms/mollifier.md's Husain uniform-reference projections, tests/golden/clip-samplers.json",
          "[mollifier][vectors]") {
  const auto golden = read_golden("clip-samplers.json")["mollifier"];
  const double tolerance = golden["tolerance"].get<double>() + 1e-12;
  const MollifierSampler sampler(golden["epsilon"].get<double>());
  REQUIRE(golden["vectors"].size() == 3);
  for (const auto& row : golden["vectors"]) {
    const auto p = row["p"].get<std::vector<double>>();
    const auto want = row["q"].get<std::vector<double>>();
    const bool case_b = row["case_b"].get<bool>();
    INFO(row["label"].get<std::string>());
    const std::vector<double> q = sampler.distribution(p);
    REQUIRE(q.size() == want.size());
    for (std::size_t x = 0; x < q.size(); ++x) CHECK(q[x] == Approx(want[x]).margin(tolerance).epsilon(0));
    CHECK(std::fabs(compensated_total(q) - 1.0) <= 1e-12);
    CHECK(sampler.solve(p).kind == (case_b ? ClipCase::sparse_support : ClipCase::root));
    if (case_b) CHECK(sampler.normaliser(p) == 0.0);
  }
  // the point mass attains the baseline worst case: D_KL = 1.109438 for k = 5, ε = 1
  const auto worst = golden["point_mass_kl"];
  const auto k = worst["k"].get<std::size_t>();
  std::vector<double> point(k, 0.0);
  point[0] = 1.0;
  const double kl = worst["value"].get<double>();
  CHECK(divergence(NamedDivergence::kl, point, sampler.distribution(point)) == Approx(kl).margin(tolerance).epsilon(0));
  CHECK(sampler.worst_case_risk(NamedDivergence::kl, k) == Approx(kl).margin(tolerance).epsilon(0));
}

TEST_CASE("mollifier: docs/experiments.md's baseline worst-case risks, the proposed sampler is never worse",
          "[mollifier][vectors][risk]") {
  const std::vector<double> eps{0.1, 0.5, 1.0, 2.0, 5.0};
  struct Row {
    std::size_t k;
    NamedDivergence f;
    std::vector<double> values;
  };
  const std::vector<Row> rows{
      {5, NamedDivergence::kl, {1.5594, 1.3594, 1.1094, 0.6094, 0.0679}},
      {5, NamedDivergence::tv, {0.7897, 0.7432, 0.6703, 0.4563, 0.0657}},
      {5, NamedDivergence::hellinger, {0.5415, 0.4932, 0.4258, 0.2627, 0.0334}},
      {10, NamedDivergence::kl, {2.2526, 2.0526, 1.8026, 1.3026, 0.0767}},
      {10, NamedDivergence::tv, {0.8949, 0.8716, 0.8351, 0.7282, 0.0739}},
      {10, NamedDivergence::hellinger, {0.6758, 0.6417, 0.5940, 0.4786, 0.0376}},
      {10, NamedDivergence::chi2, {8.5123, 6.7880, 5.0653, 2.6788, 0.0798}},
      {20, NamedDivergence::kl, {2.9457, 2.7457, 2.4957, 1.9957, 0.4957}},
      {20, NamedDivergence::tv, {0.9474, 0.9358, 0.9176, 0.8641, 0.3909}},
      {20, NamedDivergence::hellinger, {0.7707, 0.7466, 0.7129, 0.6313, 0.2195}},
      {100, NamedDivergence::kl, {4.5552, 4.3552, 4.1052, 3.6052, 2.1052}},
      {100, NamedDivergence::tv, {0.9895, 0.9872, 0.9835, 0.9728, 0.8782}},
      {100, NamedDivergence::hellinger, {0.8975, 0.8867, 0.8716, 0.8351, 0.6510}},
  };
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < eps.size(); ++i) {
      INFO("k = " << row.k << ", f = " << divergence_name(row.f) << ", epsilon = " << eps[i]);
      const double baseline = MollifierSampler(eps[i]).worst_case_risk(row.f, row.k);
      CHECK(baseline == Approx(row.values[i]).margin(5e-5).epsilon(0));
      CHECK(finite_minimax_risk(row.f, row.k, eps[i]) <= baseline);
      // attained by a point mass
      const std::vector<double> point = point_mass(row.k, 0);
      CHECK(divergence(row.f, point, MollifierSampler(eps[i]).distribution(point)) ==
            Approx(baseline).epsilon(1e-9));
    }
  }
}

namespace {

std::size_t mollifier_sweep(bool representable) {
  std::size_t cases = 0;
  std::mt19937_64 rng(8080);
  for (double eps : epsilon_grid()) {
    const MollifierSampler sampler(eps);
    for (std::size_t k : {2, 3, 5, 10, 100}) {
      const double half = effective_epsilon(eps) / 2.0;
      const double lo = std::exp(-half) / static_cast<double>(k);
      const double hi = std::min(1.0, std::exp(half) / static_cast<double>(k));
      std::vector<Histogram> inputs = structured_histograms(k, rng);
      for (int i = 0; i < 20; ++i) inputs.push_back(random_histogram(k, rng, i));
      double largest = 0.0;
      double smallest = kInf;
      for (const auto& h : inputs) {
        INFO("epsilon = " << eps << ", k = " << k << ", p: " << h.label);
        const std::vector<double> p = normalized_pmf(h.counts);
        if (breakpoints_representable(p, std::vector<double>(k, lo), std::vector<double>(k, hi)) != representable) {
          continue;
        }
        ++cases;
        const std::vector<double> q = sampler.distribution(h.counts);
        CHECK(std::fabs(compensated_total(q) - 1.0) <= 1e-12);
        std::size_t outside = 0;
        for (double v : q) outside += !(v > 0.0 && v >= lo * (1.0 - 1e-15) && v <= hi * (1.0 + 1e-15));
        CHECK(outside == 0);
        largest = std::max(largest, *std::max_element(q.begin(), q.end()));
        smallest = std::min(smallest, *std::min_element(q.begin(), q.end()));
        for (auto f : {NamedDivergence::kl, NamedDivergence::tv, NamedDivergence::hellinger}) {
          INFO(divergence_name(f));
          CHECK(divergence(f, p, q) <= sampler.worst_case_risk(f, k) * (1.0 + 1e-12) + 1e-15);
        }
      }
      INFO("epsilon = " << eps << ", k = " << k);
      if (smallest < kInf) CHECK(std::log(largest) - std::log(smallest) <= effective_epsilon(eps) + 1e-12);
    }
  }
  return cases;
}

}  // namespace

TEST_CASE("mollifier: outputs stay between e^{-eps/2}/k and e^{eps/2}/k and are eps-LDP", "[mollifier][property]") {
  CHECK(mollifier_sweep(true) >= 1000);
}

TEST_CASE("mollifier: inputs whose breakpoints leave the double range (subnormal next to ordinary masses)",
          "[mollifier][edge]") {
  CHECK(mollifier_sweep(false) >= 30);
}

TEST_CASE("clip samplers: invalid parameters", "[local_clip][mollifier][validation]") {
  const std::vector<double> p0{0.4, 0.3, 0.2, 0.1};
  CHECK_THROWS_WITH(LocalClipSampler(1.0, p0, 1.0), Catch::Contains("gamma"));
  CHECK_THROWS_WITH(LocalClipSampler(1.0, p0, kNaN), Catch::Contains("gamma"));
  CHECK_THROWS_WITH(LocalClipSampler(-1.0, p0, 3.0), Catch::Contains("epsilon"));
  CHECK_THROWS_WITH(LocalClipSampler(1.0, std::vector<double>{0.5, 0.5, 0.0}, 3.0), Catch::Contains("prior[2]"));
  // counts or probabilities (one scale rule): the counts 4:3:2:1 are the prior p0
  CHECK(LocalClipSampler(1.0, std::vector<double>{4, 3, 2, 1}, 3.0).distribution(std::vector<double>{1, 2, 3, 4}) ==
        LocalClipSampler(1.0, p0, 3.0).distribution(std::vector<double>{1, 2, 3, 4}));
  CHECK(MollifierSampler(1.0, std::vector<double>{2, 2, 0, 4}).distribution(std::vector<double>{1, 2, 3, 4}) ==
        MollifierSampler(1.0, std::vector<double>{0.25, 0.25, 0.0, 0.5}).distribution(std::vector<double>{1, 2, 3, 4}));
  CHECK_THROWS_WITH(MollifierSampler(1.0, std::vector<double>{0.0, 0.0}).distribution(std::vector<double>{1, 1}),
                    Catch::Contains("reference is all zeros"));
  const LocalClipSampler sampler(1.0, p0, 3.0);
  CHECK_THROWS_AS(sampler.distribution(std::vector<double>{1, 2, 3}), std::invalid_argument);
  CHECK_THROWS_WITH(sampler.distribution(std::vector<double>{1, 2, kNaN, 3}), Catch::Contains("hist[2]"));
  CHECK_THROWS_WITH(MollifierSampler(kInf), Catch::Contains("epsilon"));
  CHECK_THROWS_AS(MollifierSampler(1.0, std::vector<double>{0.5, -0.5, 1.0}), std::invalid_argument);
}

TEST_CASE("clip samplers: one large count next to subnormal counts", "[mollifier][local_clip][edge]") {
  // hist = (1, 5e-324, 5e-324) is a valid histogram. Its f-projection onto the mollifier box puts atom 0 at
  // its ceiling and splits the rest equally between the two tiny (equal) atoms: the exact clip-normalise root
  // is s = (1 − hi)/2 / 5e-324, beyond the double range, but q itself is ordinary.
  const std::vector<double> hist{1.0, 5e-324, 5e-324};
  SECTION("mollifier, uniform reference, eps = 1") {
    const double hi = std::exp(0.5) / 3.0;
    const std::vector<double> q = MollifierSampler(1.0).distribution(hist);
    CHECK(std::fabs(compensated_total(q) - 1.0) <= 1e-12);
    CHECK(q[0] == Approx(hi).epsilon(1e-14));
    CHECK(q[1] == Approx((1.0 - hi) / 2.0).epsilon(1e-14));
    CHECK(q[2] == Approx((1.0 - hi) / 2.0).epsilon(1e-14));
    // what sample() releases must respect the ceiling e^{ε/2}/k too (the privacy guarantee is about the
    // sampled distribution): the frequency of category 0 stays below hi up to 5 standard deviations
    SeededRandom bits(31337);
    constexpr int n = 100000;
    int zeros = 0;
    for (int i = 0; i < n; ++i) zeros += MollifierSampler(1.0).sample(hist, bits) == 0;
    CHECK(static_cast<double>(zeros) / n <= hi + 5.0 * std::sqrt(hi * (1.0 - hi) / n));
  }
  SECTION("local clip, P0 = (.1,.45,.45), gamma = 3, eps = 1") {
    const std::vector<double> p0{0.1, 0.45, 0.45};
    const double e = std::exp(1.0);
    const double b = 4.0 / (3.0 + e);
    // supp P = everything, so a root exists; but atom 0 at its ceiling b·e·0.1 plus the floors of the rest is
    // below 1, so the tiny atoms must rise above their floors: they share the rest equally (equal p, equal p0)
    const double top = b * e * 0.1;
    const std::vector<double> q = LocalClipSampler(1.0, p0, 3.0).distribution(hist);
    CHECK(std::fabs(compensated_total(q) - 1.0) <= 1e-12);
    CHECK(q[0] == Approx(top).epsilon(1e-14));
    CHECK(q[1] == Approx((1.0 - top) / 2.0).epsilon(1e-14));
    CHECK(q[2] == Approx((1.0 - top) / 2.0).epsilon(1e-14));
    SeededRandom bits(4242);
    constexpr int n = 100000;
    int zeros = 0;
    const LocalClipSampler sampler(1.0, p0, 3.0);
    for (int i = 0; i < n; ++i) zeros += sampler.sample(hist, bits) == 0;
    CHECK(static_cast<double>(zeros) / n <= top + 5.0 * std::sqrt(top * (1.0 - top) / n));
  }
}

TEST_CASE("box_log_width: the log-width of the box around a reference that holds an output", "[privacy_box]") {
  const std::vector<double> h{0.4, 0.3, 0.2, 0.1};
  CHECK(box_log_width(h, h) == 0.0);
  CHECK(box_log_width(std::vector<double>{0.8, 0.3, 0.2, 0.1}, h) == Approx(std::log(2.0)).epsilon(1e-15));
  CHECK(box_log_width(std::vector<double>{0.4, 0.3, 0.2, 0.0}, h) == std::numeric_limits<double>::infinity());
  CHECK(box_log_width(std::vector<double>{0.5, 0.5, 0.0}, std::vector<double>{0.5, 0.5, 0.0}) == 0.0);
  CHECK(box_log_width(std::vector<double>{0.5, 0.4, 0.1}, std::vector<double>{0.5, 0.5, 0.0}) ==
        std::numeric_limits<double>::infinity());
  // tiny masses: ln q − ln h, no underflowing quotient
  CHECK(box_log_width(std::vector<double>{1e-300, 1.0}, std::vector<double>{1e-300 / std::exp(1.0), 1.0}) ==
        Approx(1.0).epsilon(1e-12));
  CHECK_THROWS_WITH(box_log_width(std::vector<double>{0.5, -0.1}, std::vector<double>{0.5, 0.5}), Catch::Contains("q[1]"));
  CHECK_THROWS_AS(box_log_width(std::vector<double>{0.5}, std::vector<double>{0.5, 0.5}), ShapeError);
  // every output of the local clip sampler lies in its box: width <= ε on random and adversarial inputs
  const LocalClipSampler local(1.0, h, 3.0);
  for (const auto& p : {std::vector<double>{1, 0, 0, 0}, std::vector<double>{0, 0, 0, 1}, std::vector<double>{0.25, 0.25, 0.25, 0.25},
                        std::vector<double>{1e-300, 0, 0, 1}}) {
    CHECK(box_log_width(local.distribution(p), h) <= 1.0 + 1e-12);
  }
}
