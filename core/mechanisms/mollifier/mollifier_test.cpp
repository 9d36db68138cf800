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

TEST_CASE("mollifier: core/mechanisms/mollifier/README.md's Husain uniform-reference projections, tests/golden/clip-samplers.json",
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
  const RiskTable baseline_risks = read_risk_table("minimax.json", "baseline_risks");
  const std::vector<double>& eps = baseline_risks.epsilons;
  REQUIRE(baseline_risks.rows.size() == 13);
  for (const RiskRow& row : baseline_risks.rows) {
    for (std::size_t i = 0; i < eps.size(); ++i) {
      INFO("k = " << row.k << ", f = " << divergence_name(row.f) << ", epsilon = " << eps[i]);
      const double baseline = MollifierSampler(eps[i]).worst_case_risk(row.f, row.k);
      CHECK(baseline == Approx(row.values[i]).margin(baseline_risks.tolerance).epsilon(0));
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
        // Classified by the caller's masses; the sampler solves for p, whose masses below 2^-400 of the largest
        // (subnormal ones included) are 0: its breakpoints are always representable.
        const std::vector<double> p = normalized_pmf(h.counts);
        const std::vector<double> lows(k, lo);
        const std::vector<double> highs(k, hi);
        CHECK(breakpoints_representable(p, lows, highs));
        if (breakpoints_representable(exactly_normalized_pmf(h.counts), lows, highs) != representable) continue;
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

TEST_CASE("mollifier: inputs whose breakpoints would leave the double range (subnormal next to ordinary masses: "
          "those count as 0)",
          "[mollifier][edge]") {
  CHECK(mollifier_sweep(false) >= 30);
}

