// Validated input and clear errors (docs/design.md#errors): every message names the parameter, the index and
// the value, e.g. "hist[3] = -2: counts must be finite and >= 0".
#include <algorithm>
#include <bit>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "privsample.hpp"
#include "model/histogram.hpp"
#include "mechanisms/mechanism.hpp"
#include "base/numeric.hpp"
#include "privacy/privacy.hpp"
#include "test_support.hpp"

using namespace privsample;
using namespace privsample_test;

TEST_CASE("validation: normalized_pmf accepts counts and probabilities of any magnitude", "[validation]") {
  const std::vector<double> counts{1, 2, 3, 4};
  const std::vector<double> p = normalized_pmf(counts);
  REQUIRE(p.size() == 4);
  for (std::size_t x = 0; x < 4; ++x) CHECK(p[x] == Approx(counts[x] / 10.0).epsilon(1e-15));
  CHECK(normalized_pmf(std::vector<double>{7.0}) == std::vector<double>{1.0});
  CHECK(normalized_pmf(std::vector<double>{0.0, 5.0}) == std::vector<double>{0.0, 1.0});
  CHECK(normalized_pmf(std::vector<double>{-0.0, 5.0})[1] == 1.0);  // −0 is a zero count
  for (double v : normalized_pmf(std::vector<double>{1e308, 1e308, 1e308})) {
    CHECK(v == Approx(1.0 / 3.0).epsilon(1e-15));  // no overflow to ∞
  }
  const std::vector<double> tiny = normalized_pmf(std::vector<double>{1e-300, 3e-300});
  CHECK(tiny[0] == Approx(0.25).epsilon(1e-15));
  CHECK(tiny[1] == Approx(0.75).epsilon(1e-15));
  CHECK(normalized_pmf(std::vector<double>{5e-324, 5e-324}) == std::vector<double>{0.5, 0.5});  // subnormals
  // Σ = 1 to ~1 ulp for long inputs
  std::vector<double> many(1'000'000);
  for (std::size_t x = 0; x < many.size(); ++x) many[x] = static_cast<double>(x % 97) + 0.1;
  CHECK(std::fabs(compensated_total(normalized_pmf(many)) - 1.0) <= 1e-14);
}

// A private histogram's negligible counts are 0 (so that no pass over p meets a subnormal number, whose arithmetic is
// slow: tests/js/draw-timing.test.mjs times it), every other count is divided exactly as before, and the histogram's
// magnitude changes no bit: h and h·2^e give the same p whether or not either is rescaled (a rescaled histogram's
// total is the scan's own, scaled exactly).
TEST_CASE("validation: normalized_pmf zeroes counts below 2^-400 of the largest, divides the rest exactly, and ignores "
          "the histogram's magnitude", "[validation][property]") {
  std::mt19937_64 rng(20261128);
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  std::size_t zeroed = 0, kept = 0, kept_subnormal = 0, rescaled = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const std::size_t k = 1 + rng() % 300;
    std::vector<double> h(k);
    const int shape = trial % 6;
    for (double& v : h) {
      const double u = u01(rng);
      switch (shape) {
        case 0: v = std::ldexp(0.5 + u, static_cast<int>(rng() % 1400) - 700); break;  // ±700 exponents
        case 1: v = rng() % 3 == 0 ? std::ldexp(u, -1060) : u; break;                                  // subnormals
        case 2: v = std::ldexp(1.0 + u, -static_cast<int>(rng() % 700)); break;                        // a far tail
        case 3: v = rng() % 4 == 0 ? -0.0 : std::ldexp(0.5 + u, -390 - static_cast<int>(rng() % 20)); break;  // edge
        case 4: v = rng() % 2 == 0 ? std::ldexp(u, -1060) : std::ldexp(1.0 + u, -700); break;  // subnormals kept
        default: v = rng() % 2 == 0 ? std::numeric_limits<double>::denorm_min() * (1 + rng() % 8) : 1.0 + u; break;
      }
    }
    if (shape == 3) h[rng() % k] = 1.0;
    const double largest = *std::max_element(h.begin(), h.end());
    if (largest == 0.0) continue;
    const bool unscaled = largest >= 0x1p-500 && largest <= 0x1p500;
    // 2^-400 of the largest, rounded down to a multiple of 2^-1074 where that is subnormal
    const long double exact_least = std::ldexp(static_cast<long double>(largest), -400);
    const long double rounded_down = std::floor(exact_least * 0x1p1074L) * 0x1p-1074L;
    const double least = static_cast<double>(exact_least >= 0x1p-1022L ? exact_least : rounded_down);
    const std::vector<double> p = normalized_pmf(h);
    const std::vector<double> exact = exactly_normalized_pmf(h);
    INFO("trial " << trial << ", shape " << shape << ", k = " << k);
    for (std::size_t x = 0; x < k; ++x) {
      if (h[x] >= least) {
        ++kept;
        kept_subnormal += h[x] > 0.0 && h[x] < std::numeric_limits<double>::min();
        REQUIRE(std::bit_cast<std::uint64_t>(p[x]) == std::bit_cast<std::uint64_t>(exact[x]));
        REQUIRE((p[x] == 0.0 || p[x] >= std::numeric_limits<double>::min()));  // never subnormal
      } else {
        zeroed += h[x] > 0.0;
        REQUIRE(p[x] == 0.0);
        REQUIRE(std::signbit(p[x]) == std::signbit(h[x]));
      }
    }
    // The same histogram at other magnitudes: unscaled and rescaled alike, the same bits.
    for (const int e : {-900, -450, -100, 100, 450, 900}) {
      const double top = std::ldexp(largest, e);
      const double bottom = std::ldexp(least, e);
      if (!(top < 0x1p1000) || !(bottom >= 0x1p-1000)) continue;  // every count scaled exactly, the total finite
      std::vector<double> scaled(h);
      for (double& v : scaled) v = std::ldexp(v, e);
      const auto inexact = [&](double v) { return v > 0.0 && std::ldexp(std::ldexp(v, e), -e) != v; };
      if (std::any_of(h.begin(), h.end(), inexact)) continue;
      rescaled += (top >= 0x1p-500 && top <= 0x1p500) != unscaled;
      const std::vector<double> q = normalized_pmf(scaled);
      for (std::size_t x = 0; x < k; ++x) {
        // a count that was subnormal before or after scaling may sit on either side of the subnormal floor
        if (h[x] < std::numeric_limits<double>::min() || scaled[x] < std::numeric_limits<double>::min()) continue;
        REQUIRE(std::bit_cast<std::uint64_t>(q[x]) == std::bit_cast<std::uint64_t>(p[x]));
      }
    }
  }
  CHECK(zeroed > 10000);
  CHECK(kept_subnormal > 10000);
  CHECK(kept > 100000);
  CHECK(rescaled > 1000);
}

// The scan sums counts below 2^-960 apart, times 2^1000 (so that no addition has a subnormal result: slow on some
// processors, tests/js/draw-timing.test.mjs). The rule's total is still every count's, to the rounding of a
// compensated sum, where the largest count is below 2^-500 (where small counts can survive), and the ordinary counts'
// alone beside a larger one; a histogram of small counts only gives the p of its copy times 2^1000, bit for bit.
TEST_CASE("validation: the scale rule's total counts the smallest counts, summed apart", "[validation][property]") {
  std::mt19937_64 rng(20261130);
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  std::size_t mixed = 0, small_only = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    const std::size_t k = 1 + rng() % 200;
    std::vector<double> h(k);
    const int top = -501 - static_cast<int>(rng() % 560);  // the largest count's binade: 2^-501 … 2^-1060
    for (double& v : h) {
      const int binade = top - static_cast<int>(rng() % 120);
      v = rng() % 5 == 0 ? 0.0 : binade < -1074 ? 0.0 : std::ldexp(1.0 + u01(rng), binade);
    }
    h[rng() % k] = std::ldexp(1.5, top);
    const double largest = *std::max_element(h.begin(), h.end());
    const int shift = -std::ilogb(largest);
    long double exact = 0.0L;  // 64-bit significand: exact for these spans only up to rounding, compared to 2 ulp
    for (const double v : h) exact += std::ldexp(static_cast<long double>(v), shift);
    const double total = checked_histogram_scale(h).total;
    INFO("trial " << trial << ", k = " << k << ", largest 2^" << std::ilogb(largest));
    REQUIRE(std::fabs(static_cast<long double>(total) - exact) <= 2 * std::ldexp(1.0L, std::ilogb(total) - 52));
    if (largest < 0x1p-960) {
      std::vector<double> raised(h);
      for (double& v : raised) v = std::ldexp(v, 1000);
      const std::vector<double> p = exactly_normalized_pmf(h), q = exactly_normalized_pmf(raised);
      for (std::size_t x = 0; x < k; ++x) {
        REQUIRE(std::bit_cast<std::uint64_t>(p[x]) == std::bit_cast<std::uint64_t>(q[x]));
      }
      ++small_only;
    } else {
      mixed += std::any_of(h.begin(), h.end(), [](double v) { return v > 0.0 && v < 0x1p-960; });
    }
  }
  CHECK(mixed > 500);
  CHECK(small_only > 500);
  // Beside a count of 1, counts below 2^-960 are left out of the total (each is 0 in p).
  const std::vector<double> beside_one{1.0, 0x1p-961, 0x1p-1000, 0x1p-1070};
  CHECK(checked_histogram_scale(beside_one).total == 1.0);
}

// HistogramScale::scaled multiplies by 2^shift exactly, subnormal counts through their bit pattern (whose arithmetic
// is then on normal numbers only): every count, subnormal ones included, against ldexp.
TEST_CASE("validation: a histogram's counts are scaled exactly, subnormal ones included", "[validation][property]") {
  std::mt19937_64 rng(20261129);
  std::size_t checked = 0;
  for (int trial = 0; trial < 200000; ++trial) {
    const int exponent = static_cast<int>(rng() % 2098) - 1074;  // the largest count's, subnormal to the top
    const int shift = std::max(-exponent, -1022);  // as model/histogram.cpp scales
    HistogramScale rule;
    rule.factor = std::ldexp(1.0, std::min(shift, 1023));
    rule.from_bits = std::ldexp(1.0, shift - 1074);
    // a count at most the largest: any bit pattern below 2^(exponent + 1)
    const std::uint64_t top = std::bit_cast<std::uint64_t>(std::ldexp(1.0, exponent + 1 > 1023 ? 1023 : exponent + 1));
    const double count = std::bit_cast<double>(rng() % top);
    const double expected = std::ldexp(count, shift);
    if (expected != 0.0 && std::fabs(expected) < std::numeric_limits<double>::min()) continue;  // would round
    INFO("count " << count << " (bits " << std::bit_cast<std::uint64_t>(count) << "), shift " << shift);
    REQUIRE(std::bit_cast<std::uint64_t>(rule.scaled(count)) == std::bit_cast<std::uint64_t>(expected));
    ++checked;
  }
  CHECK(checked > 150000);
}

// The linear samplers mix while they normalise (one pass): each value must be the double that normalising first and
// mixing after gives, and the identity AffineClip must leave every p_x as it is (−0 included).
TEST_CASE("validation: normalized_pmf with an AffineClip is the mix of normalized_pmf, bit for bit", "[validation]") {
  std::mt19937_64 rng(20261126);
  std::size_t compared = 0;
  for (const std::size_t k : {1, 2, 3, 7, 100, 1000}) {
    std::vector<Histogram> inputs = structured_histograms(k, rng);
    for (int shape = 0; shape < 14; ++shape) inputs.push_back(random_histogram(k, rng, shape));
    for (const Histogram& h : inputs) {
      INFO(h.label << ", k = " << k);
      const std::vector<double> p = normalized_pmf(h.counts);
      for (const double epsilon : {1e-9, 0.1, 1.0, 5.0, 40.0}) {
        const FiniteBox box = finite_minimax_box(k, epsilon);
        const double gamma = -std::expm1(-epsilon) / (1.0 + static_cast<double>(k - 1) * std::exp(-epsilon));
        const std::vector<double> mixed = normalized_pmf(h.counts, AffineClip{gamma, box.floor, box.ceiling});
        for (std::size_t x = 0; x < k; ++x) {
          const double two_loops = std::clamp(gamma * p[x] + box.floor, box.floor, box.ceiling);
          CHECK(std::bit_cast<std::uint64_t>(mixed[x]) == std::bit_cast<std::uint64_t>(two_loops));
          ++compared;
        }
        // and the k-RR sampler's distribution() is that mix (its γ computed the same way, ε below 700)
        const std::vector<double> q = LinearSampler(epsilon).distribution(h.counts);
        CHECK(std::equal(q.begin(), q.end(), mixed.begin(), mixed.end()));
      }
    }
    // The identity case (normalized_pmf itself) against h_x / Σh with Σh exact: integer counts.
    std::poisson_distribution<int> counts(3.0);
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<double> h(k);
      double total = 0.0;  // exact: integers far below 2^53
      for (double& v : h) total += (v = counts(rng));
      if (total == 0.0) continue;
      const std::vector<double> p = normalized_pmf(h, AffineClip{});
      for (std::size_t x = 0; x < k; ++x) CHECK(std::bit_cast<std::uint64_t>(p[x]) == std::bit_cast<std::uint64_t>(h[x] / total));
    }
    std::vector<double> with_negative_zero(k, -0.0);
    with_negative_zero[0] = 3.0;
    const std::vector<double> identity = normalized_pmf(with_negative_zero, AffineClip{});
    for (std::size_t x = 1; x < k; ++x) CHECK(std::signbit(identity[x]));
  }
  CHECK(compared > 100000);
}

TEST_CASE("validation: normalized_pmf rejects bad histograms, naming index and value", "[validation]") {
  CHECK_THROWS_AS(normalized_pmf(std::vector<double>{}), std::invalid_argument);
  CHECK_THROWS_WITH(normalized_pmf(std::vector<double>{}), Catch::Contains("hist"));
  CHECK_THROWS_WITH(normalized_pmf(std::vector<double>{1, 2, 3, -2}),
                    Catch::Contains("hist[3]") && Catch::Contains("-2"));
  CHECK_THROWS_WITH(normalized_pmf(std::vector<double>{1, kNaN}), Catch::Contains("hist[1]") && Catch::Contains("NaN"));
  CHECK_THROWS_WITH(normalized_pmf(std::vector<double>{kInf, 1}),
                    Catch::Contains("hist[0]") && Catch::Contains("Infinity"));
  CHECK_THROWS_WITH(normalized_pmf(std::vector<double>{1, 1, -kInf}),
                    Catch::Contains("hist[2]") && Catch::Contains("-Infinity"));
  CHECK_THROWS_WITH(normalized_pmf(std::vector<double>{1, -1e-300}), Catch::Contains("hist[1]"));
  CHECK_THROWS_AS(normalized_pmf(std::vector<double>{0, 0, 0}), std::invalid_argument);
  CHECK_THROWS_WITH(normalized_pmf(std::vector<double>{0, 0, 0}), Catch::Contains("hist"));
  CHECK_THROWS_WITH(normalized_pmf(std::vector<double>{1, -1}, "counts"), Catch::Contains("counts[1]"));
  // the first bad entry is reported
  CHECK_THROWS_WITH(normalized_pmf(std::vector<double>{1, -3, kNaN}), Catch::Contains("[1]") && Catch::Contains("-3"));
  SECTION("more than kMaxCategories categories") {
    const std::vector<double> too_many(kMaxCategories + 1, 1.0);
    CHECK_THROWS_AS(normalized_pmf(too_many), std::invalid_argument);
    CHECK_THROWS_WITH(normalized_pmf(too_many), Catch::Contains("hist") && Catch::Contains("10000001"));
    CHECK_THROWS_AS(MinimaxSampler(1.0).distribution(too_many), std::invalid_argument);
  }
  CHECK_NOTHROW(check_category_count(1));
  CHECK_NOTHROW(check_category_count(kMaxCategories));
  CHECK_THROWS_AS(check_category_count(0), std::invalid_argument);
  CHECK_THROWS_WITH(check_category_count(kMaxCategories + 1, "k"), Catch::Contains("k"));
}

TEST_CASE("validation: epsilon between 0 and 1000", "[validation]") {
  for (double ok : {0.0, 1e-300, 1e-6, 1.0, 700.0, 700.5, 1000.0}) CHECK(validated_epsilon(ok) == ok);
  CHECK_THROWS_WITH(validated_epsilon(-1.0), Catch::Contains("epsilon") && Catch::Contains("-1"));
  CHECK_THROWS_WITH(validated_epsilon(kNaN), Catch::Contains("epsilon") && Catch::Contains("NaN"));
  CHECK_THROWS_WITH(validated_epsilon(kInf), Catch::Contains("epsilon") && Catch::Contains("Infinity"));
  CHECK_THROWS_WITH(validated_epsilon(-kInf), Catch::Contains("epsilon"));
  CHECK_THROWS_WITH(validated_epsilon(1000.5), Catch::Contains("epsilon") && Catch::Contains("1000.5"));
  CHECK_THROWS_AS(validated_epsilon(-1e-300), std::invalid_argument);
  CHECK_THROWS_AS(validated_epsilon(1e308), std::invalid_argument);
  CHECK(effective_epsilon(1000.0) == kMaxEffectiveEpsilon);
  CHECK(effective_epsilon(5.0) == 5.0);
  // every constructor and closed form validates
  CHECK_THROWS_WITH(MinimaxSampler(-1.0), Catch::Contains("epsilon"));
  CHECK_THROWS_WITH(LinearSampler(kNaN), Catch::Contains("epsilon"));
  CHECK_THROWS_AS(MinimaxSampler(1000.0001), std::invalid_argument);
  CHECK_THROWS_AS(finite_minimax_risk(NamedDivergence::kl, 5, -0.5), std::invalid_argument);
  CHECK_THROWS_AS(finite_minimax_box(5, kInf), std::invalid_argument);
  CHECK_THROWS_AS(finite_minimax_box(0, 1.0), std::invalid_argument);
  CHECK_THROWS_AS(finite_minimax_risk(NamedDivergence::tv, 0, 1.0), std::invalid_argument);
  CHECK_THROWS_AS(finite_minimax_risk(NamedDivergence::tv, kMaxCategories + 1, 1.0), std::invalid_argument);
}

TEST_CASE("validation: samplers reject bad histograms with the histogram's message", "[validation]") {
  const MinimaxSampler star(1.0);
  const LinearSampler dagger(1.0);
  for (const auto& bad : {std::vector<double>{1, 2, 3, -2}, std::vector<double>{1, 2, 3, kNaN}}) {
    CHECK_THROWS_WITH(star.distribution(bad), Catch::Contains("hist[3]"));
    CHECK_THROWS_WITH(star.normaliser(bad), Catch::Contains("hist[3]"));
    CHECK_THROWS_WITH(dagger.distribution(bad), Catch::Contains("hist[3]"));
    SeededRandom bits(1);
    CHECK_THROWS_WITH(star.sample(bad, bits), Catch::Contains("hist[3]"));
  }
  CHECK_THROWS_AS(star.distribution(std::vector<double>{}), std::invalid_argument);
  CHECK_THROWS_AS(dagger.distribution(std::vector<double>{0, 0}), std::invalid_argument);
  // the sampler stays usable after an error
  CHECK(star.distribution(std::vector<double>{1, 1}) == std::vector<double>{0.5, 0.5});
}

TEST_CASE("validation: other parameters", "[validation]") {
  CHECK(validated_delta(0.0) == 0.0);
  CHECK_THROWS_WITH(validated_delta(1.0), Catch::Contains("delta") && Catch::Contains("1"));
  CHECK_THROWS_AS(validated_delta(-0.1), std::invalid_argument);
  CHECK_THROWS_AS(validated_delta(kNaN), std::invalid_argument);
  CHECK(validated_mu(kMaxMu) == kMaxMu);
  CHECK_THROWS_WITH(validated_mu(0.0), Catch::Contains("mu"));
  CHECK_THROWS_AS(validated_mu(kMaxMu * 2), std::invalid_argument);
  CHECK(validated_gamma(3.0) == 3.0);
  CHECK_THROWS_WITH(validated_gamma(1.0), Catch::Contains("gamma") && Catch::Contains("1"));
  CHECK_THROWS_AS(validated_gamma(0.5), std::invalid_argument);
  CHECK_THROWS_AS(validated_gamma(kInf), std::invalid_argument);
  CHECK(validated_count(3.0, "n", 0, 10) == 3);
  CHECK_THROWS_WITH(validated_count(2.5, "n", 0, 10), Catch::Contains("n = 2.5"));
  CHECK_THROWS_WITH(validated_count(-1.0, "n", 0, 10), Catch::Contains("-1"));
  CHECK_THROWS_AS(validated_count(11.0, "n", 0, 10), std::invalid_argument);
  // priors: length k, entries > 0 (or >= 0 when allowed), counts or probabilities (normalised like histograms)
  const std::vector<double> prior{0.5, 0.25, 0.25};
  CHECK(validated_prior(prior, 3) == prior);
  CHECK_THROWS_WITH(validated_prior(prior, 4), Catch::Contains("prior"));
  CHECK_THROWS_WITH(validated_prior(std::vector<double>{0.5, 0.5, 0.0}, 3), Catch::Contains("prior[2]"));
  CHECK_NOTHROW(validated_prior(std::vector<double>{0.5, 0.5, 0.0}, 3, "reference", true));
  CHECK(validated_prior(std::vector<double>{4, 3, 1, 1, 1}, 5) == std::vector<double>{0.4, 0.3, 0.1, 0.1, 0.1});
  const std::vector<double> thirds = validated_prior(std::vector<double>{0.333333, 0.333333, 0.333333}, 3);
  for (const double v : thirds) CHECK(v == Approx(1.0 / 3.0).margin(1e-16).epsilon(0));
  CHECK(validated_prior(std::vector<double>{1e300, 1e300}, 2) == std::vector<double>{0.5, 0.5});
  CHECK(validated_prior(std::vector<double>{1e-300, 3e-300}, 2) == std::vector<double>{0.25, 0.75});
  CHECK_THROWS_WITH(validated_prior(std::vector<double>{0.0, 0.0}, 2, "reference", true),
                    Catch::Contains("reference is all zeros"));
  CHECK_THROWS_WITH(validated_prior(std::vector<double>{0.5, kNaN}, 2, "p0"), Catch::Contains("p0[1]"));
}

TEST_CASE("validation: values are formatted as JavaScript would", "[validation]") {
  CHECK(format_value(0.25) == "0.25");
  CHECK(format_value(-2.0) == "-2");
  CHECK(format_value(0.0) == "0");
  CHECK(format_value(kNaN) == "NaN");
  CHECK(format_value(kInf) == "Infinity");
  CHECK(format_value(-kInf) == "-Infinity");
  CHECK(format_value(1e-300) == "1e-300");
  CHECK(format_value(1e21) == "1e+21");
  CHECK(format_value(0.1) == "0.1");
  CHECK(format_value(1000.5) == "1000.5");
}

TEST_CASE("validation: the mechanism registry", "[validation][mechanism]") {
  const std::vector<std::string> names = finite_mechanism_names();
  for (const char* name : {"minimax", "linear", "mollifier", "local"}) {
    CHECK(std::find(names.begin(), names.end(), name) != names.end());
  }
  MechanismOptions options;
  CHECK_THROWS_WITH(make_finite_mechanism("foo", options), Catch::Contains("foo"));
  CHECK_THROWS_WITH(make_finite_mechanism("minimax", options), Catch::Contains("epsilon"));
  options.epsilon = 1.0;
  const Mechanism minimax = make_finite_mechanism("minimax", options);
  const std::vector<double> hist{3, 2, 1, 0};
  CHECK(distribution(minimax, hist) == MinimaxSampler(1.0).distribution(hist));
  REQUIRE(normaliser(minimax, hist).has_value());
  CHECK(*normaliser(minimax, hist) == Approx(MinimaxSampler(1.0).normaliser(hist)).epsilon(1e-15));
  CHECK(guarantee(minimax).notion == PrivacyNotion::pure_ldp);
  CHECK(guarantee(minimax).epsilon == 1.0);
  CHECK(worst_case_risk(minimax, NamedDivergence::kl, 4) == finite_minimax_risk(NamedDivergence::kl, 4, 1.0));
  CHECK(distribution(make_finite_mechanism("linear", options), hist) == LinearSampler(1.0).distribution(hist));
  // A mechanism without a normaliser says so for a good histogram, and refuses a bad one with its own message.
  const Mechanism linear = make_finite_mechanism("linear", options);
  CHECK_FALSE(normaliser(linear, hist).has_value());
  CHECK_THROWS_WITH(normaliser(linear, std::vector<double>{1, -2, 3}), Catch::Contains("hist[1]"));
  CHECK_THROWS_WITH(normaliser(linear, std::vector<double>{0, 0}), Catch::Contains("all zeros"));
  CHECK_THROWS_WITH(make_finite_mechanism("local", options), Catch::Contains("prior") || Catch::Contains("gamma"));
  options.gamma = 3.0;
  CHECK_THROWS_WITH(make_finite_mechanism("minimax", options), Catch::Contains("gamma"));
  options.prior = std::vector<double>{0.4, 0.3, 0.2, 0.1};
  const Mechanism local = make_finite_mechanism("local", options);
  CHECK(distribution(local, hist) == LocalClipSampler(1.0, *options.prior, 3.0).distribution(hist));
  MechanismOptions bad;
  bad.epsilon = -3.0;
  CHECK_THROWS_WITH(make_finite_mechanism("minimax", bad), Catch::Contains("epsilon") && Catch::Contains("-3"));
}

namespace {

// The histogram's total as its scalar form sums it: four TwoSum lanes by index mod 4 (the rest in lane 0), then the
// lanes' sums and their errors in a compensated sum. The lanes of every build must give this double.
double scalar_form_total(const std::vector<double>& h) {
  ExactSum lane[4];
  std::size_t i = 0;
  for (; i + 4 <= h.size(); i += 4) {
    for (std::size_t j = 0; j < 4; ++j) lane[j].add(h[i + j]);
  }
  for (; i < h.size(); ++i) lane[0].add(h[i]);
  CompensatedSum total;
  for (const ExactSum& l : lane) total.add(l.sum);
  for (const ExactSum& l : lane) total.add(l.error);
  return total.value();
}

}  // namespace

TEST_CASE("validation: the histogram's scan gives the scalar form's total bit for bit and finds a bad entry at every "
          "position of its groups", "[validation]") {
  std::mt19937_64 rng(20261130);
  for (const std::size_t k : {1, 3, 4, 5, 8, 13, 64, 1003, 100'000}) {
    // the shapes whose total neither overflows nor needs rescaling: the dense one, sums that round a lot, −0 among
    // integer counts, tiny next to huge, one 1 among subnormals, exact ties in every lane (test_support.hpp)
    for (const int shape : {0, 21, 22, 23, 24, 25}) {
      const std::vector<double> h = shaped_histogram(rng, k, shape);
      INFO("k = " << k << ", shape " << shape);
      const HistogramScale rule = checked_histogram_scale(h);
      REQUIRE(rule.factor == 1.0);
      REQUIRE(std::bit_cast<std::uint64_t>(rule.total) == std::bit_cast<std::uint64_t>(scalar_form_total(h)));
    }
  }
  // Valid counts whose sum overflows are rescaled, not rejected, wherever they sit.
  for (const std::size_t k : {4, 9, 64}) {
    std::vector<double> huge(k, 1.5e308);
    const std::vector<double> p = normalized_pmf(huge);
    for (const double v : p) CHECK(v == 1.0 / static_cast<double>(k));
  }
  // A bad entry at each position (in a group of four or in the rest) is the one named, with its value.
  const double bad_values[] = {kNaN, kInf, -kInf, -1.0, -std::numeric_limits<double>::denorm_min(), -1e300};
  for (const std::size_t k : {4, 5, 8, 11, 67}) {
    for (std::size_t at = 0; at < k; ++at) {
      for (const double bad : bad_values) {
        std::vector<double> h(k, 2.0);
        h[at] = bad;
        INFO("k = " << k << ", at " << at << ", value " << bad);
        const std::string where = "hist[" + std::to_string(at) + "]";
        CHECK_THROWS_WITH(normalized_pmf(h), Catch::Contains(where));
        CHECK_THROWS_WITH(MinimaxSampler(1.0).distribution(h), Catch::Contains(where));
        if (at + 1 < k) {  // a huge count beside it: the sum overflows too
          h[at + 1] = 1.7e308;
          CHECK_THROWS_WITH(normalized_pmf(h), Catch::Contains(where));
        }
      }
      // priors refuse zeros (−0 too) at every position; histograms take them
      std::vector<double> prior(k, 1.0);
      prior[at] = at % 2 == 0 ? 0.0 : -0.0;
      CHECK_THROWS_WITH(validated_prior(prior, k), Catch::Contains("prior[" + std::to_string(at) + "]"));
      CHECK_NOTHROW(normalized_pmf(prior));
    }
  }
}
