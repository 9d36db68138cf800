// Class membership (core/mechanisms/membership.hpp, docs/notions.md#classes-of-inputs): golden ratios by hand,
// the scale rule, the boundary slack, properties over random and adversarial inputs, and the error messages.
#include "mechanisms/membership.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include "base/errors.hpp"
#include "privsample.hpp"
#include "test_support.hpp"

using namespace privsample;
using privsample_test::kInf;
using privsample_test::random_pmf;

TEST_CASE("membership: N_γ(P0) ratios by hand, whatever the scale of P and P0", "[membership]") {
  // P = (1/2, 1/4, 1/4) against the uniform P0 = 1/3: ratios 3/2, 3/4, 3/4.
  for (const std::vector<double>& prior : {std::vector<double>{1.0, 1.0, 1.0}, std::vector<double>{7.0, 7.0, 7.0},
                                           std::vector<double>{1.0 / 3, 1.0 / 3, 1.0 / 3}}) {
    for (const std::vector<double>& hist : {std::vector<double>{2.0, 1.0, 1.0}, std::vector<double>{0.5, 0.25, 0.25}}) {
      const ClassMembership in = neighbourhood_membership(hist, prior, 2.0);
      CHECK(in.min_ratio == Approx(0.75).margin(1e-15).epsilon(0));
      CHECK(in.max_ratio == Approx(1.5).margin(1e-15).epsilon(0));
      CHECK(in.inside);
      CHECK_FALSE(neighbourhood_membership(hist, prior, 1.4).inside);  // 3/2 > 1.4
    }
  }
  // Non-uniform prior: P = (0.6, 0.3, 0.1), P0 = (0.2, 0.3, 0.5): ratios 3, 1, 1/5.
  const std::vector<double> p{6.0, 3.0, 1.0};
  const std::vector<double> p0{2.0, 3.0, 5.0};
  const ClassMembership m = neighbourhood_membership(p, p0, 5.0);
  CHECK(m.min_ratio == Approx(0.2).margin(1e-15).epsilon(0));
  CHECK(m.max_ratio == Approx(3.0).margin(1e-15).epsilon(0));
  CHECK(m.inside);
  CHECK_FALSE(neighbourhood_membership(p, p0, 4.9).inside);  // 1/5 < 1/4.9
  CHECK_FALSE(neighbourhood_membership(p, p0, 2.9).inside);  // 3 > 2.9
  // A zero of P is outside every N_γ(P0) (ratio 0 < 1/γ).
  const ClassMembership sparse = neighbourhood_membership(std::vector<double>{1.0, 0.0}, std::vector<double>{1.0, 1.0}, 1e6);
  CHECK(sparse.min_ratio == 0.0);
  CHECK_FALSE(sparse.inside);
}

TEST_CASE("membership: a P on the boundary of N_γ(P0) is inside (the class is closed)", "[membership]") {
  // P = (2/3, 1/3) against the uniform prior: ratios 4/3 and 2/3 = 1/γ for γ = 3/2, up to rounding.
  const std::vector<double> hist{2.0, 1.0};
  const std::vector<double> prior{1.0, 1.0};
  CHECK(neighbourhood_membership(hist, prior, 1.5).inside);
  CHECK_FALSE(neighbourhood_membership(hist, prior, 1.5 * (1.0 - 1e-6)).inside);
}

TEST_CASE("membership: properties over random pmfs and priors", "[membership]") {
  std::mt19937_64 rng(20261125);
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  for (int trial = 0; trial < 2000; ++trial) {
    const std::size_t k = 1 + static_cast<std::size_t>(u01(rng) * 40);
    const std::vector<double> p = random_pmf(k, rng, trial % 3 == 0 ? 0.3 : 0.0);
    std::vector<double> p0 = random_pmf(k, rng, 0.0);
    for (double& v : p0) v = std::max(v, 1e-300);  // the prior must be positive
    const double gamma = 1.0 + 20.0 * u01(rng) * u01(rng);
    INFO("trial " << trial << ", k = " << k << ", gamma = " << gamma);
    const ClassMembership m = neighbourhood_membership(p, p0, gamma);
    // Both sides sum to one: some ratio is at least 1 and some at most 1.
    CHECK(m.min_ratio <= 1.0 + 1e-12);
    CHECK(m.max_ratio >= 1.0 - 1e-12);
    // inside exactly when the ratio range lies in [1/γ, γ] (up to the library's relative slack kClassTolerance)
    const bool clearly_in = m.min_ratio >= (1.0 / gamma) * (1.0 + 1e-6) && m.max_ratio <= gamma * (1.0 - 1e-6);
    const bool clearly_out = m.min_ratio < (1.0 / gamma) * (1.0 - 1e-6) || m.max_ratio > gamma * (1.0 + 1e-6);
    if (clearly_in) CHECK(m.inside);
    if (clearly_out) CHECK_FALSE(m.inside);
    // the same class through density_class + in_class (the continuous route)
    CHECK(in_class(density_class(p0, 1.0 / gamma, gamma), p) == m.inside);
    // the f-projection onto N_γ(P0) (local-linear's P̂) is always inside, and P̂ = P when P is inside
    if (trial % 4 == 0) {
      const LocalLinearSampler linear(Guarantee{PrivacyNotion::pure_ldp, 1.0}, p0, gamma);
      const std::vector<double> projected = linear.projection(p);
      CHECK(neighbourhood_membership(projected, p0, gamma).inside);
      if (m.inside) {
        for (std::size_t i = 0; i < k; ++i) CHECK(projected[i] == Approx(p[i]).margin(1e-12).epsilon(0));
      }
    }
  }
}

TEST_CASE("membership: the bounded-ratio class of a continuous reference", "[membership]") {
  // h = (1, 0, 1) (raw, Z = 2): normalised h = (1/2, 0, 1/2), c2 = 1.5·2 = 3.
  const DensityClass cls = density_class(std::vector<double>{1.0, 0.0, 1.0}, 0.0, 1.5);
  const ClassMembership on_support = class_membership(cls, std::vector<double>{3.0, 0.0, 1.0});
  CHECK(on_support.min_ratio == Approx(0.5).margin(1e-15).epsilon(0));   // (1/4)/(1/2)
  CHECK(on_support.max_ratio == Approx(1.5).margin(1e-15).epsilon(0));   // (3/4)/(1/2)
  CHECK(on_support.inside);
  // mass where the reference has none: outside, max ratio +∞
  const ClassMembership off = class_membership(cls, std::vector<double>{1.0, 1.0, 1.0});
  CHECK(off.max_ratio == kInf);
  CHECK_FALSE(off.inside);
}

TEST_CASE("membership: bad inputs name the parameter", "[membership]") {
  const std::vector<double> prior{1.0, 1.0, 1.0};
  CHECK_THROWS_WITH(neighbourhood_membership(std::vector<double>{1.0, 1.0, 1.0}, prior, 1.0), Catch::Contains("gamma = 1"));
  CHECK_THROWS_WITH(neighbourhood_membership(std::vector<double>{1.0, -1.0, 1.0}, prior, 2.0), Catch::Contains("hist[1] = -1"));
  CHECK_THROWS_WITH(neighbourhood_membership(std::vector<double>{1.0, 1.0, 1.0}, std::vector<double>{1.0, 0.0, 1.0}, 2.0),
                    Catch::Contains("prior[1] = 0"));
  CHECK_THROWS_AS(neighbourhood_membership(std::vector<double>{1.0, 1.0}, prior, 2.0), ShapeError);
  CHECK_THROWS_WITH(neighbourhood_membership(std::vector<double>{1.0, 1.0}, prior, 2.0),
                    Catch::Contains("hist has 2 entries but the prior has 3"));
  const DensityClass cls = density_class(prior, 0.0, 2.0);
  CHECK_THROWS_AS(class_membership(cls, std::vector<double>{1.0, 1.0}), ShapeError);
  CHECK_THROWS_WITH(class_membership(cls, std::vector<double>{0.0, 0.0, 0.0}), Catch::Contains("density"));
}
