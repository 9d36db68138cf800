// clip-normalise (docs/solvers/clip-normalise.md): the exact root s of Σ clip(s·p_x; lo_x, hi_x) = 1, Case B
// and the point box, with lo_x <= q_x <= hi_x exactly and Σq = 1 to within 1e-13 (see the header).
// This file: the public entry, which picks the schedule, and the validating pass, which checks the input and totals
// what the adaptive schedule's case analysis needs. The other parts, by role: solver/clip_normalise_parts.hpp.
#include "solver/clip_normalise.hpp"
#include "solver/clip_normalise_internal.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <stdexcept>
#include <utility>

#include "base/errors.hpp"
#include "base/numeric.hpp"
#include "solver/clip_normalise_lanes.hpp"
#include "solver/clip_normalise_parts.hpp"

namespace privsample::clip_solver {
namespace {

[[noreturn, gnu::noinline]] void reject_mass(double value, std::size_t i) {
  throw_invalid({"p[", i, "] = ", value, ": masses must be finite and >= 0"});
}

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

// One of the four lanes of the validating scan of a uniform box's masses: what the case analysis and the search
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

// The scan's four-mass steps while four masses remain, lane j taking the masses i with i mod 4 = j. Returns where it
// stopped.
#if PRIVSAMPLE_VECTOR_LANES
// Lanes 0, 1 and 2, 3 in two vectors; v > m ? v : m is std::max(m, v) (m < v ? v : m), and the same for min: the same
// values for NaN and ±0 too. `pair(i)` gives the masses i and i + 1 (the scalar form's `mass(i)`, lane by lane).
template <class Pair>
PRIVSAMPLE_SIMD_FUNCTION std::size_t scan_in_lanes(std::size_t k, std::array<ScanLane*, 4> lanes, const Pair& pair) {
  I64x2 positives_01{}, positives_23{};
  F64x2 largest_01{}, largest_23{}, smallest_01{}, smallest_23{}, mass_01{}, mass_23{};
  const F64x2 zero{};
  std::size_t i = 0;
  for (; i + 4 <= k; i += 4) {
    const F64x2 v01 = pair(i);
    const F64x2 v23 = pair(i + 2);
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
PRIVSAMPLE_SIMD_FUNCTION std::size_t scan_in_lanes(const double* p, std::size_t k, std::array<ScanLane*, 4> lanes) {
  return scan_in_lanes(k, lanes, [p](std::size_t i) PRIVSAMPLE_SIMD_FUNCTION { return load_pair(p + i); });
}
#else
inline std::size_t scan_in_lanes(const double* p, std::size_t k, std::array<ScanLane*, 4> lanes) {
  ScanLane& l0 = *lanes[0];
  ScanLane& l1 = *lanes[1];
  ScanLane& l2 = *lanes[2];
  ScanLane& l3 = *lanes[3];
  std::size_t i = 0;
  for (; i + 4 <= k; i += 4) {
    l0.visit(p[i]);
    l1.visit(p[i + 1]);
    l2.visit(p[i + 2]);
    l3.visit(p[i + 3]);
  }
  return i;
}
#endif

// The lanes' totals as the case analysis reads them; a NaN or ±∞ makes the total non-finite and a negative mass the
// smallest one negative, and then the slow check names the index (a total that overflows with valid masses passes it).
void finish_uniform_totals(std::span<const double> p, const Bounds& bounds, const ScanLane& l0, const ScanLane& l1,
                           const ScanLane& l2, const ScanLane& l3, BoxTotals& totals) {
  const std::size_t k = p.size();
  totals.open_mass = (l0.mass + l1.mass) + (l2.mass + l3.mass);
  const double smallest = std::min(std::min(l0.smallest, l1.smallest), std::min(l2.smallest, l3.smallest));
  if (!(std::isfinite(totals.open_mass) && smallest >= 0.0)) {
    for (std::size_t j = 0; j < k; ++j) check_mass(p[j], j);
  }
  totals.largest_mass = std::max(std::max(l0.largest, l1.largest), std::max(l2.largest, l3.largest));
  totals.open_count = bounds.hi(0) > 0.0 ? l0.positives + l1.positives + l2.positives + l3.positives : 0;
  const auto n = static_cast<double>(k);
  const auto rest = static_cast<double>(k - totals.open_count);
  totals.lo.add(n * bounds.lo(0));
  totals.hi.add(n * bounds.hi(0));
  totals.room.add(n * (bounds.hi(0) - bounds.lo(0)));
  totals.at_infinity.add(static_cast<double>(totals.open_count) * bounds.hi(0));
  totals.at_infinity.add(rest * bounds.lo(0));
  totals.constant.add(rest * bounds.lo(0));
}

// A uniform box's masses: branch-free and in four lanes, this pass being a good part of the whole cost. Four lanes as
// four structs, never an array indexed by lane: indexed, g++ -O2 keeps them in memory and every step waits on a store.
void total_uniform_masses(std::span<const double> p, const Bounds& bounds, BoxTotals& totals) {
  const std::size_t k = p.size();
  ScanLane l0, l1, l2, l3;
  std::size_t i = scan_in_lanes(p.data(), k, {&l0, &l1, &l2, &l3});
  for (; i < k; ++i) l0.visit(p[i]);
  finish_uniform_totals(p, bounds, l0, l1, l2, l3, totals);
}

#if !defined(PRIVSAMPLE_CLIENT_SIZE_BUDGET)
// The same pass over p_x = rule(h_x), each written into q as it is computed (q may be h): the quotients, their lanes
// and their order are total_uniform_masses' on the normalised p, so the same totals to the last bit.
void normalise_and_total(std::span<const double> h, const HistogramScale& rule, std::span<double> q,
                         const Bounds& bounds, BoxTotals& totals) {
  const std::size_t k = h.size();
  ScanLane l0, l1, l2, l3;
#if PRIVSAMPLE_VECTOR_LANES
  const F64x2 factor = splat(rule.factor);
  const F64x2 total = splat(rule.total);
  const F64x2 least = splat(rule.least);
  const F64x2 smallest_normal = splat(0x1p-1022);
  const F64x2 from_bits = splat(rule.from_bits);
  const F64x2 two_52 = splat(0x1p52);
  const I64x2 sign_bit = I64x2{} | static_cast<long long>(std::uint64_t{1} << 63);
  const I64x2 two_52_bits = I64x2{} | static_cast<long long>(bits_of(0x1p52));
  double* out = q.data();
  const double* counts = h.data();
  std::size_t i = scan_in_lanes(k, {&l0, &l1, &l2, &l3}, [=](std::size_t at) {
    // HistogramScale::scaled lane by lane (m converted as the double 2^52 + m, less 2^52), then the quotient
    const F64x2 count = load_pair(counts + at);
    const I64x2 bits = reinterpret_cast<I64x2>(count);
    const I64x2 keep = count >= least;
    const I64x2 normal = count >= smallest_normal;
    const F64x2 ordinary = reinterpret_cast<F64x2>(bits & ((keep & normal) | sign_bit)) * factor;
    const F64x2 m = reinterpret_cast<F64x2>((bits & keep & ~normal & ~sign_bit) | two_52_bits) - two_52;
    const F64x2 tiny = m * from_bits;
    const F64x2 scaled = reinterpret_cast<F64x2>(reinterpret_cast<I64x2>(ordinary) | reinterpret_cast<I64x2>(tiny));
    const F64x2 pair = scaled / total;
    std::memcpy(out + at, &pair, sizeof pair);
    return pair;
  });
#else
  std::size_t i = 0;
  for (; i + 4 <= k; i += 4) {
    for (std::size_t j = 0; j < 4; ++j) q[i + j] = rule(h[i + j]);
    l0.visit(q[i]);
    l1.visit(q[i + 1]);
    l2.visit(q[i + 2]);
    l3.visit(q[i + 3]);
  }
#endif
  for (; i < k; ++i) l0.visit(q[i] = rule(h[i]));
  finish_uniform_totals(q, bounds, l0, l1, l2, l3, totals);
}
#endif

// Per-atom bounds: masses and bounds atom by atom, into local totals (stores through `totals` could alias p, which
// would keep every total in memory), copied out at the end.
void total_atoms(std::span<const double> p, const Bounds& bounds, BoxTotals& totals) {
  std::size_t open_count = 0;
  CompensatedSum lo_total;
  CompensatedSum hi_total;
  CompensatedSum room_total;
  CompensatedSum value_at_infinity;
  CompensatedSum constant;
  double largest_mass = 0.0;
  double open_mass = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) {
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
  totals.open_count = open_count;
  totals.lo = lo_total;
  totals.hi = hi_total;
  totals.room = room_total;
  totals.at_infinity = value_at_infinity;
  totals.constant = constant;
  totals.largest_mass = largest_mass;
  totals.open_mass = open_mass;
}

Bounds uniform_bounds(const UniformBox& box) { return {&box.lo, &box.hi, 0, box.size}; }

Bounds atom_bounds(const AtomBox& box) {
  if (box.lo.size() != box.hi.size()) {
    throw_invalid({"clip_normalise: lo has ", box.lo.size(), " entries but hi has ", box.hi.size()});
  }
  return {box.lo.data(), box.hi.data(), 1, box.lo.size()};
}

}  // namespace

namespace {

void check_sizes(std::size_t k, const Bounds& bounds) {
  if (k != bounds.size()) {
    throw_invalid({"clip_normalise: p has ", k, " entries but the box has ", bounds.size()});
  }
  if (k == 0) throw std::invalid_argument("clip_normalise: p is empty");
  if (k > std::numeric_limits<std::uint32_t>::max()) {
    throw_invalid({"clip_normalise: p has ", k, " entries: too many"});
  }
}

}  // namespace

#if !defined(PRIVSAMPLE_CLIENT_SIZE_BUDGET)
BoxTotals normalise_check_and_total(std::span<const double> counts, const HistogramScale& rule, std::span<double> q,
                                    const Bounds& bounds) {
  check_sizes(counts.size(), bounds);
  check_bounds(bounds.lo(0), bounds.hi(0), 0);
  BoxTotals totals;
  normalise_and_total(counts, rule, q, bounds, totals);
  check_box_totals(totals.lo.value(), totals.hi.value());
  return totals;
}
#endif

BoxTotals check_and_total(std::span<const double> p, const Bounds& bounds) {
  check_sizes(p.size(), bounds);
  BoxTotals totals;
  if (bounds.uniform()) {
    check_bounds(bounds.lo(0), bounds.hi(0), 0);
    total_uniform_masses(p, bounds, totals);
  } else {
    total_atoms(p, bounds, totals);
  }
  check_box_totals(totals.lo.value(), totals.hi.value());
  return totals;
}

}  // namespace privsample::clip_solver

namespace privsample {

using clip_solver::atom_bounds;
using clip_solver::solve;
using clip_solver::solve_in_fixed_steps;
using clip_solver::uniform_bounds;

namespace {

using clip_solver::Bounds;
using clip_solver::QOut;

ClipSolution solved(std::span<const double> p, const Bounds& bounds, RootSchedule schedule, const QOut& q) {
  return schedule == RootSchedule::fixed ? solve_in_fixed_steps(p, bounds, q) : solve(p, bounds, true, q);
}

ClipNormalised with_q(std::span<const double> p, const Bounds& bounds, RootSchedule schedule) {
  ClipNormalised out;
  const ClipSolution s = solved(p, bounds, schedule, QOut{{}, &out.q});
  out.scale = s.scale;
  out.kind = s.kind;
  return out;
}

QOut into(std::span<const double> p, std::span<double> q) {
  if (q.size() != p.size()) {
    throw_invalid({"clip_normalise: q has ", q.size(), " entries but p has ", p.size()});
  }
  return QOut{q, nullptr};
}

}  // namespace

ClipNormalised clip_normalise(std::span<const double> p, const UniformBox& box, RootSchedule schedule) {
  return with_q(p, uniform_bounds(box), schedule);
}

ClipNormalised clip_normalise(std::span<const double> p, const AtomBox& box, RootSchedule schedule) {
  return with_q(p, atom_bounds(box), schedule);
}

ClipSolution clip_normalise_into(std::span<const double> p, const UniformBox& box, std::span<double> q,
                                 RootSchedule schedule) {
  return solved(p, uniform_bounds(box), schedule, into(p, q));
}

ClipSolution clip_normalise_into(std::span<const double> p, const AtomBox& box, std::span<double> q,
                                 RootSchedule schedule) {
  return solved(p, atom_bounds(box), schedule, into(p, q));
}

#if !defined(PRIVSAMPLE_CLIENT_SIZE_BUDGET)
ClipSolution clip_normalise_quotients_into(std::span<const double> counts, const HistogramScale& rule,
                                           const UniformBox& box, std::span<double> q) {
  (void)into(counts, q);
  return clip_solver::solve_quotients(counts, rule, uniform_bounds(box), q);
}
#endif

namespace detail {

ClipNormalised clip_normalise_without_small_route(std::span<const double> p, const UniformBox& box) {
  ClipNormalised out;
  const ClipSolution s = solve(p, uniform_bounds(box), false, QOut{{}, &out.q});
  out.scale = s.scale;
  out.kind = s.kind;
  return out;
}

double fixed_schedule_value(std::span<const double> p, const UniformBox& box, double t) {
  return clip_solver::fixed_schedule_value(p, uniform_bounds(box), t);
}

double fixed_schedule_value(std::span<const double> p, const AtomBox& box, double t) {
  return clip_solver::fixed_schedule_value(p, atom_bounds(box), t);
}

}  // namespace detail

}  // namespace privsample
