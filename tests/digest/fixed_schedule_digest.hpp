#pragma once
// A digest of the answers of the passes that the client's WebAssembly runs in SIMD lanes, over generated inputs, so
// that builds can be compared bit for bit: the fixed schedule (clip_normalise with RootSchedule::fixed, the solve of
// every clip sampler's sample()), the adaptive search (distribution()'s solve, whose small-k steering pass has f64x2
// lanes) and the histogram normalisation (normalized_pmf, whose validating scan has f64x2 lanes). The native build
// (scalar lanes for these; f64x2 lanes for the adaptive search's passes over every mass, as in the research module)
// checks it in tests/native/clip_normalise_test.cpp, both WebAssembly builds in tests/js/fixed-schedule-digest.test.mjs,
// all against tests/golden/fixed-schedule-digest.json.
// The inputs use only exactly rounded operations (integer arithmetic, +, ×, ÷, powers of two), never libm or the
// standard library's distributions, which differ between glibc/libstdc++ and musl/libc++.
// A second digest (corrupted_input_digest) feeds the same passes inputs with bad entries (NaN, ±∞, negative masses,
// bad bounds) and edge cases that are valid (−0, subnormals, totals that overflow): the f64x2 lanes find bad input by
// masks, the scalar lanes by comparisons, and both builds must accept and refuse the same inputs and name the same
// entry.
#include <cmath>
#include <cstdint>
#include <exception>
#include <iterator>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "solver/clip_normalise.hpp"
#include "model/histogram.hpp"
#include "base/numeric.hpp"

namespace privsample_test {

struct FixedScheduleDigest {
  std::uint64_t digest = 0xcbf29ce484222325ULL;  // FNV-1a, over each input's normalised pmf, q, scale and case
  // The same inputs through the adaptive search (distribution()'s solve), whose small-k steering pass has f64x2
  // lanes in the client: q, scale and case.
  std::uint64_t adaptive = 0xcbf29ce484222325ULL;
  std::uint64_t cases = 0;
  std::uint64_t rejected = 0;  // inputs the solver refused (the same ones in every build)
};

namespace digest_detail {

struct SplitMix64 {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  std::uint64_t below(std::uint64_t n) { return next() % n; }
  double unit() { return std::ldexp(static_cast<double>(next() >> 11), -53); }  // [0, 1), exact
};

inline void mix(std::uint64_t& digest, std::uint64_t value) {
  for (int byte = 0; byte < 8; ++byte) {
    digest ^= (value >> (8 * byte)) & 0xff;
    digest *= 0x100000001b3ULL;
  }
}

// Masses of one of eight shapes: dense, sparse, a point mass, equal, exponents over ±700, counts, masses near the
// subnormal range next to ordinary ones, and a few large atoms among many tiny ones.
inline std::vector<double> masses(SplitMix64& rng, std::size_t k, std::uint64_t shape) {
  std::vector<double> p(k, 0.0);
  for (std::size_t i = 0; i < k; ++i) {
    // one draw per statement: the order in which a call's arguments are evaluated differs between compilers
    const double u = rng.unit();
    const std::uint64_t j = rng.next();
    switch (shape) {
      case 0: p[i] = u; break;
      case 1: p[i] = j % 8 == 0 ? u : 0.0; break;
      case 2: p[i] = i == 0 ? 1.0 : 0.0; break;
      case 3: p[i] = 1.0; break;
      case 4: p[i] = std::ldexp(0.5 + u, static_cast<int>(j % 1400) - 700); break;
      case 5: p[i] = static_cast<double>(j % 10); break;
      case 6: p[i] = std::ldexp(u, j % 2 == 0 ? -1060 : 0); break;
      default: p[i] = j % 16 == 0 ? 1.0 + u : std::ldexp(u, -40); break;
    }
  }
  if (shape == 2 && k > 1) std::swap(p[0], p[rng.below(k)]);
  return p;
}

// A solution: its case, scale and q, bit for bit.
inline void mix_solution(std::uint64_t& digest, const privsample::ClipNormalised& solved) {
  mix(digest, static_cast<std::uint64_t>(solved.kind));
  mix(digest, privsample::bits_of(solved.scale));
  for (const double q : solved.q) mix(digest, privsample::bits_of(q));
}

// What a refusal says that every build writes alike: the entry it names ("p[17]", "lo[3]": the text up to the first
// ']'), not the values, which the WebAssembly builds write as bit patterns.
inline void mix_refusal(std::uint64_t& digest, const std::exception& error) {
  mix(digest, 0x7e);
  const std::string text = error.what();
  const std::size_t close = text.find(']');
  if (close == std::string::npos) return;
  for (std::size_t i = 0; i <= close; ++i) mix(digest, static_cast<unsigned char>(text[i]));
}

// One input through both schedules: the adaptive search's answer (or refusal) into `adaptive`, the fixed schedule's
// into `digest`, counted as a case or a refusal. `solved(schedule)` solves the input.
template <class Solve>
void mix_both_schedules(FixedScheduleDigest& out, Solve&& solved) {
  try {
    mix_solution(out.adaptive, solved(privsample::RootSchedule::adaptive));
  } catch (const std::exception& error) {
    mix_refusal(out.adaptive, error);
  }
  try {
    mix_solution(out.digest, solved(privsample::RootSchedule::fixed));
    ++out.cases;
  } catch (const std::exception& error) {
    ++out.rejected;
    mix_refusal(out.digest, error);
  }
}

// A value that breaks or strains the rules for masses and bounds: NaN, ±∞, negative (normal and subnormal), and the
// valid edge cases −0, the smallest subnormal and the largest double.
inline double odd_value(SplitMix64& rng) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  switch (rng.below(9)) {
    case 0: return std::numeric_limits<double>::quiet_NaN();
    case 1: return -std::numeric_limits<double>::quiet_NaN();
    case 2: return kInf;
    case 3: return -kInf;
    case 4: return -0.5;
    case 5: return -std::numeric_limits<double>::denorm_min();
    case 6: return -0.0;
    case 7: return std::numeric_limits<double>::denorm_min();
    default: return std::numeric_limits<double>::max();
  }
}

}  // namespace digest_detail

inline FixedScheduleDigest fixed_schedule_digest() {
  using namespace digest_detail;
  static constexpr std::size_t kSizes[] = {1, 2, 3, 4, 5, 7, 10, 16, 33, 100, 128, 129, 257, 1000};
  SplitMix64 rng{20261126};
  FixedScheduleDigest out;
  for (int n = 0; n < 2400; ++n) {
    const std::size_t k = kSizes[rng.below(std::size(kSizes))];
    const std::vector<double> p = masses(rng, k, rng.below(8));
    try {
      for (const double x : privsample::normalized_pmf(p)) mix(out.digest, privsample::bits_of(x));
    } catch (const std::exception&) {
      mix(out.digest, 0xa11);  // all zeros
    }
    // e^ε replaced by c = 1 + j/16 (exact), j in [0, 400): ε from 0 (a point box) to ~3.2
    const double c = 1.0 + static_cast<double>(rng.below(400)) / 16.0;
    std::vector<double> lo(k), hi(k);
    const bool per_atom = rng.below(2) == 0;
    if (per_atom) {
      std::vector<double> weight(k);
      double total = 0.0;
      for (std::size_t i = 0; i < k; ++i) total += weight[i] = 1.0 + static_cast<double>(rng.below(100));
      for (std::size_t i = 0; i < k; ++i) {
        const double prior = weight[i] / total;
        lo[i] = rng.below(10) == 0 ? 0.0 : prior / c;
        hi[i] = prior * c;
      }
    }
    const double floor = 1.0 / (c + static_cast<double>(k) - 1.0);
    mix_both_schedules(out, [&](privsample::RootSchedule schedule) {
      return per_atom ? privsample::clip_normalise(p, privsample::AtomBox{lo, hi}, schedule)
                      : privsample::clip_normalise(p, privsample::UniformBox{k, floor, c * floor}, schedule);
    });
  }
  return out;
}

// The same passes over 1,200 inputs with one to three odd values (odd_value) in p, or in the bounds; boxes whose
// totals miss 1 (Σlo > 1, Σhi < 1); and boxes with zero floors (the mollifier's at c1 = 0) under odd masses. Both
// schedules (the adaptive search into `adaptive`); refusals are digested by mix_refusal, answers bit for bit.
inline FixedScheduleDigest corrupted_input_digest() {
  using namespace digest_detail;
  static constexpr std::size_t kSizes[] = {1, 2, 3, 4, 5, 7, 9, 16, 33, 100, 129};
  SplitMix64 rng{20261127};
  FixedScheduleDigest out;
  for (int n = 0; n < 1200; ++n) {
    const std::size_t k = kSizes[rng.below(std::size(kSizes))];
    std::vector<double> p = masses(rng, k, rng.below(8));
    const std::uint64_t where = rng.below(5);  // 0, 1, 4: p; 2: the bounds; 3: the box's totals; 4: zero floors
    if (where <= 1 || where == 4) {
      const std::uint64_t count = 1 + rng.below(3);
      for (std::uint64_t c = 0; c < count; ++c) {
        const std::size_t at = rng.below(k);
        p[at] = odd_value(rng);
      }
    }
    try {
      for (const double x : privsample::normalized_pmf(p)) mix(out.digest, privsample::bits_of(x));
    } catch (const std::exception& error) {
      mix_refusal(out.digest, error);
    }
    const double c = 1.0 + static_cast<double>(1 + rng.below(400)) / 16.0;
    const bool per_atom = rng.below(2) == 0;
    std::vector<double> lo(k), hi(k);
    for (std::size_t i = 0; i < k; ++i) {
      const double prior = 1.0 / static_cast<double>(k);
      lo[i] = prior / c;
      hi[i] = prior * c;
    }
    double uniform_lo = 1.0 / (c + static_cast<double>(k) - 1.0);
    double uniform_hi = c * uniform_lo;
    if (where == 2) {
      const std::size_t at = rng.below(k);
      const double odd = odd_value(rng);
      const std::uint64_t which = rng.below(3);  // lo, hi, or lo above hi
      if (per_atom) {
        if (which == 0) lo[at] = odd;
        if (which == 1) hi[at] = odd;
        if (which == 2) lo[at] = 2.0 * hi[at];
      } else {
        if (which == 0) uniform_lo = odd;
        if (which == 1) uniform_hi = odd;
        if (which == 2) uniform_lo = 2.0 * uniform_hi;
      }
    } else if (where == 3) {
      // Σlo above 1 or Σhi below 1, by a factor from just past rounding to large
      const double factor = 1.0 + std::ldexp(1.0, -static_cast<int>(rng.below(40)));
      const bool lows = rng.below(2) == 0;
      for (std::size_t i = 0; i < k; ++i) {
        if (lows) lo[i] = hi[i] = lo[i] * c * factor;
        else hi[i] = lo[i] = hi[i] / c / factor;
      }
      if (lows) uniform_lo = uniform_hi = factor / static_cast<double>(k);
      else uniform_hi = uniform_lo = 1.0 / factor / static_cast<double>(k);
    } else if (where == 4) {
      for (double& bound : lo) bound = 0.0;
      uniform_lo = 0.0;
    }
    mix_both_schedules(out, [&](privsample::RootSchedule schedule) {
      return per_atom ? privsample::clip_normalise(p, privsample::AtomBox{lo, hi}, schedule)
                      : privsample::clip_normalise(p, privsample::UniformBox{k, uniform_lo, uniform_hi}, schedule);
    });
  }
  return out;
}

// Both schedules on uniform boxes at larger k (1,000 to 65,537): the adaptive search's passes over every mass
// (validation, the closing pass after the sampled bracket) have f64x2 lanes natively and in the research module; the
// client module has the validation's lanes and a scalar closing pass. The golden was computed by the scalar form.
// Skewed masses (u^4: most near 0, a few large, so the bracket starts at s = 0 as it does for Dirichlet(0.5) at large
// k), uniform, sparse, counts, two levels with -0 and subnormal masses among them, and equal masses; ε up to ~5; one
// box in eight has a zero floor.
inline FixedScheduleDigest large_input_digest() {
  using namespace digest_detail;
  static constexpr std::size_t kSizes[] = {1000, 4099, 10007, 65537};
  SplitMix64 rng{20261128};
  FixedScheduleDigest out;
  for (int n = 0; n < 48; ++n) {
    const std::size_t k = kSizes[rng.below(std::size(kSizes))];
    const std::uint64_t shape = rng.below(6);
    std::vector<double> p(k, 0.0);
    for (std::size_t i = 0; i < k; ++i) {
      const double u = rng.unit();
      const std::uint64_t j = rng.next();
      switch (shape) {
        case 0: p[i] = (u * u) * (u * u); break;
        case 1: p[i] = u; break;
        case 2: p[i] = j % 64 == 0 ? u * u : 0.0; break;
        case 3: p[i] = static_cast<double>(j % 7); break;
        // two levels, with -0 and subnormal masses among them (valid: a zero, and masses far below the rest)
        case 4: p[i] = j % 16 == 0 ? -0.0 : (j % 16 == 1 ? std::ldexp(u, -1060) : (j % 2 == 0 ? 1.0 : 0x1p-10)); break;
        default: p[i] = 1.0; break;  // equal masses: every atom has the same breakpoints
      }
    }
    const double c = 1.0 + static_cast<double>(rng.below(2400)) / 16.0;  // e^ε from 1 to ~151
    const double floor = rng.below(8) == 0 ? 0.0 : 1.0 / (c + static_cast<double>(k) - 1.0);
    const double ceiling = c / (c + static_cast<double>(k) - 1.0);
    mix_both_schedules(out, [&](privsample::RootSchedule schedule) {
      return privsample::clip_normalise(p, privsample::UniformBox{k, floor, ceiling}, schedule);
    });
  }
  return out;
}

}  // namespace privsample_test
