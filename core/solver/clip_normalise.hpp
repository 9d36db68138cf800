#pragma once
// clip-normalise: the one exact solver behind every clip-type sampler.
//
// Given p >= 0 and per-atom bounds 0 <= lo_x <= hi_x with Σlo <= 1 <= Σhi, find s >= 0 with
//     Σ_x clip(s·p_x; lo_x, hi_x) = 1                                   (Case A)
// and return q_x = clip(s·p_x; lo_x, hi_x). The papers write s = 1/r_P.
// F(s) = Σ clip(s·p_x; lo_x, hi_x) is continuous, non-decreasing and piecewise linear in s, so the root
// is found exactly: a selection search over the breakpoints lo_x/p_x and hi_x/p_x narrows an interval
// on which every atom's regime (floor / scaled / ceiling) is fixed, then F(s) = C + s·S is solved in
// closed form. Expected linear time; no bisection tolerance.
//
// Case B (sparse support, docs/solvers/clip-normalise.md): when F(∞) = Σ_{p>0} hi + Σ_{p=0} lo < 1
// no root exists. The limit of the clip formula (and the f-projection onto the box for every f) puts
// the support at hi and the zero atoms at lo + θ(hi − lo) with one θ ∈ [0,1] making Σq = 1.
//
// When p has no mass where hi > 0 (all of it on atoms the box forbids), every q in the box is equally far
// from p; Case B's formula then returns the data-independent q = lo + θ(hi − lo).
//
// Either way lo_x <= q_x <= hi_x holds exactly in floating point (q is clamped, never renormalised),
// which is what the ratio bound of every clip sampler rests on. Atoms with hi_x = 0 get q_x = 0.
#include <cstddef>
#include <span>
#include <vector>

#include "base/numeric.hpp"

namespace privsample {

// The same bounds for every atom (Park's global sampler).
struct UniformBox {
  std::size_t size = 0;
  double lo = 0.0;
  double hi = 0.0;
};

// Bounds that differ per atom (samplers around a public prior, reference measures).
struct AtomBox {
  std::span<const double> lo;
  std::span<const double> hi;
};

enum class ClipCase {
  root,            // Case A: Σ clip(s·p; lo, hi) = 1 has a root s
  sparse_support,  // Case B: no root; support at hi, zero atoms share the rest
  box_is_point,    // Σlo >= 1: the box holds only q = lo (e.g. ε = 0); no dependence on p
};

struct ClipNormalised {
  std::vector<double> q;
  // The scale s with q = clip(s·p; lo, hi) (s = 1/r_P); +∞ in Case B, 0 when the box is a point.
  // When F is flat at 1 the root is not unique; q is, and `scale` is the smallest root
  // (the largest r_P). +∞ also in Case A when the root exceeds the largest double, which happens only
  // for masses spanning more than ~2^1000 (say 5e-324 next to 1): q is still exact. RootSchedule::fixed also
  // reports +∞ where F is flat at 1 past its last breakpoint (F(∞) = 1 up to rounding), with q that limit.
  double scale = 0.0;
  ClipCase kind = ClipCase::root;
};

// p must be finite and >= 0 (not necessarily normalised: q does not depend on the scale of p, s does).
// Throws std::invalid_argument when sizes differ, a bound is negative/non-finite, lo > hi,
// or Σlo > 1 or Σhi < 1 (beyond rounding).
// How the root is found. Both give lo_x <= q_x <= hi_x exactly, Σq = 1 within 1e-13 and the same case; their q
// differ only by the rounding of F near the root (each q_x within 1e-11 relative, typically 1e-14; tested), or by up
// to 1e-13 absolute where F stays within rounding of 1 over a stretch: there the adaptive search snaps to the
// smallest root (docs/solvers/clip-normalise.md) and the fixed schedule keeps the exact one.
enum class RootSchedule {
  // A selection search over the breakpoints: expected linear time, a few passes, fastest. Which comparisons and
  // passes it makes depends on p (distribution(), normaliser(), estimates and simulations).
  adaptive,
  // 63 evaluations of F at the steps of a binary search over the doubles, then a checking pass and a closing one:
  // the same operations for every p of a given length, without a data-dependent branch (the release path of the
  // finite clip samplers, so that the time of sample() does not depend on the private input; docs/draw-policy.md).
  // Slower than the adaptive search (bench/README.md). Roots past the largest double (masses spanning more than
  // ~2^1000) and invalid arguments go to the adaptive search.
  fixed,
};

[[nodiscard]] ClipNormalised clip_normalise(std::span<const double> p, const UniformBox& box,
                                            RootSchedule schedule = RootSchedule::adaptive);
[[nodiscard]] ClipNormalised clip_normalise(std::span<const double> p, const AtomBox& box,
                                            RootSchedule schedule = RootSchedule::adaptive);

// A solution whose q the caller holds: ClipNormalised without q.
struct ClipSolution {
  double scale = 0.0;
  ClipCase kind = ClipCase::root;
};

// The same solve, the same q to the last bit, written into the caller's q (as many entries as p; std::invalid_argument
// otherwise), which may be p itself: no memory beyond the search's scratch, O(√k) in expectation.
ClipSolution clip_normalise_into(std::span<const double> p, const UniformBox& box, std::span<double> q,
                                 RootSchedule schedule = RootSchedule::adaptive);
ClipSolution clip_normalise_into(std::span<const double> p, const AtomBox& box, std::span<double> q,
                                 RootSchedule schedule = RootSchedule::adaptive);

// clip_normalise_into(p, box, q) for the histogram p_x = rule(h_x) (model/histogram.hpp's checked_histogram_scale
// gives the rule of valid counts h): the same q and solution to the last bit, with p_x computed in the solver's
// validating pass and written into q (which may be h), where the search then runs. One pass over the k masses fewer
// than normalising into q first and solving there. Not in the client module (its size budget): it normalises first.
ClipSolution clip_normalise_quotients_into(std::span<const double> counts, const HistogramScale& rule,
                                           const UniformBox& box, std::span<double> q);

}  // namespace privsample
