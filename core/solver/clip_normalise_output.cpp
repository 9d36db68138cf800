// clip-normalise's last pass, for both schedules (docs/solvers/clip-normalise.md): q = clip(scale·p; lo, hi) written
// once into memory reserved for it, or Case B's and the point box's formula. q is clamped, never renormalised, so
// lo_x <= q_x <= hi_x holds exactly in floating point: the fact every clip sampler's ratio bound rests on.
#include <algorithm>
#include <cmath>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>
#include <vector>

#include "solver/clip_normalise_lanes.hpp"
#include "solver/clip_normalise_parts.hpp"

#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#include <sys/mman.h>
#endif

namespace privsample::clip_solver {
namespace {

// The output q: room for k values, none written yet. A large q is fresh memory from the system, and touching it
// page by page is what dominates a solve at k = 10^7 natively (a page fault per 4 KB). On Linux, ask for
// transparent huge pages on it before the first touch (a hint: 2 MB pages, 512 times fewer faults; ignored
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

// A uniform box's q on a single level: the same values as clipped_output (clip(scale·0) = lo, and hi > 0 in Case A),
// without its masks (the adaptive search needs no branch-free output). Each q_i is written after p_i is read, one
// index at a time, so q may be p itself.
void uniform_output(std::span<const double> p, const Bounds& bounds, double scale, std::span<double> q) {
  const std::size_t k = p.size();
  const double lo = bounds.lo(0);
  const double hi = bounds.hi(0);
  const double* in = p.data();
  double* out = q.data();
  if (!kClientSizeBudget && in == out) {  // in place: one pointer, so the compiler needs no check of an overlap
    for (std::size_t i = 0; i < k; ++i) out[i] = std::min(std::max(scale * out[i], lo), hi);
  } else {
    for (std::size_t i = 0; i < k; ++i) out[i] = std::min(std::max(scale * in[i], lo), hi);
  }
}

}  // namespace

std::span<double> QOut::room(std::size_t k) const {
  if (owned == nullptr) return into;
  *owned = reserved_output(k);
  owned->resize(k);
  return *owned;
}

// q_x = clip(scale·p_x; lo_x, hi_x) on the atoms with mass and lo_x + θ(hi_x − lo_x) on the others, for every case
// of both schedules: Case A (θ = 0), Case B (scale = +∞: the support at its ceiling) and the point box (scale = 0).
// Without a branch (the fixed schedule's last pass).
void clipped_output(std::span<const double> p, const Bounds& bounds, double scale, double theta, const QOut& out) {
  const std::size_t k = p.size();
  const std::span<double> q = out.room(k);
  for (std::size_t i = 0; i < k; ++i) {
    const double lo = bounds.lo(i);
    const double hi = bounds.hi(i);
    const double mass = p[i];
    // Case B's lo + θ(hi − lo) (<= hi up to rounding, which the clip removes) is lo in Case A and the point box.
    q[i] = clip_bits(select_bits(mass > 0.0, scale * mass, lo + theta * (hi - lo)), lo, hi);
  }
}

// q = clip(scale·p) with the scale in p's own units when that is an ordinary double: a mass that the shift pushed
// into the subnormal range would lose digits. Otherwise (and after more than one level) atom by atom: s times the
// rescaled mass, and the atoms of earlier levels, past their ceiling breakpoints, at hi.
void root_output(std::span<const double> p, const Bounds& bounds, const LevelledRoot& levelled, double s, double scale,
                 const QOut& out) {
  const std::size_t k = p.size();
  const std::size_t levels = levelled.levels;
  const PowerOfTwo last(-levelled.last_shift);
  const bool scale_is_normal = std::isnormal(scale);
  const auto scaled_mass = [&](double mass) { return scale_is_normal ? scale * mass : s * last(mass); };
  if (bounds.uniform() && levels == 1 && scale_is_normal) return uniform_output(p, bounds, scale, out.room(k));
  if (levels == 1 && scale_is_normal) return clipped_output(p, bounds, scale, 0.0, out);
  const std::span<double> q = out.room(k);
  const PowerOfTwo before_last(-levelled.shift_before_last);
  for (std::size_t i = 0; i < k; ++i) {
    const double lo = bounds.lo(i);
    const double hi = bounds.hi(i);
    const double mass = p[i];
    if (!(mass > 0.0 && hi > 0.0)) {
      q[i] = lo;
    } else if (levels > 1 && hi / before_last(mass) < kInfinity) {
      q[i] = hi;  // an earlier level: past its ceiling breakpoint
    } else {
      q[i] = std::clamp(scaled_mass(mass), lo, hi);
    }
  }
}

}  // namespace privsample::clip_solver
