#include "model/histogram.hpp"
#include "base/errors.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "base/numeric.hpp"
#include "base/simd_lanes.hpp"

#if defined(__SSE2__) && !defined(__wasm__)
#include <emmintrin.h>
#endif

namespace privsample {

void check_category_count(std::size_t k, std::string_view name) {
  if (k == 0) {
    throw_invalid({name, " is empty: need at least one category"});
  }
  if (k > kMaxCategories) {
    throw_invalid({name, " has ", k, " categories: at most ", kMaxCategories, " are supported"});
  }
}

namespace {

// What one read of the entries tells: all finite and >= 0 (and > 0 where zeros are refused), the largest, and
// the total (error-free TwoSum steps in four lanes).
struct Scan {
  bool valid = true;
  double largest = 0.0;
  double total = 0.0;
};

#if PRIVSAMPLE_SIMD_LANES
// scanned's whole groups of four in f64x2 lanes (lanes 0-1 and 2-3), with the same roundings as its scalar loop:
// WebAssembly has no branch-free scalar max (V8 compiles f64.max to a branch), and the lanes halve the work.
PRIVSAMPLE_SIMD_FUNCTION void scan_groups(const double* v, std::size_t groups, double smallest_allowed,
                                          ExactSum (&lanes)[4], double (&largest)[4], bool& valid) {
  const v128_t smallest = wasm_f64x2_splat(smallest_allowed);
  const v128_t infinity = wasm_f64x2_splat(std::numeric_limits<double>::infinity());
  LaneSums low, high;
  v128_t low_max = wasm_f64x2_splat(0.0);
  v128_t high_max = low_max;
  v128_t bad = wasm_i64x2_splat(0);
  const auto ok = [&](v128_t x) PRIVSAMPLE_SIMD_FUNCTION {
    return wasm_v128_and(wasm_f64x2_lt(wasm_f64x2_abs(x), infinity), wasm_f64x2_ge(x, smallest));
  };
  for (std::size_t g = 0; g < groups; ++g) {
    const v128_t a = wasm_v128_load(v + 4 * g);
    const v128_t b = wasm_v128_load(v + 4 * g + 2);
    bad = wasm_v128_or(bad, wasm_v128_not(wasm_v128_and(ok(a), ok(b))));
    low_max = wasm_f64x2_pmax(low_max, a);  // std::max(m, x): m < x ? x : m
    high_max = wasm_f64x2_pmax(high_max, b);
    low.add(a);
    high.add(b);
  }
  lanes[0] = low.lane(0);
  lanes[1] = low.lane(1);
  lanes[2] = high.lane(0);
  lanes[3] = high.lane(1);
  largest[0] = wasm_f64x2_extract_lane(low_max, 0);
  largest[1] = wasm_f64x2_extract_lane(low_max, 1);
  largest[2] = wasm_f64x2_extract_lane(high_max, 0);
  largest[3] = wasm_f64x2_extract_lane(high_max, 1);
  valid = !wasm_v128_any_true(bad);
}
#endif

#if !PRIVSAMPLE_SIMD_LANES && defined(__GNUC__) && (defined(__SSE2__) || defined(__ARM_NEON)) && \
    !defined(PRIVSAMPLE_SCALAR_FORMS)
#define PRIVSAMPLE_HISTOGRAM_VECTOR_LANES 1
// The same groups natively, in GCC/Clang vector types (SSE2, NEON): lanes 0-1 and 2-3 in two vectors, each lane the
// scalar loop's operations in the same order (ExactSum::add's TwoSum, std::max(m, x) as m < x ? x : m), so the same
// total and largest to the last bit.
using F64x2 = double __attribute__((vector_size(16)));
using I64x2 = decltype(F64x2{} < F64x2{});  // the mask type of a comparison
void scan_groups(const double* v, std::size_t groups, double smallest_allowed, ExactSum (&lanes)[4],
                 double (&largest)[4], bool& valid) {
  const F64x2 smallest{smallest_allowed, smallest_allowed};
  const F64x2 infinity{std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
  const I64x2 sign_off{0x7fffffffffffffff, 0x7fffffffffffffff};
  F64x2 low_sum{}, low_error{}, high_sum{}, high_error{}, low_max{}, high_max{};
  I64x2 good{-1, -1};
  const auto add = [](F64x2& sum, F64x2& error, F64x2 x) {
    const F64x2 total = sum + x;
#if defined(__SSE2__)
    // The rounding error of sum + x by Fast2Sum on the ordered pair, larger − ... : exact, as TwoSum's is, for entries
    // >= 0 (sum and x are then ordered by magnitude as by value), so the same double (an error of 0 may differ in
    // sign, which adding it to `error`, never −0, does not see); two adds fewer than TwoSum's six on the adders, which
    // bound this loop. Other entries are invalid, and their sums are not used.
    error = error + (_mm_min_pd(sum, x) - (total - _mm_max_pd(sum, x)));
#else
    const F64x2 x_part = total - sum;
    error = error + ((sum - (total - x_part)) + (x - x_part));
#endif
    sum = total;
  };
#if defined(__SSE2__)
  // The least entry by minpd (x < m ? x : m: a NaN is passed over) instead of a mask per entry: a NaN or ±∞ makes its
  // lane's sum non-finite, and only then, or when valid entries overflow the sum, is every entry checked one by one.
  // (g++ 12 moves a vector-extension mask carried from one step to the next through general registers lane by lane,
  // a chain several times longer than the sums'.)
  __m128d least = _mm_set1_pd(std::numeric_limits<double>::infinity());
#else
  const auto ok = [&](F64x2 x) {
    const auto magnitude = reinterpret_cast<F64x2>(reinterpret_cast<I64x2>(x) & sign_off);
    return (magnitude < infinity) & (x >= smallest);
  };
#endif
  for (std::size_t g = 0; g < groups; ++g) {
    F64x2 a, b;
    __builtin_memcpy(&a, v + 4 * g, sizeof a);
    __builtin_memcpy(&b, v + 4 * g + 2, sizeof b);
#if defined(__SSE2__)
    least = _mm_min_pd(a, _mm_min_pd(b, least));
#else
    good &= ok(a) & ok(b);
#endif
    low_max = low_max < a ? a : low_max;
    high_max = high_max < b ? b : high_max;
    add(low_sum, low_error, a);
    add(high_sum, high_error, b);
  }
  lanes[0] = {low_sum[0], low_error[0]};
  lanes[1] = {low_sum[1], low_error[1]};
  lanes[2] = {high_sum[0], high_error[0]};
  lanes[3] = {high_sum[1], high_error[1]};
  largest[0] = low_max[0];
  largest[1] = low_max[1];
  largest[2] = high_max[0];
  largest[3] = high_max[1];
#if defined(__SSE2__)
  const F64x2 sums = low_sum + high_sum;  // finite iff both lanes of both sums are
  const bool finite = std::isfinite(sums[0]) && std::isfinite(sums[1]);
  valid = _mm_movemask_pd(_mm_cmplt_pd(least, smallest)) == 0;
  for (std::size_t i = 0; !finite && valid && i < 4 * groups; ++i) {
    valid = std::isfinite(v[i]) && v[i] >= smallest_allowed;
  }
  (void)good;
  (void)sign_off;
  (void)infinity;
#else
  valid = good[0] != 0 && good[1] != 0;
#endif
}
#else
#define PRIVSAMPLE_HISTOGRAM_VECTOR_LANES 0
#endif

// Four independent ExactSum lanes held in locals (an array of lanes ends up in memory, and each step then waits
// on a store): one compensated chain is what a normalisation would otherwise wait on. In the client's WebAssembly
// the groups of four go through scan_groups, bit for bit the same.
Scan scanned(std::span<const double> values, bool allow_zeros) {
  const double smallest_allowed = allow_zeros ? 0.0 : std::numeric_limits<double>::denorm_min();
  const std::size_t n = values.size();
  const double* v = values.data();
  std::size_t i = 0;
  // no branch per entry: a bad entry is looked up by the caller only when there is one
  const auto ok = [smallest_allowed](double x) { return std::isfinite(x) & (x >= smallest_allowed); };
  ExactSum lane[4];
  double largest[4] = {0.0, 0.0, 0.0, 0.0};
  bool valid = true;
#if PRIVSAMPLE_SIMD_LANES || PRIVSAMPLE_HISTOGRAM_VECTOR_LANES
  scan_groups(v, n / 4, smallest_allowed, lane, largest, valid);
  i = n / 4 * 4;
#else
  ExactSum l0, l1, l2, l3;
  double m0 = 0.0, m1 = 0.0, m2 = 0.0, m3 = 0.0;
  for (; i + 4 <= n; i += 4) {
    valid &= ok(v[i]) & ok(v[i + 1]) & ok(v[i + 2]) & ok(v[i + 3]);
    m0 = std::max(m0, v[i]);
    m1 = std::max(m1, v[i + 1]);
    m2 = std::max(m2, v[i + 2]);
    m3 = std::max(m3, v[i + 3]);
    l0.add(v[i]);
    l1.add(v[i + 1]);
    l2.add(v[i + 2]);
    l3.add(v[i + 3]);
  }
  lane[0] = l0, lane[1] = l1, lane[2] = l2, lane[3] = l3;
  largest[0] = m0, largest[1] = m1, largest[2] = m2, largest[3] = m3;
#endif
  for (; i < n; ++i) {  // the rest in lane 0
    valid &= ok(v[i]);
    largest[0] = larger_of_nonnegative(largest[0], v[i]);
    lane[0].add(v[i]);
  }
  if (!valid) return {false, 0.0, 0.0};
  CompensatedSum total;
  for (const ExactSum& l : lane) total.add_by_masks(l.sum);
  for (const ExactSum& l : lane) total.add_by_masks(l.error);
  // which lane holds the largest count follows the data: no select on doubles (a branch in WebAssembly)
  return {true,
          larger_of_nonnegative(larger_of_nonnegative(largest[0], largest[1]),
                                larger_of_nonnegative(largest[2], largest[3])),
          total.value()};
}

// Whether counts below 2^-kNegligibleBinades of the largest count as 0 (a private histogram: base/numeric.hpp says
// why) or are divided like the rest (a public prior; divergences, which a far tail can dominate).
enum class Negligible { zeroed, kept };

// The one scale rule of histograms and priors: p_x = h_x / Σh, each quotient rounded once (so a point mass is
// exactly 1 and {4, 3, 1, 1, 1} gives exactly 0.3; a reciprocal would not). Entries whose largest lies in
// [2^-500, 2^500] are divided as they are; otherwise they are first scaled by the power of two that brings the
// largest into [1, 2) — exact, so counts as large as 1e308 or as small as 1e-320 neither overflow nor lose
// precision (a largest count of 2^1023 goes to [2, 4): 2^-1023 is subnormal) — which gives the same p_x; the scan's
// total is scaled likewise, so scaling adds no pass. A count below 2^-400 of the largest gives p_x = 0 when
// `negligible` says so, and no count's arithmetic then touches a subnormal number (base/numeric.hpp); the total is
// every count's. Returns the rule (HistogramScale) for these values.
// The rule's constants are made from bit patterns, not by arithmetic: ldexp, ilogb or a product with a subnormal
// operand or result takes longer, once per call, and which ones do depends on the histogram's magnitude.
constexpr std::uint64_t kMantissa = (std::uint64_t{1} << 52) - 1;

// 2^n exactly: normal for n >= -1022, subnormal down to 2^-1074, 0 below (n <= 1023).
double power_of_two(int n) {
  const std::uint64_t normal = static_cast<std::uint64_t>(std::max(n + 1023, 0)) << 52;
  const std::uint64_t subnormal = std::uint64_t{1} << std::clamp(n + 1074, 0, 63);
  return double_of(n >= -1022 ? normal : n >= -1074 ? subnormal : 0);
}

// ilogb(x) for a finite x > 0.
int exponent_of(double x) {
  const std::uint64_t bits = bits_of(x);
  const int biased = static_cast<int>(bits >> 52);
  // a subnormal x is m·2^-1074 with m's top bit at 63 − clz(m)
  const int subnormal = -1011 - __builtin_clzll((bits & kMantissa) | 1);
  return biased != 0 ? biased - 1023 : subnormal;
}

// x·2^-kNegligibleBinades for a finite x > 0: exact where that is normal, rounded down to a multiple of 2^-1074 below.
double negligible_below(double x) {
  const std::uint64_t bits = bits_of(x);
  const std::uint64_t biased = bits >> 52;
  const std::uint64_t binades = kNegligibleBinades;
  const std::uint64_t significand = (bits & kMantissa) | (biased != 0 ? std::uint64_t{1} << 52 : 0);
  const std::uint64_t right =
      biased != 0 ? std::min<std::uint64_t>(binades + 1 - std::min(biased, binades + 1), 63) : 63;
  return double_of(biased > binades ? bits - (binades << 52) : significand >> right);
}

// x·2^shift for a total x >= 0, exact, with no subnormal operand: a normal x by two normal factors, a subnormal one
// (every count subnormal, so shift >= 1023) through its bit pattern.
double total_scaled(double x, int shift) {
  const std::uint64_t bits = bits_of(x);
  const bool normal = (bits >> 52) != 0;
  const double big = double_of(normal ? bits : 0) * power_of_two(shift / 2) * power_of_two(shift - shift / 2);
  const double tiny = static_cast<double>(normal ? 0 : bits) * power_of_two(std::max(shift - 1074, -1022));
  return double_of(bits_of(big) | bits_of(tiny));
}

HistogramScale scale_of(std::span<const double> values, const Scan& scan, Negligible negligible) {
  HistogramScale rule;
  const bool zeroed = negligible == Negligible::zeroed;
  // 2^shift: 1, or 2^-e with largest in [2^e, 2^(e+1)). Normal counts are scaled by 2^max(shift, -1022) (2^-1023 is
  // subnormal; 2^-1022 leaves the largest in [2, 4)); a histogram whose largest count is subnormal has no normal count.
  const bool rescaled = !(scan.largest >= kUnscaledLeast && scan.largest <= kUnscaledMost);
  const int shift = std::max(rescaled ? -exponent_of(scan.largest) : 0, -1022);
  rule.factor = power_of_two(std::min(shift, 1023));
  rule.least = zeroed ? negligible_below(scan.largest) : 0.0;
  // Subnormal counts survive only when least is below the normal range (a tiny largest, or every count kept).
  const double from_bits = power_of_two(shift - 1074);
  // (on bit patterns: a select on doubles is a branch in WebAssembly, and this one follows the histogram's magnitude)
  rule.from_bits = double_of(bits_of(from_bits) & opaque_mask(bits_of(rule.least) < bits_of(0x1p-1022)));
  rule.total = total_scaled(scan.total, shift);  // exact: the total lies between the largest count and k times it
  if (!std::isfinite(scan.total)) {
    // Counts whose sum overflows (near the largest double) are summed again, scaled (none is dropped).
    HistogramScale every_count = rule;
    every_count.least = 0.0;
    every_count.from_bits = from_bits;
    ExactSum scaled;
    for (const double v : values) scaled.add(every_count.scaled(v));
    rule.total = scaled.value();
  }
  return rule;
}

#if PRIVSAMPLE_SIMD_LANES
// The pairs of divide_by_total's pass in f64x2 lanes, each lane HistogramScale's operations and std::clamp's choices,
// so the same doubles: in scalar WebAssembly its masks move every count between float and integer registers, which
// cost the linear samplers a fifth of their time. Returns how many entries it did.
PRIVSAMPLE_SIMD_FUNCTION std::size_t divide_pairs(std::span<const double> values, const HistogramScale& p,
                                                  std::span<double> out, const AffineClip& then) {
  const v128_t sign = wasm_i64x2_splat(static_cast<std::int64_t>(std::uint64_t{1} << 63));
  const v128_t least = wasm_f64x2_splat(p.least);
  const v128_t smallest_normal = wasm_f64x2_splat(0x1p-1022);
  const v128_t two_52 = wasm_f64x2_splat(0x1p52);
  const v128_t factor = wasm_f64x2_splat(p.factor);
  const v128_t from_bits = wasm_f64x2_splat(p.from_bits);
  const v128_t total = wasm_f64x2_splat(p.total);
  const v128_t weight = wasm_f64x2_splat(then.weight);
  const v128_t floor = wasm_f64x2_splat(then.floor);
  const v128_t ceiling = wasm_f64x2_splat(then.ceiling);
  const std::size_t pairs = values.size() / 2;
  for (std::size_t j = 0; j < pairs; ++j) {
    const v128_t count = wasm_v128_load(values.data() + 2 * j);
    const v128_t keep = wasm_f64x2_ge(count, least);
    const v128_t normal = wasm_f64x2_ge(count, smallest_normal);
    const v128_t kept_normal = wasm_v128_or(wasm_v128_and(keep, normal), sign);
    const v128_t ordinary = wasm_f64x2_mul(wasm_v128_and(count, kept_normal), factor);
    const v128_t m = wasm_f64x2_sub(
        wasm_v128_or(wasm_v128_andnot(wasm_v128_and(wasm_v128_andnot(count, sign), keep), normal), two_52), two_52);
    const v128_t scaled = wasm_v128_or(ordinary, wasm_f64x2_mul(m, from_bits));
    const v128_t mixed = wasm_f64x2_add(wasm_f64x2_mul(weight, wasm_f64x2_div(scaled, total)), floor);
    const v128_t raised = wasm_v128_bitselect(floor, mixed, wasm_f64x2_lt(mixed, floor));
    wasm_v128_store(out.data() + 2 * j, wasm_v128_bitselect(ceiling, raised, wasm_f64x2_lt(ceiling, raised)));
  }
  return 2 * pairs;
}
#endif

// p_x by that rule into `out` (as many entries as values; it may be values itself: out_i is written after values_i is
// read, pair by pair in the lanes); `then` mixes and clamps each p_x in the same pass (the linear samplers). One copy
// of this loop for every caller (priors, histograms, the linear samplers' mixtures): inlined into each, it cost the
// client module bytes.
[[gnu::noinline]] void divide_by_total(std::span<const double> values, const Scan& scan, Negligible negligible,
                                       std::span<double> out, const AffineClip& then = {}) {
  const HistogramScale p = scale_of(values, scan, negligible);
  std::size_t i = 0;
#if PRIVSAMPLE_SIMD_LANES
  i = divide_pairs(values, p, out, then);
#endif
  for (; i < values.size(); ++i) {
    out[i] = std::clamp(then.weight * p(values[i]) + then.floor, then.floor, then.ceiling);
  }
}

std::vector<double> divided_by_total(std::span<const double> values, const Scan& scan, Negligible negligible,
                                     const AffineClip& then = {}) {
  std::vector<double> out(values.size());
  divide_by_total(values, scan, negligible, out, then);
  return out;
}

}  // namespace

std::vector<double> validated_prior(std::span<const double> prior, std::size_t k, std::string_view name,
                                    bool allow_zeros) {
  if (prior.size() != k) {
    throw_shape({name, " has ", prior.size(), " entries but the histogram has ", k, " categories"});
  }
  const Scan scan = scanned(prior, allow_zeros);
  for (std::size_t i = 0; !scan.valid && i < prior.size(); ++i) {
    const double v = prior[i];
    if (!std::isfinite(v) || v < 0.0 || (!allow_zeros && v == 0.0)) {
      if (allow_zeros) throw_invalid({name, "[", i, "] = ", v, ": entries must be finite and >= 0 (counts or probabilities)"});
      throw_invalid({name, "[", i, "] = ", v, ": entries must be finite and > 0 (smooth the ", name,
                     ", e.g. mix it with the uniform distribution)"});
    }
  }
  if (scan.largest == 0.0) {
    throw_invalid({name, " is all zeros: at least one entry must be positive"});
  }
  return divided_by_total(prior, scan, Negligible::kept);
}

namespace {

Scan checked_histogram(std::span<const double> hist, std::string_view name) {
  check_category_count(hist.size(), name);
  const Scan scan = scanned(hist, true);
  for (std::size_t i = 0; !scan.valid && i < hist.size(); ++i) {
    if (!std::isfinite(hist[i]) || hist[i] < 0.0) {
      throw_invalid({name, "[", i, "] = ", hist[i], ": counts must be finite and >= 0"});
    }
  }
  if (scan.largest == 0.0) {
    throw_invalid({name, " is all zeros: at least one count must be positive"});
  }
  return scan;
}

}  // namespace

std::vector<double> normalized_pmf(std::span<const double> hist, std::string_view name) {
  return divided_by_total(hist, checked_histogram(hist, name), Negligible::zeroed);
}

std::vector<double> normalized_pmf(std::span<const double> hist, const AffineClip& then, std::string_view name) {
  return divided_by_total(hist, checked_histogram(hist, name), Negligible::zeroed, then);
}

std::vector<double> exactly_normalized_pmf(std::span<const double> hist, std::string_view name) {
  return divided_by_total(hist, checked_histogram(hist, name), Negligible::kept);
}

HistogramScale checked_histogram_scale(std::span<const double> hist, std::string_view name) {
  return scale_of(hist, checked_histogram(hist, name), Negligible::zeroed);
}

void normalized_pmf_into(std::span<const double> hist, std::span<double> out, const AffineClip& then,
                         std::string_view name) {
  const Scan scan = checked_histogram(hist, name);
  check_pmf_output(hist.size(), out.size(), name);
  divide_by_total(hist, scan, Negligible::zeroed, out, then);
}


}  // namespace privsample

namespace privsample {

std::size_t validated_count(double value, std::string_view name, std::size_t minimum, std::size_t maximum) {
  if (!std::isfinite(value) || value != std::floor(value) || value < static_cast<double>(minimum) ||
      value > static_cast<double>(maximum)) {
    throw_invalid({name, " = ", value, ": must be an integer in [", minimum, ", ", maximum, "]"});
  }
  return static_cast<std::size_t>(value);
}

}  // namespace privsample
