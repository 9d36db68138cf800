// clip-normalise (docs/solvers/clip-normalise.md): the exact root s of Σ clip(s·p_x; lo_x, hi_x) = 1, Case B
// and the point box, with lo_x <= q_x <= hi_x exactly and Σq = 1 to within 1e-13 (see the header).
//
// Cost (issue 8): no array of k breakpoints or atoms. One pass validates p; a strided sample of ~2·√n masses
// proposes a bracket [t1, t2] around the root (a regression estimate of F with s·Σp as control variate, four
// standard errors wide); one pass over p closes every atom whose regime is fixed on the bracket (for constant
// bounds by comparing p with exact thresholds, no division) and keeps the O(√n)-ish open ones, on which the
// selection search finishes; one pass writes q. A miss of the bracket costs one more pass, never exactness.
// Masses beyond 2^±500 and roots past the double range take the older, materialising route (rare inputs).
#include "solver/clip_normalise.hpp"
#include "solver/clip_normalise_internal.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <compare>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "base/errors.hpp"
#include "base/numeric.hpp"
#include "base/simd_lanes.hpp"

#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#include <sys/mman.h>
#endif

// The two passes over every mass of a uniform box, validation and closing, run in f64x2 lanes (GCC/Clang vector
// extensions: SSE2 or NEON natively, WebAssembly SIMD in the research module, which is built with -msimd128): lanes 0
// and 1 in one vector, 2 and 3 in another, each lane doing exactly the scalar form's operations in the same order, so
// the sums are the same to the last bit (the digests' goldens were computed by the scalar form). The client module
// has the scan's lanes (as target("simd128") functions: 228 gzip bytes, distribution() 0.89-0.95x the time at k = 10^3
// to 10^6) but keeps the scalar closing pass (its lanes would cost 300 bytes more than the 60 KB budget leaves): that
// and the other large-k-only code below is left out where PRIVSAMPLE_CLIENT_SIZE_BUDGET is defined (CMakeLists.txt).
// PRIVSAMPLE_SCALAR_FORMS (the test build privsample_scalar_forms_tests, CMakeLists.txt) compiles the scalar form of
// every pass instead, as a build without SSE2, NEON or WebAssembly SIMD would: no shipped build runs the scalar scan or
// steering pass, and only the client the scalar closing pass, yet the digests' goldens came from them.
#if defined(PRIVSAMPLE_SCALAR_FORMS)
#define PRIVSAMPLE_VECTOR_LANES 0
#define PRIVSAMPLE_VECTOR_CLOSING 0
#elif defined(__wasm__) ? (defined(__wasm_simd128__) || PRIVSAMPLE_SIMD_LANES) \
                         : (defined(__SSE2__) || defined(__ARM_NEON))
#define PRIVSAMPLE_VECTOR_LANES 1
#if defined(PRIVSAMPLE_CLIENT_SIZE_BUDGET)
#define PRIVSAMPLE_VECTOR_CLOSING 0
#else
#define PRIVSAMPLE_VECTOR_CLOSING 1
#endif
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#else
#define PRIVSAMPLE_VECTOR_LANES 0
#define PRIVSAMPLE_VECTOR_CLOSING 0
#endif

namespace privsample {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
// Σlo <= 1 <= Σhi may be off by rounding in the caller's bounds; anything beyond this is a caller bug.
constexpr double kBoxSumTolerance = 1e-9;

[[noreturn, gnu::noinline]] void reject_mass(double value, std::size_t i) {
  throw_invalid({"p[", i, "] = ", value, ": masses must be finite and >= 0"});
}

// Branch-free selection and clipping, for the fixed schedule (below) and the output of both schedules. V8 compiles
// WebAssembly's f64 select, min and max to branches: a clip-and-sum loop written with them ran 3.5x slower on
// random masses than on equal ones (predictable). These work on bit patterns with integer masks, which order
// doubles >= 0 as the values do (+∞ included) once the sign bit is cleared (−0 has it set).
constexpr std::uint64_t kLargestFiniteBits = 0x7FEF'FFFF'FFFF'FFFFULL;

// All ones when `condition`, else zero.
inline std::uint64_t mask_of(bool condition) { return std::uint64_t{0} - static_cast<std::uint64_t>(condition); }

// condition ? if_true : if_false by masks on the bit patterns. In WebAssembly the mask is made opaque to the optimiser,
// which would otherwise fold the masking back into a select on doubles, which V8 compiles to a branch (a select on
// integers, as in clip_bits, becomes a conditional move: measured data-independent).
inline double select_bits(bool condition, double if_true, double if_false) {
  std::uint64_t mask = mask_of(condition);
#if defined(__wasm__)
  __asm__("" : "+r"(mask));
#endif
  return double_of((bits_of(if_true) & mask) | (bits_of(if_false) & ~mask));
}

// clip(x; lo, hi) for x, lo, hi >= 0 (x may be +∞), without a branch. Natively min and max are branch-free
// instructions (minsd/maxsd) and the fixed schedule ran 2.6x faster with them than with the integer form; in
// WebAssembly the integer form, on the magnitudes' bits: −0 is >= 0 but its pattern, as an integer, is above every
// other (a histogram with a count of −0, as Math.round(-0.2) gives, had every term of F̃ at its ceiling in the
// WebAssembly builds, and sample() released a uniformly random category).
inline double clip_bits(double x, double lo, double hi) {
#if defined(__wasm__)
  constexpr std::uint64_t kMagnitude = 0x7FFF'FFFF'FFFF'FFFFULL;
  std::uint64_t v = bits_of(x) & kMagnitude;
  const std::uint64_t low = bits_of(lo) & kMagnitude;
  const std::uint64_t high = bits_of(hi) & kMagnitude;
  v ^= (v ^ low) & mask_of(v < low);
  v ^= (v ^ high) & mask_of(v > high);
  return double_of(v);
#else
  return std::min(std::max(x, lo), hi);
#endif
}

// The input rules in one place: a mass is finite and >= 0; bounds satisfy 0 <= lo <= hi < ∞ (which excludes NaN).
inline bool valid_mass(double value) { return value >= 0.0 && value < kInfinity; }
inline bool valid_bounds(double lo, double hi) { return lo >= 0.0 && hi >= lo && hi < kInfinity; }

inline void check_mass(double value, std::size_t i) {
  if (!valid_mass(value)) [[unlikely]] reject_mass(value, i);
}

void check_bounds(double lo, double hi, std::size_t i) {
  for (const auto& [value, name] : {std::pair{lo, "lo"}, std::pair{hi, "hi"}}) {
    if (!std::isfinite(value) || value < 0.0) {
      throw_invalid({name, "[", i, "] = ", value, ": box bounds must be finite and >= 0"});
    }
  }
  if (lo > hi) {
    throw_invalid({"lo[", i, "] = ", lo, " exceeds hi[", i, "] = ", hi});
  }
}

void check_box_totals(double lo_total, double hi_total) {
  if (lo_total > 1.0 + kBoxSumTolerance) {
    throw_invalid({"clip_normalise: sum of lo = ", lo_total, " exceeds 1, so no distribution fits the box"});
  }
  if (hi_total < 1.0 - kBoxSumTolerance) {
    throw_invalid({"clip_normalise: sum of hi = ", hi_total, " is below 1, so no distribution fits the box"});
  }
}

// F(s) is evaluated to within 6e-14 (add_in_blocks, below; typically 1e-16). Values of F within kFlat of 1
// count as 1: this decides whether F is flat at 1 on a stretch of s (several roots, the same q), whether
// the root lies past every finite breakpoint, and Case A versus Case B. Σq = 1 holds to within kFlat.
constexpr double kFlat = 1e-13;

// Up to this many atoms (k, zeros included) a uniform box's first pivots come from small_pivots: no sort, no
// heap memory but q, at most kSmall doubles of scratch on the stack. Measured in bench/ (issue 8): above it the
// sampled search is faster.
constexpr std::size_t kSmall = 128;

// Evaluations of F that only steer the search (pivots, the flat-stretch check) sum one block at a time:
// inside a block of kBlock terms four plain partial sums (independent dependency chains, relative error
// below kBlock ulp = 6e-14 even when equal terms repeat one rounding), then one compensated add per
// block. Several times faster than compensating every term; the sums that set the root use ExactSum.
constexpr std::size_t kBlock = 256;

template <class Term>
void add_in_blocks(CompensatedSum& total, std::size_t n, Term&& term) {
  for (std::size_t block = 0; block < n; block += kBlock) {
    const std::size_t end = std::min(n, block + kBlock);
    double lanes[4] = {0.0, 0.0, 0.0, 0.0};
    std::size_t j = block;
    for (; j + 4 <= end; j += 4) {
      lanes[0] += term(j);
      lanes[1] += term(j + 1);
      lanes[2] += term(j + 2);
      lanes[3] += term(j + 3);
    }
    for (; j < end; ++j) lanes[0] += term(j);
    total.add((lanes[0] + lanes[1]) + (lanes[2] + lanes[3]));
  }
}

// lo/p, except 0 when lo = 0 (a mass that a rescaling rounded to 0 must not give 0/0 = NaN).
inline double floor_breakpoint(double lo, double p) { return lo > 0.0 ? lo / p : 0.0; }

// The box as the solver reads it: bounds per atom, or one pair for every atom (step 0: Park's box and the other
// boxes with constant bounds). One type for both, so that the search exists once in the client's WebAssembly
// (code size); the passes that dominate a uniform box's time have loops of their own (validation, the threshold
// pass, small_pivots, writing q). The search keeps, for each atom whose regime is still open, what it needs in
// one compact array, so the rounds read memory sequentially.
struct Bounds {
  // 32 bytes: the bounds are read through the index (for a uniform box always the one pair), not copied.
  struct Atom {
    double p;
    double leave_floor;    // lo/p: below this scale the atom sits at lo
    double reach_ceiling;  // hi/p: above it, at hi
    std::size_t index;
  };
  const double* lo_at;
  const double* hi_at;
  std::size_t step;  // 1: per atom; 0: the same bounds everywhere
  std::size_t count;
  [[nodiscard]] bool uniform() const { return step == 0; }
  [[nodiscard]] std::size_t size() const { return count; }
  [[nodiscard]] double lo(std::size_t i) const { return lo_at[i * step]; }
  [[nodiscard]] double hi(std::size_t i) const { return hi_at[i * step]; }
  [[nodiscard]] Atom atom(std::size_t i, double p) const {
    return {p, floor_breakpoint(lo(i), p), hi(i) / p, i};
  }
  [[nodiscard]] double lo(const Atom& a) const { return lo(a.index); }
  [[nodiscard]] double hi(const Atom& a) const { return hi(a.index); }
};

// Multiplies by 2^exponent: exact unless the result leaves the double range, like std::ldexp, but one
// multiplication when 2^exponent is a double (|exponent| <= 1023; 2^-1023 is subnormal but exact, and a product
// is rounded once, as std::ldexp rounds).
class PowerOfTwo {
 public:
  explicit PowerOfTwo(int exponent)
      : exponent_(exponent), factor_(std::abs(exponent) <= 1023 ? std::ldexp(1.0, exponent) : 0.0) {}
  [[nodiscard]] double operator()(double x) const { return factor_ != 0.0 ? x * factor_ : std::ldexp(x, exponent_); }
  [[nodiscard]] bool identity() const { return exponent_ == 0; }
  // 2^exponent, or 0 when that is not a double.
  [[nodiscard]] double factor() const { return factor_; }

 private:
  int exponent_;
  double factor_;
};

// The stride of a systematic sample: the smallest prime >= spacing (1 stays 1). Masses often come from a 2-D grid
// stored row by row, and a stride that divides the row length samples the same few columns of every row: at
// 500 × 500 cells a stride of 250 read only columns 0 and 250, the estimate that steers the bracket was off, and
// the bracket left far more atoms open (the ring bench's distribution took 3× longer). A prime stride walks
// through every column of any row length it does not divide. Steering only: the answer is exact whatever the sample,
// though its last bits follow the search's path (docs/solvers/clip-normalise.md).
[[gnu::noinline]] std::size_t sampling_stride(std::size_t spacing) {  // out of line: 80 bytes less in the client
  std::size_t stride = std::max<std::size_t>(spacing, 1);
  for (std::size_t divisor = 2; divisor * divisor <= stride; ++divisor) {
    if (stride % divisor == 0) {
      ++stride;  // not prime: try the next one from the start
      divisor = 1;
    }
  }
  return stride;
}

// Two breakpoints t1 <= t2 strictly inside (s_low, s_high) that probably bracket the root, chosen from a
// strided sample of at most kSample open atoms (Floyd–Rivest style): the sample's own estimate of F,
//     F̂(s) = constant + s·slope + (open/sampled)·Σ_sample clip(s·p; lo, hi),
// is solved over the sample's sorted breakpoints, and t1, t2 are taken a few ranks either side of that
// root. One pass over the open atoms then evaluates F at both, so a round usually keeps only the few
// percent of atoms whose breakpoints fall between t1 and t2 — expected linear time overall. When the
// guess misses, the round still closes every atom on the far side. With all atoms sampled (small sets)
// F̂ = F and the ranks bracket the root exactly. Returns false when no open atom has a breakpoint inside
// (s_low, s_high): then the closing pass closes them all.
bool pick_pivots(const Bounds& bounds, const std::vector<Bounds::Atom>& open, double s_low, double s_high,
                 double constant, double slope, std::vector<double>& scratch, std::pair<double, double>& pivots) {
  constexpr std::size_t kSample = 64;
  std::size_t stride = sampling_stride(open.size() / kSample + 1);
  std::size_t sampled = 0;
  for (;;) {
    scratch.clear();
    sampled = 0;
    for (std::size_t j = 0; j < open.size(); j += stride, ++sampled) {
      if (open[j].leave_floor > s_low && open[j].leave_floor < s_high) scratch.push_back(open[j].leave_floor);
      if (open[j].reach_ceiling > s_low && open[j].reach_ceiling < s_high) scratch.push_back(open[j].reach_ceiling);
    }
    if (!scratch.empty()) break;
    if (stride == 1) return false;
    stride = 1;  // the sample missed every interior breakpoint: look at all of them
  }
  std::sort(scratch.begin(), scratch.end());
  const double weight = static_cast<double>(open.size()) / static_cast<double>(sampled);
  const auto estimate = [&](double s) {
    double value = constant + s * slope;
    for (std::size_t j = 0; j < open.size(); j += stride) {
      value += weight * std::clamp(s * open[j].p, bounds.lo(open[j]), bounds.hi(open[j]));
    }
    return value;
  };
  // First breakpoint at which the estimate reaches 1 (binary search: F̂ is non-decreasing).
  std::size_t first = 0;
  std::size_t last = scratch.size();
  while (first < last) {
    const std::size_t middle = first + (last - first) / 2;
    if (estimate(scratch[middle]) >= 1.0) {
      last = middle;
    } else {
      first = middle + 1;
    }
  }
  const std::size_t margin = sampled == open.size() ? 1 : scratch.size() / 32 + 1;
  const std::size_t below = first >= margin ? first - margin : 0;
  const std::size_t above = std::min(scratch.size() - 1, first + margin - 1);
  pivots = {scratch[std::min(below, scratch.size() - 1)], scratch[above]};
  return true;
}

struct RootSearch {
  double s = 0.0;       // the root of F(s) = constant + s·slope on the final bracket (an end if slope = 0)
  double s_low = 0.0;   // the final bracket, on which every atom's regime is fixed
  double s_high = 0.0;
  double at_low = 0.0;  // F(s_low), F(s_high)
  double at_high = 0.0;
  bool beyond_range = false;  // F < 1 at every finite s: the root lies past the largest double
};

RootSearch search_root(const Bounds& bounds, std::vector<Bounds::Atom>& open, CompensatedSum constant,
                       CompensatedSum slope = {}, double s_low = 0.0, double s_high = kInfinity) {
  const bool uniform = bounds.uniform();
  std::vector<double> scratch;
  std::pair<double, double> pivots;
  while (!open.empty()) {
    if (pick_pivots(bounds, open, s_low, s_high, constant.value(), slope.value(), scratch, pivots)) {
      const double first_pivot = pivots.first;  // not a structured binding: lambdas below capture it
      const double second_pivot = pivots.second;
      CompensatedSum value_first = constant;
      CompensatedSum value_second = constant;
      value_first.add(first_pivot * slope.value());
      value_second.add(second_pivot * slope.value());
      add_in_blocks(value_first, open.size(), [&](std::size_t j) {
        return std::clamp(first_pivot * open[j].p, bounds.lo(open[j]), bounds.hi(open[j]));
      });
      add_in_blocks(value_second, open.size(), [&](std::size_t j) {
        return std::clamp(second_pivot * open[j].p, bounds.lo(open[j]), bounds.hi(open[j]));
      });
      if (value_first.value() >= 1.0) {
        s_high = first_pivot;
      } else if (value_second.value() >= 1.0) {
        s_low = first_pivot;
        s_high = second_pivot;
      } else {
        s_low = second_pivot;
      }
    }
    // Close every atom whose regime no longer changes on [s_low, s_high] (branch-free: the regimes of
    // neighbouring atoms are unrelated, so branches would be mispredicted half the time). Breakpoints at
    // +∞ close too: such an atom stays at its floor (or, with lo = 0, scaled) for every finite s.
    // These sums set the root, so they are exact up to one rounding: floors and ceilings are counted
    // where the box is uniform, otherwise every term is compensated (TwoSum), since thousands of equal
    // floors would repeat one rounding error thousands of times.
    std::size_t kept = 0;
    ExactSum closed_constant;
    ExactSum closed_slope;
    std::size_t floors = 0;
    std::size_t ceilings = 0;
    // A uniform box counts its floors and ceilings (n·lo + m·hi); per-atom bounds are added up. Two copies of
    // the loop, so that the uniform one carries no second compensated sum.
    const auto close_pass = [&](auto per_atom) {
      for (std::size_t j = 0; j < open.size(); ++j) {
        const auto a = open[j];
        const bool at_ceiling = a.reach_ceiling <= s_low;
        const bool at_floor = !at_ceiling && a.leave_floor >= s_high;
        const bool scaled = !at_ceiling && !at_floor && a.leave_floor <= s_low && a.reach_ceiling >= s_high;
        if constexpr (decltype(per_atom)::value) {
          closed_constant.add(at_ceiling ? bounds.hi(a) : (at_floor ? bounds.lo(a) : 0.0));
        } else {
          floors += at_floor ? 1 : 0;
          ceilings += at_ceiling ? 1 : 0;
        }
        closed_slope.add(scaled ? a.p : 0.0);
        open[kept] = a;
        kept += (at_ceiling || at_floor || scaled) ? 0 : 1;
      }
    };
    if (uniform) {
      close_pass(std::false_type{});
    } else {
      close_pass(std::true_type{});
    }
    if (uniform) {
      constant.add(static_cast<double>(floors) * bounds.lo(0));
      constant.add(static_cast<double>(ceilings) * bounds.hi(0));
    } else {
      closed_constant.add_to(constant);
    }
    closed_slope.add_to(slope);
    open.resize(kept);
  }

  RootSearch out;
  out.s_low = s_low;
  out.s_high = s_high;
  CompensatedSum at_low = constant;
  at_low.add(s_low * slope.value());
  out.at_low = at_low.value();
  CompensatedSum at_high = constant;
  at_high.add(s_high * slope.value());
  out.at_high = at_high.value();
  if (slope.value() > 0.0) {
    const double root = (1.0 - constant.value()) / slope.value();
    out.beyond_range = !(root < kInfinity);
    out.s = out.beyond_range ? s_low : std::clamp(root, s_low, s_high);
    return out;
  }
  out.s = s_low > 0.0 ? s_low : s_high;
  out.beyond_range = s_high == kInfinity && constant.value() < 1.0 - kFlat;
  return out;
}

// The first round of the search reads p itself instead of a materialised array of atoms: a strided sample of
// about 2·√n of the n open atoms (all of them when n is small) estimates F as in pick_pivots and proposes two
// pivots t1 < t2 about 2σ of rank either side of the estimated root; one pass over p then evaluates F(t1)
// and F(t2) and, speculatively, closes every atom whose regime is fixed on [t1, t2], keeping only the few
// open ones. When the root is not in [t1, t2] (a few percent of calls), a second pass closes the atoms for
// the side that holds it. Memory: the open atoms of the final bracket, O(√n) of them in expectation.
bool pick_first_pivots(const Bounds& bounds, std::span<const double> p, const PowerOfTwo& rescale,
                       std::size_t open_count, double open_mass, double constant, std::vector<double>& scratch,
                       std::vector<Bounds::Atom>& sample, std::pair<double, double>& pivots) {
  constexpr std::size_t kLeast = 32;  // the smallest sample
  const auto wanted =
      std::max(kLeast, static_cast<std::size_t>(2.0 * std::sqrt(static_cast<double>(open_count))));
  // Up to kLeast open atoms, and for a uniform box with k <= kSmall, the sample is all of them: F̂ = F, and the
  // pivots are the two breakpoints next to the root (what small_pivots finds without sorting).
  const bool all = open_count <= kLeast || (bounds.uniform() && p.size() <= kSmall);
  std::size_t stride = all ? 1 : sampling_stride(open_count / wanted);
  for (;;) {
    scratch.clear();
    sample.clear();
#if !defined(PRIVSAMPLE_CLIENT_SIZE_BUDGET)
    // The sample's size is known: growing the two vectors from empty was 7% of a call at k = 10^5 natively.
    sample.reserve(p.size() / stride + 1);
    scratch.reserve(2 * (p.size() / stride + 1));
#endif
    for (std::size_t i = 0; i < p.size(); i += stride) {
      if (!(p[i] > 0.0 && bounds.hi(i) > 0.0)) continue;
      const auto a = bounds.atom(i, rescale(p[i]));
      sample.push_back(a);
      if (a.leave_floor > 0.0 && a.leave_floor < kInfinity) scratch.push_back(a.leave_floor);
      if (a.reach_ceiling < kInfinity) scratch.push_back(a.reach_ceiling);
    }
    if (!scratch.empty()) break;
    if (stride == 1) return false;
    stride = 1;
  }
  std::sort(scratch.begin(), scratch.end());
  const auto n = static_cast<double>(open_count);
  const auto m = static_cast<double>(sample.size());
  const bool exact = sample.size() == open_count;
  // F̂(s) with s·Σp as a control variate (regression estimator): where most atoms are scaled, clip(s·p)
  // follows s·p and the known total removes nearly all the sampling error; where most are clipped the
  // regression weight falls to ~0 and the plain mean is used. Also its standard error.
  struct Estimate {
    double value;
    double error;
  };
  const auto estimate = [&](double s) -> Estimate {
    if (exact) {
      double value = 0.0;
      for (const auto& a : sample) value += std::clamp(s * a.p, bounds.lo(a), bounds.hi(a));
      return {constant + value, 0.0};
    }
    // One pass of raw moments (steering only, so their cancellation error is of no concern).
    double sum_c = 0.0, sum_x = 0.0, sum_cc = 0.0, sum_xx = 0.0, sum_cx = 0.0;
    for (const auto& a : sample) {
      const double x = s * a.p;
      const double c = std::clamp(x, bounds.lo(a), bounds.hi(a));
      sum_c += c;
      sum_x += x;
      sum_cc += c * c;
      sum_xx += x * x;
      sum_cx += c * x;
    }
    const double mean_c = sum_c / m;
    const double mean_x = sum_x / m;
    const double var_c = std::max(0.0, sum_cc - m * mean_c * mean_c);
    const double var_x = std::max(0.0, sum_xx - m * mean_x * mean_x);
    const double cov = sum_cx - m * mean_c * mean_x;
    const double beta = var_x > 0.0 ? cov / var_x : 0.0;
    const double residual = std::max(0.0, var_c - beta * cov) / std::max(1.0, m - 2.0);
    const double value = constant + n * (mean_c - beta * (mean_x - s * open_mass / n));
    return {value, n * std::sqrt(residual / m * std::max(0.0, 1.0 - m / n))};
  };
  const auto first_reaching = [&](double target) {
    std::size_t first = 0;
    std::size_t last = scratch.size();
    while (first < last) {
      const std::size_t middle = first + (last - first) / 2;
      if (estimate(scratch[middle]).value >= target) {
        last = middle;
      } else {
        first = middle + 1;
      }
    }
    return first;
  };
  const std::size_t at_root = first_reaching(1.0);
  double spread = 0.0;
  if (!exact) {
    // Four standard errors either side, at the estimated root; a miss costs one more pass, not correctness.
    const double s_root = scratch[std::min(at_root, scratch.size() - 1)];
    spread = 4.0 * estimate(s_root).error + 1e-12;
  }
  // The targets 1 ± spread are usually a few breakpoints from the root: gallop out from it.
  const auto gallop = [&](double target, bool downwards) {
    std::size_t step = 1;
    std::size_t near = at_root;
    for (;;) {
      if (downwards) {
        const std::size_t next = near > step ? near - step : 0;
        if (next == 0 || estimate(scratch[next]).value < target) {
          std::size_t first = next, last = near;
          while (first < last) {
            const std::size_t middle = first + (last - first) / 2;
            if (estimate(scratch[middle]).value >= target) last = middle; else first = middle + 1;
          }
          return first;
        }
        near = next;
      } else {
        const std::size_t next = std::min(scratch.size(), near + step);
        if (next == scratch.size() || estimate(scratch[next]).value >= target) {
          std::size_t first = near, last = next;
          while (first < last) {
            const std::size_t middle = first + (last - first) / 2;
            if (estimate(scratch[middle]).value >= target) last = middle; else first = middle + 1;
          }
          return first;
        }
        near = next;
      }
      step *= 2;
    }
  };
  const std::size_t below = exact ? at_root : gallop(1.0 - spread, true);
  const std::size_t above = exact ? at_root : gallop(1.0 + spread, false);
  pivots = {below > 0 ? scratch[below - 1] : 0.0, above < scratch.size() ? scratch[above] : kInfinity};
  return true;
}

#if PRIVSAMPLE_SIMD_LANES
// Atoms i and i + 1 of n in the two lanes of an f64x2 (base[i·step], base[(i + 1)·step]): `keep` has all ones in the
// lanes that hold an atom; past the end of an odd n lane 1 reads atom i again and is masked to 0.
PRIVSAMPLE_SIMD_FUNCTION inline v128_t pair_mask(std::size_t i, std::size_t n) {
  return wasm_i64x2_make(-1, i + 1 < n ? -1 : 0);
}
PRIVSAMPLE_SIMD_FUNCTION inline v128_t pair_at(const double* base, std::size_t step, std::size_t i, std::size_t n,
                                               v128_t keep) {
  const std::size_t next = i + 1 < n ? i + 1 : i;
  return wasm_v128_and(keep, wasm_f64x2_make(base[i * step], base[next * step]));
}
#endif

#if PRIVSAMPLE_VECTOR_LANES
using F64x2 = double __attribute__((vector_size(16)));
using I64x2 = long long __attribute__((vector_size(16)));  // a comparison's mask: -1 (all ones) or 0 per lane

PRIVSAMPLE_SIMD_FUNCTION inline F64x2 load_pair(const double* at) {
  F64x2 pair;
  std::memcpy(&pair, at, sizeof pair);  // unaligned
  return pair;
}
PRIVSAMPLE_SIMD_FUNCTION inline F64x2 splat(double x) { return F64x2{x, x}; }
// The lanes of x where mask is set, +0 elsewhere (the scalar form's `condition ? x : 0.0`; masked_out: where it is
// clear), and mask ? a : b lane by lane, on the bits. With SSE2 by intrinsics: g++ 12 turns `mask & x` on vector
// types into a per-lane conditional move through general registers (2x slower passes).
#if defined(__SSE2__)
inline F64x2 masked(I64x2 mask, F64x2 x) { return _mm_and_pd(reinterpret_cast<__m128d>(mask), x); }
inline F64x2 masked_out(I64x2 mask, F64x2 x) { return _mm_andnot_pd(reinterpret_cast<__m128d>(mask), x); }
inline F64x2 select_lanes(I64x2 mask, F64x2 a, F64x2 b) {
  const __m128d bits = reinterpret_cast<__m128d>(mask);
  return _mm_or_pd(_mm_and_pd(bits, a), _mm_andnot_pd(bits, b));
}
// Whether both lanes of a mask are set (the rare branch for open atoms).
inline bool both_set(I64x2 mask) { return _mm_movemask_pd(reinterpret_cast<__m128d>(mask)) == 3; }
// All ones in the lanes where lo < v < hi, as doubles' bits; a | b; whether some lane is set. By intrinsics: g++ 12
// moved the vector-extension forms' masks through general registers lane by lane.
inline F64x2 within(F64x2 v, F64x2 lo, F64x2 hi) { return _mm_and_pd(_mm_cmpgt_pd(v, lo), _mm_cmplt_pd(v, hi)); }
inline F64x2 either(F64x2 a, F64x2 b) { return _mm_or_pd(a, b); }
inline bool any_set(F64x2 mask) { return _mm_movemask_pd(mask) != 0; }
// v > m ? v : m and v < m ? v : m (maxpd and minpd return their second operand unless the first is greater/less).
inline F64x2 larger(F64x2 v, F64x2 m) { return _mm_max_pd(v, m); }
inline F64x2 smaller(F64x2 v, F64x2 m) { return _mm_min_pd(v, m); }
#else
PRIVSAMPLE_SIMD_FUNCTION inline F64x2 masked(I64x2 mask, F64x2 x) {
  return reinterpret_cast<F64x2>(mask & reinterpret_cast<I64x2>(x));
}
PRIVSAMPLE_SIMD_FUNCTION inline F64x2 masked_out(I64x2 mask, F64x2 x) {
  return reinterpret_cast<F64x2>(~mask & reinterpret_cast<I64x2>(x));
}
PRIVSAMPLE_SIMD_FUNCTION inline bool both_set(I64x2 mask) { return (mask[0] & mask[1]) != 0; }
PRIVSAMPLE_SIMD_FUNCTION inline F64x2 within(F64x2 v, F64x2 lo, F64x2 hi) {
  return reinterpret_cast<F64x2>((v > lo) & (v < hi));
}
PRIVSAMPLE_SIMD_FUNCTION inline F64x2 either(F64x2 a, F64x2 b) {
  return reinterpret_cast<F64x2>(reinterpret_cast<I64x2>(a) | reinterpret_cast<I64x2>(b));
}
PRIVSAMPLE_SIMD_FUNCTION inline bool any_set(F64x2 mask) {
  const I64x2 bits = reinterpret_cast<I64x2>(mask);
  return (bits[0] | bits[1]) != 0;
}
#if defined(__wasm__)
using I32x4 = int __attribute__((vector_size(16)));
PRIVSAMPLE_SIMD_FUNCTION inline F64x2 select_lanes(I64x2 mask, F64x2 a, F64x2 b) {  // v128.bitselect: one instruction
  return reinterpret_cast<F64x2>(__builtin_wasm_bitselect(reinterpret_cast<I32x4>(a), reinterpret_cast<I32x4>(b),
                                                          reinterpret_cast<I32x4>(mask)));
}
// pmax(m, v) = m < v ? v : m and pmin(m, v) = v < m ? v : m: one instruction each (f64x2.min/max follow IEEE's NaN and
// signed-zero rules, which V8 spells out in several).
PRIVSAMPLE_SIMD_FUNCTION inline F64x2 larger(F64x2 v, F64x2 m) { return __builtin_wasm_pmax_f64x2(m, v); }
PRIVSAMPLE_SIMD_FUNCTION inline F64x2 smaller(F64x2 v, F64x2 m) { return __builtin_wasm_pmin_f64x2(m, v); }
#else
PRIVSAMPLE_SIMD_FUNCTION inline F64x2 select_lanes(I64x2 mask, F64x2 a, F64x2 b) {
  return reinterpret_cast<F64x2>((mask & reinterpret_cast<I64x2>(a)) | (~mask & reinterpret_cast<I64x2>(b)));
}
PRIVSAMPLE_SIMD_FUNCTION inline F64x2 larger(F64x2 v, F64x2 m) { return select_lanes(v > m, v, m); }
PRIVSAMPLE_SIMD_FUNCTION inline F64x2 smaller(F64x2 v, F64x2 m) { return select_lanes(v < m, v, m); }
#endif
#endif

#endif

// One steering pass of small_pivots at s over n masses in two lanes (even and odd atoms; an odd n's last atom in the
// even lane): Σ clip(s·m; lo, hi) and the slope Σm over the atoms strictly inside, and the smallest mass at or above
// each bound at s and the largest below it (from which the neighbouring breakpoints follow: bound/m falls as m grows).
struct SteeringSums {
  double value_even = 0.0, value_odd = 0.0, slope_even = 0.0, slope_odd = 0.0;
  double ceiling_down = kInfinity, ceiling_up = 0.0, floor_down = kInfinity, floor_up = 0.0;
};

// The scalar form, for one atom into one lane.
struct SteeringLane {
  double value = 0.0, slope = 0.0, ceiling_down = kInfinity, ceiling_up = 0.0, floor_down = kInfinity, floor_up = 0.0;
  void visit(double m, double s, double lo, double hi) {
    const double x = s * m;
    value += std::clamp(x, lo, hi);
    slope += (x > lo && x < hi) ? m : 0.0;
    ceiling_down = std::min(ceiling_down, x >= hi ? m : kInfinity);
    ceiling_up = std::max(ceiling_up, x < hi ? m : 0.0);
    floor_down = std::min(floor_down, x >= lo ? m : kInfinity);
    floor_up = std::max(floor_up, x < lo ? m : 0.0);
  }
};

inline SteeringSums merged(const SteeringLane& even, const SteeringLane& odd) {
  return {even.value, odd.value, even.slope, odd.slope, std::min(even.ceiling_down, odd.ceiling_down),
          std::max(even.ceiling_up, odd.ceiling_up), std::min(even.floor_down, odd.floor_down),
          std::max(even.floor_up, odd.floor_up)};
}

#if PRIVSAMPLE_VECTOR_LANES
// The two lanes in one F64x2, each doing SteeringLane::visit's operations in the same order (larger then smaller is
// std::clamp's value, smaller/larger(candidate, acc) are std::min/max(acc, candidate), masks instead of selects), so
// the same doubles. No branch: V8 compiles scalar min, max and selects on doubles to branches, and natively the
// select of m or 0 for the slope compiled to one; random masses mispredict them (at k = 100 the steering took most
// of a call). Past the end of an odd n the odd lane holds a zero mass whose clip (lo) is masked off: it changes no
// minimum or maximum that is used (floor_down only counts where lo > 0).
PRIVSAMPLE_SIMD_FUNCTION SteeringSums steering_pass(const double* masses, std::size_t n, double s, double lo_u,
                                                    double hi_u) {
  const F64x2 scale = splat(s);
  const F64x2 lo = splat(lo_u);
  const F64x2 hi = splat(hi_u);
  const F64x2 infinity = splat(kInfinity);
  F64x2 value = splat(0.0);
  F64x2 slope = value;
  F64x2 ceiling_down = infinity;
  F64x2 ceiling_up = value;
  F64x2 floor_down = infinity;
  F64x2 floor_up = value;
  for (std::size_t j = 0; j < n; j += 2) {
    const bool pair = j + 1 < n;
    const I64x2 keep{-1, pair ? -1 : 0};
    const F64x2 m = masked(keep, F64x2{masses[j], masses[pair ? j + 1 : j]});
    const F64x2 x = scale * m;
    value += masked(keep, smaller(larger(x, lo), hi));
    slope += masked(x > lo, masked(x < hi, m));  // (a & b) on the masks compiled to scalar code (g++ 12)
    // x is never NaN (s and the masses are finite), so x < bound is !(x >= bound)
    const I64x2 reaches_hi = x >= hi;
    const I64x2 reaches_lo = x >= lo;
    ceiling_down = smaller(select_lanes(reaches_hi, m, infinity), ceiling_down);
    ceiling_up = larger(masked_out(reaches_hi, m), ceiling_up);
    floor_down = smaller(select_lanes(reaches_lo, m, infinity), floor_down);
    floor_up = larger(masked_out(reaches_lo, m), floor_up);
  }
  const SteeringLane even{value[0], slope[0], ceiling_down[0], ceiling_up[0], floor_down[0], floor_up[0]};
  const SteeringLane odd{value[1], slope[1], ceiling_down[1], ceiling_up[1], floor_down[1], floor_up[1]};
  return merged(even, odd);
}
#else
SteeringSums steering_pass(const double* masses, std::size_t n, double s, double lo_u, double hi_u) {
  SteeringLane even, odd;  // two lanes, so that neighbouring atoms do not wait on each other
  std::size_t j = 0;
  for (; j + 2 <= n; j += 2) {
    even.visit(masses[j], s, lo_u, hi_u);
    odd.visit(masses[j + 1], s, lo_u, hi_u);
  }
  if (j < n) even.visit(masses[j], s, lo_u, hi_u);
  return merged(even, odd);
}
#endif

// pick_first_pivots' answer for a uniform box with k <= kSmall (every open atom in the sample), found without
// sorting and without heap memory: the largest breakpoint b with F̂(b) < 1 and the smallest with F̂(b) >= 1 (0 and
// ∞ when there is none), where F̂(b) = constant + Σ clip(b·p) summed in index order, exactly as the sorted search
// evaluates it. F̂ is non-decreasing (rounded additions of non-decreasing terms), so these two are what its
// binary search over the sorted breakpoints returns, whatever route finds them.
//
// Steering: safeguarded Newton steps on F. Each pass also finds the two breakpoints next to s, so that no
// breakpoint lies strictly between them, without a division per atom: hi/p and lo/p fall as p grows, so the
// masses on either side of each regime change at s (by s·p against lo and hi) give the two neighbours by four
// divisions — the same divisions as the atoms' breakpoints, so the same doubles. Once a Newton step lands on the
// piece around s, that piece holds the root; its ends are decided by F's linear model there when it is clearly
// away from 1 (F̂ is within 3e-14 of F at k <= kSmall) and s is clearly inside the piece, and by F̂ itself
// otherwise, walking to neighbouring breakpoints while an end is on the wrong side. Returns false when there is
// no breakpoint (as pick_first_pivots does). Per-atom boxes keep the sorted search (code size of the client).
bool small_pivots(const Bounds& bounds, std::span<const double> p, const PowerOfTwo& rescale, double constant,
                  std::size_t open_count, double open_mass, double largest, std::pair<double, double>& pivots) {
  std::array<double, kSmall> mass;  // the open atoms' (rescaled) masses, in index order
  std::size_t n = 0;
  // A uniform box reads p itself when it needs no rescaling and most atoms are open (zeros included: at any s
  // they add lo to F, which `constant` then counts once too many, and nothing to the slope or the neighbours;
  // F̂ skips them). Sparse inputs are copied: every later pass then reads only the open atoms.
  const bool direct = rescale.identity() && 4 * open_count >= 3 * p.size();
  if (direct) {
    n = p.size();
  } else {
    // p·2^-shift by one multiplication (the first level's 2^-shift is a double; by 1.0 when unshifted: exact).
    const double factor = rescale.factor();
    const double hi = bounds.hi(0);
    for (std::size_t i = 0; i < p.size(); ++i) {
      const bool open = p[i] > 0.0 && hi > 0.0;
      mass[n] = p[i] * factor;
      n += open ? 1 : 0;
    }
  }
  const double* const masses = direct ? p.data() : mass.data();
  const double lo_u = bounds.lo(0);
  const double hi_u = bounds.hi(0);
  // The breakpoints of open atom j, as bounds.atom computes them.
  const auto floor_of = [&](std::size_t j) { return floor_breakpoint(lo_u, masses[j]); };
  const auto ceiling_of = [&](std::size_t j) { return hi_u / masses[j]; };
  const auto in_set = [](double b) { return b > 0.0 && b < kInfinity; };  // the breakpoints pick_first_pivots sorts
  // hi/p and lo/p are smallest at the largest mass, and positive: some breakpoint is finite iff one of its are.
  // `largest` (the validation's largest open mass, rescaled: the largest of `masses`) saves a pass.
  if (!(largest > 0.0 && (in_set(hi_u / largest) || in_set(floor_breakpoint(lo_u, largest))))) return false;
  // F̂ exactly as pick_first_pivots evaluates it.
  const auto reaches = [&](double s) {
    double value = 0.0;
    // Branch-free (clip_bits, select_bits): the same terms, whose selects random masses mispredicted (natively ~10% of
    // a call at k = 100). Not in the client, where it cost 43 gzip bytes the budget does not have.
#if defined(PRIVSAMPLE_CLIENT_SIZE_BUDGET)
    for (std::size_t j = 0; j < n; ++j) value += masses[j] > 0.0 ? std::clamp(s * masses[j], lo_u, hi_u) : 0.0;
#else
    for (std::size_t j = 0; j < n; ++j) {
      value += select_bits(masses[j] > 0.0, clip_bits(s * masses[j], lo_u, hi_u), 0.0);
    }
#endif
    return constant + value >= 1.0;
  };
  // Exact neighbours (divisions): the largest breakpoint <= s (0 if none), the smallest > s (∞ if none).
  // The neighbour in one family (bound/m for every open mass m) strictly above s when `up` (∞ if none), else the one
  // at or below s (0 if none): for a uniform box bound/m falls as m grows, so it is bound/m at one mass, the largest
  // with bound/m > s (up) or the smallest with bound/m <= s. Which masses qualify is plain from m·s against the bound
  // except within 1e-13 of it, where the division decides: the same doubles, a division or two.
  const auto family_neighbour = [&](double bound, double s, bool up) {
    const double none = up ? kInfinity : 0.0;
    double best = up ? 0.0 : kInfinity;
    for (std::size_t j = 0; j < n; ++j) {
      const double m = masses[j];
      const double product = m * s;
      const bool sure = up ? product < bound * (1.0 - 1e-13) : product > bound * (1.0 + 1e-13);
      const bool near = up ? product <= bound * (1.0 + 1e-13) : product >= bound * (1.0 - 1e-13);
      const bool unsure = !sure && near && m > 0.0 && (up ? bound / m > s : bound / m <= s);
      best = up ? std::max(best, sure || unsure ? m : 0.0) : std::min(best, sure || unsure ? m : kInfinity);
    }
    const double b = (up ? best > 0.0 : best < kInfinity) ? bound / best : none;
    return b > 0.0 && b < kInfinity ? b : none;
  };
  // Bounds far from the subnormal range, where m·s against them is as good as the division outside the band.
  const bool by_mass = hi_u >= 1e-290 && (lo_u == 0.0 || lo_u >= 1e-290);
  // Exact neighbours: the smallest breakpoint > s (∞ if none) when `up`, else the largest <= s (0 if none).
  // One function for both directions (code size of the client).
  const auto neighbour = [&](double s, bool up) {
    const double none = up ? kInfinity : 0.0;
    const auto nearer = [up](double a, double b) { return up ? std::min(a, b) : std::max(a, b); };
    if (by_mass) return nearer(family_neighbour(hi_u, s, up), lo_u > 0.0 ? family_neighbour(lo_u, s, up) : none);
    double best = none;
    for (std::size_t j = 0; j < n; ++j) {
      const double f = floor_of(j);
      const double c = ceiling_of(j);
      best = nearer(best, in_set(f) && (up ? f > s : f <= s) ? f : none);
      best = nearer(best, in_set(c) && (up ? c > s : c <= s) ? c : none);
    }
    return best;
  };
  struct Piece {
    double value;  // F(s), steering precision
    double slope;  // Σp over the atoms strictly inside their box at s
    double below;  // neighbouring breakpoints (or 0, ∞), none strictly between; below < above unless s sits
    double above;  // within an ulp of a breakpoint
  };
  const double base = direct ? constant - static_cast<double>(p.size() - open_count) * lo_u : constant;
  const auto evaluate = [&](double s) {
    const SteeringSums sums = steering_pass(masses, n, s, lo_u, hi_u);
    // hi/p falls as p grows: every ceiling breakpoint is <= hi/ceiling_down or >= hi/ceiling_up.
    const auto breakpoint = [](double bound, double m, double none) {
      const double b = m > 0.0 && m < kInfinity ? bound / m : none;
      return b > 0.0 && b < kInfinity ? b : none;
    };
    const double below = std::max(breakpoint(hi_u, sums.ceiling_down, 0.0),
                                  lo_u > 0.0 ? breakpoint(lo_u, sums.floor_down, 0.0) : 0.0);
    const double above = std::min(breakpoint(hi_u, sums.ceiling_up, kInfinity),
                                  lo_u > 0.0 ? breakpoint(lo_u, sums.floor_up, kInfinity) : kInfinity);
    return Piece{base + (sums.value_even + sums.value_odd), sums.slope_even + sums.slope_odd, below, above};
  };
  // s well inside the piece: every atom's regime at s (by s·p) is its regime on the whole piece.
  const auto inside = [](const Piece& piece, double s) {
    constexpr double kGap = 1e-9;
    return piece.below < piece.above && s - piece.below > kGap * s && piece.above - s > kGap * s;
  };
  // Steering: Newton on F inside the bracket (low, high), F(low) < 1 <= F(high) (steering values), with an
  // Illinois-weighted secant where Newton's step leaves it. Stops when a Newton step stays on the piece it
  // starts from (that piece holds the root), or F(s) is within rounding of 1, or the bracket is two doubles.
  // Below lo/(largest mass) every atom sits at its floor, so F = F(0) < 1 there and the root lies above: with a narrow
  // box (ε = 0.1) Newton's first step fell far into that flat stretch and cost a pass. (The start, (1 − constant)/Σm,
  // is at least lo/mean(m), so it is not below.)
  double low = floor_breakpoint(lo_u, largest);
  double high = kInfinity;
  double value_low = constant;
  value_low += static_cast<double>(open_count) * lo_u;
  double value_high = kInfinity;
  double weight_low = 1.0;  // Illinois: the end kept twice in a row has its residual halved
  double weight_high = 1.0;
  int last_side = 0;
  double s = open_mass > 0.0 ? std::max(0.0, 1.0 - constant) / open_mass : 1.0;
  if (!(s > 0.0 && s < kInfinity)) s = 1.0;
  Piece piece{};
  bool on_piece = false;  // the root is on `piece` (evaluated at s)
  for (int step = 0; step < 200; ++step) {
    piece = evaluate(s);
    const double newton = piece.slope > 0.0 ? s + (1.0 - piece.value) / piece.slope : kInfinity;
    if (piece.below < piece.above && newton >= piece.below && newton <= piece.above) {
      on_piece = true;
      break;
    }
    if (std::fabs(piece.value - 1.0) <= 1e-13) break;  // within rounding of a root: s is next to it
    // On a flat piece F keeps its value up to the piece's end: the bracket moves there.
    if (piece.value < 1.0) {
      low = piece.slope == 0.0 && piece.above < high ? std::max(s, piece.above) : s;
      value_low = piece.value;
      if (last_side < 0) weight_high *= 0.5;
      weight_low = 1.0;
      last_side = -1;
    } else {
      high = piece.slope == 0.0 && piece.below > low ? std::min(s, piece.below) : s;
      value_high = piece.value;
      if (last_side > 0) weight_low *= 0.5;
      weight_high = 1.0;
      last_side = 1;
    }
    double next = newton;
    if (!(next > low && next < high) && high < kInfinity) {
      const double g_low = weight_low * (value_low - 1.0);
      const double g_high = weight_high * (value_high - 1.0);
      next = low + (-g_low) / (g_high - g_low) * (high - low);
    }
    if (!(next > low && next < high)) {
      if (high == kInfinity) {
        next = std::max(2.0 * s, 2.0 * low);
      } else if (low > 0.0 && high > 4.0 * low) {
        next = std::sqrt(low) * std::sqrt(high);
      } else {
        next = low + 0.5 * (high - low);
      }
    }
    if (!(next > low && next < high)) break;  // low and high are neighbouring doubles
    s = next;
  }
  double below = 0.0;
  double above = kInfinity;
  bool high_reaches = false;
  bool low_reaches = false;
  // A Newton step that ends at an end of the root's piece (s within 1e-9 of a breakpoint: the ends' regimes at s are
  // unsure) would take two exact evaluations of F̂; one steering pass at the piece's middle decides them instead
  // when it finds the same piece there. (Not in the client: ~210 gzip bytes, a second inlined steering pass.)
#if !defined(PRIVSAMPLE_CLIENT_SIZE_BUDGET)
  if (on_piece && !inside(piece, s) && piece.below > 0.0 && piece.above < kInfinity) {
    const double middle = piece.below + 0.5 * (piece.above - piece.below);
    const Piece at_middle = evaluate(middle);
    if (at_middle.below == piece.below && at_middle.above == piece.above) {
      piece = at_middle;
      s = middle;
    }
  }
#endif
  if (on_piece && inside(piece, s)) {
    below = piece.below;
    above = piece.above;
    // F(b) = F(s) + (b − s)·slope on the piece, to within ~1e-15 of its terms' size.
    const auto decide = [&](double b) {
      constexpr double kMargin = 1e-12;
      const double change = (b - s) * piece.slope;
      const double model = piece.value + change;
      const double tolerance = kMargin * (1.0 + std::fabs(piece.value) + std::fabs(change));
      if (model >= 1.0 + tolerance) return true;
      if (model < 1.0 - tolerance) return false;
      return reaches(b);
    };
    high_reaches = above == kInfinity || decide(above);
    low_reaches = below > 0.0 && decide(below);
  } else {
    const bool neighbours = on_piece || piece.below < piece.above;  // the last evaluation's, when consistent
    below = neighbours ? piece.below : neighbour(s, false);
    above = neighbours ? piece.above : neighbour(s, true);
    high_reaches = above == kInfinity || reaches(above);
    low_reaches = below > 0.0 && reaches(below);
  }
  while (!high_reaches) {  // the root is above: walk up
    below = above;
    above = neighbour(below, true);
    high_reaches = above == kInfinity || reaches(above);
    low_reaches = false;
  }
  while (low_reaches) {  // the root is below: walk down
    above = below;
    below = neighbour(std::nextafter(above, 0.0), false);
    low_reaches = below > 0.0 && reaches(below);
  }
  pivots = {below, above};
  return true;
}

// The state of the search after the first round: the bracket, the closed atoms' contribution, the open atoms.
struct FirstRound {
  double s_low = 0.0;
  double s_high = kInfinity;
  CompensatedSum constant;
  CompensatedSum slope;
  std::vector<Bounds::Atom> open;
};

// One pass over p for per-atom bounds: closes every atom whose regime is fixed on [s_low, s_high] (the same
// classification and exact sums as search_root) and keeps the others. (Uniform boxes: close_over_p_uniform.)
void close_over_p(const Bounds& bounds, std::span<const double> p, const PowerOfTwo& rescale, FirstRound& round) {
  const double s_low = round.s_low;
  const double s_high = round.s_high;
  ExactSum closed_constant;
  ExactSum closed_slope;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const double hi_i = bounds.hi(i);
    if (!(p[i] > 0.0 && hi_i > 0.0)) continue;
    const auto a = bounds.atom(i, rescale(p[i]));
    const bool at_ceiling = a.reach_ceiling <= s_low;
    const bool at_floor = !at_ceiling && a.leave_floor >= s_high;
    const bool scaled = !at_ceiling && !at_floor && a.leave_floor <= s_low && a.reach_ceiling >= s_high;
    closed_constant.add(at_ceiling ? hi_i : (at_floor ? bounds.lo(i) : 0.0));
    closed_slope.add(scaled ? a.p : 0.0);
    if (!(at_ceiling || at_floor || scaled)) round.open.push_back(a);
  }
  closed_constant.add_to(round.constant);
  closed_slope.add_to(round.slope);
}

// Park's box and every other box with constant bounds: the regime of an atom on a bracket [s_low, s_high] is
// decided by comparing p with four thresholds, found once per round by a binary search over the doubles for
// where each breakpoint test (hi/p <= s_low, lo/p >= s_high, lo/p <= s_low, hi/p >= s_high, exactly as
// search_root evaluates them) changes. Each test is monotone in p, so comparing p with its threshold gives
// the same answer as the division would: the pass does no division and no branch except for the rare open
// atom, and it classifies exactly as the general search does.
struct UniformThresholds {
  double ceiling_from;  // p >= this: hi/p <= s_low (at the ceiling on the whole bracket)
  double floor_to;      // p <= this: lo/p >= s_high (at the floor)
  double scaled_from;   // p >= this: lo/p <= s_low
  double scaled_to;     // p <= this: hi/p >= s_high
};

// The smallest positive double x with test(x) (test false then true as x grows), or +∞ if there is none, where
// test(x) is "bound/(x·2^-shift) < s" when `strict`, else "<= s" (bound/0 read as 0 for bound = 0, as
// floor_breakpoint reads it; a uniform box in Case A has hi > 0). One function for the four thresholds, not a
// template per test (code size of the client). `guess` is where the division rounds to the threshold, give or take
// an ulp or two: walk from there, and fall back to a binary search over the bits of the doubles when the walk does
// not settle.
double first_true(double bound, const PowerOfTwo& rescale, double s, bool strict, double guess) {
  const auto test = [&](double x) {
    const double breakpoint = floor_breakpoint(bound, rescale(x));
    return strict ? breakpoint < s : breakpoint <= s;
  };
  // Neighbours of a positive finite double by its bits (std::nextafter is a library call, not inlined).
  const auto down = [&](double x) { return double_of(bits_of(x) - 1); };
  const auto up = [&](double x) { return double_of(bits_of(x) + 1); };
  if (guess > 0.0 && guess <= std::numeric_limits<double>::max()) {
    double x = guess;
    for (int step = 0; step < 8; ++step) {
      const double below = down(x);
      const bool here = test(x);
      if (here && below > 0.0 && !test(below)) return x;
      if (here && !(below > 0.0)) return x;  // x is the smallest positive double
      if (!here) {
        const double above = up(x);
        if (!(above <= std::numeric_limits<double>::max())) break;
        if (test(above)) return above;
        x = above;
      } else {
        x = below;
      }
    }
  }
  if (!test(double_of(kLargestFiniteBits))) return kInfinity;
  std::uint64_t low = 1;  // the smallest subnormal
  std::uint64_t high = kLargestFiniteBits;
  while (low < high) {
    const std::uint64_t middle = low + (high - low) / 2;
    if (test(double_of(middle))) {
      high = middle;
    } else {
      low = middle + 1;
    }
  }
  return double_of(low);
}

inline double previous_double(double x) {
  if (x == kInfinity) return std::numeric_limits<double>::max();
  if (!(x > 0.0)) return std::nextafter(x, 0.0);
  return double_of(bits_of(x) - 1);
}

UniformThresholds uniform_thresholds(const Bounds& bounds, const PowerOfTwo& rescale, double s_low, double s_high) {
  const UniformBox box{bounds.size(), bounds.lo(0), bounds.hi(0)};
  UniformThresholds t{};
  // The guesses hi/s and lo/s in p's own units (rescale multiplies by 2^-shift).
  const double unit = rescale(1.0);
  t.ceiling_from = first_true(box.hi, rescale, s_low, false, box.hi / s_low / unit);
  t.floor_to = previous_double(first_true(box.lo, rescale, s_high, true, box.lo / s_high / unit));
  t.scaled_from = first_true(box.lo, rescale, s_low, false, box.lo / s_low / unit);
  t.scaled_to = previous_double(first_true(box.hi, rescale, s_high, true, box.hi / s_high / unit));
  return t;
}

// One of close_over_p_uniform's four accumulators: a Fast2Sum pair (sum, error) for the disjoint pass, an
// ExactSum for the other, and the counts of floors and ceilings.
struct ClosingLane {
  explicit ClosingLane(double start) : sum(start) {}
  double sum;
  double error = 0.0;
  ExactSum slope;
  std::size_t floors = 0;
  std::size_t ceilings = 0;
};

// close_over_p_uniform's pass when the regimes' intervals of p may overlap (s_low = s_high) or the bracket is
// too far out for its Fast2Sum offset: regimes by precedence (ceiling, floor, scaled), the scaled masses summed
// by TwoSum, each atom in the lane the disjoint pass gives it (so the sums are the same). Rare: one plain loop.
[[gnu::noinline]] void close_overlapping(const Bounds& bounds, std::span<const double> p, const UniformThresholds& t,
                                         double factor, std::array<ClosingLane*, 4> lanes, FirstRound& round) {
  for (std::size_t block = 0; block < p.size(); block += kBlock) {
    const std::size_t end = std::min(p.size(), block + kBlock);
    const std::size_t in_fours = block + (end - block) / 4 * 4;  // the atoms of the four-lane steps
    for (std::size_t i = block; i < end; ++i) {
      ClosingLane& lane = *lanes[i < in_fours ? (i - block) % 4 : 0];
      const double x = p[i];
      const bool at_ceiling = x >= t.ceiling_from;
      const bool at_floor = !at_ceiling && x > 0.0 && x <= t.floor_to;
      const bool scaled = !at_ceiling && !at_floor && x >= t.scaled_from && x <= t.scaled_to;
      lane.floors += at_floor ? 1 : 0;
      lane.ceilings += at_ceiling ? 1 : 0;
      lane.slope.add(scaled ? x * factor : 0.0);
      if (x > 0.0 && !(at_ceiling || at_floor || scaled)) round.open.push_back(bounds.atom(i, x * factor));
    }
  }
}

#if PRIVSAMPLE_VECTOR_CLOSING
// close_over_p_uniform's disjoint steps from `from` while four atoms remain before `end`, lanes 0, 1 and 2, 3 in two
// vectors: visit's comparisons as masks, the term masked instead of selected, the counts subtracting the masks, the
// same Fast2Sum. Open atoms (rare) are noted in the order of the scalar steps. Returns where it stopped.
std::size_t close_in_vector_lanes(const double* p, std::size_t from, std::size_t end, const UniformThresholds& t,
                                  double factor, std::array<ClosingLane*, 4> lanes, std::uint32_t* pending,
                                  std::size_t& pending_count) {
  struct Pair {
    F64x2 sum, error;
    I64x2 floors, ceilings;
  };
  const auto load = [](const ClosingLane& a, const ClosingLane& b) {
    return Pair{F64x2{a.sum, b.sum}, F64x2{a.error, b.error},
                I64x2{static_cast<long long>(a.floors), static_cast<long long>(b.floors)},
                I64x2{static_cast<long long>(a.ceilings), static_cast<long long>(b.ceilings)}};
  };
  const auto store = [](const Pair& pair, ClosingLane& a, ClosingLane& b) {
    a.sum = pair.sum[0];
    b.sum = pair.sum[1];
    a.error = pair.error[0];
    b.error = pair.error[1];
    a.floors = static_cast<std::size_t>(pair.floors[0]);
    b.floors = static_cast<std::size_t>(pair.floors[1]);
    a.ceilings = static_cast<std::size_t>(pair.ceilings[0]);
    b.ceilings = static_cast<std::size_t>(pair.ceilings[1]);
  };
  // Notes the open atoms i, i + 1 (mask 0 in `closed`) without a branch per atom.
  const auto note_open = [&](std::size_t i, I64x2 closed) {
    if (!both_set(closed)) [[unlikely]] {
      pending[pending_count] = static_cast<std::uint32_t>(i);
      pending_count += static_cast<std::size_t>(closed[0] + 1);
      pending[pending_count] = static_cast<std::uint32_t>(i + 1);
      pending_count += static_cast<std::size_t>(closed[1] + 1);
    }
  };
  const F64x2 floor_to = splat(t.floor_to);
  Pair first = load(*lanes[0], *lanes[1]);
  Pair second = load(*lanes[2], *lanes[3]);
  std::size_t i = from;
  if (t.ceiling_from == kInfinity && t.scaled_from == kInfinity) {
    // A bracket from s = 0 (the usual one where Σlo is close to 1, e.g. Park's box at large k): no atom can be at its
    // ceiling or scaled (p is finite), every term is +0 and leaves a lane's Fast2Sum as it is, so only the floors
    // are counted (into one vector: only the lanes' total is read), two atoms a step.
    for (; i + 2 <= end; i += 2) {
      const I64x2 low = load_pair(p + i) <= floor_to;
      first.floors -= low;
      note_open(i, low);
    }
  }
  const F64x2 ceiling_from = splat(t.ceiling_from);
  const F64x2 scaled_from = splat(t.scaled_from);
  const F64x2 scaled_to = splat(t.scaled_to);
  const F64x2 scale = splat(factor);
  const auto step = [&](std::size_t at, Pair& pair) {
    const F64x2 x = load_pair(p + at);
    const I64x2 at_ceiling = x >= ceiling_from;
    const I64x2 low = x <= floor_to;
    const I64x2 scaled = (x >= scaled_from) & (x <= scaled_to);
    pair.floors -= low;
    pair.ceilings -= at_ceiling;
    const F64x2 term = masked(scaled, x * scale);
    const F64x2 total = pair.sum + term;
    pair.error += term - (total - pair.sum);
    pair.sum = total;
    note_open(at, low | scaled | at_ceiling);
  };
  for (; i + 4 <= end; i += 4) {
    step(i, first);
    step(i + 2, second);
  }
  store(first, *lanes[0], *lanes[1]);
  store(second, *lanes[2], *lanes[3]);
  return i;
}
#endif

// close_over_p for a uniform box, by thresholds (the open atoms are materialised with their breakpoints).
void close_over_p_uniform(const Bounds& bounds, std::span<const double> p, const PowerOfTwo& rescale,
                          std::size_t zeros, FirstRound& round) {
  const UniformThresholds t = uniform_thresholds(bounds, rescale, round.s_low, round.s_high);
  // Four independent lanes, so consecutive atoms do not wait on each other. The scaled masses are summed
  // exactly by Fast2Sum (three additions instead of TwoSum's six): each lane starts at a power of two B above
  // every scaled mass (p <= hi/s_high), so |sum| >= |term| always holds and each rounding error is caught
  // exactly; the B's are taken off at the end by an exact sum. With s_low < s_high the regimes are disjoint
  // intervals of p: floor (0, floor_to], scaled [scaled_from, scaled_to], ceiling [ceiling_from, ∞).
  const double largest_scaled = bounds.hi(0) / round.s_high;
  const int top = largest_scaled > 0.0 ? std::ilogb(largest_scaled) + 2 : 0;
  const bool disjoint = round.s_low < round.s_high && top < 1000 && top > -1000;
  const double offset = disjoint ? std::ldexp(1.0, top) : 0.0;
  // p·2^-shift by one multiplication (solve keeps the shift of the first level within ±1023, so 2^-shift is a
  // double; multiplying by 1.0 when there is no shift is exact): one loop serves both.
  const double factor = rescale.factor();
  // Four lanes as four structs, never an array indexed by lane (g++ -O2 would keep that in memory).
  ClosingLane l0(offset), l1(offset), l2(offset), l3(offset);
  std::array<std::uint32_t, kBlock> pending;  // the open atoms of the current block
  std::size_t pending_count = 0;
  // Counts x <= floor_to including the zeros (taken off after): one comparison less per atom.
  const auto visit = [&](std::size_t i, ClosingLane& lane) {
    const double x = p[i];
    const bool at_ceiling = x >= t.ceiling_from;
    const bool low = x <= t.floor_to;
    const bool scaled = x >= t.scaled_from && x <= t.scaled_to;
    lane.floors += low ? 1 : 0;
    lane.ceilings += at_ceiling ? 1 : 0;
    const double term = scaled ? x * factor : 0.0;
    const double total = lane.sum + term;
    lane.error += term - (total - lane.sum);
    lane.sum = total;
    if (!(low || scaled || at_ceiling)) [[unlikely]] {
      pending[pending_count++] = static_cast<std::uint32_t>(i);
    }
  };
  if (disjoint) {
    // Blocks of kBlock atoms; a block's open atoms are noted on the stack and appended after it, so that the
    // inner loop calls nothing and its lanes stay in registers.
    for (std::size_t block = 0; block < p.size(); block += kBlock) {
      const std::size_t end = std::min(p.size(), block + kBlock);
      pending_count = 0;
      std::size_t i = block;
#if PRIVSAMPLE_VECTOR_CLOSING
      i = close_in_vector_lanes(p.data(), i, end, t, factor, {&l0, &l1, &l2, &l3}, pending.data(), pending_count);
#else
      for (; i + 4 <= end; i += 4) {  // four atoms a step, one lane each
        visit(i, l0);
        visit(i + 1, l1);
        visit(i + 2, l2);
        visit(i + 3, l3);
      }
#endif
      for (; i < end; ++i) visit(i, l0);
      for (std::size_t j = 0; j < pending_count; ++j) {
        round.open.push_back(bounds.atom(pending[j], p[pending[j]] * factor));
      }
    }
  } else {
    close_overlapping(bounds, p, t, factor, {&l0, &l1, &l2, &l3}, round);
  }
  ExactSum closed_slope;
  for (const ClosingLane* lane : {&l0, &l1, &l2, &l3}) {
    closed_slope.add(lane->slope.sum);
    closed_slope.add(lane->slope.error);
    closed_slope.add(lane->sum);
    closed_slope.add(lane->error);
    closed_slope.add(-offset);
  }
  std::size_t floors = l0.floors + l1.floors + l2.floors + l3.floors;
  if (disjoint) {
    floors -= zeros;  // p = 0 passed the x <= floor_to test
  }
  const std::size_t ceilings = l0.ceilings + l1.ceilings + l2.ceilings + l3.ceilings;
  round.constant.add(static_cast<double>(floors) * bounds.lo(0));
  round.constant.add(static_cast<double>(ceilings) * bounds.hi(0));
  closed_slope.add_to(round.slope);
}

// search_root over the atoms of p with positive mass and room, without materialising them all.
// `constant` holds the other atoms (always at lo).
RootSearch search_root_over_p(const Bounds& bounds, std::span<const double> p, const PowerOfTwo& rescale,
                              std::size_t open_count, double open_mass, double largest_open,
                              const CompensatedSum& constant, bool small_route) {
  std::vector<double> scratch;
  std::vector<Bounds::Atom> sample;
  std::pair<double, double> pivots;
  FirstRound round;
  round.constant = constant;
  const auto close = [&] {
    if (bounds.uniform()) {
      close_over_p_uniform(bounds, p, rescale, p.size() - open_count, round);
    } else {
      close_over_p(bounds, p, rescale, round);
    }
  };
  const bool have_pivots =
      bounds.uniform() && small_route && p.size() <= kSmall
          ? small_pivots(bounds, p, rescale, constant.value(), open_count, open_mass, largest_open, pivots)
          : pick_first_pivots(bounds, p, rescale, open_count, open_mass, constant.value(), scratch, sample, pivots);
  if (!have_pivots) {
    close();
    return search_root(bounds, round.open, round.constant, round.slope, round.s_low, round.s_high);
  }
  scratch = {};
  sample = {};
  round.s_low = pivots.first;
  round.s_high = pivots.second;
#if !defined(PRIVSAMPLE_CLIENT_SIZE_BUDGET)
  // Room for the open atoms the bracket usually leaves (a few times √n): growing the vector from empty cost a tenth
  // of a call at k = 10^4 natively (eleven reallocations and copies). Not in the client's module, whose pages mostly
  // solve small k: there it cost 111 gzip bytes.
  round.open.reserve(std::min<std::size_t>(open_count, 64 + 8 * static_cast<std::size_t>(std::sqrt(static_cast<double>(open_count)))));
#endif
  close();
  // F at the pivots (steering only): the closed atoms' part is affine in s on the bracket.
  const auto value_at = [&](double s) {
    CompensatedSum value = round.constant;
    value.add(s * round.slope.value());
    double open_part = 0.0;
    for (const auto& a : round.open) open_part += std::clamp(s * a.p, bounds.lo(a), bounds.hi(a));
    value.add(open_part);
    return value.value();
  };
  // F(0) = Σlo < 1 <= F(∞) in Case A, so bracket ends at 0 and ∞ need no evaluation (∞·0 would be NaN).
  const double at_first = pivots.first > 0.0 ? value_at(pivots.first) : 0.0;
  const double at_second = pivots.second < kInfinity ? value_at(pivots.second) : kInfinity;
  if (at_first < 1.0 && at_second >= 1.0) {
    return search_root(bounds, round.open, round.constant, round.slope, round.s_low, round.s_high);
  }
  // The sample missed: the root is below t1 or above t2, and the speculative closing does not apply.
  round.open.clear();
  round.constant = constant;
  round.slope = CompensatedSum{};
  if (at_first >= 1.0) {
    round.s_low = 0.0;
    round.s_high = pivots.first;
  } else {
    round.s_low = pivots.second;
    round.s_high = kInfinity;
  }
  close();
  return search_root(bounds, round.open, round.constant, round.slope, round.s_low, round.s_high);
}

// Where F is flat at 1 on a stretch of s (no atom strictly inside its box at s: a point mass, or one atom
// above the floor), every s there gives the same q and rounding decides where the search lands. Report
// the smallest root (the largest r_P, the end inside the papers' bracket [1, (e^ε+k−1)/e^ε]; core/mechanisms/minimax/README.md#reference-values:
// P = (0.9, 0.1), ε = 2 gives r_P = 1.021802). Such a stretch begins where its last atom reaches the
// ceiling, so the candidate is the largest ceiling breakpoint c <= s; it is the smallest root when
// F(c) >= 1 − kFlat, and s is otherwise.
double smallest_root(const Bounds& bounds, std::span<const double> p, const PowerOfTwo& shift, double s) {
  double candidate = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const double hi = bounds.hi(i);
    if (!(p[i] > 0.0) || !(hi > bounds.lo(i))) continue;
    const double reach_ceiling = hi / shift(p[i]);
    if (reach_ceiling <= s) candidate = std::max(candidate, reach_ceiling);
  }
  if (!(candidate > 0.0) || candidate == s) return s;
  CompensatedSum value;
  add_in_blocks(value, p.size(), [&](std::size_t i) {
    const double lo = bounds.lo(i);
    const double hi = bounds.hi(i);
    return (p[i] > 0.0 && hi > 0.0) ? std::clamp(candidate * shift(p[i]), lo, hi) : lo;
  });
  return value.value() >= 1.0 - kFlat ? candidate : s;
}

// Whether some atom is strictly inside its box at s (then F rises at s and a root there is the only one).
// s·p for an atom whose breakpoint is s lands within an ulp or two of its bound: that is not inside.
#if PRIVSAMPLE_VECTOR_CLOSING
[[gnu::noinline]]  // inlined into solve, its lanes cost the main passes ~5% at k = 10^6 (code layout)
#endif
bool some_atom_inside(const Bounds& bounds, std::span<const double> p, const PowerOfTwo& shift, double s) {
  constexpr double kUlps = 8 * std::numeric_limits<double>::epsilon();
  std::size_t i = 0;
#if PRIVSAMPLE_VECTOR_CLOSING
  // A uniform box in f64x2 lanes, a block at a time (the same products and comparisons, so the same answer). The
  // scalar loop, which runs over every mass where none is inside (F flat near the root, as with Park's box at
  // ε = 0.1), was ~20% of a call at k = 10^4-10^5 natively; in lanes such calls take 0.71-0.87x the time (10^3-10^6;
  // other calls at 10^6 1.03-1.07x: bench/README.md, clip-normalise-ab).
  if (bounds.uniform() && shift.factor() != 0.0) {
    const F64x2 scale = splat(s);
    const F64x2 factor = splat(shift.factor());
    const F64x2 above = splat(bounds.lo(0) * (1.0 + kUlps));
    const F64x2 below = splat(bounds.hi(0) * (1.0 - kUlps));
    while (i + 2 <= p.size()) {
      const std::size_t end = std::min(p.size() & ~std::size_t{1}, i + kBlock);
      F64x2 inside{};  // all-ones lanes where an atom was inside
      for (; i < end; i += 2) {
        const F64x2 value = scale * (load_pair(p.data() + i) * factor);
        inside = either(inside, within(value, above, below));
      }
      if (any_set(inside)) return true;
    }
  }
#endif
  for (; i < p.size(); ++i) {
    const double value = s * shift(p[i]);
    if (value > bounds.lo(i) * (1.0 + kUlps) && value < bounds.hi(i) * (1.0 - kUlps)) return true;
  }
  return false;
}

// The root to report and to build q from, on a single level. F(s) is known to ~1e-15, and the box itself
// only to an ulp of each bound, so a root within kFlat of an end of the final bracket where no atom is
// strictly inside its box is that end: a point mass then maps to k-RR exactly (q = hi rather than
// 1 − (k−1)·lo, which differs from hi by the rounding of the box, 1e-11 relative at k = 10^5). Where atoms
// are strictly inside, their q = s·p fixes s and the computed root stands.
double settle_root(const Bounds& bounds, std::span<const double> p, const PowerOfTwo& shift, const RootSearch& root) {
  if (root.s_low > 0.0 && (root.s == root.s_low || root.at_low >= 1.0 - kFlat) &&
      !some_atom_inside(bounds, p, shift, root.s_low)) {
    return smallest_root(bounds, p, shift, root.s_low);  // F may be flat at 1 below s_low too
  }
  if (root.s_high < kInfinity && root.at_high <= 1.0 + kFlat && !some_atom_inside(bounds, p, shift, root.s_high)) {
    return root.s_high;
  }
  return root.s;
}

// The output q: room for k values, none written yet. A large q is fresh memory from the system, and touching it
// page by page is what dominates a solve at k = 10^7 natively (20,000 page faults for 80 MB). On Linux, ask for
// transparent huge pages on it before the first touch (a hint: 2 MB pages, 500 times fewer faults; ignored
// where unavailable).
std::vector<double> reserved_output(std::size_t k) {
  std::vector<double> q;
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
  constexpr std::size_t kHugePage = std::size_t{1} << 21;
  if (k * sizeof(double) >= 4 * kHugePage) {
    q.reserve(k);
    const auto begin = reinterpret_cast<std::uintptr_t>(q.data());
    const std::uintptr_t first = (begin + kHugePage - 1) & ~(kHugePage - 1);
    const std::uintptr_t last = (begin + k * sizeof(double)) & ~(kHugePage - 1);
    if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
  }
#endif
  q.reserve(k);
  return q;
}

// q_i = clip(scale·p_i; lo, hi) as a random-access iterator, so that vector::assign writes q once, straight
// into the reserved memory (resize would first zero it: one more pass over 8·k bytes).
class ClippedScaled {
 public:
  using iterator_category = std::random_access_iterator_tag;
  using value_type = double;
  using difference_type = std::ptrdiff_t;
  using pointer = const double*;
  using reference = double;
  ClippedScaled(const double* at, double scale, double lo, double hi) : at_(at), scale_(scale), lo_(lo), hi_(hi) {}
  double operator*() const { return std::min(std::max(scale_ * *at_, lo_), hi_); }
  double operator[](difference_type n) const { return *(*this + n); }
  ClippedScaled& operator++() { ++at_; return *this; }
  ClippedScaled operator++(int) { ClippedScaled before = *this; ++at_; return before; }
  ClippedScaled& operator--() { --at_; return *this; }
  ClippedScaled operator--(int) { ClippedScaled before = *this; --at_; return before; }
  ClippedScaled& operator+=(difference_type n) { at_ += n; return *this; }
  ClippedScaled& operator-=(difference_type n) { at_ -= n; return *this; }
  friend ClippedScaled operator+(ClippedScaled it, difference_type n) { return it += n; }
  friend ClippedScaled operator+(difference_type n, ClippedScaled it) { return it += n; }
  friend ClippedScaled operator-(ClippedScaled it, difference_type n) { return it -= n; }
  friend difference_type operator-(const ClippedScaled& a, const ClippedScaled& b) { return a.at_ - b.at_; }
  friend bool operator==(const ClippedScaled& a, const ClippedScaled& b) { return a.at_ == b.at_; }
  friend auto operator<=>(const ClippedScaled& a, const ClippedScaled& b) { return a.at_ <=> b.at_; }

 private:
  const double* at_;
  double scale_;
  double lo_;
  double hi_;
};

// q_x = clip(scale·p_x; lo_x, hi_x) on the atoms with mass and lo_x + θ(hi_x − lo_x) on the others, for every case
// of both schedules: Case A (θ = 0), Case B (scale = +∞: the support at its ceiling) and the point box (scale = 0).
// Without a branch (the fixed schedule's last pass).
std::vector<double> clipped_output(std::span<const double> p, const Bounds& bounds, double scale, double theta) {
  const std::size_t k = p.size();
  std::vector<double> q = reserved_output(k);
  q.resize(k);
  for (std::size_t i = 0; i < k; ++i) {
    const double lo = bounds.lo(i);
    const double hi = bounds.hi(i);
    // Case B's lo + θ(hi − lo) (<= hi up to rounding, which the clip removes) is lo in Case A and the point box.
    q[i] = clip_bits(select_bits(p[i] > 0.0, scale * p[i], lo + theta * (hi - lo)), lo, hi);
  }
  return q;
}

// One of the four lanes of solve's validating scan of a uniform box's masses: what the case analysis and the search
// need (positive masses, the largest), and what finds bad input without a branch per mass (a NaN or ±∞ makes the
// total non-finite, a negative mass the smallest negative).
struct ScanLane {
  std::size_t positives = 0;
  double largest = 0.0;
  double smallest = 0.0;
  double mass = 0.0;
  void visit(double v) {
    positives += v > 0.0 ? 1 : 0;
    largest = std::max(largest, v);
    smallest = std::min(smallest, v);
    mass += v;
  }
};

#if PRIVSAMPLE_VECTOR_LANES
// The scan's four-mass steps while four masses remain, lanes 0, 1 and 2, 3 in two vectors; v > m ? v : m is
// std::max(m, v) (m < v ? v : m), and the same for min: the same values for NaN and ±0 too. Returns where it stopped.
PRIVSAMPLE_SIMD_FUNCTION std::size_t scan_in_vector_lanes(const double* p, std::size_t k,
                                                        std::array<ScanLane*, 4> lanes) {
  I64x2 positives_01{}, positives_23{};
  F64x2 largest_01{}, largest_23{}, smallest_01{}, smallest_23{}, mass_01{}, mass_23{};
  const F64x2 zero{};
  std::size_t i = 0;
  for (; i + 4 <= k; i += 4) {
    const F64x2 v01 = load_pair(p + i);
    const F64x2 v23 = load_pair(p + i + 2);
    positives_01 -= v01 > zero;
    positives_23 -= v23 > zero;
    largest_01 = larger(v01, largest_01);
    largest_23 = larger(v23, largest_23);
    smallest_01 = smaller(v01, smallest_01);
    smallest_23 = smaller(v23, smallest_23);
    mass_01 += v01;
    mass_23 += v23;
  }
  const auto lane = [](I64x2 positives, F64x2 largest, F64x2 smallest, F64x2 mass, int at) PRIVSAMPLE_SIMD_FUNCTION {
    return ScanLane{static_cast<std::size_t>(positives[at]), largest[at], smallest[at], mass[at]};
  };
  *lanes[0] = lane(positives_01, largest_01, smallest_01, mass_01, 0);
  *lanes[1] = lane(positives_01, largest_01, smallest_01, mass_01, 1);
  *lanes[2] = lane(positives_23, largest_23, smallest_23, mass_23, 0);
  *lanes[3] = lane(positives_23, largest_23, smallest_23, mass_23, 1);
  return i;
}
#endif

ClipNormalised solve(std::span<const double> p, const Bounds& bounds, bool small_route) {
  const bool uniform = bounds.uniform();
  const std::size_t k = p.size();
  if (k != bounds.size()) {
    throw_invalid({"clip_normalise: p has ", k, " entries but the box has ", bounds.size()});
  }
  if (k == 0) throw std::invalid_argument("clip_normalise: p is empty");
  if (k > std::numeric_limits<std::uint32_t>::max()) {
    throw_invalid({"clip_normalise: p has ", k, " entries: too many"});
  }
  if (uniform) check_bounds(bounds.lo(0), bounds.hi(0), 0);

  // One pass: validate and total what the case analysis needs. Open atoms (positive mass and room, regime
  // depends on s) are only counted here; the search reads them from p.
  std::size_t open_count = 0;
  CompensatedSum lo_total;
  CompensatedSum hi_total;
  CompensatedSum room_total;         // Σ(hi − lo): zero iff the box is a single point
  CompensatedSum value_at_infinity;  // F(∞) = Σ_open hi + Σ_rest lo
  CompensatedSum constant;           // the atoms that are not open
  double largest_mass = 0.0;
  double open_mass = 0.0;  // Σ p over the open atoms, for the search's estimates only
  if (uniform) {
    // Branch-free and in four lanes: this pass is a good part of the whole cost. A NaN or ±∞ makes the
    // total non-finite and a negative mass the smallest one negative; then the slow check names the index
    // (a total that overflows with valid masses passes it).
    // Four lanes as four structs, never an array indexed by lane: indexed, g++ -O2 keeps them in memory and
    // every step waits on a store (1.4 ns per mass at k = 10^4; ~0.4 ns in registers).
    ScanLane l0, l1, l2, l3;
    std::size_t i = 0;
#if PRIVSAMPLE_VECTOR_LANES
    i = scan_in_vector_lanes(p.data(), k, {&l0, &l1, &l2, &l3});
#else
    for (; i + 4 <= k; i += 4) {
      l0.visit(p[i]);
      l1.visit(p[i + 1]);
      l2.visit(p[i + 2]);
      l3.visit(p[i + 3]);
    }
#endif
    for (; i < k; ++i) l0.visit(p[i]);
    open_mass = (l0.mass + l1.mass) + (l2.mass + l3.mass);
    if (!(std::isfinite(open_mass) && std::min(std::min(l0.smallest, l1.smallest), std::min(l2.smallest, l3.smallest)) >= 0.0)) {
      for (std::size_t j = 0; j < k; ++j) check_mass(p[j], j);
    }
    largest_mass = std::max(std::max(l0.largest, l1.largest), std::max(l2.largest, l3.largest));
    open_count = bounds.hi(0) > 0.0 ? l0.positives + l1.positives + l2.positives + l3.positives : 0;
  } else {
    for (std::size_t i = 0; i < k; ++i) {
      check_mass(p[i], i);
      const double lo = bounds.lo(i);
      const double hi = bounds.hi(i);
      // The whole rule in one test; the call that names the fault only on failure.
      if (!valid_bounds(lo, hi)) [[unlikely]] check_bounds(lo, hi, i);
      lo_total.add(lo);
      hi_total.add(hi);
      room_total.add(hi - lo);
      if (p[i] > 0.0 && hi > 0.0) {
        ++open_count;
        open_mass += p[i];
        largest_mass = std::max(largest_mass, p[i]);
        value_at_infinity.add(hi);
      } else {
        value_at_infinity.add(lo);
        constant.add(lo);
      }
    }
  }
  if (uniform) {
    const auto n = static_cast<double>(k);
    const auto rest = static_cast<double>(k - open_count);
    lo_total.add(n * bounds.lo(0));
    hi_total.add(n * bounds.hi(0));
    room_total.add(n * (bounds.hi(0) - bounds.lo(0)));
    value_at_infinity.add(static_cast<double>(open_count) * bounds.hi(0));
    value_at_infinity.add(rest * bounds.lo(0));
    constant.add(rest * bounds.lo(0));
  }
  check_box_totals(lo_total.value(), hi_total.value());

  // q is allocated where it is written, after the search has freed its scratch: the heap then peaks at q or the
  // scratch, not both (at k = 10^4, q is 80 KB and both together crossed glibc's 128 KB trim threshold, so every
  // call gave the heap back and faulted it in again).
  ClipNormalised out;
  if (room_total.value() <= 0.0 || lo_total.value() >= 1.0) {
    out.q = clipped_output(p, bounds, 0.0, 0.0);
    out.scale = 0.0;
    out.kind = ClipCase::box_is_point;
    return out;
  }

  // No open atom (all mass where hi = 0) with F(∞) = Σlo within kFlat of 1: F is constant, so no root to search
  // for (the search would rescale by the largest open mass, 0); Case B's formula gives the q.
  if (value_at_infinity.value() < 1.0 - kFlat || open_count == 0) {
    // Case B: even with the whole support at its ceiling the mass is short; the zero atoms share the
    // rest at one common fraction θ of their room. (F(∞) = 1 is Case A: a point mass whose ceiling
    // plus the others' floors make 1 has the root hi/p.)
    CompensatedSum zero_room;
    for (std::size_t i = 0; i < k; ++i) {
      if (!(p[i] > 0.0)) zero_room.add(bounds.hi(i) - bounds.lo(i));
    }
    const double shortfall = 1.0 - value_at_infinity.value();
    const double theta = zero_room.value() > 0.0 ? std::clamp(shortfall / zero_room.value(), 0.0, 1.0) : 0.0;
    out.q = clipped_output(p, bounds, kInfinity, theta);
    out.scale = kInfinity;
    out.kind = ClipCase::sparse_support;
    return out;
  }

  // Case A: F(0) = Σlo < 1 <= F(∞). The search works with p·2^-shift; when the largest mass is beyond
  // 2^±500 the shift brings it near 1, so that its breakpoints are ordinary numbers and so is the root,
  // whatever the scale of p (5e-324 or 1e300). Masses far below the largest (ratio beyond ~2^1000) may
  // have breakpoints at +∞; they sit at their floor (or scale, with lo = 0) at every finite s. Should the
  // root lie past every finite breakpoint, it lies past the double range: the atoms with a finite ceiling
  // breakpoint are then exactly at their ceiling, and the search repeats on the others (one more level),
  // rescaled by their own largest mass. Each level is exact and removes at least its largest atom.
  int shift = 0;
  // (At least −1023: a subnormal largest mass is brought near 2^-51 rather than 1, so that 2^-shift is a double.)
  if (largest_mass < 0x1p-500 || largest_mass > 0x1p500) shift = std::max(std::ilogb(largest_mass), -1023);
  std::vector<Bounds::Atom> open;
  // The shift of the last level and of the one before (more levels need no memory: only these two are read).
  int last_shift = shift;
  int shift_before_last = 0;
  std::size_t levels = 1;
  RootSearch root = search_root_over_p(bounds, p, PowerOfTwo(-shift), open_count, PowerOfTwo(-shift)(open_mass),
                                       PowerOfTwo(-shift)(largest_mass), constant, small_route);
  for (;;) {
    if (!root.beyond_range) break;
    // Rare (masses spanning more than ~2^1000): whether some open atom's ceiling breakpoint is +∞.
    const PowerOfTwo previous(-last_shift);
    bool has_deep_atoms = false;
    for (std::size_t i = 0; i < k; ++i) {
      has_deep_atoms |= p[i] > 0.0 && bounds.hi(i) > 0.0 && !(bounds.hi(i) / previous(p[i]) < kInfinity);
    }
    if (!has_deep_atoms) break;
    const auto in_next_level = [&](std::size_t i) { return !(bounds.hi(i) / previous(p[i]) < kInfinity); };
    constant = CompensatedSum{};
    largest_mass = 0.0;
    for (std::size_t i = 0; i < k; ++i) {
      if (!(p[i] > 0.0 && bounds.hi(i) > 0.0)) {
        constant.add(bounds.lo(i));
      } else if (!in_next_level(i)) {
        constant.add(bounds.hi(i));  // past its ceiling breakpoint, which the root exceeds
      } else {
        largest_mass = std::max(largest_mass, p[i]);
      }
    }
    shift_before_last = last_shift;
    last_shift = std::ilogb(largest_mass);
    ++levels;
    const PowerOfTwo rescale(-last_shift);
    open.clear();
    for (std::size_t i = 0; i < k; ++i) {
      if (p[i] > 0.0 && bounds.hi(i) > 0.0 && in_next_level(i)) open.push_back(bounds.atom(i, rescale(p[i])));
    }
    root = search_root(bounds, open, constant);
  }

  // q = clip(scale·p) with the scale in p's own units when that is an ordinary double: a mass that the
  // shift pushed into the subnormal range would lose digits.
  const PowerOfTwo last(-last_shift);
  const double s = levels == 1 ? settle_root(bounds, p, last, root) : root.s;
  const double scale = last(s);
  const bool scale_is_normal = std::isnormal(scale);
  const auto scaled_mass = [&](double mass) { return scale_is_normal ? scale * mass : s * last(mass); };
  open = {};
  if (uniform && levels == 1 && scale_is_normal) {
    // Same values as clipped_output (clip(scale·0) = lo, and hi > 0 in Case A), without its masks (the adaptive
    // search needs no branch-free output): written once into reserved memory and vectorised (natively 45 against
    // 61 µs at k = 10^4, 3.3 against 4.6 ms at 10^6; in the research module 0.9-1.3 against 1.6-1.8 ms at 10^6); in the
    // client a plain loop (vector::assign over ClippedScaled cost it 80 gzip bytes; clipped_output made distribution()
    // 1.1x slower at k = 10^4).
    const double lo = bounds.lo(0);
    const double hi = bounds.hi(0);
    out.q = reserved_output(k);
#if defined(PRIVSAMPLE_CLIENT_SIZE_BUDGET)
    out.q.resize(k);
    for (std::size_t i = 0; i < k; ++i) out.q[i] = std::min(std::max(scale * p[i], lo), hi);
#else
    out.q.assign(ClippedScaled(p.data(), scale, lo, hi), ClippedScaled(p.data() + k, scale, lo, hi));
#endif
  } else if (levels == 1 && scale_is_normal) {
    out.q = clipped_output(p, bounds, scale, 0.0);
  } else {
    out.q = reserved_output(k);
    out.q.resize(k);
    const PowerOfTwo before_last(-shift_before_last);
    for (std::size_t i = 0; i < k; ++i) {
      const double lo = bounds.lo(i);
      const double hi = bounds.hi(i);
      if (!(p[i] > 0.0 && hi > 0.0)) {
        out.q[i] = lo;
      } else if (levels > 1 && hi / before_last(p[i]) < kInfinity) {
        out.q[i] = hi;  // an earlier level: past its ceiling breakpoint
      } else {
        out.q[i] = std::clamp(scaled_mass(p[i]), lo, hi);
      }
    }
  }
  out.scale = scale;  // +∞ when the root exceeds the largest double
  out.kind = ClipCase::root;
  return out;
}

// ---- The release path's schedule (RootSchedule::fixed; docs/draw-policy.md) ---------------------------------------
// The same problem, solved with a sequence of operations that k alone fixes: whatever p is, the same passes run and
// each does the same arithmetic per atom, with no data-dependent branch, not even a select on doubles (select_bits,
// clip_bits; in the client's WebAssembly f64x2 lanes, below). What is left to the data is the time of one
// floating-point operation, constant on common CPUs except for subnormal numbers (masses below ~2^-500, or boxes
// with such bounds).
//
//  1. 63 passes evaluate F̃(t) = Σ clip(t·p; lo, hi), each at the next candidate of a binary search over the bit
//     patterns of the finite doubles t >= 0 (one bit per pass, highest first). F̃ sums in a fixed order, and
//     rounded additions of non-decreasing terms are non-decreasing, so the search ends at the largest double a
//     with F̃(a) < 1; b, the next double, has F̃(b) >= 1. No double lies between them.
//  2. One pass checks the input, totals Σlo, Σhi and F(∞) for the case analysis, and classifies every atom on
//     [a, b] (floor where b·p <= lo, ceiling where a·p >= hi, else scaled), totalling C and S with TwoSum, so
//     s = (1 − C)/S; one pass checks F̃(s); one writes q = clip(s·p; lo, hi). 66 passes in all.
// F̃ is within 6e-14 of F, so a breakpoint that close to the root can land on the other side of it: q then differs
// from the adaptive search's by about that much, and Σq = 1 holds within kFlat. Case B and the point box run the
// same passes and select their formula per atom. Invalid input (found in step 2, after a search on NaNs that does
// no harm) and roots past the largest double (masses spanning more than ~2^1000, which no histogram of counts has)
// are handed to the adaptive search.
//
// The passes sum in lanes: lane j takes the atoms whose index (in F̃'s blocks, counted from the block's start) is j
// modulo the number of lanes, in order, and the lanes are merged in one fixed order. In the client's WebAssembly the
// lanes are f64x2 registers: the clip is f64x2.pmin/pmax, which V8 compiles to minpd/maxpd, and selects are masks,
// so no branch; an odd k's last pair in the checking pass holds a zero atom (p = lo = hi = 0), which adds exactly
// nothing. Elsewhere scalar lanes with the same roundings in the same order: every build gives the same answers bit
// for bit (tests/digest/). Measured in Node 20 (2026-11-26), f64x2 lanes made sample() 2.2x (k = 100) to 3.4x
// (k = 10^4) faster than scalar code (one lane of integer clips, select_bits), four lanes for F̃ 1.2-1.4x faster
// than two, and one checking pass instead of three (the first two totalled Σlo and F(∞)) 1.1x.
#if PRIVSAMPLE_SIMD_LANES
// Lanes 0-3 of F̃ over the whole groups of four atoms from `from` on (`groups` of them), with plain loads.
template <bool kPerAtom>
PRIVSAMPLE_SIMD_FUNCTION void add_groups(const double* p, const Bounds& bounds, std::size_t from, std::size_t groups,
                                         double t, double (&lane)[4]) {
  const v128_t scale = wasm_f64x2_splat(t);
  v128_t lo = wasm_f64x2_splat(bounds.lo_at[0]);
  v128_t hi = wasm_f64x2_splat(bounds.hi_at[0]);
  v128_t lo_next = lo;
  v128_t hi_next = hi;
  v128_t low_lanes = wasm_f64x2_splat(0.0);  // lanes 0 and 1
  v128_t high_lanes = low_lanes;             // lanes 2 and 3
  for (std::size_t i = from; i < from + 4 * groups; i += 4) {
    if constexpr (kPerAtom) {
      lo = wasm_v128_load(bounds.lo_at + i);
      hi = wasm_v128_load(bounds.hi_at + i);
      lo_next = wasm_v128_load(bounds.lo_at + i + 2);
      hi_next = wasm_v128_load(bounds.hi_at + i + 2);
    }
    const v128_t low = wasm_f64x2_mul(scale, wasm_v128_load(p + i));
    const v128_t high = wasm_f64x2_mul(scale, wasm_v128_load(p + i + 2));
    low_lanes = wasm_f64x2_add(low_lanes, wasm_f64x2_pmin(hi, wasm_f64x2_pmax(lo, low)));
    high_lanes = wasm_f64x2_add(high_lanes, wasm_f64x2_pmin(hi_next, wasm_f64x2_pmax(lo_next, high)));
  }
  lane[0] = wasm_f64x2_extract_lane(low_lanes, 0);
  lane[1] = wasm_f64x2_extract_lane(low_lanes, 1);
  lane[2] = wasm_f64x2_extract_lane(high_lanes, 0);
  lane[3] = wasm_f64x2_extract_lane(high_lanes, 1);
}
#endif

// F̃(t) = Σ clip(t·p; lo, hi): blocks of kBlock terms summed plainly in four lanes, the block's part
// (lane 0 + lane 2) + (lane 1 + lane 3), one error-free add per block. t·0 = 0 puts a zero atom at its floor and
// t·p = +∞ (overflow) an atom at its ceiling, so every atom is the same term; t is finite (t = +∞ would make
// 0·t = NaN).
[[gnu::noinline]] double value_in_fixed_order(std::span<const double> p, const Bounds& bounds, double t) {
  ExactSum total;  // TwoSum: no branch (Neumaier's CompensatedSum selects by magnitude)
  const std::size_t k = p.size();
  const auto term = [&](std::size_t i) { return clip_bits(t * p[i], bounds.lo(i), bounds.hi(i)); };
  for (std::size_t block = 0; block < k; block += kBlock) {
    const std::size_t end = std::min(k, block + kBlock);
    double lane[4] = {0.0, 0.0, 0.0, 0.0};
    std::size_t i = block;
#if PRIVSAMPLE_SIMD_LANES
    const std::size_t groups = (end - block) / 4;
    if (bounds.uniform()) {
      add_groups<false>(p.data(), bounds, block, groups, t, lane);
    } else {
      add_groups<true>(p.data(), bounds, block, groups, t, lane);
    }
    // the atoms after the last group of four (lanes 0, 1, 2)
    for (i += 4 * groups; i < end; ++i) lane[(i - block) % 4] += term(i);
#else
    for (; i + 4 <= end; i += 4) {
      lane[0] += term(i);
      lane[1] += term(i + 1);
      lane[2] += term(i + 2);
      lane[3] += term(i + 3);
    }
    if (i < end) lane[0] += term(i++);  // the same, by constant indices: the lanes stay in registers
    if (i < end) lane[1] += term(i++);
    if (i < end) lane[2] += term(i++);
#endif
    total.add((lane[0] + lane[2]) + (lane[1] + lane[3]));
  }
  return total.value();
}

// Two ExactSums, the even and the odd atoms, merged in one order.
struct PairedSum {
  ExactSum even;
  ExactSum odd;
  [[nodiscard]] ExactSum merged() const {
    ExactSum total = even;
    total.add(odd.sum);
    total.error += odd.error;
    return total;
  }
  [[nodiscard]] double value() const { return merged().value(); }
};

// The checking pass of the fixed schedule, in two lanes (even and odd atoms): the input checks and what the case
// analysis needs (Σlo is F(0); F(∞) puts every atom with mass at its ceiling and the others at their floor; Σhi;
// the zero atoms' room Σ(hi − lo), Case B's θ), and C and S of F(s) = C + s·S on a bracket [a, b] with no breakpoint
// strictly inside (an atom is at its floor where b·p <= lo, at its ceiling where a·p >= hi, else scaled).
struct Regimes {
  PairedSum lo;
  PairedSum at_infinity;
  PairedSum hi;
  PairedSum zero_room;
  PairedSum constant;
  PairedSum slope;
  std::size_t open_count = 0;
  bool any_room = false;
  bool faulty = false;
};

#if PRIVSAMPLE_SIMD_LANES
PRIVSAMPLE_SIMD_FUNCTION inline void unpack(const LaneSums& lanes, PairedSum& out) {
  out.even = lanes.lane(0);
  out.odd = lanes.lane(1);
}

PRIVSAMPLE_SIMD_FUNCTION Regimes regimes_on(std::span<const double> p, const Bounds& bounds, double a, double b) {
  const std::size_t k = p.size();
  const v128_t zero = wasm_f64x2_splat(0.0);
  const v128_t infinity = wasm_f64x2_splat(kInfinity);
  LaneSums lo_total, at_infinity, hi_total, zero_room, constant, slope;
  v128_t faulty = zero;
  v128_t any_room = zero;
  v128_t open_count = zero;
  for (std::size_t i = 0; i < k; i += 2) {
    // past the end (odd k) a zero atom (p = lo = hi = 0)
    const v128_t keep = pair_mask(i, k);
    const v128_t mass = pair_at(p.data(), 1, i, k, keep);
    const v128_t lo = pair_at(bounds.lo_at, bounds.step, i, k, keep);
    const v128_t hi = pair_at(bounds.hi_at, bounds.step, i, k, keep);
    const v128_t valid = wasm_v128_and(wasm_v128_and(wasm_f64x2_ge(mass, zero), wasm_f64x2_lt(mass, infinity)),
                                       wasm_v128_and(wasm_v128_and(wasm_f64x2_ge(lo, zero), wasm_f64x2_ge(hi, lo)),
                                                     wasm_f64x2_lt(hi, infinity)));
    faulty = wasm_v128_or(faulty, wasm_v128_not(valid));
    any_room = wasm_v128_or(any_room, wasm_f64x2_gt(hi, lo));
    const v128_t has_mass = wasm_f64x2_gt(mass, zero);
    open_count = wasm_i64x2_sub(open_count, wasm_v128_and(has_mass, wasm_f64x2_gt(hi, zero)));  // a true lane is −1
    lo_total.add(lo);
    at_infinity.add(wasm_v128_bitselect(hi, lo, has_mass));
    hi_total.add(hi);
    zero_room.add(wasm_v128_andnot(wasm_f64x2_sub(hi, lo), has_mass));
    const v128_t at_floor = wasm_v128_not(wasm_f64x2_gt(wasm_f64x2_mul(wasm_f64x2_splat(b), mass), lo));
    const v128_t at_ceiling = wasm_v128_andnot(wasm_f64x2_ge(wasm_f64x2_mul(wasm_f64x2_splat(a), mass), hi), at_floor);
    constant.add(wasm_v128_bitselect(lo, wasm_v128_and(hi, at_ceiling), at_floor));
    slope.add(wasm_v128_andnot(mass, wasm_v128_or(at_floor, at_ceiling)));
  }
  Regimes r;
  unpack(lo_total, r.lo);
  unpack(at_infinity, r.at_infinity);
  unpack(hi_total, r.hi);
  unpack(zero_room, r.zero_room);
  unpack(constant, r.constant);
  unpack(slope, r.slope);
  r.faulty = wasm_v128_any_true(faulty);
  r.any_room = wasm_v128_any_true(any_room);
  r.open_count =
      static_cast<std::size_t>(-(wasm_i64x2_extract_lane(open_count, 0) + wasm_i64x2_extract_lane(open_count, 1)));
  return r;
}
#else
Regimes regimes_on(std::span<const double> p, const Bounds& bounds, double a, double b) {
  Regimes r;
  // One atom into the even or the odd lanes, the lane chosen at compile time.
  const auto visit = [&]<bool kOdd>(std::size_t i, std::bool_constant<kOdd>) {
    const auto lane = [](PairedSum& sum) -> ExactSum& {
      if constexpr (kOdd) return sum.odd;
      return sum.even;
    };
    const double mass = p[i];
    const double lo = bounds.lo(i);
    const double hi = bounds.hi(i);
    r.faulty |= !valid_mass(mass) | !valid_bounds(lo, hi);
    r.any_room |= hi > lo;
    r.open_count += mass > 0.0 && hi > 0.0;
    lane(r.lo).add(lo);
    lane(r.at_infinity).add(select_bits(mass > 0.0, hi, lo));
    lane(r.hi).add(hi);
    lane(r.zero_room).add(select_bits(mass > 0.0, 0.0, hi - lo));
    const bool at_floor = !(b * mass > lo);
    const bool at_ceiling = !at_floor && a * mass >= hi;
    lane(r.constant).add(select_bits(at_floor, lo, select_bits(at_ceiling, hi, 0.0)));
    lane(r.slope).add(select_bits(at_floor || at_ceiling, 0.0, mass));
  };
  std::size_t i = 0;
  for (; i + 2 <= p.size(); i += 2) {
    visit(i, std::false_type{});
    visit(i + 1, std::true_type{});
  }
  if (i < p.size()) visit(i, std::false_type{});
  return r;
}
#endif

ClipNormalised solve_in_fixed_steps(std::span<const double> p, const Bounds& bounds) {
  const std::size_t k = p.size();
  // Which names the fault: errors need no fixed schedule (a p longer than a per-atom box would be read past it).
  if (k != bounds.size() || k == 0) return solve(p, bounds, true);

  // 1. The largest double a with F̃(a) < 1 (0 when F̃ reaches 1 at once: a point box). Invalid input makes some
  // F̃ NaN (a wasted search, no harm); the pass of step 2 finds it and hands it to the adaptive search, which names it.
  std::uint64_t below = 0;
  for (int bit = 62; bit >= 0; --bit) {
    const std::uint64_t candidate = std::min(below | (std::uint64_t{1} << bit), kLargestFiniteBits);
    below ^= (below ^ candidate) & mask_of(value_in_fixed_order(p, bounds, double_of(candidate)) < 1.0);
  }
  const double a = double_of(below);
  const double b = double_of(below + 1);  // +∞ after the largest double

  // 2. One pass: the input checks, Σlo, F(∞), and the piece C + s·S on [a, b]; then q.
  const Regimes piece = regimes_on(p, bounds, a, b);
  const double lo_total = piece.lo.value();
  const double value_at_infinity = piece.at_infinity.value();
  if (piece.faulty || lo_total > 1.0 + kBoxSumTolerance || piece.hi.value() < 1.0 - kBoxSumTolerance) [[unlikely]] {
    return solve(p, bounds, true);
  }
  // The piece's root can fall outside [a, b] where F̃'s rounding put the bracket off the exact crossing of 1: by a
  // few thousand ulps where the slope is small (the piece's line is then still the better root), or far off where F
  // stays within ~1e-13 of 1 over a long stretch (masses near 1e-322 next to 1e303: the piece's C exceeds 1 and
  // (1 − C)/S is negative). One more pass (every call) checks F̃ at the piece's root; if it misses 1 by more than
  // kFlat, s is clamped into [a, b], where Σq = F(s) is within ~1.2e-13 of 1.
  const double slope = piece.slope.value();
  const ExactSum constant = piece.constant.merged();
  double s = slope > 0.0 ? ((1.0 - constant.sum) - constant.error) / slope : (b < kInfinity ? b : a);
  // (s = +∞, an overflowing quotient, is a miss: the pass runs at the largest double, as for every input.)
  const double at_root = value_in_fixed_order(p, bounds, std::clamp(s, 0.0, std::numeric_limits<double>::max()));
  if (!(s < kInfinity && std::fabs(at_root - 1.0) <= kFlat)) s = std::clamp(s, a, b);
  ClipNormalised out;
  double theta = 0.0;  // the zero atoms' share of their room (Case B)
  if (!piece.any_room || lo_total >= 1.0) {
    s = 0.0;
    out.kind = ClipCase::box_is_point;
  } else if (value_at_infinity < 1.0 - kFlat || piece.open_count == 0) {
    const double room = piece.zero_room.value();
    theta = room > 0.0 ? std::clamp((1.0 - value_at_infinity) / room, 0.0, 1.0) : 0.0;
    s = kInfinity;
    out.kind = ClipCase::sparse_support;
  } else if (!(b < kInfinity)) {
    // F̃ stays below 1: either F is flat at F(∞), within kFlat of 1, beyond its last breakpoint (a point mass at ε =
    // 20, k = 2: hi + lo = 1 − 1e-16), whose q is the limit there, the support at its ceiling (the adaptive search's
    // q), or the root lies past the largest double (masses spanning more than ~2^1000: the adaptive search).
    // The limit's scale is +∞ (the adaptive search reports the last ceiling breakpoint, where F is flat).
    if (value_at_infinity > 1.0 + kFlat) [[unlikely]] return solve(p, bounds, true);
    s = kInfinity;
  }
  out.q = clipped_output(p, bounds, s, theta);
  out.scale = s;
  return out;
}

Bounds uniform_bounds(const UniformBox& box) { return {&box.lo, &box.hi, 0, box.size}; }

Bounds atom_bounds(const AtomBox& box) {
  if (box.lo.size() != box.hi.size()) {
    throw_invalid({"clip_normalise: lo has ", box.lo.size(), " entries but hi has ", box.hi.size()});
  }
  return {box.lo.data(), box.hi.data(), 1, box.lo.size()};
}

}  // namespace

ClipNormalised clip_normalise(std::span<const double> p, const UniformBox& box, RootSchedule schedule) {
  return schedule == RootSchedule::fixed ? solve_in_fixed_steps(p, uniform_bounds(box))
                                         : solve(p, uniform_bounds(box), true);
}

ClipNormalised clip_normalise(std::span<const double> p, const AtomBox& box, RootSchedule schedule) {
  return schedule == RootSchedule::fixed ? solve_in_fixed_steps(p, atom_bounds(box)) : solve(p, atom_bounds(box), true);
}

namespace detail {

ClipNormalised clip_normalise_without_small_route(std::span<const double> p, const UniformBox& box) {
  return solve(p, uniform_bounds(box), false);
}

}  // namespace detail

}  // namespace privsample
