// Floors below 2^-960 (whose arithmetic would reach subnormal numbers): tiny prior/reference entries are refused with
// a message saying what works; grid cells far in a reference's tails are never output. Over >= 10^6 released
// distributions of the audit's families, no output probability exceeds e^ε times another input's (and none is 0 where another
// input's is positive).
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "privsample.hpp"
#include "privacy/privacy_box.hpp"
#include "test_support.hpp"

using namespace privsample;
using namespace privsample_test;
using Catch::Matchers::Contains;

namespace {

// Categories where q_a(x) > e^ε·q_b(x) as real numbers (within_ratio: no rounding slack); a zero q_b(x) under a
// positive q_a(x) counts too.
std::size_t ratio_violations(const std::vector<double>& a, const std::vector<double>& b, double epsilon) {
  std::size_t violations = 0;
  for (std::size_t x = 0; x < a.size(); ++x) {
    if (!within_ratio(a[x], b[x], epsilon)) ++violations;
  }
  return violations;
}

}  // namespace

TEST_CASE("privacy box: the audit's underflowing priors and references are refused, saying what works", "[privacy-box]") {
  CHECK_THROWS_WITH(LocalClipSampler(100.0, {1e-300, 1.0 - 1e-300}, 2.0),
                    Contains("prior[0] = 1e-300 (as a share of the total): at epsilon = 100") && Contains("must be at least"));
  CHECK_THROWS_WITH(LocalClipSampler(50.0, {1e-300, 1.0 - 1e-300}, 2.0), Contains("prior[0] = 1e-300"));
  // a reference is refused when the sampler is built, not accepted and then refused on every call
  CHECK_THROWS_WITH(MollifierSampler(300.0, std::vector<double>{1e-300, 1.0}),
                    Contains("reference[0] = 1e-300 (as a share of the total): at epsilon = 300 ") &&
                        Contains("must be at least"));
  CHECK_THROWS_WITH(MollifierSampler(1000.0, std::vector<double>{1e-300, 1.0}), Contains("at epsilon = 1000 "));
  CHECK_NOTHROW(MollifierSampler(300.0, std::vector<double>{1e-200, 1.0}).distribution(std::vector<double>{1, 1}));
  CHECK_NOTHROW(LocalClipSampler(18.0, {1e-280, 1.0 - 1e-280}, 2.0));
  // Floors near the least normal double were accepted, and their subnormal rounding errors made a release's time
  // follow the data: an entry of 1e-300 passed at ε = 18 and 1e-305 at ε = 1.
  CHECK_THROWS_WITH(LocalClipSampler(18.0, {1e-300, 1.0 - 1e-300}, 2.0), Contains("is below 2^-960"));
  CHECK_THROWS_WITH(MollifierSampler(1.0, std::vector<double>{1e-305, 1.0}), Contains("is below 2^-960"));
  // What the message promises works: the least entry it names is accepted, the next double below it refused.
  for (const double epsilon : {0.5, 1.0, 18.0, 100.0, 640.0}) {
    std::string refusal;
    try {
      (void)LocalClipSampler(epsilon, {1e-320, 1.0}, 2.0);
    } catch (const std::invalid_argument& e) {
      refusal = e.what();
    }
    const std::size_t at = refusal.find("must be at least ");
    REQUIRE(at != std::string::npos);
    const double least = std::stod(refusal.substr(at + 17));
    INFO("epsilon = " << epsilon << ", least entry " << least);
    CHECK_NOTHROW(LocalClipSampler(epsilon, {least, 1.0 - least}, 2.0));
    CHECK_THROWS(LocalClipSampler(epsilon, {std::nextafter(least, 0.0), 1.0 - least}, 2.0));
  }
  const PrivacyBox dropped = privacy_box(std::vector<double>{1e-300, 0.5, 0.0}, 1e-20, 1e-19, 46.0, "cells",
                                         UnderflowRule::never_output);
  CHECK(dropped.lo == std::vector<double>{0.0, private_floor(0.5e-20, 0.5e-19, 46.0), 0.0});
  CHECK(dropped.hi == std::vector<double>{0.0, 0.5e-19, 0.0});
}

TEST_CASE("privacy box: >= 10^6 released distributions of the audit's families, no ratio violation", "[privacy-box]") {
  std::mt19937_64 rng(7);
  std::size_t released = 0;
  std::size_t refused = 0;
  std::size_t violations = 0;
  // Each sampler's outputs over one family of inputs, against the pointwise extremes over all of them.
  const auto audit = [&](const auto& sampler, const std::vector<std::vector<double>>& inputs, double epsilon) {
    const std::size_t k = inputs.front().size();
    std::vector<double> low(k, 2.0), high(k, 0.0);
    for (const auto& h : inputs) {
      const std::vector<double> q = sampler.distribution(h);
      for (std::size_t x = 0; x < k; ++x) {
        low[x] = std::min(low[x], q[x]);
        high[x] = std::max(high[x], q[x]);
      }
    }
    released += inputs.size();
    violations += ratio_violations(high, low, epsilon);
  };
  for (const double epsilon : {0.0, 1e-300, 1e-15, 1e-6, 0.1, 1.0, 5.0, 50.0, 100.0, 300.0, 700.0}) {
    for (const double tiny : {1e-300, 1e-250, 1e-200, 1e-100, 1e-30, 1e-10}) {
      for (int trial = 0; trial < 12; ++trial) {
        const std::size_t k = 2 + trial % 4;
        std::vector<double> prior(k);
        for (double& v : prior) v = 0.1 + std::uniform_real_distribution<double>(0.0, 1.0)(rng);
        prior[trial % k] = tiny;
        double total = 0.0;
        for (double v : prior) total += v;
        for (double& v : prior) v /= total;
        std::vector<std::vector<double>> inputs;
        for (std::size_t x = 0; x < k; ++x) inputs.push_back(point_mass(k, x));
        for (int i = 0; i < 2000; ++i) {
          std::vector<double> h(k);
          for (double& v : h) {
            v = std::pow(std::uniform_real_distribution<double>(0.0, 1.0)(rng), 8.0) + (i % 3 == 0 ? 1e-300 : 0.0);
          }
          if (i % 7 == 0) h[i % k] = 5e-324;  // a subnormal mass
          inputs.push_back(h);
        }
        audit(MinimaxSampler(epsilon), inputs, epsilon);
        for (int which = 0; which < 3; ++which) {
          try {
            if (which == 0) audit(LocalClipSampler(epsilon, prior, 2.0), inputs, epsilon);
            if (which == 1) audit(MollifierSampler(epsilon, prior), inputs, epsilon);
            if (which == 2) audit(LocalLinearSampler({PrivacyNotion::pure_ldp, epsilon}, prior, 2.0), inputs, epsilon);
          } catch (const std::invalid_argument& e) {
            ++refused;
            CHECK_THAT(e.what(), Contains("must be at least"));
          }
        }
      }
    }
  }
  INFO("released " << released << " distributions, refused " << refused << " samplers, " << violations
                   << " categories above e^eps");
  CHECK(released >= 1'000'000);
  CHECK(refused > 0);
  CHECK(violations == 0);
}

TEST_CASE("privacy box: wide grids with tails beyond 37 sigma keep the ratio on every cell", "[privacy-box][continuous]") {
  const Grid1D wide{-40.0, 40.0, 8000};
  const std::vector<double> envelope = gaussian_mixture_envelope(wide, 1.0, 1.0);
  const MinimaxOnCells minimax(1.0, envelope, 0.0, 1.0);
  const std::vector<double> a = minimax.distribution(gaussian_mixture(wide, std::vector<double>{-1.0}, std::vector<double>{1.0}, 1.0));
  const std::vector<double> b = minimax.distribution(gaussian_mixture(wide, std::vector<double>{1.0}, std::vector<double>{1.0}, 1.0));
  CHECK(ratio_violations(a, b, 1.0) == 0);
  CHECK(ratio_violations(b, a, 1.0) == 0);
  const Grid1D prior_line{-38.0, 38.0, 8000};
  const LocalOnCells local(1.0, gaussian_mixture(prior_line, std::vector<double>{0.0}, std::vector<double>{1.0}, 1.0), 4.0);
  const std::vector<double> c = local.distribution(gaussian_mixture(prior_line, std::vector<double>{30.0}, std::vector<double>{1.0}, 0.5));
  const std::vector<double> d = local.distribution(gaussian_mixture(prior_line, std::vector<double>{-2.0}, std::vector<double>{1.0}, 3.0));
  CHECK(ratio_violations(c, d, 1.0) == 0);
  CHECK(ratio_violations(d, c, 1.0) == 0);
  const Grid2D plane{-40.0, 40.0, 200, -40.0, 40.0, 200};
  const LocalOnCells ring_local(1.0, gaussian_ring(plane, 3, 0.5, 1.0), 4.0);
  const std::vector<double> e = ring_local.distribution(gaussian_mixture(plane, std::vector<Point2D>{{35.0, -35.0}}, std::vector<double>{1.0}, 1.0));
  const std::vector<double> f = ring_local.distribution(gaussian_ring(plane, 3, 0.5, 1.0));
  CHECK(ratio_violations(e, f, 1.0) == 0);
  CHECK(ratio_violations(f, e, 1.0) == 0);
}
