#pragma once
// Internal to core/solver/ (clip-normalise's own sources include it; nothing else may): what the solver's files share —
// its constants, the box as the search reads it, the search's results — and the parts each file provides to the
// others. docs/solvers/clip-normalise.md explains the algorithm; the files, by role:
//
//   clip_normalise.cpp           the public entry: validation and the totals of the case analysis (one pass)
//   clip_normalise_adaptive.cpp  RootSchedule::adaptive: the case analysis, the levels of rescaling, settling the root
//   clip_normalise_search.cpp    the selection search over the breakpoints: pivots from samples, the later rounds
//   clip_normalise_small.cpp     the small-k route: a uniform box's first bracket by Newton steps on the stack
//   clip_normalise_closing.cpp   the first round over p: its closing pass closes every atom fixed on the bracket
//   clip_normalise_fixed.cpp     RootSchedule::fixed: the same operations for every p of a given length
//   clip_normalise_output.cpp    writing q, for both schedules
//   clip_normalise_lanes.hpp     which form of each pass a build compiles, and the lane helpers of every build
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <span>
#include <utility>
#include <vector>

#include "base/numeric.hpp"
#include "solver/clip_normalise.hpp"

namespace privsample::clip_solver {

inline constexpr double kInfinity = std::numeric_limits<double>::infinity();
// Σlo <= 1 <= Σhi may be off by rounding in the caller's bounds; anything beyond this is a caller bug.
inline constexpr double kBoxSumTolerance = 1e-9;

// F(s) is evaluated to within 6e-14 (add_in_blocks, below; typically 1e-16). Values of F within kFlat of 1
// count as 1: this decides whether F is flat at 1 on a stretch of s (several roots, the same q), whether
// the root lies past every finite breakpoint, and Case A versus Case B. Σq = 1 holds to within kFlat.
inline constexpr double kFlat = 1e-13;

// Up to this many atoms (k, zeros included) a uniform box's first pivots come from small_pivots: no sort, no
// heap memory but q, at most kSmall doubles of scratch on the stack. Above it the sampled search is faster
// (bench/README.md).
inline constexpr std::size_t kSmall = 128;

// Evaluations of F that only steer the search (pivots, the flat-stretch check) sum one block at a time:
// inside a block of kBlock terms four plain partial sums (independent dependency chains, relative error
// below kBlock ulp = 6e-14 even when equal terms repeat one rounding), then one compensated add per
// block: cheaper than compensating every term; the sums that set the root use ExactSum.
inline constexpr std::size_t kBlock = 256;

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

// The input rules in one place: a mass is finite and >= 0; bounds satisfy 0 <= lo <= hi < ∞ (which excludes NaN).
inline bool valid_mass(double value) { return value >= 0.0 && value < kInfinity; }
inline bool valid_bounds(double lo, double hi) { return lo >= 0.0 && hi >= lo && hi < kInfinity; }

// lo/p, except 0 when lo = 0 (a mass that a rescaling rounded to 0 must not give 0/0 = NaN).
inline double floor_breakpoint(double lo, double p) { return lo > 0.0 ? lo / p : 0.0; }

// The box as the solver reads it: bounds per atom, or one pair for every atom (step 0: Park's box and the other
// boxes with constant bounds). One type for both, so that the search exists once in the client's WebAssembly
// (code size); the passes that dominate a uniform box's time have loops of their own (validation, the threshold
// pass, small_pivots, writing q). The search keeps, for each atom whose regime is still open, what it needs in
// one compact array, so the rounds read memory sequentially.
struct Bounds {
  // 32 bytes: the bounds are read through the index (for a uniform box always the one pair), not copied.
  struct Atom {
    double p;
    double leave_floor;    // lo/p: below this scale the atom sits at lo
    double reach_ceiling;  // hi/p: above it, at hi
    std::size_t index;
  };
  const double* lo_at;
  const double* hi_at;
  std::size_t step;  // 1: per atom; 0: the same bounds everywhere
  std::size_t count;
  [[nodiscard]] bool uniform() const { return step == 0; }
  [[nodiscard]] std::size_t size() const { return count; }
  [[nodiscard]] double lo(std::size_t i) const { return lo_at[i * step]; }
  [[nodiscard]] double hi(std::size_t i) const { return hi_at[i * step]; }
  [[nodiscard]] Atom atom(std::size_t i, double p) const {
    return {p, floor_breakpoint(lo(i), p), hi(i) / p, i};
  }
  [[nodiscard]] double lo(const Atom& a) const { return lo(a.index); }
  [[nodiscard]] double hi(const Atom& a) const { return hi(a.index); }
};

// Multiplies by 2^exponent: exact unless the result leaves the double range, like std::ldexp, but one
// multiplication when 2^exponent is a double (|exponent| <= 1023; 2^-1023 is subnormal but exact, and a product
// is rounded once, as std::ldexp rounds).
class PowerOfTwo {
 public:
  explicit PowerOfTwo(int exponent)
      : exponent_(exponent), factor_(std::abs(exponent) <= 1023 ? std::ldexp(1.0, exponent) : 0.0) {}
  [[nodiscard]] double operator()(double x) const { return factor_ != 0.0 ? x * factor_ : std::ldexp(x, exponent_); }
  [[nodiscard]] bool identity() const { return exponent_ == 0; }
  // 2^exponent, or 0 when that is not a double.
  [[nodiscard]] double factor() const { return factor_; }

 private:
  int exponent_;
  double factor_;
};

// Where q goes: the caller's k doubles (clip_normalise_into; they may be p itself, since every pass that writes q
// writes q_x after its last read of p_x and reads no other mass after it), or a vector that room() sizes when q is
// written, after the search has freed its scratch (so that the heap peaks at q or the scratch, not both).
struct QOut {
  std::span<double> into;
  std::vector<double>* owned = nullptr;
  // k doubles to write q into (contents unspecified).
  [[nodiscard]] std::span<double> room(std::size_t k) const;
};

// ---- clip_normalise.cpp: the validating pass ------------------------------------------------------------------------

// What the case analysis needs, totalled in the one pass that validates p and the box. Open atoms (positive mass and
// room: their regime depends on s) are only counted; the search reads them from p.
struct BoxTotals {
  std::size_t open_count = 0;
  CompensatedSum lo;
  CompensatedSum hi;
  CompensatedSum room;         // Σ(hi − lo): zero iff the box is a single point
  CompensatedSum at_infinity;  // F(∞) = Σ_open hi + Σ_rest lo
  CompensatedSum constant;     // the atoms that are not open
  double largest_mass = 0.0;
  double open_mass = 0.0;  // Σ p over the open atoms, for the search's estimates only
};

// Validates p and the box (sizes, masses, bounds, Σlo <= 1 <= Σhi beyond rounding) and totals them; throws
// std::invalid_argument naming the user's parameter.
[[nodiscard]] BoxTotals check_and_total(std::span<const double> p, const Bounds& bounds);
// The same pass over p_x = rule(counts_x) (a histogram's normalisation, model/histogram.hpp), each written into q
// (which may be counts) as it is computed: the same totals, bit for bit, as check_and_total on the normalised p, for
// a uniform box and valid counts. Not in the client module.
[[nodiscard]] BoxTotals normalise_check_and_total(std::span<const double> counts, const HistogramScale& rule,
                                                  std::span<double> q, const Bounds& bounds);

// ---- clip_normalise_adaptive.cpp ------------------------------------------------------------------------------------

// RootSchedule::adaptive (and the fixed schedule's fallback for invalid input and roots past the double range).
// small_route = false skips the small-k route (for its tests: the same answer to the last bit).
[[nodiscard]] ClipSolution solve(std::span<const double> p, const Bounds& bounds, bool small_route, const QOut& q);
// The same for p_x = rule(counts_x), written into q by the validating pass (normalise_check_and_total) and solved there
// (clip_normalise_quotients_into). Not in the client module.
[[nodiscard]] ClipSolution solve_quotients(std::span<const double> counts, const HistogramScale& rule,
                                           const Bounds& bounds, std::span<double> q);

// ---- clip_normalise_search.cpp --------------------------------------------------------------------------------------

struct RootSearch {
  double s = 0.0;       // the root of F(s) = constant + s·slope on the final bracket (an end if slope = 0)
  double s_low = 0.0;   // the final bracket, on which every atom's regime is fixed
  double s_high = 0.0;
  double at_low = 0.0;  // F(s_low), F(s_high)
  double at_high = 0.0;
  bool beyond_range = false;  // F < 1 at every finite s: the root lies past the largest double
};

// The selection search over the open atoms' breakpoints, in the bracket [s_low, s_high]; `constant` and `slope` hold
// the closed atoms' part of F, C + s·S.
[[nodiscard]] RootSearch search_root(const Bounds& bounds, std::vector<Bounds::Atom>& open, CompensatedSum constant,
                                     CompensatedSum slope = {}, double s_low = 0.0, double s_high = kInfinity);

// The first round's two pivots, from a strided sample of about 2·√n of p's n open atoms (all of them when n is small):
// the breakpoints a few standard errors either side of the sample's estimate of the root. False when the open atoms
// have no finite breakpoint. `scratch` and `sample` are the caller's, so that it decides when their memory goes.
[[nodiscard]] bool pick_first_pivots(const Bounds& bounds, std::span<const double> p, const PowerOfTwo& rescale,
                                     std::size_t open_count, double open_mass, double constant,
                                     std::vector<double>& scratch, std::vector<Bounds::Atom>& sample,
                                     std::pair<double, double>& pivots);

// ---- clip_normalise_small.cpp ---------------------------------------------------------------------------------------

// The first round's pivots for a uniform box with k <= kSmall, without sorting and without heap memory: the same two
// breakpoints as the sorted search. False when no open atom has a finite breakpoint.
[[nodiscard]] bool small_pivots(const Bounds& bounds, std::span<const double> p, const PowerOfTwo& rescale,
                                double constant, std::size_t open_count, double open_mass, double largest,
                                std::pair<double, double>& pivots);

// ---- clip_normalise_closing.cpp -------------------------------------------------------------------------------------

// search_root over the atoms of p with positive mass and room, without materialising them all: the first round (its
// pivots from small_pivots or pick_first_pivots, then the closing pass over p), then search_root on the atoms it left
// open. `rescale` is the level's 2^-shift, open_mass and largest_open already rescaled; `constant` holds the other
// atoms (always at lo).
[[nodiscard]] RootSearch search_root_over_p(const Bounds& bounds, std::span<const double> p, const PowerOfTwo& rescale,
                                            std::size_t open_count, double open_mass, double largest_open,
                                            const CompensatedSum& constant, bool small_route);

// ---- clip_normalise_fixed.cpp ---------------------------------------------------------------------------------------

// RootSchedule::fixed: the same passes for every p of a given length (docs/draw-policy.md).
[[nodiscard]] ClipSolution solve_in_fixed_steps(std::span<const double> p, const Bounds& bounds, const QOut& q);

// F̃(t), the fixed schedule's sum Σ clip(t·p; lo, hi) in its order, as this build computes it (for the tests).
[[nodiscard]] double fixed_schedule_value(std::span<const double> p, const Bounds& bounds, double t);

// ---- clip_normalise_output.cpp --------------------------------------------------------------------------------------

// q_x = clip(scale·p_x; lo_x, hi_x) on the atoms with mass and lo_x + θ(hi_x − lo_x) on the others, for every case
// of both schedules, without a branch.
void clipped_output(std::span<const double> p, const Bounds& bounds, double scale, double theta, const QOut& q);

// Case A's root as the levels of rescaling leave it: the root s of the last level, in units of p·2^-last_shift; the
// atoms of earlier levels are past their ceiling breakpoint.
struct LevelledRoot {
  RootSearch root;
  int last_shift = 0;
  int shift_before_last = 0;
  std::size_t levels = 1;
};

// Case A's q for the root s (in the last level's units) and scale = s·2^-last_shift, the scale in p's own units.
void root_output(std::span<const double> p, const Bounds& bounds, const LevelledRoot& levelled, double s, double scale,
                 const QOut& q);

}  // namespace privsample::clip_solver
