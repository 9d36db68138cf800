// clip-normalise's fixed schedule (RootSchedule::fixed; docs/solvers/clip-normalise.md, docs/draw-policy.md): the same
// problem, solved with a sequence of operations that k alone fixes: whatever p is, the same passes run and each does
// the same arithmetic per atom, with no data-dependent branch, not even a select on doubles (select_bits, clip_bits;
// in the client's WebAssembly f64x2 lanes). What is left to the data is the time of one floating-point operation,
// constant on common CPUs except for subnormal numbers (masses below ~2^-500, or boxes with such bounds).
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
// for bit (tests/digest/).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <type_traits>

#include "solver/clip_normalise_lanes.hpp"
#include "solver/clip_normalise_parts.hpp"

namespace privsample::clip_solver {
namespace {

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

// The two passes of the schedule, F̃(t) (value_in_fixed_order) and the checking pass (regimes_on), in the client's
// WebAssembly SIMD lanes or in scalar lanes: the same operations in the same order, so the same doubles.
//
// F̃(t) = Σ clip(t·p; lo, hi): blocks of kBlock terms summed plainly in four lanes, the block's part
// (lane 0 + lane 2) + (lane 1 + lane 3), one error-free add per block. t·0 = 0 puts a zero atom at its floor and
// t·p = +∞ (overflow) an atom at its ceiling, so every atom is the same term; t is finite (t = +∞ would make
// 0·t = NaN).
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

[[gnu::noinline]] double value_in_fixed_order(std::span<const double> p, const Bounds& bounds, double t) {
  ExactSum total;  // TwoSum: no branch (Neumaier's CompensatedSum selects by magnitude)
  const std::size_t k = p.size();
  const auto term = [&](std::size_t i) { return clip_bits(t * p[i], bounds.lo(i), bounds.hi(i)); };
  for (std::size_t block = 0; block < k; block += kBlock) {
    const std::size_t end = std::min(k, block + kBlock);
    double lane[4] = {0.0, 0.0, 0.0, 0.0};
    std::size_t i = block;
    const std::size_t groups = (end - block) / 4;
    if (bounds.uniform()) {
      add_groups<false>(p.data(), bounds, block, groups, t, lane);
    } else {
      add_groups<true>(p.data(), bounds, block, groups, t, lane);
    }
    // the atoms after the last group of four (lanes 0, 1, 2)
    for (i += 4 * groups; i < end; ++i) lane[(i - block) % 4] += term(i);
    total.add((lane[0] + lane[2]) + (lane[1] + lane[3]));
  }
  return total.value();
}

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
[[gnu::noinline]] double value_in_fixed_order(std::span<const double> p, const Bounds& bounds, double t) {
  ExactSum total;  // TwoSum: no branch (Neumaier's CompensatedSum selects by magnitude)
  const std::size_t k = p.size();
  const auto term = [&](std::size_t i) { return clip_bits(t * p[i], bounds.lo(i), bounds.hi(i)); };
  for (std::size_t block = 0; block < k; block += kBlock) {
    const std::size_t end = std::min(k, block + kBlock);
    double lane[4] = {0.0, 0.0, 0.0, 0.0};
    std::size_t i = block;
    for (; i + 4 <= end; i += 4) {
      lane[0] += term(i);
      lane[1] += term(i + 1);
      lane[2] += term(i + 2);
      lane[3] += term(i + 3);
    }
    if (i < end) lane[0] += term(i++);  // the same, by constant indices: the lanes stay in registers
    if (i < end) lane[1] += term(i++);
    if (i < end) lane[2] += term(i++);
    total.add((lane[0] + lane[2]) + (lane[1] + lane[3]));
  }
  return total.value();
}

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

}  // namespace

ClipSolution solve_in_fixed_steps(std::span<const double> p, const Bounds& bounds, const QOut& q) {
  const std::size_t k = p.size();
  // Which names the fault: errors need no fixed schedule (a p longer than a per-atom box would be read past it).
  if (k != bounds.size() || k == 0) return solve(p, bounds, true, q);

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
    return solve(p, bounds, true, q);
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
  ClipSolution out;
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
    if (value_at_infinity > 1.0 + kFlat) [[unlikely]] return solve(p, bounds, true, q);
    s = kInfinity;
  }
  clipped_output(p, bounds, s, theta, q);
  out.scale = s;
  return out;
}

}  // namespace privsample::clip_solver
