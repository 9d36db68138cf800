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
#include "solver/clip_normalise_lanes.hpp"
#include "solver/clip_normalise_parts.hpp"

#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#include <sys/mman.h>
#endif

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

// Where F is flat at 1 on a stretch of s (no atom strictly inside its box at s: a point mass, or one atom
// above the floor), every s there gives the same q and rounding decides where the search lands. Report
// the smallest root (the largest r_P, the end inside the papers' bracket [1, (e^ε+k−1)/e^ε]; docs/mechanisms/minimax.md#reference-values:
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
}  // namespace

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

namespace {

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

}  // namespace

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

namespace {

Bounds uniform_bounds(const UniformBox& box) { return {&box.lo, &box.hi, 0, box.size}; }

Bounds atom_bounds(const AtomBox& box) {
  if (box.lo.size() != box.hi.size()) {
    throw_invalid({"clip_normalise: lo has ", box.lo.size(), " entries but hi has ", box.hi.size()});
  }
  return {box.lo.data(), box.hi.data(), 1, box.lo.size()};
}

}  // namespace
}  // namespace privsample::clip_solver

namespace privsample {

using clip_solver::atom_bounds;
using clip_solver::solve;
using clip_solver::solve_in_fixed_steps;
using clip_solver::uniform_bounds;

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
