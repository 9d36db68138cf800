// clip-normalise's first round over p (docs/solvers/clip-normalise.md): two pivots around the root (the small-k route or
// a strided sample), then the closing pass, one pass over p that closes every atom whose regime (floor, scaled,
// ceiling) is fixed on the bracket — totalling the closed atoms' part of F, C + s·S, exactly — and keeps the few open
// ones, with their breakpoints, for the selection search. Per-atom boxes classify by the atoms' breakpoints; a uniform
// box by comparing p with four thresholds, in four lanes (f64x2 lanes where PRIVSAMPLE_VECTOR_CLOSING: every build but
// the client and the scalar forms' tests).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <utility>
#include <vector>

#include "solver/clip_normalise_lanes.hpp"
#include "solver/clip_normalise_parts.hpp"

namespace privsample::clip_solver {
namespace {

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

}  // namespace

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
  if constexpr (!kClientSizeBudget) {
    // Room for the open atoms the bracket usually leaves (a few times √n), instead of growing the vector from empty
    // (reallocations and copies). Not in the client's module, whose pages mostly solve small k.
    const auto root_n = static_cast<std::size_t>(std::sqrt(static_cast<double>(open_count)));
    round.open.reserve(std::min<std::size_t>(open_count, 64 + 8 * root_n));
  }
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

}  // namespace privsample::clip_solver
