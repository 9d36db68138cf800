#include "privsample/clip_normalise.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "privsample/numeric.hpp"

namespace privsample {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
// Σlo <= 1 <= Σhi may be off by rounding in the caller's bounds; anything beyond this is a caller bug.
constexpr double kBoxSumTolerance = 1e-9;

struct UniformBounds {
  const UniformBox& box;
  [[nodiscard]] std::size_t size() const { return box.size; }
  [[nodiscard]] double lo(std::size_t) const { return box.lo; }
  [[nodiscard]] double hi(std::size_t) const { return box.hi; }
};

struct AtomBounds {
  const AtomBox& box;
  [[nodiscard]] std::size_t size() const { return box.lo.size(); }
  [[nodiscard]] double lo(std::size_t i) const { return box.lo[i]; }
  [[nodiscard]] double hi(std::size_t i) const { return box.hi[i]; }
};

void check_bound(double value, const char* name, std::size_t i) {
  if (!std::isfinite(value) || value < 0.0) {
    throw std::invalid_argument(std::string(name) + "[" + std::to_string(i) + "] = " + format_value(value) +
                                ": box bounds must be finite and >= 0");
  }
}

template <class Bounds>
void check_inputs(std::span<const double> p, const Bounds& bounds) {
  if (p.size() != bounds.size()) {
    throw std::invalid_argument("clip_normalise: p has " + std::to_string(p.size()) + " entries but the box has " +
                                std::to_string(bounds.size()));
  }
  if (p.empty()) throw std::invalid_argument("clip_normalise: p is empty");
  CompensatedSum lo_total;
  CompensatedSum hi_total;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (!std::isfinite(p[i]) || p[i] < 0.0) {
      throw std::invalid_argument("p[" + std::to_string(i) + "] = " + format_value(p[i]) +
                                  ": masses must be finite and >= 0");
    }
    const double lo = bounds.lo(i);
    const double hi = bounds.hi(i);
    check_bound(lo, "lo", i);
    check_bound(hi, "hi", i);
    if (lo > hi) {
      throw std::invalid_argument("lo[" + std::to_string(i) + "] = " + format_value(lo) + " exceeds hi[" +
                                  std::to_string(i) + "] = " + format_value(hi));
    }
    lo_total.add(lo);
    hi_total.add(hi);
  }
  if (lo_total.value() > 1.0 + kBoxSumTolerance) {
    throw std::invalid_argument("clip_normalise: sum of lo = " + format_value(lo_total.value()) +
                                " exceeds 1, so no distribution fits the box");
  }
  if (hi_total.value() < 1.0 - kBoxSumTolerance) {
    throw std::invalid_argument("clip_normalise: sum of hi = " + format_value(hi_total.value()) +
                                " is below 1, so no distribution fits the box");
  }
}

// An atom's regime changes at s = lo/p (leaves the floor) and s = hi/p (reaches the ceiling).
struct Breakpoints {
  double leave_floor;
  double reach_ceiling;
};

template <class Bounds>
Breakpoints breakpoints_of(std::span<const double> p, const Bounds& bounds, std::size_t i) {
  return {bounds.lo(i) / p[i], bounds.hi(i) / p[i]};
}

// A breakpoint strictly inside (s_low, s_high), near the median of those of the active atoms. A strided
// sample of at most kPivotSample atoms keeps each round linear in the number of active atoms.
template <class Bounds>
double pick_pivot(std::span<const double> p, const Bounds& bounds, const std::vector<std::uint32_t>& active,
                  double s_low, double s_high, std::vector<double>& scratch) {
  constexpr std::size_t kPivotSample = 1024;
  const std::size_t stride = active.size() / kPivotSample + 1;
  scratch.clear();
  for (std::size_t j = 0; j < active.size(); j += stride) {
    const Breakpoints b = breakpoints_of(p, bounds, active[j]);
    if (b.leave_floor > s_low && b.leave_floor < s_high) scratch.push_back(b.leave_floor);
    if (b.reach_ceiling > s_low && b.reach_ceiling < s_high) scratch.push_back(b.reach_ceiling);
  }
  auto middle = scratch.begin() + static_cast<std::ptrdiff_t>(scratch.size() / 2);
  std::nth_element(scratch.begin(), middle, scratch.end());
  return *middle;
}

// When no atom is strictly inside its box, F is flat at 1 on an interval of roots and rounding decides
// which end the search lands on. Report the smallest root (largest r_P, the end inside the papers' bracket
// [1, (e^ε+k−1)/e^ε], spec §8: P = (0.9, 0.1), ε = 2 gives r_P = 1.021802): the largest hi/p over atoms at
// their ceiling. Atoms within a relative 1e-12 of a bound count as at the bound.
template <class Bounds>
double canonical_scale(std::span<const double> p, const Bounds& bounds, const std::vector<double>& q, double s) {
  constexpr double kMargin = 1e-12;
  double smallest_root = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (!(p[i] > 0.0) || bounds.hi(i) == 0.0) continue;
    const bool at_floor = q[i] <= bounds.lo(i) * (1.0 + kMargin);
    const bool at_ceiling = q[i] >= bounds.hi(i) * (1.0 - kMargin);
    if (!at_floor && !at_ceiling) return s;  // an atom strictly inside pins the root
    if (at_ceiling && !at_floor) smallest_root = std::max(smallest_root, bounds.hi(i) / p[i]);
  }
  return smallest_root > 0.0 ? smallest_root : s;
}

template <class Bounds>
ClipNormalised solve(std::span<const double> p, const Bounds& bounds) {
  check_inputs(p, bounds);
  const std::size_t k = p.size();
  ClipNormalised out;
  out.q.resize(k);

  // Atoms whose value depends on s: positive mass and a non-empty upper bound.
  std::vector<std::uint32_t> active;
  active.reserve(k);
  CompensatedSum lo_total;
  CompensatedSum room_total;       // Σ(hi − lo): zero iff the box is a single point
  CompensatedSum value_at_infinity;  // F(∞) = Σ_active hi + Σ_rest lo
  CompensatedSum constant;         // contributions already fixed on the current interval
  for (std::size_t i = 0; i < k; ++i) {
    const double lo = bounds.lo(i);
    const double hi = bounds.hi(i);
    lo_total.add(lo);
    room_total.add(hi - lo);
    if (p[i] > 0.0 && hi > 0.0) {
      active.push_back(static_cast<std::uint32_t>(i));
      value_at_infinity.add(hi);
    } else {
      value_at_infinity.add(lo);
      constant.add(lo);
    }
  }

  if (room_total.value() <= 0.0 || lo_total.value() >= 1.0) {
    for (std::size_t i = 0; i < k; ++i) out.q[i] = bounds.lo(i);
    out.scale = 0.0;
    out.kind = ClipCase::box_is_point;
    return out;
  }

  if (value_at_infinity.value() <= 1.0) {
    // Case B: even with the whole support at its ceiling the mass is short; the zero atoms share the
    // rest at one common fraction θ of their room.
    CompensatedSum zero_room;
    for (std::size_t i = 0; i < k; ++i) {
      if (!(p[i] > 0.0)) zero_room.add(bounds.hi(i) - bounds.lo(i));
    }
    const double shortfall = 1.0 - value_at_infinity.value();
    const double theta = zero_room.value() > 0.0 ? std::clamp(shortfall / zero_room.value(), 0.0, 1.0) : 0.0;
    for (std::size_t i = 0; i < k; ++i) {
      const double lo = bounds.lo(i);
      const double hi = bounds.hi(i);
      out.q[i] = p[i] > 0.0 ? hi : std::clamp(lo + theta * (hi - lo), lo, hi);
    }
    out.scale = kInfinity;
    out.kind = ClipCase::sparse_support;
    return out;
  }

  // Case A: F(0) = Σlo < 1 < F(∞). Keep F(s_low) <= 1 <= F(s_high) and drop atoms whose regime is fixed
  // on [s_low, s_high]; when none is left, F(s) = constant + s·slope there.
  double s_low = 0.0;
  double s_high = kInfinity;
  CompensatedSum slope;
  std::vector<double> scratch;
  while (!active.empty()) {
    const double pivot = pick_pivot(p, bounds, active, s_low, s_high, scratch);
    CompensatedSum value = constant;
    value.add(pivot * slope.value());
    for (const std::uint32_t i : active) value.add(std::clamp(pivot * p[i], bounds.lo(i), bounds.hi(i)));
    if (value.value() >= 1.0) {
      s_high = pivot;
    } else {
      s_low = pivot;
    }
    std::size_t kept = 0;
    for (const std::uint32_t i : active) {
      const Breakpoints b = breakpoints_of(p, bounds, i);
      if (b.reach_ceiling <= s_low) {
        constant.add(bounds.hi(i));
      } else if (b.leave_floor >= s_high) {
        constant.add(bounds.lo(i));
      } else if (b.leave_floor <= s_low && b.reach_ceiling >= s_high) {
        slope.add(p[i]);
      } else {
        active[kept++] = i;
      }
    }
    active.resize(kept);
  }

  double s = 0.0;
  if (slope.value() > 0.0) {
    s = std::clamp((1.0 - constant.value()) / slope.value(), s_low, s_high);
  } else {
    // F is flat at 1 on [s_low, s_high]: q does not depend on the choice. The smallest root gives the
    // largest r_P, the one inside the papers' bracket [1, (e^ε+k−1)/e^ε] (spec §8: P = (0.9, 0.1), ε = 2).
    s = s_low > 0.0 ? s_low : s_high;
  }
  for (std::size_t i = 0; i < k; ++i) {
    const double lo = bounds.lo(i);
    const double hi = bounds.hi(i);
    out.q[i] = (p[i] > 0.0 && hi > 0.0) ? std::clamp(s * p[i], lo, hi) : lo;
  }
  out.scale = canonical_scale(p, bounds, out.q, s);
  out.kind = ClipCase::root;
  return out;
}

}  // namespace

ClipNormalised clip_normalise(std::span<const double> p, const UniformBox& box) {
  return solve(p, UniformBounds{box});
}

ClipNormalised clip_normalise(std::span<const double> p, const AtomBox& box) {
  if (box.lo.size() != box.hi.size()) {
    throw std::invalid_argument("clip_normalise: lo has " + std::to_string(box.lo.size()) + " entries but hi has " +
                                std::to_string(box.hi.size()));
  }
  return solve(p, AtomBounds{box});
}

}  // namespace privsample
