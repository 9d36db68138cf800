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
// the total (error-free TwoSum steps in four lanes), in two parts: the counts of at least 2^-960, and 2^1000 times the
// smaller ones (split_count).
struct Scan {
  bool valid = true;
  double largest = 0.0;
  double total = 0.0;
  double small_total = 0.0;
};

// On some processors an addition whose result is subnormal (from operands that are not both subnormal), and a product
// or quotient with a subnormal operand, takes tens of times longer than other arithmetic: a histogram of many counts
// below 2^-1022 beside one larger count, summed together, made every call 2.7 times as long. So the scan sums a count
// of at least 2^-960 as it is and a smaller one, subnormal or not, times 2^1000 in sums of their own (exactly: the
// exponent raised in the bit pattern, or a subnormal count's m in count = m·2^-1074 converted and times 2^-74).
// Every value either sum meets is then 0 or a multiple of 2^-1012 (of 2^-74 in the small sums): normal.
constexpr std::uint64_t kSmallCountBits = std::uint64_t{1023 - 960} << 52;  // 2^-960
constexpr std::uint64_t kNormalLeastBits = std::uint64_t{1} << 52;          // 2^-1022
constexpr int kSmallCountBinades = 1000;

struct SplitCount {
  double ordinary;  // the count when >= 2^-960 (or not a number >= 0), else 0
  double small;     // the count times 2^1000 when below 2^-960, else 0
};

inline SplitCount split_count(double count) {
  const std::uint64_t bits = bits_of(count);
  const std::uint64_t magnitude = bits & ~(std::uint64_t{1} << 63);
  // masks by integer arithmetic (a comparison of doubles became a select on doubles: a branch in WebAssembly)
  const auto below = [magnitude](std::uint64_t bound) {
    return static_cast<std::uint64_t>(static_cast<std::int64_t>(magnitude - bound) >> 63);
  };
  const std::uint64_t small = below(kSmallCountBits);
  const std::uint64_t subnormal = below(kNormalLeastBits);
  const double m = double_of((magnitude & subnormal) | bits_of(0x1p52)) - 0x1p52;  // 0 unless subnormal
  const std::uint64_t tiny_normal = (bits + (std::uint64_t{kSmallCountBinades} << 52)) & small & ~subnormal;
  return {double_of(bits & ~small), double_of(tiny_normal | bits_of(m * 0x1p-74))};
}

#if PRIVSAMPLE_SIMD_LANES
// scanned's whole groups of four in f64x2 lanes (lanes 0-1 and 2-3), with the same roundings as its scalar loop:
// WebAssembly has no branch-free scalar max (V8 compiles f64.max to a branch), and the lanes halve the work.
PRIVSAMPLE_SIMD_FUNCTION void scan_groups(const double* v, std::size_t groups, double smallest_allowed,
                                          ExactSum (&lanes)[4], ExactSum (&small_lanes)[4], double (&largest)[4],
                                          bool& valid) {
  const v128_t smallest = wasm_f64x2_splat(smallest_allowed);
  const v128_t infinity = wasm_f64x2_splat(std::numeric_limits<double>::infinity());
  const v128_t magnitude_bits = wasm_i64x2_splat(0x7fff'ffff'ffff'ffff);
  const v128_t small_bound = wasm_i64x2_splat(static_cast<std::int64_t>(kSmallCountBits));
  const v128_t normal_bound = wasm_i64x2_splat(static_cast<std::int64_t>(kNormalLeastBits));
  const v128_t small_scale = wasm_i64x2_splat(std::int64_t{kSmallCountBinades} << 52);
  const v128_t two_52 = wasm_f64x2_splat(0x1p52);
  const v128_t from_m = wasm_f64x2_splat(0x1p-74);
  // split_count in lanes
  const auto split = [&](v128_t x, v128_t& small) PRIVSAMPLE_SIMD_FUNCTION {
    const v128_t magnitude = wasm_v128_and(x, magnitude_bits);
    const v128_t is_small = wasm_i64x2_lt(magnitude, small_bound);
    const v128_t is_subnormal = wasm_i64x2_lt(magnitude, normal_bound);
    const v128_t m = wasm_f64x2_sub(wasm_v128_or(wasm_v128_and(magnitude, is_subnormal), two_52), two_52);
    const v128_t tiny_normal = wasm_v128_and(wasm_i64x2_add(x, small_scale), wasm_v128_andnot(is_small, is_subnormal));
    small = wasm_v128_or(tiny_normal, wasm_f64x2_mul(m, from_m));
    return wasm_v128_andnot(x, is_small);
  };
  LaneSums low, high, low_small, high_small;
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
    v128_t a_small, b_small;
    low.add_nonnegative(split(a, a_small));
    high.add_nonnegative(split(b, b_small));
    low_small.add_nonnegative(a_small);
    high_small.add_nonnegative(b_small);
  }
  lanes[0] = low.lane(0);
  lanes[1] = low.lane(1);
  lanes[2] = high.lane(0);
  lanes[3] = high.lane(1);
  small_lanes[0] = low_small.lane(0);
  small_lanes[1] = low_small.lane(1);
  small_lanes[2] = high_small.lane(0);
  small_lanes[3] = high_small.lane(1);
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
                 ExactSum (&small_lanes)[4], double (&largest)[4], bool& valid) {
  const F64x2 smallest{smallest_allowed, smallest_allowed};
  const F64x2 infinity{std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
  const I64x2 sign_off{0x7fffffffffffffff, 0x7fffffffffffffff};
  // split_count in lanes, its masks from comparisons of doubles (no select follows them here; SSE2 has no 64-bit
  // integer comparison): the same masks for entries >= 0 and NaN, and other entries are invalid
  const F64x2 small_bound{0x1p-960, 0x1p-960};
  const F64x2 normal_bound{0x1p-1022, 0x1p-1022};
  const I64x2 small_scale{std::int64_t{kSmallCountBinades} << 52, std::int64_t{kSmallCountBinades} << 52};
  const F64x2 two_52{0x1p52, 0x1p52};
  const F64x2 from_m{0x1p-74, 0x1p-74};
  const auto split = [&](F64x2 x, F64x2& small) {
    const I64x2 bits = reinterpret_cast<I64x2>(x);
    const I64x2 is_small = x < small_bound;
    const I64x2 is_subnormal = x < normal_bound;
    const I64x2 m_bits = (bits & sign_off & is_subnormal) | reinterpret_cast<I64x2>(two_52);
    const F64x2 m = reinterpret_cast<F64x2>(m_bits) - two_52;
    const I64x2 tiny_normal = (bits + small_scale) & is_small & ~is_subnormal;
    small = reinterpret_cast<F64x2>(tiny_normal | reinterpret_cast<I64x2>(m * from_m));
    return reinterpret_cast<F64x2>(bits & ~is_small);
  };
  F64x2 low_sum{}, low_error{}, high_sum{}, high_error{}, low_max{}, high_max{};
  F64x2 low_small_sum{}, low_small_error{}, high_small_sum{}, high_small_error{};
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
    F64x2 a_small, b_small;
    add(low_sum, low_error, split(a, a_small));
    add(high_sum, high_error, split(b, b_small));
    add(low_small_sum, low_small_error, a_small);
    add(high_small_sum, high_small_error, b_small);
  }
  lanes[0] = {low_sum[0], low_error[0]};
  lanes[1] = {low_sum[1], low_error[1]};
  lanes[2] = {high_sum[0], high_error[0]};
  lanes[3] = {high_sum[1], high_error[1]};
  small_lanes[0] = {low_small_sum[0], low_small_error[0]};
  small_lanes[1] = {low_small_sum[1], low_small_error[1]};
  small_lanes[2] = {high_small_sum[0], high_small_error[0]};
  small_lanes[3] = {high_small_sum[1], high_small_error[1]};
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
  ExactSum small_lane[4];
  double largest[4] = {0.0, 0.0, 0.0, 0.0};
  bool valid = true;
#if PRIVSAMPLE_SIMD_LANES || PRIVSAMPLE_HISTOGRAM_VECTOR_LANES
  scan_groups(v, n / 4, smallest_allowed, lane, small_lane, largest, valid);
  i = n / 4 * 4;
#else
  ExactSum l0, l1, l2, l3, s0, s1, s2, s3;
  double m0 = 0.0, m1 = 0.0, m2 = 0.0, m3 = 0.0;
  for (; i + 4 <= n; i += 4) {
    valid &= ok(v[i]) & ok(v[i + 1]) & ok(v[i + 2]) & ok(v[i + 3]);
    m0 = std::max(m0, v[i]);
    m1 = std::max(m1, v[i + 1]);
    m2 = std::max(m2, v[i + 2]);
    m3 = std::max(m3, v[i + 3]);
    const SplitCount c0 = split_count(v[i]), c1 = split_count(v[i + 1]);
    const SplitCount c2 = split_count(v[i + 2]), c3 = split_count(v[i + 3]);
    l0.add(c0.ordinary);
    l1.add(c1.ordinary);
    l2.add(c2.ordinary);
    l3.add(c3.ordinary);
    s0.add(c0.small);
    s1.add(c1.small);
    s2.add(c2.small);
    s3.add(c3.small);
  }
  lane[0] = l0, lane[1] = l1, lane[2] = l2, lane[3] = l3;
  small_lane[0] = s0, small_lane[1] = s1, small_lane[2] = s2, small_lane[3] = s3;
  largest[0] = m0, largest[1] = m1, largest[2] = m2, largest[3] = m3;
#endif
  for (; i < n; ++i) {  // the rest in lane 0
    valid &= ok(v[i]);
    largest[0] = larger_of_nonnegative(largest[0], v[i]);
    const SplitCount c = split_count(v[i]);
    lane[0].add(c.ordinary);
    small_lane[0].add(c.small);
  }
  if (!valid) return {false, 0.0, 0.0, 0.0};
  CompensatedSum total, small_total;
  for (const ExactSum& l : lane) total.add_by_masks(l.sum);
  for (const ExactSum& l : lane) total.add_by_masks(l.error);
  for (const ExactSum& l : small_lane) small_total.add_by_masks(l.sum);
  for (const ExactSum& l : small_lane) small_total.add_by_masks(l.error);
  // which lane holds the largest count follows the data: no select on doubles (a branch in WebAssembly)
  return {true,
          larger_of_nonnegative(larger_of_nonnegative(largest[0], largest[1]),
                                larger_of_nonnegative(largest[2], largest[3])),
          total.value(), small_total.value()};
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
// every count's but, beside a largest count of 2^-500 or more, those below 2^-960 (scale_of). Returns the rule
// (HistogramScale) for these values.
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
// (Choices by masks: a branch here followed the histogram's magnitude. A subnormal x, biased exponent 0, is shifted
// right by 63, which leaves 0 whatever its significand.)
double negligible_below(double x) {
  const std::uint64_t bits = bits_of(x);
  const std::uint64_t biased = bits >> 52;
  const std::uint64_t binades = kNegligibleBinades;
  const std::uint64_t significand = (bits & kMantissa) | (std::uint64_t{1} << 52);
  const std::uint64_t right = std::min<std::uint64_t>(binades + 1 - std::min(biased, binades + 1), 63);
  const std::uint64_t exact = opaque_mask(biased > binades);
  return double_of(((bits - (binades << 52)) & exact) | ((significand >> right) & ~exact));
}

// x·2^shift for the scan's total of the counts of at least 2^-960 (0, or at least the largest count: then x·2^shift
// >= 1 where the histogram is rescaled), exact, as two normal factors (2^shift alone may not be one).
double total_scaled(double x, int shift) {
  return x * power_of_two(shift / 2) * power_of_two(shift - shift / 2);
}

HistogramScale scale_of(std::span<const double> values, const Scan& scan, Negligible negligible) {
  HistogramScale rule;
  const bool zeroed = negligible == Negligible::zeroed;
  // 2^shift: 1, or 2^-e with largest in [2^e, 2^(e+1)). Normal counts are scaled by 2^max(shift, -1022) (2^-1023 is
  // subnormal; 2^-1022 leaves the largest in [2, 4)); a histogram whose largest count is subnormal has no normal count.
  // (by integer masks on the bit patterns: branches here, on whether the histogram is rescaled and on the clamp, took
  // one path for an ordinary histogram and another for an extreme one, and the time of a call at small k showed it)
  const std::uint64_t largest_bits = bits_of(scan.largest);
  const auto rescaled = static_cast<std::int64_t>(
      opaque_mask((largest_bits < bits_of(kUnscaledLeast)) | (largest_bits > bits_of(kUnscaledMost))));
  const std::int64_t wanted = static_cast<std::int64_t>(-exponent_of(scan.largest)) & rescaled;
  const auto clamped = static_cast<std::int64_t>(opaque_mask(wanted < -1022));
  const int shift = static_cast<int>((wanted & ~clamped) | (std::int64_t{-1022} & clamped));
  rule.factor = power_of_two(std::min(shift, 1023));
  rule.least = zeroed ? negligible_below(scan.largest) : 0.0;
  // Subnormal counts survive only when least is below the normal range (a tiny largest, or every count kept).
  const double from_bits = power_of_two(shift - 1074);
  // (on bit patterns: a select on doubles is a branch in WebAssembly, and this one follows the histogram's magnitude)
  rule.from_bits = double_of(bits_of(from_bits) & opaque_mask(bits_of(rule.least) < bits_of(0x1p-1022)));
  // The total: the ordinary counts' (exact: it lies between the largest count and k times it), and the small counts'
  // where the largest count is below 2^-500 (shift > 500: 2^(shift − 1000) >= 2^-499, so the product is normal and
  // exact; a small total is 0 or at least 2^-74). Beside a larger count each small one lies below 2^-460 of it (0 in p
  // wherever counts below 2^-400 of the largest are): their total, at most 10^7 times that, is left out.
  // (The factor's clamp at 2^-500, which keeps it normal where the sum is left out, by a mask too: as std::max it
  // became a select on doubles, a branch in WebAssembly taken by every histogram whose largest count is below 2^-500.)
  const std::uint64_t joined = opaque_mask(shift > 500);
  const int small_shift = static_cast<int>((static_cast<std::int64_t>(shift - kSmallCountBinades) & joined) |
                                           (std::int64_t{-500} & ~joined));
  const double small = scan.small_total * power_of_two(small_shift);
  rule.total = total_scaled(scan.total, shift) + double_of(bits_of(small) & joined);
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
