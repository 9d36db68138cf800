// clip-normalise's adaptive schedule (RootSchedule::adaptive; docs/solvers/clip-normalise.md): the case analysis
// (the point box, Case B, Case A), the levels of rescaling that Case A needs when masses span more than the double
// range, and the root to report where F is flat at 1.
//
// Cost: no array of k breakpoints or atoms. One pass validates p (clip_normalise.cpp); a strided sample of ~2·√n masses
// proposes a bracket [t1, t2] around the root (a regression estimate of F with s·Σp as control variate, four
// standard errors wide); one pass over p closes every atom whose regime is fixed on the bracket (for constant
// bounds by comparing p with exact thresholds, no division) and keeps the O(√n)-ish open ones, on which the
// selection search finishes; one pass writes q. A miss of the bracket costs one more pass, never exactness.
// Masses beyond 2^±500 and roots past the double range take the older, materialising route (rare inputs).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <span>
#include <vector>

#include "solver/clip_normalise_lanes.hpp"
#include "solver/clip_normalise_parts.hpp"

namespace privsample::clip_solver {
namespace {

// Where F is flat at 1 on a stretch of s (no atom strictly inside its box at s: a point mass, or one atom
// above the floor), every s there gives the same q and rounding decides where the search lands. Report
// the smallest root (the largest r_P, the end inside the papers' bracket [1, (e^ε+k−1)/e^ε];
// core/mechanisms/minimax/README.md#reference-values: P = (0.9, 0.1), ε = 2 gives r_P = 1.021802). Such a stretch begins
// where its last atom reaches the ceiling, so the candidate is the largest ceiling breakpoint c <= s; it is the
// smallest root when F(c) >= 1 − kFlat, and s is otherwise.
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
constexpr double kUlps = 8 * std::numeric_limits<double>::epsilon();

#if PRIVSAMPLE_VECTOR_CLOSING
// A uniform box in f64x2 lanes, a block at a time (the same products and comparisons, so the same answer): where F is
// flat near the root (Park's box at ε = 0.1) no atom is inside and the check reads every mass. Out of line: inlined
// into the search, its lanes slowed the main passes (code layout; bench/README.md).
[[gnu::noinline]] bool some_atom_inside(const Bounds& bounds, std::span<const double> p, const PowerOfTwo& shift,
                                        double s) {
  std::size_t i = 0;
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
  for (; i < p.size(); ++i) {
    const double value = s * shift(p[i]);
    if (value > bounds.lo(i) * (1.0 + kUlps) && value < bounds.hi(i) * (1.0 - kUlps)) return true;
  }
  return false;
}
#else
bool some_atom_inside(const Bounds& bounds, std::span<const double> p, const PowerOfTwo& shift, double s) {
  for (std::size_t i = 0; i < p.size(); ++i) {
    const double value = s * shift(p[i]);
    if (value > bounds.lo(i) * (1.0 + kUlps) && value < bounds.hi(i) * (1.0 - kUlps)) return true;
  }
  return false;
}
#endif

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

// Whether the last level's root, past every finite breakpoint, leaves atoms for another level: some open atom whose
// ceiling breakpoint is +∞ at the last level's scale. Rare (masses spanning more than ~2^1000).
bool has_deep_atoms(const Bounds& bounds, std::span<const double> p, const PowerOfTwo& previous) {
  bool deep = false;
  for (std::size_t i = 0; i < p.size(); ++i) {
    deep |= p[i] > 0.0 && bounds.hi(i) > 0.0 && !(bounds.hi(i) / previous(p[i]) < kInfinity);
  }
  return deep;
}

// One more level: the atoms with a finite ceiling breakpoint at the last level's scale are exactly at their ceiling
// (the root exceeds it); the others are searched again, rescaled by their own largest mass.
void search_next_level(const Bounds& bounds, std::span<const double> p, LevelledRoot& levelled) {
  const PowerOfTwo previous(-levelled.last_shift);
  const auto in_next_level = [&](std::size_t i) { return !(bounds.hi(i) / previous(p[i]) < kInfinity); };
  CompensatedSum constant;
  double largest_mass = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (!(p[i] > 0.0 && bounds.hi(i) > 0.0)) {
      constant.add(bounds.lo(i));
    } else if (!in_next_level(i)) {
      constant.add(bounds.hi(i));  // past its ceiling breakpoint, which the root exceeds
    } else {
      largest_mass = std::max(largest_mass, p[i]);
    }
  }
  levelled.shift_before_last = levelled.last_shift;
  levelled.last_shift = std::ilogb(largest_mass);
  ++levelled.levels;
  const PowerOfTwo rescale(-levelled.last_shift);
  std::vector<Bounds::Atom> open;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p[i] > 0.0 && bounds.hi(i) > 0.0 && in_next_level(i)) open.push_back(bounds.atom(i, rescale(p[i])));
  }
  levelled.root = search_root(bounds, open, constant);
}

// Case A: F(0) = Σlo < 1 <= F(∞). The search works with p·2^-shift; when the largest mass is beyond
// 2^±500 the shift brings it near 1, so that its breakpoints are ordinary numbers and so is the root,
// whatever the scale of p (5e-324 or 1e300). Masses far below the largest (ratio beyond ~2^1000) may
// have breakpoints at +∞; they sit at their floor (or scale, with lo = 0) at every finite s. Should the
// root lie past every finite breakpoint, it lies past the double range: the atoms with a finite ceiling
// breakpoint are then exactly at their ceiling, and the search repeats on the others (one more level),
// rescaled by their own largest mass. Each level is exact and removes at least its largest atom.
// Only the shifts of the last level and of the one before are kept: no other is read.
LevelledRoot root_by_levels(std::span<const double> p, const Bounds& bounds, const BoxTotals& totals,
                            bool small_route) {
  int shift = 0;
  // (At least −1023: a subnormal largest mass is brought near 2^-51 rather than 1, so that 2^-shift is a double.)
  if (totals.largest_mass < kUnscaledLeast || totals.largest_mass > kUnscaledMost) {
    shift = std::max(std::ilogb(totals.largest_mass), -1023);
  }
  LevelledRoot levelled;
  levelled.last_shift = shift;
  levelled.root = search_root_over_p(bounds, p, PowerOfTwo(-shift), totals.open_count,
                                     PowerOfTwo(-shift)(totals.open_mass), PowerOfTwo(-shift)(totals.largest_mass),
                                     totals.constant, small_route);
  while (levelled.root.beyond_range && has_deep_atoms(bounds, p, PowerOfTwo(-levelled.last_shift))) {
    search_next_level(bounds, p, levelled);
  }
  return levelled;
}

// Case B: even with the whole support at its ceiling the mass is short; the zero atoms share the rest at one common
// fraction θ of their room. (F(∞) = 1 is Case A: a point mass whose ceiling plus the others' floors make 1 has the
// root hi/p.)
double zero_atoms_share(std::span<const double> p, const Bounds& bounds, const BoxTotals& totals) {
  CompensatedSum zero_room;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (!(p[i] > 0.0)) zero_room.add(bounds.hi(i) - bounds.lo(i));
  }
  const double shortfall = 1.0 - totals.at_infinity.value();
  return zero_room.value() > 0.0 ? std::clamp(shortfall / zero_room.value(), 0.0, 1.0) : 0.0;
}

// The solve after the validating pass, from its totals.
ClipSolution solve_totalled(std::span<const double> p, const Bounds& bounds, const BoxTotals& totals, bool small_route,
                            const QOut& q) {
  // q is written (and, when the solver owns it, allocated) after the search has freed its scratch: the heap then
  // peaks at q or the scratch, not both (at k = 10^4, q is 80 KB and both together would cross glibc's 128 KB trim
  // threshold, so that every call would give the heap back and fault it in again).
  if (totals.room.value() <= 0.0 || totals.lo.value() >= 1.0) {
    clipped_output(p, bounds, 0.0, 0.0, q);
    return {0.0, ClipCase::box_is_point};
  }
  // No open atom (all mass where hi = 0) with F(∞) = Σlo within kFlat of 1: F is constant, so no root to search
  // for (the search would rescale by the largest open mass, 0); Case B's formula gives the q.
  if (totals.at_infinity.value() < 1.0 - kFlat || totals.open_count == 0) {
    clipped_output(p, bounds, kInfinity, zero_atoms_share(p, bounds, totals), q);
    return {kInfinity, ClipCase::sparse_support};
  }
  const LevelledRoot levelled = root_by_levels(p, bounds, totals, small_route);
  const PowerOfTwo last(-levelled.last_shift);
  const double s = levelled.levels == 1 ? settle_root(bounds, p, last, levelled.root) : levelled.root.s;
  const double scale = last(s);
  root_output(p, bounds, levelled, s, scale, q);
  return {scale, ClipCase::root};  // scale: +∞ when the root exceeds the largest double
}

}  // namespace

ClipSolution solve(std::span<const double> p, const Bounds& bounds, bool small_route, const QOut& q) {
  return solve_totalled(p, bounds, check_and_total(p, bounds), small_route, q);
}

#if !defined(PRIVSAMPLE_CLIENT_SIZE_BUDGET)
ClipSolution solve_quotients(std::span<const double> counts, const HistogramScale& rule, const Bounds& bounds,
                             std::span<double> q) {
  const BoxTotals totals = normalise_check_and_total(counts, rule, q, bounds);
  return solve_totalled(q, bounds, totals, true, QOut{q, nullptr});
}
#endif

}  // namespace privsample::clip_solver
