// clip-normalise's small-k route (docs/solvers/clip-normalise.md): for a uniform box with k <= kSmall, the first
// round's two pivots — the breakpoints next to the root — by safeguarded Newton steps on F over p in place or a stack
// copy of its open masses, without sorting and without heap memory. The same two breakpoints as the sorted search,
// hence the same sums and the same q to the last bit (tested against clip_normalise_without_small_route).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <span>
#include <utility>

#include "solver/clip_normalise_lanes.hpp"
#include "solver/clip_normalise_parts.hpp"

namespace privsample::clip_solver {
namespace {

// Which side of a breakpoint bound/m a mass is on is read from the product m·s against the bound, which carries one
// rounding (2^-53 relative) as does the bound: outside a relative band of 1e-13, about 450 times both together, the
// product's side is the true side; inside it the division decides (family_neighbour).
constexpr double kProductBand = 1e-13;
// F(s) is a sum of at most kSmall clipped terms, each rounded once: within 1e-13 of 1 (above 128·2^-53 ≈ 1.4e-14
// with room) s is next to a root and another Newton step cannot move it off its rounding.
constexpr double kRootResidual = 1e-13;
// A bound at or above 1e-290 keeps every product m·s that can meet it (within kProductBand) among the normal doubles,
// eighteen orders of magnitude above the subnormal range, so the product's relative rounding holds there; nearer
// the subnormals the steering divides instead.
constexpr double kNormalBoundFloor = 1e-290;

// One steering pass of small_pivots at s over n masses in two lanes (even and odd atoms; an odd n's last atom in the
// even lane): Σ clip(s·m; lo, hi) and the slope Σm over the atoms strictly inside, and the smallest mass at or above
// each bound at s and the largest below it (from which the neighbouring breakpoints follow: bound/m falls as m grows).
struct SteeringSums {
  double value_even = 0.0, value_odd = 0.0, slope_even = 0.0, slope_odd = 0.0;
  double ceiling_down = kInfinity, ceiling_up = 0.0, floor_down = kInfinity, floor_up = 0.0;
};

// The scalar form, for one atom into one lane.
struct SteeringLane {
  double value = 0.0, slope = 0.0, ceiling_down = kInfinity, ceiling_up = 0.0, floor_down = kInfinity, floor_up = 0.0;
  void visit(double m, double s, double lo, double hi) {
    const double x = s * m;
    value += std::clamp(x, lo, hi);
    slope += (x > lo && x < hi) ? m : 0.0;
    ceiling_down = std::min(ceiling_down, x >= hi ? m : kInfinity);
    ceiling_up = std::max(ceiling_up, x < hi ? m : 0.0);
    floor_down = std::min(floor_down, x >= lo ? m : kInfinity);
    floor_up = std::max(floor_up, x < lo ? m : 0.0);
  }
};

inline SteeringSums merged(const SteeringLane& even, const SteeringLane& odd) {
  return {even.value, odd.value, even.slope, odd.slope, std::min(even.ceiling_down, odd.ceiling_down),
          std::max(even.ceiling_up, odd.ceiling_up), std::min(even.floor_down, odd.floor_down),
          std::max(even.floor_up, odd.floor_up)};
}

#if PRIVSAMPLE_VECTOR_LANES
// The two lanes in one F64x2, each doing SteeringLane::visit's operations in the same order (larger then smaller is
// std::clamp's value, smaller/larger(candidate, acc) are std::min/max(acc, candidate), masks instead of selects), so
// the same doubles. No branch: V8 compiles scalar min, max and selects on doubles to branches, and natively the
// select of m or 0 for the slope compiled to one; random masses mispredict them, and at small k the steering is most
// of a call. Past the end of an odd n the odd lane holds a zero mass whose clip (lo) is masked off: it changes no
// minimum or maximum that is used (floor_down only counts where lo > 0).
PRIVSAMPLE_SIMD_FUNCTION SteeringSums steering_pass(const double* masses, std::size_t n, double s, double lo_u,
                                                    double hi_u) {
  const F64x2 scale = splat(s);
  const F64x2 lo = splat(lo_u);
  const F64x2 hi = splat(hi_u);
  const F64x2 infinity = splat(kInfinity);
  F64x2 value = splat(0.0);
  F64x2 slope = value;
  F64x2 ceiling_down = infinity;
  F64x2 ceiling_up = value;
  F64x2 floor_down = infinity;
  F64x2 floor_up = value;
  for (std::size_t j = 0; j < n; j += 2) {
    const bool pair = j + 1 < n;
    const I64x2 keep{-1, pair ? -1 : 0};
    const F64x2 m = masked(keep, F64x2{masses[j], masses[pair ? j + 1 : j]});
    const F64x2 x = scale * m;
    value += masked(keep, smaller(larger(x, lo), hi));
    slope += masked(x > lo, masked(x < hi, m));  // (a & b) on the masks compiled to scalar code (g++ 12)
    // x is never NaN (s and the masses are finite), so x < bound is !(x >= bound)
    const I64x2 reaches_hi = x >= hi;
    const I64x2 reaches_lo = x >= lo;
    ceiling_down = smaller(select_lanes(reaches_hi, m, infinity), ceiling_down);
    ceiling_up = larger(masked_out(reaches_hi, m), ceiling_up);
    floor_down = smaller(select_lanes(reaches_lo, m, infinity), floor_down);
    floor_up = larger(masked_out(reaches_lo, m), floor_up);
  }
  const SteeringLane even{value[0], slope[0], ceiling_down[0], ceiling_up[0], floor_down[0], floor_up[0]};
  const SteeringLane odd{value[1], slope[1], ceiling_down[1], ceiling_up[1], floor_down[1], floor_up[1]};
  return merged(even, odd);
}
#else
SteeringSums steering_pass(const double* masses, std::size_t n, double s, double lo_u, double hi_u) {
  SteeringLane even, odd;  // two lanes, so that neighbouring atoms do not wait on each other
  std::size_t j = 0;
  for (; j + 2 <= n; j += 2) {
    even.visit(masses[j], s, lo_u, hi_u);
    odd.visit(masses[j + 1], s, lo_u, hi_u);
  }
  if (j < n) even.visit(masses[j], s, lo_u, hi_u);
  return merged(even, odd);
}
#endif

// F's piece around s, as one steering pass sees it.
struct Piece {
  double value;  // F(s), steering precision
  double slope;  // Σp over the atoms strictly inside their box at s
  double below;  // neighbouring breakpoints (or 0, ∞), none strictly between; below < above unless s sits
  double above;  // within an ulp of a breakpoint
};

// s well inside the piece: every atom's regime at s (by s·p) is its regime on the whole piece.
inline bool well_inside(const Piece& piece, double s) {
  constexpr double kGap = 1e-9;
  return piece.below < piece.above && s - piece.below > kGap * s && piece.above - s > kGap * s;
}

// A breakpoint pick_first_pivots sorts: positive and finite.
inline bool in_set(double b) { return b > 0.0 && b < kInfinity; }

// The open atoms of a uniform box with k <= kSmall as the route reads them, and what it asks of them: F̂ exactly, the
// exact neighbouring breakpoints of an s, and F's piece around s by one steering pass. Not copyable: the masses may
// be its own stack copy.
class SmallAtoms {
 public:
  // A uniform box reads p itself when it needs no rescaling and most atoms are open (zeros included: at any s
  // they add lo to F, which `constant` then counts once too many, and nothing to the slope or the neighbours;
  // F̂ skips them). Sparse inputs are copied: every later pass then reads only the open atoms.
  SmallAtoms(const Bounds& bounds, std::span<const double> p, const PowerOfTwo& rescale, double constant,
             std::size_t open_count)
      : lo_(bounds.lo(0)), hi_(bounds.hi(0)), constant_(constant) {
    const bool direct = rescale.identity() && 4 * open_count >= 3 * p.size();
    if (direct) {
      n_ = p.size();
    } else {
      // p·2^-shift by one multiplication (the first level's 2^-shift is a double; by 1.0 when unshifted: exact).
      const double factor = rescale.factor();
      const double hi = bounds.hi(0);
      for (std::size_t i = 0; i < p.size(); ++i) {
        const bool open = p[i] > 0.0 && hi > 0.0;
        copy_[n_] = p[i] * factor;
        n_ += open ? 1 : 0;
      }
    }
    masses_ = direct ? p.data() : copy_.data();
    base_ = direct ? constant - static_cast<double>(p.size() - open_count) * lo_ : constant;
    // Bounds far from the subnormal range, where m·s against them is as good as the division outside the band.
    by_mass_ = hi_ >= kNormalBoundFloor && (lo_ == 0.0 || lo_ >= kNormalBoundFloor);
  }
  SmallAtoms(const SmallAtoms&) = delete;
  SmallAtoms& operator=(const SmallAtoms&) = delete;

  [[nodiscard]] double lo() const { return lo_; }

  // Whether some open atom has a breakpoint in the set. hi/p and lo/p are smallest at the largest mass, and positive:
  // some breakpoint is finite iff one of its are. `largest` (the validation's largest open mass, rescaled: the
  // largest of the masses) saves a pass.
  [[nodiscard]] bool has_breakpoint(double largest) const {
    return largest > 0.0 && (in_set(hi_ / largest) || in_set(floor_breakpoint(lo_, largest)));
  }

  // F̂(s) >= 1, F̂ exactly as pick_first_pivots evaluates it. Branch-free (clip_bits, select_bits) but in the client:
  // the same terms, whose selects random masses mispredict.
  [[nodiscard]] bool reaches(double s) const {
    double value = 0.0;
    if constexpr (kClientSizeBudget) {
      for (std::size_t j = 0; j < n_; ++j) value += masses_[j] > 0.0 ? std::clamp(s * masses_[j], lo_, hi_) : 0.0;
    } else {
      for (std::size_t j = 0; j < n_; ++j) {
        value += select_bits(masses_[j] > 0.0, clip_bits(s * masses_[j], lo_, hi_), 0.0);
      }
    }
    return constant_ + value >= 1.0;
  }

  // Exact neighbours (divisions): the smallest breakpoint > s (∞ if none) when `up`, else the largest <= s (0 if
  // none). One function for both directions (code size of the client).
  [[nodiscard]] double neighbour(double s, bool up) const {
    const double none = up ? kInfinity : 0.0;
    const auto nearer = [up](double a, double b) { return up ? std::min(a, b) : std::max(a, b); };
    if (by_mass_) return nearer(family_neighbour(hi_, s, up), lo_ > 0.0 ? family_neighbour(lo_, s, up) : none);
    double best = none;
    for (std::size_t j = 0; j < n_; ++j) {
      // the breakpoints of open atom j, as bounds.atom computes them
      const double f = floor_breakpoint(lo_, masses_[j]);
      const double c = hi_ / masses_[j];
      best = nearer(best, in_set(f) && (up ? f > s : f <= s) ? f : none);
      best = nearer(best, in_set(c) && (up ? c > s : c <= s) ? c : none);
    }
    return best;
  }

  // F's piece around s, by one steering pass.
  [[nodiscard]] Piece evaluate(double s) const {
    const SteeringSums sums = steering_pass(masses_, n_, s, lo_, hi_);
    // hi/p falls as p grows: every ceiling breakpoint is <= hi/ceiling_down or >= hi/ceiling_up.
    const auto breakpoint = [](double bound, double m, double none) {
      const double b = m > 0.0 && m < kInfinity ? bound / m : none;
      return b > 0.0 && b < kInfinity ? b : none;
    };
    const double below = std::max(breakpoint(hi_, sums.ceiling_down, 0.0),
                                  lo_ > 0.0 ? breakpoint(lo_, sums.floor_down, 0.0) : 0.0);
    const double above = std::min(breakpoint(hi_, sums.ceiling_up, kInfinity),
                                  lo_ > 0.0 ? breakpoint(lo_, sums.floor_up, kInfinity) : kInfinity);
    return Piece{base_ + (sums.value_even + sums.value_odd), sums.slope_even + sums.slope_odd, below, above};
  }

 private:
  // The neighbour in one family (bound/m for every open mass m) strictly above s when `up` (∞ if none), else the one
  // at or below s (0 if none): for a uniform box bound/m falls as m grows, so it is bound/m at one mass, the largest
  // with bound/m > s (up) or the smallest with bound/m <= s. Which masses qualify is plain from m·s against the bound
  // except within kProductBand of it, where the division decides: the same doubles, a division or two.
  [[nodiscard]] double family_neighbour(double bound, double s, bool up) const {
    const double none = up ? kInfinity : 0.0;
    double best = up ? 0.0 : kInfinity;
    for (std::size_t j = 0; j < n_; ++j) {
      const double m = masses_[j];
      const double product = m * s;
      const bool sure = up ? product < bound * (1.0 - kProductBand) : product > bound * (1.0 + kProductBand);
      const bool near = up ? product <= bound * (1.0 + kProductBand) : product >= bound * (1.0 - kProductBand);
      const bool unsure = !sure && near && m > 0.0 && (up ? bound / m > s : bound / m <= s);
      best = up ? std::max(best, sure || unsure ? m : 0.0) : std::min(best, sure || unsure ? m : kInfinity);
    }
    const double b = (up ? best > 0.0 : best < kInfinity) ? bound / best : none;
    return b > 0.0 && b < kInfinity ? b : none;
  }

  std::array<double, kSmall> copy_;  // the open atoms' (rescaled) masses, in index order, unless p is read directly
  const double* masses_ = nullptr;
  std::size_t n_ = 0;
  double lo_;
  double hi_;
  double constant_;  // F̂'s constant: the atoms that are not open
  double base_;      // the steering passes' constant: `constant_` less the zeros' floors when p is read directly
  bool by_mass_ = false;
};

// Where the Newton steps stop: s and F's piece around it, and whether the root is on that piece.
struct Steered {
  double s = 0.0;
  Piece piece{};
  bool on_piece = false;
};

// Steering: Newton on F inside the bracket (low, high), F(low) < 1 <= F(high) (steering values), with an
// Illinois-weighted secant where Newton's step leaves it. Stops when a Newton step stays on the piece it
// starts from (that piece holds the root), or F(s) is within rounding of 1, or the bracket is two doubles.
// Below lo/(largest mass) every atom sits at its floor, so F = F(0) < 1 there and the root lies above: the bracket
// starts there, so that a narrow box's (ε = 0.1) first Newton step cannot fall into that flat stretch and cost a
// pass. (The start, (1 − constant)/Σm, is at least lo/mean(m), so it is not below.)
Steered newton_steps(const SmallAtoms& atoms, double constant, std::size_t open_count, double open_mass,
                     double largest) {
  double low = floor_breakpoint(atoms.lo(), largest);
  double high = kInfinity;
  double value_low = constant;
  value_low += static_cast<double>(open_count) * atoms.lo();
  double value_high = kInfinity;
  double weight_low = 1.0;  // Illinois: the end kept twice in a row has its residual halved
  double weight_high = 1.0;
  int last_side = 0;
  Steered at;
  at.s = open_mass > 0.0 ? std::max(0.0, 1.0 - constant) / open_mass : 1.0;
  if (!(at.s > 0.0 && at.s < kInfinity)) at.s = 1.0;
  for (int step = 0; step < 200; ++step) {
    const double s = at.s;
    const Piece piece = at.piece = atoms.evaluate(s);
    const double newton = piece.slope > 0.0 ? s + (1.0 - piece.value) / piece.slope : kInfinity;
    if (piece.below < piece.above && newton >= piece.below && newton <= piece.above) {
      at.on_piece = true;
      break;
    }
    if (std::fabs(piece.value - 1.0) <= kRootResidual) break;  // within rounding of a root: s is next to it
    // On a flat piece F keeps its value up to the piece's end: the bracket moves there.
    if (piece.value < 1.0) {
      low = piece.slope == 0.0 && piece.above < high ? std::max(s, piece.above) : s;
      value_low = piece.value;
      if (last_side < 0) weight_high *= 0.5;
      weight_low = 1.0;
      last_side = -1;
    } else {
      high = piece.slope == 0.0 && piece.below > low ? std::min(s, piece.below) : s;
      value_high = piece.value;
      if (last_side > 0) weight_low *= 0.5;
      weight_high = 1.0;
      last_side = 1;
    }
    double next = newton;
    if (!(next > low && next < high) && high < kInfinity) {
      const double g_low = weight_low * (value_low - 1.0);
      const double g_high = weight_high * (value_high - 1.0);
      next = low + (-g_low) / (g_high - g_low) * (high - low);
    }
    if (!(next > low && next < high)) {
      if (high == kInfinity) {
        next = std::max(2.0 * s, 2.0 * low);
      } else if (low > 0.0 && high > 4.0 * low) {
        next = std::sqrt(low) * std::sqrt(high);
      } else {
        next = low + 0.5 * (high - low);
      }
    }
    if (!(next > low && next < high)) break;  // low and high are neighbouring doubles
    at.s = next;
  }
  return at;
}

// A Newton step that ends at an end of the root's piece (s within 1e-9 of a breakpoint: the ends' regimes at s are
// unsure) would take two exact evaluations of F̂; one steering pass at the piece's middle decides them instead
// when it finds the same piece there. (Not in the client: a second inlined steering pass costs it bytes.)
void steer_to_middle(const SmallAtoms& atoms, Steered& at) {
  const Piece& piece = at.piece;
  if (at.on_piece && !well_inside(piece, at.s) && piece.below > 0.0 && piece.above < kInfinity) {
    const double middle = piece.below + 0.5 * (piece.above - piece.below);
    const Piece at_middle = atoms.evaluate(middle);
    if (at_middle.below == piece.below && at_middle.above == piece.above) {
      at.piece = at_middle;
      at.s = middle;
    }
  }
}

// Two neighbouring breakpoints below < above (or 0, ∞), and whether F̂ reaches 1 at each.
struct PivotPair {
  double below = 0.0;
  double above = kInfinity;
  bool high_reaches = false;
  bool low_reaches = false;
};

// The ends of the piece where the steps stopped, and on which side of the root each lies: by F's linear model on the
// root's piece where that is clearly away from 1 and s clearly inside the piece, by F̂ itself otherwise.
PivotPair piece_ends(const SmallAtoms& atoms, const Steered& at) {
  const Piece& piece = at.piece;
  PivotPair ends;
  if (at.on_piece && well_inside(piece, at.s)) {
    ends.below = piece.below;
    ends.above = piece.above;
    // F(b) = F(s) + (b − s)·slope on the piece, to within ~1e-15 of its terms' size.
    const auto decide = [&](double b) {
      constexpr double kMargin = 1e-12;
      const double change = (b - at.s) * piece.slope;
      const double model = piece.value + change;
      const double tolerance = kMargin * (1.0 + std::fabs(piece.value) + std::fabs(change));
      if (model >= 1.0 + tolerance) return true;
      if (model < 1.0 - tolerance) return false;
      return atoms.reaches(b);
    };
    ends.high_reaches = ends.above == kInfinity || decide(ends.above);
    ends.low_reaches = ends.below > 0.0 && decide(ends.below);
  } else {
    const bool neighbours = at.on_piece || piece.below < piece.above;  // the last evaluation's, when consistent
    ends.below = neighbours ? piece.below : atoms.neighbour(at.s, false);
    ends.above = neighbours ? piece.above : atoms.neighbour(at.s, true);
    ends.high_reaches = ends.above == kInfinity || atoms.reaches(ends.above);
    ends.low_reaches = ends.below > 0.0 && atoms.reaches(ends.below);
  }
  return ends;
}

}  // namespace

// pick_first_pivots' answer for a uniform box with k <= kSmall (every open atom in the sample), found without
// sorting and without heap memory: the largest breakpoint b with F̂(b) < 1 and the smallest with F̂(b) >= 1 (0 and
// ∞ when there is none), where F̂(b) = constant + Σ clip(b·p) summed in index order, exactly as the sorted search
// evaluates it. F̂ is non-decreasing (rounded additions of non-decreasing terms), so these two are what its
// binary search over the sorted breakpoints returns, whatever route finds them.
//
// Steering: safeguarded Newton steps on F. Each pass also finds the two breakpoints next to s, so that no
// breakpoint lies strictly between them, without a division per atom: hi/p and lo/p fall as p grows, so the
// masses on either side of each regime change at s (by s·p against lo and hi) give the two neighbours by four
// divisions — the same divisions as the atoms' breakpoints, so the same doubles. Once a Newton step lands on the
// piece around s, that piece holds the root; its ends are decided by F's linear model there when it is clearly
// away from 1 (F̂ is within 3e-14 of F at k <= kSmall) and s is clearly inside the piece, and by F̂ itself
// otherwise, walking to neighbouring breakpoints while an end is on the wrong side. Returns false when there is
// no breakpoint (as pick_first_pivots does). Per-atom boxes keep the sorted search (code size of the client).
bool small_pivots(const Bounds& bounds, std::span<const double> p, const PowerOfTwo& rescale, double constant,
                  std::size_t open_count, double open_mass, double largest, std::pair<double, double>& pivots) {
  const SmallAtoms atoms(bounds, p, rescale, constant, open_count);
  if (!atoms.has_breakpoint(largest)) return false;
  Steered at = newton_steps(atoms, constant, open_count, open_mass, largest);
  if constexpr (!kClientSizeBudget) steer_to_middle(atoms, at);
  PivotPair ends = piece_ends(atoms, at);
  while (!ends.high_reaches) {  // the root is above: walk up
    ends.below = ends.above;
    ends.above = atoms.neighbour(ends.below, true);
    ends.high_reaches = ends.above == kInfinity || atoms.reaches(ends.above);
    ends.low_reaches = false;
  }
  while (ends.low_reaches) {  // the root is below: walk down
    ends.above = ends.below;
    ends.below = atoms.neighbour(std::nextafter(ends.above, 0.0), false);
    ends.low_reaches = ends.below > 0.0 && atoms.reaches(ends.below);
  }
  pivots = {ends.below, ends.above};
  return true;
}

}  // namespace privsample::clip_solver
