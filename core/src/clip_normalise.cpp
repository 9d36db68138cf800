#include "privsample/clip_normalise.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "privsample/numeric.hpp"

namespace privsample {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
// Σlo <= 1 <= Σhi may be off by rounding in the caller's bounds; anything beyond this is a caller bug.
constexpr double kBoxSumTolerance = 1e-9;

void check_mass(double value, std::size_t i) {
  if (!std::isfinite(value) || value < 0.0) {
    throw std::invalid_argument("p[" + std::to_string(i) + "] = " + format_value(value) +
                                ": masses must be finite and >= 0");
  }
}

void check_bounds(double lo, double hi, std::size_t i) {
  for (const auto& [value, name] : {std::pair{lo, "lo"}, std::pair{hi, "hi"}}) {
    if (!std::isfinite(value) || value < 0.0) {
      throw std::invalid_argument(std::string(name) + "[" + std::to_string(i) + "] = " + format_value(value) +
                                  ": box bounds must be finite and >= 0");
    }
  }
  if (lo > hi) {
    throw std::invalid_argument("lo[" + std::to_string(i) + "] = " + format_value(lo) + " exceeds hi[" +
                                std::to_string(i) + "] = " + format_value(hi));
  }
}

void check_box_totals(double lo_total, double hi_total) {
  if (lo_total > 1.0 + kBoxSumTolerance) {
    throw std::invalid_argument("clip_normalise: sum of lo = " + format_value(lo_total) +
                                " exceeds 1, so no distribution fits the box");
  }
  if (hi_total < 1.0 - kBoxSumTolerance) {
    throw std::invalid_argument("clip_normalise: sum of hi = " + format_value(hi_total) +
                                " is below 1, so no distribution fits the box");
  }
}

// Long sums of small terms go into a CompensatedSum one block at a time: inside a block of kBlock terms,
// four plain partial sums (independent dependency chains, error <= kBlock ulp of the block), then one
// compensated add per block. Enough for Σq = 1 to ~1e-15, and several times faster than compensating
// every term.
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

// The search keeps, for each atom whose regime is still open, what it needs in one compact array, so the
// rounds read memory sequentially. Same bounds everywhere: the mass alone.
struct UniformBounds {
  struct Atom {
    double p;
    double leave_floor;    // lo/p: below this scale the atom sits at lo
    double reach_ceiling;  // hi/p: above it, at hi
  };
  const UniformBox& box;
  [[nodiscard]] std::size_t size() const { return box.size; }
  [[nodiscard]] double lo(std::size_t) const { return box.lo; }
  [[nodiscard]] double hi(std::size_t) const { return box.hi; }
  [[nodiscard]] Atom atom(std::size_t, double p) const { return {p, box.lo / p, box.hi / p}; }
  [[nodiscard]] double lo(const Atom&) const { return box.lo; }
  [[nodiscard]] double hi(const Atom&) const { return box.hi; }
};

struct PerAtomBounds {
  struct Atom {
    double p;
    double leave_floor;
    double reach_ceiling;
    double lo;
    double hi;
  };
  const AtomBox& box;
  [[nodiscard]] std::size_t size() const { return box.lo.size(); }
  [[nodiscard]] double lo(std::size_t i) const { return box.lo[i]; }
  [[nodiscard]] double hi(std::size_t i) const { return box.hi[i]; }
  [[nodiscard]] Atom atom(std::size_t i, double p) const {
    return {p, box.lo[i] / p, box.hi[i] / p, box.lo[i], box.hi[i]};
  }
  [[nodiscard]] double lo(const Atom& a) const { return a.lo; }
  [[nodiscard]] double hi(const Atom& a) const { return a.hi; }
};

// Two breakpoints t1 <= t2 strictly inside (s_low, s_high) that probably bracket the root, chosen from a
// strided sample of at most kSample open atoms (Floyd–Rivest style): the sample's own estimate of F,
//     F̂(s) = constant + s·slope + (open/sampled)·Σ_sample clip(s·p; lo, hi),
// is solved over the sample's sorted breakpoints, and t1, t2 are taken a few ranks either side of that
// root. One pass over the open atoms then evaluates F at both, so a round usually keeps only the few
// percent of atoms whose breakpoints fall between t1 and t2 — expected linear time overall. When the
// guess misses, the round still closes every atom on the far side. With all atoms sampled (small sets)
// F̂ = F and the ranks bracket the root exactly.
template <class Bounds>
std::pair<double, double> pick_pivots(const Bounds& bounds, const std::vector<typename Bounds::Atom>& open,
                                      double s_low, double s_high, double constant, double slope,
                                      std::vector<double>& scratch) {
  constexpr std::size_t kSample = 1024;
  const std::size_t stride = open.size() / kSample + 1;
  scratch.clear();
  std::size_t sampled = 0;
  for (std::size_t j = 0; j < open.size(); j += stride, ++sampled) {
    if (open[j].leave_floor > s_low && open[j].leave_floor < s_high) scratch.push_back(open[j].leave_floor);
    if (open[j].reach_ceiling > s_low && open[j].reach_ceiling < s_high) scratch.push_back(open[j].reach_ceiling);
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
  return {scratch[std::min(below, scratch.size() - 1)], scratch[above]};
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
  constexpr bool kUniform = std::is_same_v<Bounds, UniformBounds>;
  const std::size_t k = p.size();
  if (k != bounds.size()) {
    throw std::invalid_argument("clip_normalise: p has " + std::to_string(k) + " entries but the box has " +
                                std::to_string(bounds.size()));
  }
  if (k == 0) throw std::invalid_argument("clip_normalise: p is empty");
  if (k > std::numeric_limits<std::uint32_t>::max()) {
    throw std::invalid_argument("clip_normalise: p has " + std::to_string(k) + " entries: too many");
  }
  if constexpr (kUniform) check_bounds(bounds.box.lo, bounds.box.hi, 0);

  // One pass: validate, split atoms into open ones (positive mass and room, regime depends on s) and the
  // rest (always at lo), and total what the case analysis needs.
  std::vector<typename Bounds::Atom> open;
  open.reserve(k);
  CompensatedSum lo_total;
  CompensatedSum hi_total;
  CompensatedSum room_total;         // Σ(hi − lo): zero iff the box is a single point
  CompensatedSum value_at_infinity;  // F(∞) = Σ_open hi + Σ_rest lo
  CompensatedSum constant;           // contributions fixed on the current interval of s
  for (std::size_t i = 0; i < k; ++i) {
    check_mass(p[i], i);
    const double lo = bounds.lo(i);
    const double hi = bounds.hi(i);
    if constexpr (!kUniform) {
      check_bounds(lo, hi, i);
      lo_total.add(lo);
      hi_total.add(hi);
      room_total.add(hi - lo);
    }
    if (p[i] > 0.0 && hi > 0.0) {
      open.push_back(bounds.atom(i, p[i]));
      if constexpr (!kUniform) value_at_infinity.add(hi);
    } else if constexpr (!kUniform) {
      value_at_infinity.add(lo);
      constant.add(lo);
    }
  }
  if constexpr (kUniform) {
    const auto n = static_cast<double>(k);
    const auto rest = static_cast<double>(k - open.size());
    lo_total.add(n * bounds.box.lo);
    hi_total.add(n * bounds.box.hi);
    room_total.add(n * (bounds.box.hi - bounds.box.lo));
    value_at_infinity.add(static_cast<double>(open.size()) * bounds.box.hi);
    value_at_infinity.add(rest * bounds.box.lo);
    constant.add(rest * bounds.box.lo);
  }
  check_box_totals(lo_total.value(), hi_total.value());

  ClipNormalised out;
  out.q.resize(k);
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

  // Case A: F(0) = Σlo < 1 < F(∞). Keep F(s_low) <= 1 <= F(s_high) and close atoms whose regime is fixed
  // on [s_low, s_high]; when none is open, F(s) = constant + s·slope there.
  double s_low = 0.0;
  double s_high = kInfinity;
  CompensatedSum slope;
  std::vector<double> scratch;
  while (!open.empty()) {
    const std::pair<double, double> pivots =
        pick_pivots(bounds, open, s_low, s_high, constant.value(), slope.value(), scratch);
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
    // Close every atom whose regime no longer changes on [s_low, s_high] (branch-free: the regimes of
    // neighbouring atoms are unrelated, so branches would be mispredicted half the time).
    std::size_t kept = 0;
    for (std::size_t block = 0; block < open.size(); block += kBlock) {
      const std::size_t end = std::min(open.size(), block + kBlock);
      double closed_constant = 0.0;
      double closed_slope = 0.0;
      for (std::size_t j = block; j < end; ++j) {
        const auto a = open[j];
        const bool at_ceiling = a.reach_ceiling <= s_low;
        const bool at_floor = !at_ceiling && a.leave_floor >= s_high;
        const bool scaled = !at_ceiling && !at_floor && a.leave_floor <= s_low && a.reach_ceiling >= s_high;
        closed_constant += at_ceiling ? bounds.hi(a) : (at_floor ? bounds.lo(a) : 0.0);
        closed_slope += scaled ? a.p : 0.0;
        open[kept] = a;
        kept += (at_ceiling || at_floor || scaled) ? 0 : 1;
      }
      constant.add(closed_constant);
      slope.add(closed_slope);
    }
    open.resize(kept);
  }

  double s = 0.0;
  bool pinned = false;  // some atom is strictly inside its box at s, which makes s the only root
  if (slope.value() > 0.0) {
    const double root = (1.0 - constant.value()) / slope.value();
    s = std::clamp(root, s_low, s_high);
    constexpr double kMargin = 1e-12;  // a root within rounding of an end may sit on a flat stretch of F
    pinned = root > s_low * (1.0 + kMargin) && root < s_high * (1.0 - kMargin);
  } else {
    s = s_low > 0.0 ? s_low : s_high;
  }
  for (std::size_t i = 0; i < k; ++i) {
    const double lo = bounds.lo(i);
    const double hi = bounds.hi(i);
    out.q[i] = (p[i] > 0.0 && hi > 0.0) ? std::clamp(s * p[i], lo, hi) : lo;
  }
  out.scale = pinned ? s : canonical_scale(p, bounds, out.q, s);
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
  return solve(p, PerAtomBounds{box});
}

}  // namespace privsample
