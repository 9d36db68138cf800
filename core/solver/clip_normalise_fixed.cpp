// clip-normalise's fixed schedule (RootSchedule::fixed; docs/solvers/clip-normalise.md, docs/draw-policy.md): the same
// problem, solved with a sequence of operations that k alone fixes: whatever p is, the same passes run and each does
// the same arithmetic per atom, with no data-dependent branch, not even a select on doubles (select_bits, clip_bits;
// f64x2 lanes with masks where the build has them). What is left to the data is the time of one floating-point
// operation, constant on common CPUs except for subnormal numbers (masses below ~2^-500, or boxes with such bounds).
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
// modulo the number of lanes, in order, and the lanes are merged in one fixed order. Where the build has f64x2 vectors
// (natively SSE2 or NEON, the research module's and the client's WebAssembly SIMD), F̃ keeps lanes 0 and 1 in one
// vector and 2 and 3 in another: the clip is max then min (maxpd/minpd, f64x2.pmax/pmin, which V8 compiles to
// maxpd/minpd), no branch. The checking pass keeps the even and the odd atoms' sums in the two lanes of one vector
// (in the client by WebAssembly SIMD intrinsics, elsewhere by vector types), selects by masks; an odd k's last pair
// holds a zero atom (p = lo = hi = 0), which adds exactly nothing. The scalar lanes (PRIVSAMPLE_SCALAR_FORMS) do the
// same roundings in the same order: every build gives the same answers bit for bit (tests/digest/, and F̃ against the
// plain scalar loop in tests/native/clip_normalise_test.cpp).
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

// F̃(t) = Σ clip(t·p; lo, hi): blocks of kBlock terms summed plainly in four lanes, the block's part
// (lane 0 + lane 2) + (lane 1 + lane 3), one error-free add per block. t·0 = 0 puts a zero atom at its floor and
// t·p = +∞ (overflow) an atom at its ceiling, so every atom is the same term; t is finite (t = +∞ would make
// 0·t = NaN).
#if PRIVSAMPLE_VECTOR_LANES
// A block's part of F̃, (lane 0 + lane 2) + (lane 1 + lane 3), from the `groups` whole groups of four atoms from `from`
// on, then the `rest` (0 to 3) after them: lanes 0 and 1 in one f64x2, 2 and 3 in another, each lane the scalar form's
// adds in its order; the clip is max then min (maxpd/minpd, f64x2.pmax/pmin), no branch. They differ from
// std::max/std::min only where x equals a bound, in the sign of a zero, which no sum starting at +0 keeps. The rest
// goes into lanes 0, 1 and 2 as a last group whose lanes without an atom add +0 (masked), which changes no sum: the
// same doubles as the scalar form's tail, without its integer clips.
template <bool kPerAtom>
PRIVSAMPLE_SIMD_FUNCTION double block_part(const double* p, const Bounds& bounds, std::size_t from, std::size_t groups,
                                           std::size_t rest, double t) {
  const F64x2 scale = splat(t);
  F64x2 lo = splat(bounds.lo_at[0]);
  F64x2 hi = splat(bounds.hi_at[0]);
  F64x2 lo_next = lo;
  F64x2 hi_next = hi;
  F64x2 low_lanes = splat(0.0);  // lanes 0 and 1
  F64x2 high_lanes = low_lanes;  // lanes 2 and 3
  std::size_t i = from;
  for (; i < from + 4 * groups; i += 4) {
    if constexpr (kPerAtom) {
      lo = load_pair(bounds.lo_at + i);
      hi = load_pair(bounds.hi_at + i);
      lo_next = load_pair(bounds.lo_at + i + 2);
      hi_next = load_pair(bounds.hi_at + i + 2);
    }
    low_lanes += smaller(larger(scale * load_pair(p + i), lo), hi);
    high_lanes += smaller(larger(scale * load_pair(p + i + 2), lo_next), hi_next);
  }
  if (rest > 0) {  // k's remainder, the same for every p
    const std::size_t second = rest > 1 ? i + 1 : i;
    const I64x2 keep_low{-1, rest > 1 ? -1 : 0};
    const I64x2 keep_high{rest > 2 ? -1 : 0, 0};
    const std::size_t third = rest > 2 ? i + 2 : i;
    const F64x2 low = F64x2{p[i], p[second]};
    const F64x2 high = F64x2{p[third], p[third]};
    low_lanes += masked(keep_low, smaller(larger(scale * low, F64x2{bounds.lo(i), bounds.lo(second)}),
                                          F64x2{bounds.hi(i), bounds.hi(second)}));
    high_lanes += masked(keep_high, smaller(larger(scale * high, splat(bounds.lo(third))), splat(bounds.hi(third))));
  }
  const F64x2 halves = low_lanes + high_lanes;  // (lane 0 + lane 2, lane 1 + lane 3)
  return halves[0] + halves[1];
}
#endif

[[gnu::noinline]] double value_in_fixed_order(std::span<const double> p, const Bounds& bounds, double t) {
  ExactSum total;  // TwoSum: no branch (Neumaier's CompensatedSum selects by magnitude)
  const std::size_t k = p.size();
#if !PRIVSAMPLE_VECTOR_LANES
  const auto term = [&](std::size_t i) { return clip_bits(t * p[i], bounds.lo(i), bounds.hi(i)); };
#endif
  for (std::size_t block = 0; block < k; block += kBlock) {
    const std::size_t end = std::min(k, block + kBlock);
#if PRIVSAMPLE_VECTOR_LANES
    const std::size_t groups = (end - block) / 4;
    const std::size_t rest = end - block - 4 * groups;
    total.add(bounds.uniform() ? block_part<false>(p.data(), bounds, block, groups, rest, t)
                               : block_part<true>(p.data(), bounds, block, groups, rest, t));
#else
    double lane[4] = {0.0, 0.0, 0.0, 0.0};
    std::size_t i = block;
    for (; i + 4 <= end; i += 4) {
      lane[0] += term(i);
      lane[1] += term(i + 1);
      lane[2] += term(i + 2);
      lane[3] += term(i + 3);
    }
    // the atoms after the last group of four, by constant indices: the lanes stay in registers
    if (i < end) lane[0] += term(i++);
    if (i < end) lane[1] += term(i++);
    if (i < end) lane[2] += term(i++);
    total.add((lane[0] + lane[2]) + (lane[1] + lane[3]));
#endif
  }
  return total.value();
}

// The checking pass (regimes_on) in the client's WebAssembly SIMD lanes, in f64x2 vector types (natively, the research
// module) or in scalar lanes: the same operations in the same order, so the same doubles.
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
#elif PRIVSAMPLE_VECTOR_LANES
// Two ExactSums lane by lane, the even atoms in lane 0 and the odd ones in lane 1: ExactSum::add's TwoSum on each.
struct PairSums {
  F64x2 sum{0.0, 0.0};
  F64x2 error{0.0, 0.0};
  void add(F64x2 x) {
    const F64x2 total = sum + x;
    const F64x2 x_part = total - sum;
    error += (sum - (total - x_part)) + (x - x_part);
    sum = total;
  }
  void unpack(PairedSum& out) const {
    out.even = ExactSum{sum[0], error[0]};
    out.odd = ExactSum{sum[1], error[1]};
  }
};

// The scalar form's sums in f64x2 lanes (natively and in the research module), the counts and checks in scalar code
// beside them (integer flags, no branch). An odd k's last pair holds a zero atom (p = lo = hi = 0) in lane 1, which
// adds exactly +0 to every odd sum: the same doubles.
Regimes regimes_on(std::span<const double> p, const Bounds& bounds, double a, double b) {
  Regimes r;
  PairSums lo_total, at_infinity, hi_total, zero_room, constant, slope;
  const F64x2 zero = splat(0.0);
  const F64x2 at_a = splat(a);
  const F64x2 at_b = splat(b);
  const auto check = [&](double mass, double lo, double hi) {
    r.faulty |= !valid_mass(mass) | !valid_bounds(lo, hi);
    r.any_room |= hi > lo;
    r.open_count += mass > 0.0 && hi > 0.0;
  };
  const auto visit = [&](F64x2 mass, F64x2 lo, F64x2 hi) {
    lo_total.add(lo);
    const I64x2 has_mass = mass > zero;
    at_infinity.add(select_lanes(has_mass, hi, lo));
    hi_total.add(hi);
    zero_room.add(masked_out(has_mass, hi - lo));
    // floor where b·p <= lo; ceiling where it is not and a·p >= hi; else scaled
    const I64x2 above_floor = at_b * mass > lo;
    const I64x2 reaches_ceiling = at_a * mass >= hi;
    constant.add(select_lanes(above_floor, masked(reaches_ceiling, hi), lo));
    slope.add(masked(above_floor, masked_out(reaches_ceiling, mass)));
  };
  const std::size_t k = p.size();
  std::size_t i = 0;
  for (; i + 2 <= k; i += 2) {
    check(p[i], bounds.lo(i), bounds.hi(i));
    check(p[i + 1], bounds.lo(i + 1), bounds.hi(i + 1));
    visit(load_pair(p.data() + i), F64x2{bounds.lo(i), bounds.lo(i + 1)}, F64x2{bounds.hi(i), bounds.hi(i + 1)});
  }
  if (i < k) {
    check(p[i], bounds.lo(i), bounds.hi(i));
    visit(F64x2{p[i], 0.0}, F64x2{bounds.lo(i), 0.0}, F64x2{bounds.hi(i), 0.0});
  }
  lo_total.unpack(r.lo);
  at_infinity.unpack(r.at_infinity);
  hi_total.unpack(r.hi);
  zero_room.unpack(r.zero_room);
  constant.unpack(r.constant);
  slope.unpack(r.slope);
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

}  // namespace

double fixed_schedule_value(std::span<const double> p, const Bounds& bounds, double t) {
  return value_in_fixed_order(p, bounds, t);
}

ClipSolution solve_in_fixed_steps(std::span<const double> p, const Bounds& bounds, const QOut& q) {
  const std::size_t k = p.size();
  // Which names the fault: errors need no fixed schedule (a p longer than a per-atom box would be read past it).
  if (k != bounds.size() || k == 0) return solve(p, bounds, true, q);

  // 1. The largest double a with F̃(a) < 1 (0 when F̃ reaches 1 at once: a point box). Invalid input makes some
  // F̃ NaN (a wasted search, no harm); the pass of step 2 finds it and hands it to the adaptive search, which names it.
  // Where F̃(0), the floors' sum in F̃'s order (the box's alone: public), reaches 1, every candidate is tried at 1
  // instead: F̃ never decreases, so a is 0 either way. Walking down to subnormal scales, as the search does there,
  // each product t·p_x with p_x not 0 took tens of times longer on some processors: the time of a point box's (or
  // ε = 0's) release told how many categories the histogram used.
  const std::uint64_t floors_fill = mask_of(value_in_fixed_order(p, bounds, 0.0) >= 1.0);
  std::uint64_t below = 0;
  for (int bit = 62; bit >= 0; --bit) {
    const std::uint64_t candidate =
        (std::min(below | (std::uint64_t{1} << bit), kLargestFiniteBits) & ~floors_fill) | (bits_of(1.0) & floors_fill);
    below ^= (below ^ candidate) & mask_of(value_in_fixed_order(p, bounds, double_of(candidate)) < 1.0);
  }
  const double a = double_of(below);
  // +∞ after the largest double; 0 where the floors fill (a is 0 there: b = 2^-1074 made the pass's products b·p_x
  // subnormal, slow as above, for the atoms with mass)
  const double b = double_of((below + 1) & ~floors_fill);

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
  // Every candidate below is computed for every input and one is chosen by masks (select_bits): which case a
  // histogram falls in (a point box, sparse support, a root past the largest double, a miss) follows the data, and
  // WebAssembly's branches and selects on doubles (branches in V8) made the time of a release tell a sparse histogram
  // from a spread one. Each choice is std::clamp's or the ternary's, the same doubles.
  const double slope = piece.slope.value();
  const ExactSum constant = piece.constant.merged();
  const double quotient = ((1.0 - constant.sum) - constant.error) / slope;  // not chosen where slope is 0
  double s = select_bits(slope > 0.0, quotient, select_bits(b < kInfinity, b, a));
  // std::clamp(s, 0, largest double) (s = +∞, an overflowing quotient, is a miss: the pass runs at the largest double,
  // as for every input)
  const double at = select_bits(s < 0.0, 0.0, select_bits(std::numeric_limits<double>::max() < s,
                                                           std::numeric_limits<double>::max(), s));
  const double at_root = value_in_fixed_order(p, bounds, at);
  const bool miss = !((s < kInfinity) & (std::fabs(at_root - 1.0) <= kFlat));
  s = select_bits(miss, select_bits(s < a, a, select_bits(b < s, b, s)), s);  // std::clamp(s, a, b) on a miss
  const bool point = (!piece.any_room) | (lo_total >= 1.0);
  const bool sparse = (!point) & ((value_at_infinity < 1.0 - kFlat) | (piece.open_count == 0));
  const bool beyond = !(point | sparse | (b < kInfinity));
  // F̃ stays below 1 (beyond): either F is flat at F(∞), within kFlat of 1, beyond its last breakpoint (a point mass
  // at ε = 20, k = 2: hi + lo = 1 − 1e-16), whose q is the limit there, the support at its ceiling (the adaptive
  // search's q), or the root lies past the largest double (masses spanning more than ~2^1000: the adaptive search).
  // The limit's scale is +∞ (the adaptive search reports the last ceiling breakpoint, where F is flat).
  if (beyond && value_at_infinity > 1.0 + kFlat) [[unlikely]] return solve(p, bounds, true, q);
  // Case B: the zero atoms' share of their room, std::clamp((1 − F(∞))/room, 0, 1) where there is room
  const double room = piece.zero_room.value();
  const double share = (1.0 - value_at_infinity) / room;
  const double theta =
      select_bits(sparse & (room > 0.0), select_bits(share < 0.0, 0.0, select_bits(1.0 < share, 1.0, share)), 0.0);
  s = select_bits(point, 0.0, select_bits(sparse | beyond, kInfinity, s));
  ClipSolution out;
  const auto kind_bits = [](ClipCase c) { return static_cast<std::uint64_t>(c); };
  out.kind = static_cast<ClipCase>((kind_bits(ClipCase::box_is_point) & mask_of(point)) |
                                   (kind_bits(ClipCase::sparse_support) & mask_of(sparse)) |
                                   (kind_bits(ClipCase::root) & mask_of(!(point | sparse))));
  clipped_output(p, bounds, s, theta, q);
  out.scale = s;
  return out;
}

}  // namespace privsample::clip_solver
