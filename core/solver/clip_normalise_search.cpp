// clip-normalise's selection search over the breakpoints (docs/solvers/clip-normalise.md): rounds that narrow a
// bracket [s_low, s_high] of the root by two pivots chosen from a strided sample of the open atoms, closing after each
// round every atom whose regime (floor, scaled, ceiling) is fixed on the bracket, until none is open and F(s) =
// C + s·S is solved in closed form. Expected linear time; a miss of the sample costs a pass, never exactness. The
// first round, over p itself, is clip_normalise_closing.cpp's; its pivots come from here (pick_first_pivots) or, for
// small k, from the small-k route.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "solver/clip_normalise_lanes.hpp"
#include "solver/clip_normalise_parts.hpp"

namespace privsample::clip_solver {
namespace {

// The stride of a systematic sample: the smallest prime >= spacing (1 stays 1). Masses often come from a 2-D grid
// stored row by row, and a stride that divides the row length samples the same few columns of every row (at
// 500 × 500 cells a stride of 250 reads only columns 0 and 250): the estimate that steers the bracket is then off,
// and the bracket leaves far more atoms open. A prime stride walks through every column of any row length it does
// not divide. Steering only: the answer is exact whatever the sample, though its last bits follow the search's path
// (docs/solvers/clip-normalise.md).
[[gnu::noinline]] std::size_t sampling_stride(std::size_t spacing) {  // out of line: smaller client
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

// Closes every atom whose regime no longer changes on [s_low, s_high] into constant + s·slope and keeps the others in
// `open` (branch-free: the regimes of neighbouring atoms are unrelated, so branches would be mispredicted half the
// time). Breakpoints at +∞ close too: such an atom stays at its floor (or, with lo = 0, scaled) for every finite s.
// These sums set the root, so they are exact up to one rounding: floors and ceilings are counted where the box is
// uniform, otherwise every term is compensated (TwoSum), since thousands of equal floors would repeat one rounding
// error thousands of times.
void close_settled(const Bounds& bounds, std::vector<Bounds::Atom>& open, double s_low, double s_high,
                   CompensatedSum& constant, CompensatedSum& slope) {
  const bool uniform = bounds.uniform();
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

// The first breakpoint in [first, last) at which the estimate reaches `target` (`last` if none): a binary search, F̂
// being non-decreasing.
template <class Estimate>
std::size_t first_reaching(const std::vector<double>& breakpoints, const Estimate& estimate, double target,
                           std::size_t first, std::size_t last) {
  while (first < last) {
    const std::size_t middle = first + (last - first) / 2;
    if (estimate(breakpoints[middle]).value >= target) {
      last = middle;
    } else {
      first = middle + 1;
    }
  }
  return first;
}

// F̂(s) of the first round's sample, with s·Σp as a control variate (regression estimator): where most atoms are
// scaled, clip(s·p) follows s·p and the known total removes nearly all the sampling error; where most are clipped the
// regression weight falls to ~0 and the plain mean is used. Also its standard error. With every open atom sampled
// (`exact`) F̂ = F, summed in index order.
struct SampleEstimate {
  struct Value {
    double value;
    double error;
  };
  const Bounds& bounds;
  const std::vector<Bounds::Atom>& sample;
  double constant;   // the atoms that are not open
  double open_mass;  // Σp over the open atoms
  double n;          // how many atoms are open
  double m;          // how many of them are sampled
  bool exact;        // all of them

  [[nodiscard]] Value operator()(double s) const {
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
  }
};

// The first breakpoint at which the estimate reaches `target`, found by galloping out from `at_root` (the targets
// 1 ± spread are usually a few breakpoints from the root), downwards or upwards, then a binary search.
std::size_t gallop(const std::vector<double>& breakpoints, const SampleEstimate& estimate, std::size_t at_root,
                   double target, bool downwards) {
  std::size_t step = 1;
  std::size_t near = at_root;
  for (;;) {
    if (downwards) {
      const std::size_t next = near > step ? near - step : 0;
      if (next == 0 || estimate(breakpoints[next]).value < target) {
        return first_reaching(breakpoints, estimate, target, next, near);
      }
      near = next;
    } else {
      const std::size_t next = std::min(breakpoints.size(), near + step);
      if (next == breakpoints.size() || estimate(breakpoints[next]).value >= target) {
        return first_reaching(breakpoints, estimate, target, near, next);
      }
      near = next;
    }
    step *= 2;
  }
}

// The first round's sample: every stride-th atom of p with mass and room into `sample`, its finite breakpoints into
// `scratch`. A sample without a breakpoint is drawn again from every atom; false when they have none either.
bool sample_breakpoints(const Bounds& bounds, std::span<const double> p, const PowerOfTwo& rescale, std::size_t stride,
                        std::vector<double>& scratch, std::vector<Bounds::Atom>& sample) {
  for (;;) {
    scratch.clear();
    sample.clear();
    if constexpr (!kClientSizeBudget) {
      // The sample's size is known: growing the two vectors from empty would reallocate them several times.
      sample.reserve(p.size() / stride + 1);
      scratch.reserve(2 * (p.size() / stride + 1));
    }
    for (std::size_t i = 0; i < p.size(); i += stride) {
      if (!(p[i] > 0.0 && bounds.hi(i) > 0.0)) continue;
      const auto a = bounds.atom(i, rescale(p[i]));
      sample.push_back(a);
      if (a.leave_floor > 0.0 && a.leave_floor < kInfinity) scratch.push_back(a.leave_floor);
      if (a.reach_ceiling < kInfinity) scratch.push_back(a.reach_ceiling);
    }
    if (!scratch.empty()) return true;
    if (stride == 1) return false;
    stride = 1;
  }
}


}  // namespace

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
  // The bracket's half-width never falls below 1e-12 in F, so that a sample whose standard error rounds to 0 still
  // brackets the roundings of F's estimate (sums of about k terms near 1); too wide costs a larger bracket only.
  constexpr double kLeastSpread = 1e-12;
  const auto wanted =
      std::max(kLeast, static_cast<std::size_t>(2.0 * std::sqrt(static_cast<double>(open_count))));
  // Up to kLeast open atoms, and for a uniform box with k <= kSmall, the sample is all of them: F̂ = F, and the
  // pivots are the two breakpoints next to the root (what small_pivots finds without sorting).
  const bool all = open_count <= kLeast || (bounds.uniform() && p.size() <= kSmall);
  const std::size_t stride = all ? 1 : sampling_stride(open_count / wanted);
  if (!sample_breakpoints(bounds, p, rescale, stride, scratch, sample)) return false;
  std::sort(scratch.begin(), scratch.end());
  const bool exact = sample.size() == open_count;
  const SampleEstimate estimate{bounds, sample, constant, open_mass, static_cast<double>(open_count),
                                static_cast<double>(sample.size()), exact};
  const std::size_t at_root = first_reaching(scratch, estimate, 1.0, 0, scratch.size());
  double spread = 0.0;
  if (!exact) {
    // Four standard errors either side, at the estimated root; a miss costs one more pass, not correctness.
    const double s_root = scratch[std::min(at_root, scratch.size() - 1)];
    spread = 4.0 * estimate(s_root).error + kLeastSpread;
  }
  const std::size_t below = exact ? at_root : gallop(scratch, estimate, at_root, 1.0 - spread, true);
  const std::size_t above = exact ? at_root : gallop(scratch, estimate, at_root, 1.0 + spread, false);
  pivots = {below > 0 ? scratch[below - 1] : 0.0, above < scratch.size() ? scratch[above] : kInfinity};
  return true;
}

RootSearch search_root(const Bounds& bounds, std::vector<Bounds::Atom>& open, CompensatedSum constant,
                       CompensatedSum slope, double s_low, double s_high) {
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
    close_settled(bounds, open, s_low, s_high, constant, slope);
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

}  // namespace privsample::clip_solver
