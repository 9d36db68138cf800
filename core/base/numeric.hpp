#pragma once
// Small numeric helpers shared by the core: error-free transformations, compensated summation and value formatting
// for messages.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>

namespace privsample {

// A double's bit pattern and back (std::bit_cast, which Emscripten 3.1.6's libc++ lacks). For doubles >= 0 (+∞
// included) the patterns order as the values do, except −0, whose sign bit puts its pattern above all others.
[[nodiscard]] inline std::uint64_t bits_of(double x) noexcept {
  std::uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}

[[nodiscard]] inline double double_of(std::uint64_t bits) noexcept {
  double x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

// All ones when `condition`, else zero, as a value the optimiser cannot see through in WebAssembly: code that combines
// two results by it does the work of both, whatever the condition. (Given a plain mask, the compiler may turn the
// masking back into a branch that skips one side's loads and stores, or into a select on doubles, which V8 compiles to
// a branch; either makes the time follow the condition.)
[[nodiscard]] inline std::uint64_t opaque_mask(bool condition) noexcept {
  std::uint64_t mask = std::uint64_t{0} - static_cast<std::uint64_t>(condition);
#if defined(__wasm__)
  __asm__("" : "+r"(mask));
#endif
  return mask;
}

// |a| >= |b| for doubles that are not NaN, and the larger of two doubles >= 0 (−0 counts as 0 and gives +0; +∞ is
// allowed), as std::max(a, b) gives it but for the sign of a zero. In WebAssembly both work on the bit patterns, which
// order magnitudes as their values do: V8 compiles WebAssembly's f64 comparisons feeding a select, and its f64.max, to
// branches, which follow the data (a histogram's largest count, which of two sums is larger). Natively, the
// floating-point forms (no branch: maxsd, blends).
[[nodiscard]] inline bool magnitude_at_least(double a, double b) noexcept {
#if defined(__wasm__)
  constexpr std::uint64_t kMagnitude = 0x7FFF'FFFF'FFFF'FFFFULL;
  return (bits_of(a) & kMagnitude) >= (bits_of(b) & kMagnitude);
#else
  return std::fabs(a) >= std::fabs(b);
#endif
}

[[nodiscard]] inline double larger_of_nonnegative(double a, double b) noexcept {
#if defined(__wasm__)
  constexpr std::uint64_t kMagnitude = 0x7FFF'FFFF'FFFF'FFFFULL;
  const std::uint64_t x = bits_of(a) & kMagnitude;
  const std::uint64_t y = bits_of(b) & kMagnitude;
  const std::uint64_t take_y = opaque_mask(x < y);
  return double_of((y & take_y) | (x & ~take_y));
#else
  return a < b ? b : a;
#endif
}

// Neumaier's compensated sum: the error stays O(ulp) instead of O(k·ulp), so Σq = 1 holds to ~1e-15
// even for k = 10^7 categories.
class CompensatedSum {
 public:
  void add(double x) noexcept {
    const double t = sum_ + x;
    if (!std::isfinite(t)) [[unlikely]] {  // ±∞ (or NaN) absorbs everything; the correction would give NaN
      sum_ = t;
      correction_ = 0.0;
      return;
    }
    // Both error terms are computed and one selected: natively no data-dependent branch. (V8 compiles a select on
    // doubles in WebAssembly to a branch; where that matters, see add_by_masks below.)
    const double if_sum_larger = (sum_ - t) + x;
    const double if_x_larger = (x - t) + sum_;
    correction_ += std::fabs(sum_) >= std::fabs(x) ? if_sum_larger : if_x_larger;
    sum_ = t;
  }
  // add(x), the same doubles, with the error term chosen by masks on bit patterns: for sums on the release path,
  // where which of the two is larger follows the data (add's select is a branch in WebAssembly). Not add itself:
  // inlined everywhere, the masks cost the client module bytes where the data does not reach.
  void add_by_masks(double x) noexcept {
    const double t = sum_ + x;
    if (!std::isfinite(t)) [[unlikely]] {
      sum_ = t;
      correction_ = 0.0;
      return;
    }
    const double if_sum_larger = (sum_ - t) + x;
    const double if_x_larger = (x - t) + sum_;
    const std::uint64_t sum_larger = opaque_mask(magnitude_at_least(sum_, x));
    correction_ += double_of((bits_of(if_sum_larger) & sum_larger) | (bits_of(if_x_larger) & ~sum_larger));
    sum_ = t;
  }
  [[nodiscard]] double value() const noexcept { return sum_ + correction_; }

 private:
  double sum_ = 0.0;
  double correction_ = 0.0;
};

[[nodiscard]] double compensated_total(std::span<const double> values) noexcept;

// An unevaluated sum hi + lo, as the error-free transformations below return it.
struct TwoDoubles {
  double hi;
  double lo;
};

// Masses whose largest lies in [2^-500, 2^500] are used as given: a total of up to 10^7 of them stays finite, and
// the largest stays hundreds of binary orders above the subnormals, with room for the solver's scale factors.
// Ordinary inputs are never rescaled; outside the range the histogram's normalisation and clip-normalise first
// scale the masses by a power of two (exact) that brings the largest near 1.
inline constexpr double kUnscaledLeast = 0x1p-500;
inline constexpr double kUnscaledMost = 0x1p500;

// How a histogram's counts become probabilities (model/histogram.hpp): p_x = h_x·2^shift / (Σh·2^shift), the
// products exact (2^shift brings the largest count near 1 when it lies outside [2^-500, 2^500], else 1; any common
// power of two gives the same quotients) and the quotient rounded once. The one form of that rule, so that whoever
// computes p_x from it (the histogram's normalisation, the clip solver's pass that normalises as it scans) gets the
// same doubles.
// Arithmetic on subnormal numbers takes many times longer than on others, so no count's arithmetic touches one:
//  * a count below `least` (2^-kNegligibleBinades times the largest count) counts as 0, chosen by a mask: what survives
//    gives p_x >= 2^-400/k, and no pass over p then meets a subnormal (the fixed schedule's smallest trial scale,
//    2^-511, times 2^-424 is still normal);
//  * a subnormal count that survives (a histogram whose largest count is below 2^-622) is scaled exactly through its
//    bit pattern m, the integer with count = m·2^-1074 (m < 2^52, converted exactly), so count·2^shift is
//    m·`from_bits` (2^(shift − 1074), a normal power of two then): no subnormal operand.
// A private histogram's rule has a normal `factor` and `from_bits` normal or 0, so no factor is subnormal either.
struct HistogramScale {
  double factor = 1.0;     // 2^shift for normal counts (2^-1022 in place of 2^-1023, which is subnormal)
  double total = 1.0;      // Σh scaled by the same power of two
  double least = 0.0;
  double from_bits = 0.0;  // 2^(shift − 1074) for subnormal counts, when one can survive; else 0
  // count scaled, exactly, with none of its operations on a subnormal number; 0 (with count's sign) below least.
  [[nodiscard]] double scaled(double count) const noexcept {
    constexpr std::uint64_t sign = std::uint64_t{1} << 63;
    const std::uint64_t bits = bits_of(count);
    const std::uint64_t magnitude = bits & ~sign;  // the order of the values >= 0
    // Masks by integer arithmetic (all ones when the difference is negative): from a comparison of doubles the compiler
    // made selects on doubles, which V8 compiles to branches; from these, integer selects at most.
    const auto below = [magnitude](std::uint64_t bound) {
      return static_cast<std::uint64_t>(static_cast<std::int64_t>(magnitude - bound) >> 63);
    };
    const std::uint64_t keep = ~below(bits_of(least));
    const std::uint64_t subnormal = below(bits_of(0x1p-1022));
    const double ordinary = double_of(bits & ((keep & ~subnormal) | sign)) * factor;
    // m, below 2^52, as the double 2^52 + m less 2^52 (exact)
    const double m = double_of((magnitude & keep & subnormal) | bits_of(0x1p52)) - 0x1p52;
    return double_of(bits_of(ordinary) | bits_of(m * from_bits));  // one of the two is +0 (or −0 for a count of −0)
  }
  [[nodiscard]] double operator()(double count) const noexcept { return scaled(count) / total; }
};

// Counts below 2^-kNegligibleBinades of a histogram's largest count count as 0 (HistogramScale::least): the
// distribution moves by less than k·2^-400 in total variation, hundreds of binary orders below the rounding of any
// released probability.
inline constexpr int kNegligibleBinades = 400;

// Knuth's TwoSum: a + b = hi + lo exactly, hi the rounded sum, whatever the order of magnitudes.
[[nodiscard]] inline TwoDoubles two_sum(double a, double b) noexcept {
  const double s = a + b;
  const double b_part = s - a;
  return {s, (a - (s - b_part)) + (b - b_part)};
}

// a·b = hi + lo exactly (unless the product under- or overflows), hi the rounded product: Dekker's product with
// Veltkamp's split (each factor as two halves of 26 and 27 bits, whose products are exact). The same lo as
// std::fma(a, b, −hi) wherever that is exact (tested bit for bit), without fma: WebAssembly has no fused multiply-add,
// and musl's software fma would cost the client module more bytes than this. A factor beyond 2^995, whose
// split would overflow, is split after scaling by 2^-64 (exact), and lo scaled back.
[[nodiscard]] inline TwoDoubles two_product(double a, double b) noexcept {
  const double p = a * b;
  constexpr double kSplitLimit = 0x1p995;
  const double scale_a = std::fabs(a) > kSplitLimit ? 0x1p-64 : 1.0;
  const double scale_b = std::fabs(b) > kSplitLimit ? 0x1p-64 : 1.0;
  const double x = a * scale_a;
  const double y = b * scale_b;
  const auto split = [](double v) {
    const double c = 134217729.0 * v;  // 2^27 + 1
    const double high = c - (c - v);
    return TwoDoubles{high, v - high};
  };
  const TwoDoubles xs = split(x);
  const TwoDoubles ys = split(y);
  const double scaled = x * y;
  const double lo = ((xs.hi * ys.hi - scaled) + xs.hi * ys.lo + xs.lo * ys.hi) + xs.lo * ys.lo;
  return {p, lo / (scale_a * scale_b)};
}

// Knuth's TwoSum per term: branch-free (so it vectorises and never mispredicts), exact error terms whatever the
// order of magnitudes; the collected error is added once at the end. Several of them as separate locals give
// independent dependency chains (held in registers; an array of them indexed in a loop is not).
struct ExactSum {
  double sum = 0.0;
  double error = 0.0;
  void add(double x) noexcept {
    const TwoDoubles t = two_sum(sum, x);
    error += t.lo;
    sum = t.hi;
  }
  void add_to(CompensatedSum& total) const noexcept {
    total.add(sum);
    total.add(error);
  }
  [[nodiscard]] double value() const noexcept { return sum + error; }
};

// "0.25", "-2", "NaN", "Infinity": the value as a user of the JS API would write it.
[[nodiscard]] std::string format_value(double value);

}  // namespace privsample
