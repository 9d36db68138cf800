// clip-normalise, the exact solver behind every clip sampler (docs/solvers/clip-normalise.md):
// Case A (a root s of Σ clip(s·p; lo, hi) = 1), Case B (sparse support: support at hi, zero atoms share one θ),
// the point box (Σlo >= 1), against a brute-force long-double reference.
#include "solver/clip_normalise.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/numeric.hpp"
#include "model/histogram.hpp"
#include "../../core/solver/clip_normalise_internal.hpp"
#include "../digest/fixed_schedule_digest.hpp"
#include "golden.hpp"
#include "test_support.hpp"

using namespace privsample;
using namespace privsample_test;

namespace {

struct Box {
  std::string label;
  std::vector<double> lo;
  std::vector<double> hi;
};

// A random per-atom box with Σlo <= 1 <= Σhi: lo = w·a, hi = w·b for a pmf w, a ∈ [0,1], b >= 1.
// Variants add forbidden atoms (w = 0, so lo = hi = 0), lo = 0, lo = hi, tiny atoms and nearly-point boxes.
Box random_atom_box(std::size_t k, std::mt19937_64& rng, int variant) {
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  std::vector<double> w(k);
  for (double& v : w) v = -std::log(1.0 - u01(rng)) + 1e-3;
  std::string label;
  switch (variant % 8) {
    case 0: label = "plain"; break;
    case 1:
      label = "forbidden atoms (hi = 0)";
      for (std::size_t x = 0; x + 1 < k; ++x) {
        if (u01(rng) < 0.3) w[x] = 0.0;
      }
      break;
    case 2:
      label = "tiny atoms (w ~ 1e-300)";
      for (std::size_t x = 0; x + 1 < k; ++x) {
        if (u01(rng) < 0.3) w[x] = 1e-300 * (1.0 + u01(rng));
      }
      break;
    case 3:
      label = "equal weights (ties)";
      std::fill(w.begin(), w.end(), 1.0);
      break;
    default: label = "mixed factors"; break;
  }
  const double total = compensated_total(w);
  for (double& v : w) v /= total;
  Box box{label, std::vector<double>(k), std::vector<double>(k)};
  for (std::size_t x = 0; x < k; ++x) {
    double a = u01(rng);
    double b = 1.0 + 3.0 * u01(rng);
    if (variant % 8 >= 4) {
      const double pick = u01(rng);
      if (pick < 0.2) a = 0.0;                    // no floor
      else if (pick < 0.35) a = b = 1.0;          // lo = hi: a fixed atom
      else if (pick < 0.5) b = 1.0;               // hi = w
      else if (pick < 0.6) b = 1e6;               // a very loose ceiling
    }
    if (variant % 8 == 7) {  // a nearly-point box: lo = w(1 − 1e-9), hi = w(1 + 1e-9)
      a = 1.0 - 1e-9;
      b = 1.0 + 1e-9;
      box.label = "nearly a point";
    }
    box.lo[x] = w[x] * a;
    box.hi[x] = w[x] * b;
  }
  return box;
}

std::vector<Histogram> inputs_for_box(const Box& box, std::mt19937_64& rng, int random_count) {
  const std::size_t k = box.lo.size();
  std::vector<Histogram> inputs = structured_histograms(k, rng);
  for (int i = 0; i < random_count; ++i) inputs.push_back(random_histogram(k, rng, i));
  // inputs whose breakpoints tie with the box: p = lo, p = hi, p = lo + hi
  std::vector<double> sum(k);
  for (std::size_t x = 0; x < k; ++x) sum[x] = box.lo[x] + box.hi[x];
  if (*std::max_element(box.lo.begin(), box.lo.end()) > 0.0) inputs.push_back({"p = lo", box.lo});
  inputs.push_back({"p = hi", box.hi});
  inputs.push_back({"p = lo + hi", sum});
  return inputs;
}

double clip(double v, double lo, double hi) { return std::max(lo, std::min(hi, v)); }

// Every property of one solution, against the reference.
void check_solution(std::span<const double> p, std::span<const double> lo, std::span<const double> hi,
                    const ClipNormalised& got) {
  const std::size_t k = p.size();
  REQUIRE(got.q.size() == k);
  const ReferenceClip ref = reference_clip(p, lo, hi);
  std::string dump;
  if (k <= 8) {
    char buffer[128];
    for (std::size_t x = 0; x < k; ++x) {
      std::snprintf(buffer, sizeof buffer, "\n  x=%zu p=%.17g lo=%.17g hi=%.17g q=%.17g ref=%.17Lg", x, p[x], lo[x],
                    hi[x], got.q[x], ref.q[x]);
      dump += buffer;
    }
  }
  INFO(dump);
  INFO("sum lo = " << static_cast<double>(ref.lo_total) << ", F(inf) = " << static_cast<double>(ref.f_infinity)
                   << ", kind = " << static_cast<int>(got.kind) << ", scale = " << got.scale);

  std::size_t outside = 0;
  std::size_t forbidden_nonzero = 0;
  double worst = 0.0;
  for (std::size_t x = 0; x < k; ++x) {
    outside += !(got.q[x] >= lo[x] && got.q[x] <= hi[x]);
    forbidden_nonzero += hi[x] == 0.0 && got.q[x] != 0.0;
    worst = std::max(worst, static_cast<double>(std::fabs(static_cast<long double>(got.q[x]) - ref.q[x])));
  }
  CHECK(outside == 0);            // lo <= q <= hi exactly
  CHECK(forbidden_nonzero == 0);  // atoms with hi = 0 get q = 0
  CHECK(std::fabs(compensated_total(got.q) - 1.0) <= 1e-12);
  CHECK(worst <= 1e-12);

  // the case, where the reference is clear of the boundaries between cases
  if (ref.lo_total < 1.0L - 1e-9L && ref.f_infinity > 1.0L + 1e-9L) CHECK(got.kind == ClipCase::root);
  if (ref.lo_total < 1.0L - 1e-9L && ref.f_infinity < 1.0L - 1e-9L) CHECK(got.kind == ClipCase::sparse_support);
  if (ref.lo_total > 1.0L + 1e-15L) CHECK(got.kind == ClipCase::box_is_point);

  switch (got.kind) {
    case ClipCase::root: {
      if (!std::isfinite(got.scale)) {
        // allowed only where the root itself lies past the double range (subnormal masses next to ordinary
        // ones), or, from the fixed schedule, where F is flat at F(∞) = 1 (within rounding) past its last
        // breakpoint and the scale reported is that limit; q was checked against the reference above
        CHECK((ref.scale > static_cast<long double>(std::numeric_limits<double>::max()) ||
               std::fabs(ref.f_infinity - 1.0L) <= 1e-13L));
        break;
      }
      CHECK(got.scale > 0.0);
      double gap = 0.0;
      for (std::size_t x = 0; x < k; ++x) {
        const double want = hi[x] == 0.0 ? 0.0 : clip(got.scale * p[x], lo[x], hi[x]);
        gap = std::max(gap, want == 0.0 ? std::fabs(got.q[x]) : std::fabs(got.q[x] - want) / want);
      }
      INFO("largest relative gap between q and clip(scale*p; lo, hi): " << std::to_string(gap * 1e15) << "e-15");
      CHECK(gap <= 1e-14);  // q = clip(scale·p; lo, hi)
      break;
    }
    case ClipCase::sparse_support: {
      CHECK(std::isinf(got.scale));
      // the support sits at the ceiling; the zero atoms share one θ ∈ [0, 1]: q = lo + θ(hi − lo), with θ read
      // off the zero atom of largest room (the most precise) and checked on the others to rounding of q
      std::size_t support_not_at_hi = 0;
      std::size_t widest = k;
      for (std::size_t x = 0; x < k; ++x) {
        if (p[x] > 0.0 && hi[x] > 0.0) {
          support_not_at_hi += got.q[x] != hi[x];
        } else if (hi[x] > lo[x] && (widest == k || hi[x] - lo[x] > hi[widest] - lo[widest])) {
          widest = x;
        }
      }
      CHECK(support_not_at_hi == 0);
      if (widest < k) {
        const double theta = (got.q[widest] - lo[widest]) / (hi[widest] - lo[widest]);
        CHECK(theta >= 0.0);
        CHECK(theta <= 1.0);
        std::size_t off = 0;
        for (std::size_t x = 0; x < k; ++x) {
          if (p[x] > 0.0 && hi[x] > 0.0) continue;
          off += std::fabs(got.q[x] - (lo[x] + theta * (hi[x] - lo[x]))) > 4e-16 * hi[x];
        }
        CHECK(off == 0);
      }
      break;
    }
    case ClipCase::box_is_point: {
      CHECK(got.scale == 0.0);
      std::size_t not_lo = 0;
      for (std::size_t x = 0; x < k; ++x) not_lo += got.q[x] != lo[x];
      CHECK(not_lo == 0);
      break;
    }
  }
}

}  // namespace

namespace {

// The fixed schedule (RootSchedule::fixed, the release path of sample()) finds the root by another route; its q must
// be the adaptive search's up to the rounding of F near the root: the same case, each q_x within 1e-11 relative (the
// worst seen, 6.5e-12, is a nearly-point box whose room is 2e-9 of each bound; typical inputs agree to ~1e-14).
void check_schedules_agree(const ClipNormalised& fixed, const ClipNormalised& adaptive) {
  CHECK(fixed.kind == adaptive.kind);
  double worst = 0.0;
  std::size_t zero_mismatch = 0;
  for (std::size_t x = 0; x < fixed.q.size(); ++x) {
    if (adaptive.q[x] == 0.0) {
      zero_mismatch += fixed.q[x] != 0.0;
    } else {
      worst = std::max(worst, std::fabs(fixed.q[x] - adaptive.q[x]) / adaptive.q[x]);
    }
  }
  CHECK(zero_mismatch == 0);
  CHECK(worst <= 1e-11);
}

// The random AtomBox sweep; `representable` selects the inputs whose breakpoints fit in a double or the rest.
std::size_t atom_box_sweep(bool representable, RootSchedule schedule = RootSchedule::adaptive) {
  std::mt19937_64 rng(314159);
  std::size_t cases = 0;
  for (std::size_t k : {1, 2, 3, 4, 5, 8, 20, 100, 257}) {
    for (int variant = 0; variant < 24; ++variant) {
      const Box box = random_atom_box(k, rng, variant);
      for (const auto& h : inputs_for_box(box, rng, 8)) {
        if (breakpoints_representable(h.counts, box.lo, box.hi) != representable) continue;
        INFO("k = " << k << ", box: " << box.label << ", p: " << h.label);
        const ClipNormalised solution = clip_normalise(h.counts, AtomBox{box.lo, box.hi}, schedule);
        check_solution(h.counts, box.lo, box.hi, solution);
        if (schedule == RootSchedule::fixed) {
          check_schedules_agree(solution, clip_normalise(h.counts, AtomBox{box.lo, box.hi}));
        }
        ++cases;
      }
    }
  }
  return cases;
}

std::size_t uniform_box_sweep(bool representable, RootSchedule schedule = RootSchedule::adaptive) {
  std::mt19937_64 rng(271828);
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  std::size_t cases = 0;
  for (std::size_t k : {1, 2, 3, 5, 10, 64, 500}) {
    const double kd = static_cast<double>(k);
    for (int variant = 0; variant < 12; ++variant) {
      double a = u01(rng);             // Σlo = a
      double b = 1.0 + kd * u01(rng);  // Σhi = b
      if (variant == 0) a = 0.0;
      if (variant == 1) b = 1.0;
      if (variant == 2) a = b = 1.0;  // the point box
      if (variant == 3) b = 1e6;
      const UniformBox box{k, a / kd, b / kd};
      const std::vector<double> lo(k, box.lo);
      const std::vector<double> hi(k, box.hi);
      std::vector<Histogram> inputs = structured_histograms(k, rng);
      for (int i = 0; i < 10; ++i) inputs.push_back(random_histogram(k, rng, i));
      for (const auto& h : inputs) {
        if (breakpoints_representable(h.counts, lo, hi) != representable) continue;
        INFO("k = " << k << ", lo = " << box.lo << ", hi = " << box.hi << ", p: " << h.label);
        const ClipNormalised uniform_solution = clip_normalise(h.counts, box, schedule);
        check_solution(h.counts, lo, hi, uniform_solution);
        if (schedule == RootSchedule::fixed) check_schedules_agree(uniform_solution, clip_normalise(h.counts, box));
        const ClipNormalised atom_solution = clip_normalise(h.counts, AtomBox{lo, hi}, schedule);
        CHECK(atom_solution.kind == uniform_solution.kind);
        double gap = 0.0;
        for (std::size_t x = 0; x < k; ++x) gap = std::max(gap, std::fabs(atom_solution.q[x] - uniform_solution.q[x]));
        CHECK(gap <= 1e-15);
        ++cases;
      }
    }
  }
  return cases;
}

}  // namespace

TEST_CASE("clip_normalise: random AtomBoxes against a brute-force reference", "[clip_normalise][property]") {
  CHECK(atom_box_sweep(true) >= 3000);
}

TEST_CASE("clip_normalise: random UniformBoxes agree with the reference and with AtomBox", "[clip_normalise][property]") {
  CHECK(uniform_box_sweep(true) >= 1000);
}

TEST_CASE("clip_normalise: random boxes, masses whose breakpoints leave the double range", "[clip_normalise][edge]") {
  // subnormal masses, or 1e-300 next to 1e300: lo/p or hi/p overflow to +∞ (or underflow to 0)
  CHECK(atom_box_sweep(false) >= 100);
  CHECK(uniform_box_sweep(false) >= 50);
}

TEST_CASE("clip_normalise: the fixed schedule (sample()'s solve) passes every check and agrees with the adaptive search",
          "[clip_normalise][property]") {
  // The same reference, containment (lo <= q <= hi exactly: the privacy bound), Σq = 1 and case checks as the
  // adaptive search, on the same random, tied and adversarial inputs, including those whose breakpoints leave the
  // double range (the fixed schedule hands roots past the largest double to the adaptive search).
  CHECK(atom_box_sweep(true, RootSchedule::fixed) >= 3000);
  CHECK(uniform_box_sweep(true, RootSchedule::fixed) >= 1000);
  CHECK(atom_box_sweep(false, RootSchedule::fixed) >= 100);
  CHECK(uniform_box_sweep(false, RootSchedule::fixed) >= 50);
}

namespace {

// F̃(t) by the plain scalar loop in the fixed schedule's documented order: blocks of 256 atoms, lane i mod 4 within a
// block, each block's (lane 0 + lane 2) + (lane 1 + lane 3) added error-free.
double scalar_fixed_value(const std::vector<double>& p, const std::vector<double>& lo, const std::vector<double>& hi,
                          double t) {
  ExactSum total;
  for (std::size_t block = 0; block < p.size(); block += 256) {
    double lane[4] = {0.0, 0.0, 0.0, 0.0};
    for (std::size_t i = block; i < std::min(p.size(), block + 256); ++i) {
      lane[(i - block) % 4] += std::min(std::max(t * p[i], lo[i]), hi[i]);
    }
    total.add((lane[0] + lane[2]) + (lane[1] + lane[3]));
  }
  return total.value();
}

}  // namespace

TEST_CASE("clip_normalise: the fixed schedule's F sums in its documented order bit for bit, in every form of its pass",
          "[clip_normalise][property]") {
  // The search of the fixed schedule ends at the largest double a with F̃(a) < 1, so every build must compute F̃ to the
  // same bits: natively and in the WebAssembly modules the pass runs in f64x2 lanes (two atoms per vector, four
  // lanes per block in two vectors), which must add what the scalar loop adds in the same order. Every k from 1 to
  // 300 (every tail after the groups of four, the block boundary at 256) and a few larger ones, the digest's eight
  // shapes of masses (subnormals, exponents over ±700, ties, point masses), uniform and per-atom boxes, and t over
  // every exponent (t·p overflowing to +∞, underflowing to subnormals and 0) and near the root.
  digest_detail::SplitMix64 rng{20261127};
  std::size_t compared = 0;
  std::vector<std::size_t> sizes;
  for (std::size_t k = 1; k <= 300; ++k) sizes.push_back(k);
  for (const std::size_t k : {511u, 512u, 513u, 1000u, 4097u, 65'537u}) sizes.push_back(k);
  for (const std::size_t k : sizes) {
    const std::vector<double> p = digest_detail::masses(rng, k, rng.below(8));
    const double floor = 0.5 / static_cast<double>(k);
    std::vector<double> lo(k, floor);
    std::vector<double> hi(k, 3.0 * floor);
    const UniformBox uniform{k, floor, 3.0 * floor};
    std::vector<double> atom_lo(k), atom_hi(k);
    for (std::size_t i = 0; i < k; ++i) {
      const double weight = (1.0 + static_cast<double>(rng.below(100))) / (50.0 * static_cast<double>(k));
      atom_lo[i] = rng.below(5) == 0 ? 0.0 : 0.4 * weight;
      atom_hi[i] = rng.below(7) == 0 ? atom_lo[i] : 2.5 * weight;
    }
    const AtomBox atoms{atom_lo, atom_hi};
    for (int draw = 0; draw < 24; ++draw) {
      // a random finite double >= 0 by its bit pattern, or one near the root's scale (1/Σp)
      double t = double_of(rng.below(0x7FF0'0000'0000'0000ULL));
      if (draw % 3 == 0) t = std::ldexp(0.5 + rng.unit(), static_cast<int>(rng.below(40)) - 20);
      REQUIRE(bits_of(detail::fixed_schedule_value(p, uniform, t)) == bits_of(scalar_fixed_value(p, lo, hi, t)));
      REQUIRE(bits_of(detail::fixed_schedule_value(p, atoms, t)) ==
              bits_of(scalar_fixed_value(p, atom_lo, atom_hi, t)));
      compared += 2;
    }
  }
  CHECK(compared == 2 * 24 * (300 + 6));
}

// A digest's counts and both schedules' hashes (16 hex digits) against its golden entry.
template <class Golden>
void check_digest(const FixedScheduleDigest& d, const Golden& golden) {
  const auto hex = [](std::uint64_t value) {
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
    return std::string(text);
  };
  CHECK(d.cases == golden["cases"].template get<std::uint64_t>());
  CHECK(d.rejected == golden["rejected"].template get<std::uint64_t>());
  CHECK(hex(d.digest) == golden["digest"].template get<std::string>());
  CHECK(hex(d.adaptive) == golden["adaptive"].template get<std::string>());
}

TEST_CASE("clip_normalise: the digests of both schedules and normalized_pmf over 2,400 inputs are the golden ones",
          "[clip_normalise]") {
  // The same digest is checked for the client's WebAssembly (f64x2 lanes) by tests/js/fixed-schedule-digest.test.mjs:
  // every build gives the same answers bit for bit.
  check_digest(fixed_schedule_digest(), read_golden("fixed-schedule-digest.json"));
}

TEST_CASE("clip_normalise: the digests of both schedules over 1,200 corrupted and edge-case inputs are the golden ones", "[clip_normalise][validation]") {
  // The same digest is checked for both WebAssembly builds by tests/js/fixed-schedule-digest.test.mjs: the f64x2
  // lanes' masks, the integer clips and min/max accept and refuse the same inputs (a −0 mass once broke the integer
  // clips) and name the same entry.
  check_digest(corrupted_input_digest(), read_golden("fixed-schedule-digest.json")["corrupted"]);
}

TEST_CASE("clip_normalise: the digests of both schedules over 48 uniform boxes at k = 1,000 to 65,537 are the golden ones", "[clip_normalise]") {
  // Natively on x86-64 the adaptive search's validation and closing passes run in f64x2 lanes; the golden values were
  // computed by the scalar form (both WebAssembly builds give them too, with their own lanes:
  // fixed-schedule-digest.test).
  check_digest(large_input_digest(), read_golden("fixed-schedule-digest.json")["large"]);
}

TEST_CASE("clip_normalise: a mass of -0 is a zero mass in both schedules", "[clip_normalise]") {
  // Math.round(-0.2) is -0 in JS: such a count must change nothing (the WebAssembly builds' integer clips once put
  // it at the ceiling; checked there by the digest above and tests/js/sampling.test.mjs).
  for (const std::size_t k : {2U, 3U, 5U, 8U, 9U, 130U}) {
    std::vector<double> p(k, 0.0);
    p[0] = 3.0;
    p[k / 2] = 1.0;
    std::vector<double> with_negative_zero = p;
    for (std::size_t i = 1; i < k; ++i) {
      if (p[i] == 0.0) with_negative_zero[i] = -0.0;
    }
    const double floor = 1.0 / (4.0 + static_cast<double>(k) - 1.0);
    const UniformBox box{k, floor, 4.0 * floor};
    for (const RootSchedule schedule : {RootSchedule::adaptive, RootSchedule::fixed}) {
      const ClipNormalised plain = clip_normalise(p, box, schedule);
      const ClipNormalised signed_zero = clip_normalise(with_negative_zero, box, schedule);
      CHECK(signed_zero.kind == plain.kind);
      CHECK(signed_zero.scale == plain.scale);
      CHECK(signed_zero.q == plain.q);
    }
  }
}

TEST_CASE("clip_normalise: the fixed schedule rejects what the adaptive search rejects, with the same message",
          "[clip_normalise][validation]") {
  const std::vector<double> lo{0.1, 0.1, 0.1};
  const std::vector<double> hi{0.5, 0.5, 0.5};
  const std::vector<std::vector<double>> bad_p{{0.2, -1.0, 0.3}, {0.2, kNaN, 0.3}, {kInf, 0.0, 0.0}, {0.5, 0.5},
                                               {0.2, 0.3, 0.1, 0.4}, {}};
  for (const auto& p : bad_p) {
    std::string adaptive_message;
    try {
      (void)clip_normalise(p, AtomBox{lo, hi});
    } catch (const std::invalid_argument& e) {
      adaptive_message = e.what();
    }
    INFO("p of size " << p.size() << ": " << adaptive_message);
    REQUIRE_FALSE(adaptive_message.empty());
    CHECK_THROWS_WITH(clip_normalise(p, AtomBox{lo, hi}, RootSchedule::fixed), adaptive_message);
    if (p.size() == 3) {
      CHECK_THROWS_WITH(clip_normalise(p, UniformBox{3, 0.1, 0.5}, RootSchedule::fixed), adaptive_message);
    }
  }
  const std::vector<double> p{1.0, 2.0, 3.0};
  CHECK_THROWS_WITH(clip_normalise(p, UniformBox{3, 0.5, 0.9}, RootSchedule::fixed), Catch::Contains("sum of lo"));
  CHECK_THROWS_WITH(clip_normalise(p, UniformBox{3, 0.1, 0.2}, RootSchedule::fixed), Catch::Contains("sum of hi"));
  CHECK_THROWS_WITH(clip_normalise(p, UniformBox{3, 0.3, 0.2}, RootSchedule::fixed), Catch::Contains("exceeds hi"));
  const std::vector<double> nan_lo{0.1, kNaN, 0.1};
  CHECK_THROWS_WITH(clip_normalise(p, AtomBox{nan_lo, hi}, RootSchedule::fixed), Catch::Contains("lo[1]"));
}

TEST_CASE("clip_normalise: q does not depend on the scale of p, s does", "[clip_normalise]") {
  const std::vector<double> p{3, 1, 0, 7, 2, 2};
  const std::vector<double> lo{0.05, 0.1, 0.1, 0.05, 0.1, 0.2};
  const std::vector<double> hi{0.4, 0.3, 0.3, 0.5, 0.3, 0.25};
  const ClipNormalised base = clip_normalise(p, AtomBox{lo, hi});
  REQUIRE(base.kind == ClipCase::root);
  for (double c : {1e-250, 1e-10, 3.0, 1e250}) {
    INFO("scaled by " << c);
    std::vector<double> scaled(p);
    for (double& v : scaled) v *= c;
    const ClipNormalised got = clip_normalise(scaled, AtomBox{lo, hi});
    REQUIRE(got.kind == ClipCase::root);
    for (std::size_t x = 0; x < p.size(); ++x) CHECK(got.q[x] == Approx(base.q[x]).epsilon(1e-14));
    CHECK(got.scale * c == Approx(base.scale).epsilon(1e-14));
  }
}

TEST_CASE("clip_normalise: zeros, ties, tiny and huge masses", "[clip_normalise]") {
  SECTION("ties inside the box: q is the normalised p, s = 1/Σp") {
    const std::vector<double> p(8, 5.0);
    const ClipNormalised got = clip_normalise(p, UniformBox{8, 0.1, 0.2});
    CHECK(got.kind == ClipCase::root);
    for (double v : got.q) CHECK(v == Approx(0.125).epsilon(1e-15));
    CHECK(got.scale == Approx(1.0 / 40.0).epsilon(1e-15));
  }
  SECTION("tiny and huge masses side by side") {
    const std::vector<double> p{1e300, 1e-300, 0.0, 1.0, 1e300};
    const std::vector<double> lo(5, 0.05);
    const std::vector<double> hi(5, 0.6);
    const ClipNormalised got = clip_normalise(p, UniformBox{5, 0.05, 0.6});
    check_solution(p, lo, hi, got);
    // the two 1e300 atoms share 1 − 3·0.05 equally; the rest is at the floor
    CHECK(got.q[0] == Approx(0.425).epsilon(1e-15));
    CHECK(got.q[4] == Approx(0.425).epsilon(1e-15));
    CHECK(got.q[1] == 0.05);
    CHECK(got.q[2] == 0.05);
    CHECK(got.q[3] == 0.05);
  }
  SECTION("k = 1") {
    for (double mass : {1e-300, 1.0, 1e300}) {
      INFO("p = {" << mass << "}");
      const std::vector<double> p{mass};
      const std::vector<double> uniform_q = clip_normalise(p, UniformBox{1, 0.5, 3.0}).q;
      REQUIRE(uniform_q.size() == 1);
      CHECK(uniform_q[0] == Approx(1.0).epsilon(1e-15));
      const std::vector<double> lo{0.0};
      const std::vector<double> hi{1.0};
      const std::vector<double> atom_q = clip_normalise(p, AtomBox{lo, hi}).q;
      REQUIRE(atom_q.size() == 1);
      CHECK(atom_q[0] == Approx(1.0).epsilon(1e-15));
    }
  }
  SECTION("atoms with hi = 0 get q = 0; their mass is lost") {
    const std::vector<double> p{5, 1, 1, 0};
    const std::vector<double> lo{0, 0.2, 0.1, 0};
    const std::vector<double> hi{0, 0.6, 0.5, 0.5};
    const ClipNormalised got = clip_normalise(p, AtomBox{lo, hi});
    check_solution(p, lo, hi, got);
    CHECK(got.kind == ClipCase::root);
    CHECK(got.q[0] == 0.0);
    CHECK(got.q[1] == Approx(0.5).epsilon(1e-15));
    CHECK(got.q[2] == Approx(0.5).epsilon(1e-15));
    CHECK(got.q[3] == 0.0);
  }
  SECTION("all of p on forbidden atoms: the data-independent q = lo + θ(hi − lo)") {
    const std::vector<double> p{1, 0, 0};
    const std::vector<double> lo{0, 0.2, 0.3};
    const std::vector<double> hi{0, 0.9, 0.9};
    const ClipNormalised got = clip_normalise(p, AtomBox{lo, hi});
    check_solution(p, lo, hi, got);
    const double theta = 0.5 / 1.3;
    CHECK(got.q[0] == 0.0);
    CHECK(got.q[1] == Approx(0.2 + 0.7 * theta).epsilon(1e-14));
    CHECK(got.q[2] == Approx(0.3 + 0.6 * theta).epsilon(1e-14));
  }
  SECTION("F flat at 1: q is unique and scale is the smallest root") {
    // atom 0 reaches hi = 0.5 at s = 0.5; atom 1 leaves lo = 0.5 only at s = 5: F = 1 on [0.5, 5]
    const std::vector<double> p{1.0, 0.1};
    const std::vector<double> lo{0.1, 0.5};
    const std::vector<double> hi{0.5, 0.9};
    const ClipNormalised got = clip_normalise(p, AtomBox{lo, hi});
    check_solution(p, lo, hi, got);
    CHECK(got.kind == ClipCase::root);
    CHECK(got.q[0] == Approx(0.5).epsilon(1e-15));
    CHECK(got.q[1] == Approx(0.5).epsilon(1e-15));
    CHECK(got.scale == Approx(0.5).epsilon(1e-14));
  }
  SECTION("the point box: Σlo = 1 (ε = 0) returns lo whatever p is") {
    const std::vector<double> lo{0.4, 0.3, 0.2, 0.1};
    for (const auto& p : {std::vector<double>{1, 0, 0, 0}, std::vector<double>{0, 0, 0, 1},
                          std::vector<double>{0.25, 0.25, 0.25, 0.25}}) {
      const ClipNormalised got = clip_normalise(p, AtomBox{lo, lo});
      CHECK(got.kind == ClipCase::box_is_point);
      CHECK(got.q == lo);
      CHECK(got.scale == 0.0);
    }
    const ClipNormalised uniform = clip_normalise(std::vector<double>{9, 1, 0, 0}, UniformBox{4, 0.25, 0.25});
    CHECK(uniform.kind == ClipCase::box_is_point);
    CHECK(uniform.q == std::vector<double>(4, 0.25));
  }
}

TEST_CASE("clip_normalise: subnormal masses", "[clip_normalise][edge]") {
  // valid input (finite, >= 0) whose scale 1/Σp = 6.7e322 is beyond the double range; q is the normalised p
  SECTION("three atoms") {
    const std::vector<double> p{5e-324, 1e-323, 0.0};
    const std::vector<double> lo(3, 0.0);
    const std::vector<double> hi(3, 1.0);
    const ClipNormalised got = clip_normalise(p, UniformBox{3, 0.0, 1.0});
    REQUIRE(got.q.size() == 3);
    CHECK(got.q[0] == Approx(1.0 / 3.0).epsilon(1e-15));
    CHECK(got.q[1] == Approx(2.0 / 3.0).epsilon(1e-15));
    CHECK(got.q[2] == 0.0);
  }
  SECTION("k = 1") {
    const std::vector<double> p{5e-324};
    CHECK(clip_normalise(p, UniformBox{1, 0.5, 2.0}).q == std::vector<double>{1.0});
  }
}

TEST_CASE("clip_normalise: local-clip test vectors incl. Case B (core/mechanisms/local/README.md, k = 4, gamma = 3, eps = 1), "
          "tests/golden/clip-samplers.json",
          "[clip_normalise][vectors]") {
  const auto golden = read_golden("clip-samplers.json")["local"];
  const auto p0 = golden["prior"].get<std::vector<double>>();
  const double gamma = golden["gamma"].get<double>();
  const double e = std::exp(golden["epsilon"].get<double>());
  const double b = (gamma + 1.0) / (gamma + e);
  CHECK(b == Approx(golden["b"].get<double>()).margin(half_unit(6)).epsilon(0));
  std::vector<double> lo(4);
  std::vector<double> hi(4);
  for (std::size_t x = 0; x < 4; ++x) {
    lo[x] = b * p0[x];
    hi[x] = b * e * p0[x];
  }
  REQUIRE(golden["vectors"].size() == 6);
  for (const auto& v : golden["vectors"]) {
    const struct {
      std::vector<double> p, q;
      double r;  // 0: Case B, no normaliser
    } row{v["p"].get<std::vector<double>>(), v["q"].get<std::vector<double>>(), v["r"].get<double>()};
    INFO(v["label"].get<std::string>());
    const ClipNormalised got = clip_normalise(row.p, AtomBox{lo, hi});
    check_solution(row.p, lo, hi, got);
    for (std::size_t x = 0; x < 4; ++x) CHECK(got.q[x] == Approx(row.q[x]).margin(half_unit(6)).epsilon(0));
    if (row.r == 0.0) {
      CHECK(got.kind == ClipCase::sparse_support);
      CHECK(got.q[3] == hi[3]);  // the support at the ceiling b·e^ε·p0
      // the rest at one common ratio c = (1 − b e^ε P0(S))/(1 − P0(S)) to p0
      const double c = (1.0 - b * e * 0.1) / 0.9;
      for (std::size_t x = 0; x < 3; ++x) CHECK(got.q[x] / p0[x] == Approx(c).epsilon(1e-14));
    } else {
      CHECK(got.kind == ClipCase::root);
      CHECK(1.0 / got.scale == Approx(row.r).margin(half_unit(6)).epsilon(0));
    }
  }
}

TEST_CASE("clip_normalise: Case B over every sparse support of a spread-out box", "[clip_normalise][property]") {
  // k = 12, a prior with several atoms below 1/(γ+1): every support S with P0(S) < 1/(γ+1) is Case B
  const std::vector<double> p0{0.02, 0.03, 0.05, 0.05, 0.05, 0.1, 0.1, 0.1, 0.1, 0.1, 0.15, 0.15};
  const double gamma = 4.0;
  const double eps = 1.5;
  const double b = (gamma + 1.0) / (gamma + std::exp(eps));
  std::vector<double> lo(12);
  std::vector<double> hi(12);
  for (std::size_t x = 0; x < 12; ++x) {
    lo[x] = b * p0[x];
    hi[x] = b * std::exp(eps) * p0[x];
  }
  std::size_t case_b = 0;
  for (unsigned mask = 1; mask < (1U << 12); ++mask) {
    std::vector<double> p(12, 0.0);
    double support_mass = 0.0;
    for (std::size_t x = 0; x < 12; ++x) {
      if (mask >> x & 1U) {
        p[x] = 1.0 + static_cast<double>(x % 3);
        support_mass += p0[x];
      }
    }
    INFO("support mask " << mask << ", P0(S) = " << support_mass);
    const ClipNormalised got = clip_normalise(p, AtomBox{lo, hi});
    check_solution(p, lo, hi, got);
    const double threshold = 1.0 / (gamma + 1.0);
    if (support_mass < threshold - 1e-12) {
      CHECK(got.kind == ClipCase::sparse_support);
      ++case_b;
    } else if (support_mass > threshold + 1e-12) {
      CHECK(got.kind == ClipCase::root);
    }
  }
  CHECK(case_b > 50);
}

TEST_CASE("clip_normalise: k = 10^6 AtomBox, Case A and Case B", "[clip_normalise][large]") {
  constexpr std::size_t k = 1'000'000;
  std::mt19937_64 rng(99);
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  std::vector<double> w(k);
  for (double& v : w) v = 0.5 + u01(rng);
  const double total = compensated_total(w);
  std::vector<double> lo(k);
  std::vector<double> hi(k);
  for (std::size_t x = 0; x < k; ++x) {
    lo[x] = 0.5 * w[x] / total;
    hi[x] = 2.0 * w[x] / total;
  }
  auto check_large = [&](const std::vector<double>& p, ClipCase expected) {
    const ClipNormalised got = clip_normalise(p, AtomBox{lo, hi});
    CHECK(got.kind == expected);
    CHECK(std::fabs(compensated_total(got.q) - 1.0) <= 1e-12);
    std::size_t outside = 0;
    for (std::size_t x = 0; x < k; ++x) outside += !(got.q[x] >= lo[x] && got.q[x] <= hi[x]);
    CHECK(outside == 0);
    return got;
  };
  std::vector<double> random(k);
  for (double& v : random) v = u01(rng) * u01(rng);
  const ClipNormalised a = check_large(random, ClipCase::root);
  double gap = 0.0;
  for (std::size_t x = 0; x < k; ++x) {
    const double want = clip(a.scale * random[x], lo[x], hi[x]);
    gap = std::max(gap, std::fabs(a.q[x] - want) / want);
  }
  CHECK(gap <= 1e-15);
  std::vector<double> sparse(k, 0.0);
  for (int i = 0; i < 1000; ++i) sparse[static_cast<std::size_t>(u01(rng) * k)] = 1.0 + u01(rng);
  const ClipNormalised b = check_large(sparse, ClipCase::sparse_support);
  std::size_t support_not_at_hi = 0;
  for (std::size_t x = 0; x < k; ++x) support_not_at_hi += sparse[x] > 0.0 && b.q[x] != hi[x];
  CHECK(support_not_at_hi == 0);
}

TEST_CASE("clip_normalise: invalid arguments are rejected", "[clip_normalise][validation]") {
  const std::vector<double> p{1, 2, 3};
  const std::vector<double> lo{0.1, 0.1, 0.1};
  const std::vector<double> hi{0.5, 0.5, 0.5};
  const std::vector<double> short_bounds{0.5, 0.5};
  CHECK_NOTHROW(clip_normalise(p, AtomBox{lo, hi}));
  CHECK_THROWS_AS(clip_normalise(p, AtomBox{short_bounds, short_bounds}), std::invalid_argument);
  CHECK_THROWS_AS(clip_normalise(p, AtomBox{lo, short_bounds}), std::invalid_argument);
  CHECK_THROWS_AS(clip_normalise(p, UniformBox{4, 0.1, 0.5}), std::invalid_argument);
  // bounds: negative, non-finite, lo > hi, Σlo > 1, Σhi < 1
  CHECK_THROWS_AS(clip_normalise(p, AtomBox{std::vector<double>{-0.1, 0.1, 0.1}, hi}), std::invalid_argument);
  CHECK_THROWS_AS(clip_normalise(p, AtomBox{lo, std::vector<double>{0.5, kNaN, 0.5}}), std::invalid_argument);
  CHECK_THROWS_AS(clip_normalise(p, AtomBox{lo, std::vector<double>{0.5, kInf, 0.5}}), std::invalid_argument);
  CHECK_THROWS_AS(clip_normalise(p, AtomBox{std::vector<double>{0.1, 0.6, 0.1}, hi}), std::invalid_argument);
  CHECK_THROWS_AS(clip_normalise(p, AtomBox{std::vector<double>{0.4, 0.4, 0.4}, hi}), std::invalid_argument);
  CHECK_THROWS_AS(clip_normalise(p, AtomBox{lo, std::vector<double>{0.3, 0.3, 0.3}}), std::invalid_argument);
  CHECK_THROWS_AS(clip_normalise(p, UniformBox{3, 0.4, 0.5}), std::invalid_argument);
  CHECK_THROWS_AS(clip_normalise(p, UniformBox{3, 0.1, 0.3}), std::invalid_argument);
  CHECK_THROWS_AS(clip_normalise(p, UniformBox{3, 0.2, 0.1}), std::invalid_argument);
  CHECK_THROWS_AS(clip_normalise(p, UniformBox{3, -0.1, 0.5}), std::invalid_argument);
  // masses: negative, NaN, ±∞
  for (double bad : {-1.0, kNaN, kInf, -kInf}) {
    INFO("p[1] = " << bad);
    const std::vector<double> q{1.0, bad, 1.0};
    CHECK_THROWS_AS(clip_normalise(q, UniformBox{3, 0.1, 0.5}), std::invalid_argument);
    CHECK_THROWS_AS(clip_normalise(q, AtomBox{lo, hi}), std::invalid_argument);
  }
  CHECK_THROWS_WITH(clip_normalise(std::vector<double>{1.0, -2.0, 1.0}, UniformBox{3, 0.1, 0.5}),
                    Catch::Contains("[1]") && Catch::Contains("-2"));
  // rounding in the caller's bounds is tolerated: Σhi = 1 − 1e-15
  CHECK_NOTHROW(clip_normalise(p, UniformBox{3, 0.0, (1.0 - 1e-15) / 3.0}));
}

TEST_CASE("clip_normalise: sampled first round and threshold pass (uniform) agree with the division pass (AtomBox)",
          "[clip_normalise][property]") {
  // Above 32 open atoms the first round proposes its bracket from a sample and, for a uniform box, classifies
  // the atoms by comparing p with exact thresholds instead of dividing; the per-atom path divides. Both must
  // give the reference's answer, and agree with each other as closely as the uniform and per-atom boxes do in
  // the sweep above (1e-15 in q): the root is (1 − C)/S, where the uniform box counts its floors and ceilings
  // (C = n·lo + m·hi) and the per-atom box adds them up, so C may differ in its last bit, which 1 − C
  // amplifies when most atoms sit at the floor. Most inputs agree to the last bit.
  std::mt19937_64 rng(8);
  std::size_t cases = 0;
  std::size_t identical = 0;
  for (std::size_t k : {40, 300, 1000, 5000, 30000}) {
    const double kd = static_cast<double>(k);
    for (const double epsilon : {0.01, 0.1, 1.0, 5.0, 20.0}) {
      const double lo = 1.0 / (std::exp(epsilon) + kd - 1.0);
      const UniformBox box{k, lo, std::exp(epsilon) * lo};
      const std::vector<double> lo_v(k, box.lo);
      const std::vector<double> hi_v(k, box.hi);
      std::vector<Histogram> inputs = structured_histograms(k, rng);
      for (int i = 0; i < 6; ++i) inputs.push_back(random_histogram(k, rng, i));
      for (const auto& h : inputs) {
        if (!breakpoints_representable(h.counts, lo_v, hi_v)) continue;
        INFO("k = " << k << ", eps = " << epsilon << ", p: " << h.label);
        const ClipNormalised uniform_solution = clip_normalise(h.counts, box);
        check_solution(h.counts, lo_v, hi_v, uniform_solution);
        const ClipNormalised atom_solution = clip_normalise(h.counts, AtomBox{lo_v, hi_v});
        CHECK(atom_solution.kind == uniform_solution.kind);
        CHECK(atom_solution.scale == Approx(uniform_solution.scale).epsilon(1e-12));
        double gap = 0.0;
        for (std::size_t x = 0; x < k; ++x) gap = std::max(gap, std::fabs(atom_solution.q[x] - uniform_solution.q[x]));
        CHECK(gap <= 1e-15);
        identical += atom_solution.q == uniform_solution.q ? 1 : 0;
        ++cases;
      }
    }
  }
  CHECK(cases >= 200);
  CHECK(identical * 10 >= cases * 9);
}

namespace {

// Bit for bit: q (as bytes, so that −0 and 0 differ), the scale and the case.
bool same_bits(const ClipNormalised& a, const ClipNormalised& b) {
  return a.kind == b.kind && std::memcmp(&a.scale, &b.scale, sizeof a.scale) == 0 && a.q.size() == b.q.size() &&
         std::memcmp(a.q.data(), b.q.data(), a.q.size() * sizeof(double)) == 0;
}

std::vector<Histogram> small_route_inputs(std::size_t k, std::mt19937_64& rng) {
  std::vector<Histogram> inputs = structured_histograms(k, rng);
  for (int i = 0; i < 14; ++i) inputs.push_back(random_histogram(k, rng, i));
  std::gamma_distribution<double> gamma(0.5, 1.0);
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  for (int i = 0; i < 4; ++i) {
    std::vector<double> dense(k);
    for (double& v : dense) v = gamma(rng);
    inputs.push_back({"Dirichlet(0.5)", dense});
    std::vector<double> sparse(k, 0.0);
    for (double& v : sparse) v = u01(rng) < 0.05 ? gamma(rng) : 0.0;
    sparse[static_cast<std::size_t>(u01(rng) * static_cast<double>(k)) % k] = gamma(rng) + 1e-3;
    inputs.push_back({"sparse Dirichlet(0.5)", sparse});
  }
  // Masses on a few levels that make F flat at 1 or put the root on a breakpoint: 1 top atom, the rest equal.
  std::vector<double> top(k, 1.0);
  top[0] = 50.0;
  inputs.push_back({"one atom 50x the others", top});
  std::vector<double> halves(k, 0.0);
  for (std::size_t x = 0; x < k; x += 2) halves[x] = 1.0;
  inputs.push_back({"every other atom, ties", halves});
  return inputs;
}

}  // namespace

TEST_CASE("clip_normalise: the small-k route (uniform box, k <= 128) gives the sorted search's answer bit for bit",
          "[clip_normalise][property]") {
  // For k <= 128 the first bracket comes from Newton steps on the stack instead of a sorted sample; both must land
  // on the same two breakpoints, so everything after (the sums, the closed form, q) is the same to the last bit.
  // docs/solvers/clip-normalise.md.
  std::mt19937_64 rng(20261125);
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  std::size_t cases = 0;
  std::size_t mismatches = 0;
  for (std::size_t k : {1, 2, 3, 5, 17, 64, 100, 127, 128}) {
    const double kd = static_cast<double>(k);
    std::vector<UniformBox> boxes;
    for (const double epsilon : {0.01, 0.1, 1.0, 5.0, 20.0}) {  // Park's box
      const double lo = 1.0 / (std::exp(epsilon) + kd - 1.0);
      boxes.push_back({k, lo, std::exp(epsilon) * lo});
    }
    boxes.push_back({k, 0.0, 2.0 / kd});        // no floor
    boxes.push_back({k, 0.5 / kd, 1.0 / kd});   // Σhi = 1
    boxes.push_back({k, 1.0 / kd, 1.0 / kd});   // the point box
    boxes.push_back({k, 0.3 / kd, 1e6 / kd});   // a loose ceiling
    for (int i = 0; i < 6; ++i) boxes.push_back({k, u01(rng) / kd, (1.0 + kd * u01(rng)) / kd});  // Σlo < 1 < Σhi
    for (const UniformBox& box : boxes) {
      for (const auto& h : small_route_inputs(k, rng)) {
        INFO("k = " << k << ", lo = " << box.lo << ", hi = " << box.hi << ", p: " << h.label);
        const ClipNormalised fast = clip_normalise(h.counts, box);
        const ClipNormalised general = detail::clip_normalise_without_small_route(h.counts, box);
        const bool same = same_bits(fast, general);
        CHECK(same);
        mismatches += same ? 0 : 1;
        ++cases;
      }
    }
  }
  CHECK(mismatches == 0);
  CHECK(cases >= 3000);
}

TEST_CASE("clip_normalise_quotients_into: the q, scale and case of clip_normalise_into on normalized_pmf(h), bit for "
          "bit, for every uniform box and histogram shape; q may be h",
          "[clip_normalise][quotients]") {
  std::mt19937_64 rng(20261129);
  for (const std::size_t k : {1, 2, 3, 4, 5, 6, 7, 8, 129, 1001, 20'003}) {
    for (int shape = 0; shape < kHistogramShapes; ++shape) {
      const std::vector<double> h = shaped_histogram(rng, k, shape);
      const std::vector<double> p = normalized_pmf(h);
      const HistogramScale rule = checked_histogram_scale(h);
      for (const double lo_share : {0.0, 0.2, 0.9, 1.0}) {
        for (const double hi_share : {1.0, 1.5, 4.0, 1e6}) {
          INFO("k = " << k << ", shape " << shape << ", lo·k = " << lo_share << ", hi·k = " << hi_share);
          const auto n = static_cast<double>(k);
          const UniformBox box{k, lo_share / n, hi_share / n};
          std::vector<double> expected(k), q(k, -1.0);
          const ClipSolution before = clip_normalise_into(p, box, expected);
          const ClipSolution now = clip_normalise_quotients_into(h, rule, box, q);
          REQUIRE(bits_of(now.scale) == bits_of(before.scale));
          REQUIRE(now.kind == before.kind);
          REQUIRE(std::equal(q.begin(), q.end(), expected.begin(), expected.end(),
                             [](double a, double b) { return bits_of(a) == bits_of(b); }));
          std::vector<double> in_place = h;
          (void)clip_normalise_quotients_into(in_place, rule, box, in_place);
          REQUIRE(std::equal(in_place.begin(), in_place.end(), expected.begin(), expected.end(),
                             [](double a, double b) { return bits_of(a) == bits_of(b); }));
        }
      }
    }
  }
}
