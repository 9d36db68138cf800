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

namespace {

// q of (1, 5e-324, 5e-324) puts `top` on atom 0 and splits the rest equally between the two tiny atoms; and sample()
// releases atom 0 no more often than `top` allows, up to 5 standard deviations over 10^5 draws: the privacy guarantee
// is about the sampled law, whose ceiling must hold too.
template <class Sampler>
void check_top_then_split(const Sampler& sampler, const std::vector<double>& hist, double top, std::uint64_t seed) {
  const std::vector<double> q = sampler.distribution(hist);
  CHECK(std::fabs(compensated_total(q) - 1.0) <= 1e-12);
  CHECK(q[0] == Approx(top).epsilon(1e-14));
  CHECK(q[1] == Approx((1.0 - top) / 2.0).epsilon(1e-14));
  CHECK(q[2] == Approx((1.0 - top) / 2.0).epsilon(1e-14));
  SeededRandom bits(seed);
  constexpr int n = 100000;
  int zeros = 0;
  for (int i = 0; i < n; ++i) zeros += sampler.sample(hist, bits) == 0;
  CHECK(static_cast<double>(zeros) / n <= top + 5.0 * std::sqrt(top * (1.0 - top) / n));
}

}  // namespace

TEST_CASE("clip samplers: one large count next to subnormal counts", "[mollifier][local_clip][edge]") {
  // hist = (1, 5e-324, 5e-324) is a valid histogram. Its f-projection onto the mollifier box puts atom 0 at
  // its ceiling and splits the rest equally between the two tiny (equal) atoms: the exact clip-normalise root
  // is s = (1 − hi)/2 / 5e-324, beyond the double range, but q itself is ordinary.
  const std::vector<double> hist{1.0, 5e-324, 5e-324};
  SECTION("mollifier, uniform reference, eps = 1") {
    // the ceiling e^{ε/2}/k
    check_top_then_split(MollifierSampler(1.0), hist, std::exp(0.5) / 3.0, 31337);
  }
  SECTION("local clip, P0 = (.1,.45,.45), gamma = 3, eps = 1") {
    const std::vector<double> p0{0.1, 0.45, 0.45};
    const double e = std::exp(1.0);
    const double b = 4.0 / (3.0 + e);
    // supp P = everything, so a root exists; but atom 0 at its ceiling b·e·0.1 plus the floors of the rest is
    // below 1, so the tiny atoms must rise above their floors: they share the rest equally (equal p, equal p0)
    check_top_then_split(LocalClipSampler(1.0, p0, 3.0), hist, b * e * 0.1, 4242);
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
