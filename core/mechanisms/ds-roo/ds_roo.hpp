#pragma once
// DS-ROO, data-specific Reveal-or-Obscure (Tasnim et al., ITW 2025, Algorithm 2, corrected: two defects of the paper,
// docs/errata.md): the setting and the guarantee are the record-level mechanisms' (records.hpp); the construction,
// its proof and the worst-pair search are on README.md beside this file.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "base/draw.hpp"
#include "base/numeric.hpp"
#include "mechanisms/records.hpp"
#include "mechanisms/spec.hpp"

namespace privsample {

// Largest table dsroo_obscure_table returns (q_0..q_M with M = ⌊n/k⌋); longer tables throw, use
// dsroo_obscure_probability for a single entry instead.
inline constexpr std::size_t kMaxDsRooTableLength = 1'000'001;

// DS-ROO's obscure table q_0..q_M, M = ⌊n/k⌋, by minimum count m (core/mechanisms/ds-roo/README.md#the-table): the least
// table (every entry as small as possible at once) that meets every constraint of the complete list of neighbouring
// pairs (core/mechanisms/ds-roo/README.md#the-complete-list-of-neighbouring-pairs), built by one forward pass:
//   q_0 = k/(k + n·e1), e1 = e^ε − 1 (ROO's q_0);
//   q_j = min{1, max{0, t_j, every lower bound on q_j that a pair (j − 1, j) gives from q_{j−1}}}   (j = 1..M),
//   t_j = k(1 − j·e1)/(k + e1(n − j·k)), and q_{n/k} := 0 when k | n (the exact-uniform histogram outputs U).
// Each bound is rounded up (outward); once q_j = 0 with j·e1 > 1 every later entry is 0 (the early stop) and the
// table is returned at full length M + 1 with those zeros. For k = 1 (no neighbours change the output) the table is
// (q_0, 0, …, 0). Computed in the overflow-free form (divided by e^ε); ε > 640 runs at 640.
// Throws std::invalid_argument for bad ε, records, k, or when M + 1 > kMaxDsRooTableLength.
// These are the values at ε itself, unverified; DsRooSampler builds its table at a slightly smaller ε′ and verifies
// it (below). Where the paper's table was already private this is the paper's table (e.g. k = 9, n = 1000).
[[nodiscard]] std::vector<double> dsroo_obscure_table(double epsilon, std::size_t records, std::size_t k);

// One entry q_m of dsroo_obscure_table (m <= ⌊n/k⌋, else std::invalid_argument) without storing the table.
// The pass always runs to the same public length (min(M, the early stop)), whatever m is, so the running time does
// not depend on the data; that length is at most M.
[[nodiscard]] double dsroo_obscure_probability(double epsilon, std::size_t records, std::size_t k, std::size_t m);

// The paper's Algorithm 2 exactly as printed (eqs. 9–13: u_m, v_m, w_m, q_m = max{0, (u_m/v_m)q_{m−1} − w_m/v_m}),
// for tests and for documenting the defects only. It is NOT ε-DP (docs/errata.md#ds-roo-top-index): when k ∤ n and
// M·(e^ε−1) < 1 the printed q_M can fall below t_M, e.g. k=3, n=5, e^ε = 3/2 gives q_1 = 7/22 < t_1 = 3/8 and the
// counts (1,2,2) vs (2,1,2) have output ratio 25/16 > 3/2 for the second letter. Where the printed formula divides by
// zero (v_M = 0 when k | n) this returns 0 instead of ±∞/NaN. Never use it to sample.
[[nodiscard]] std::vector<double> dsroo_obscure_table_as_printed(double epsilon, std::size_t records, std::size_t k);

// The paper's recursion with only the top-index fix q_M ← max(q_M, t_M) (what the library used before the second
// erratum, docs/errata.md#ds-roo-unchanged-letters). Still NOT ε-DP: a letter whose count does not change moves when
// the minimum does, e.g. ε = 0.01, k = 1000, n = 99999 loses 3.36·ε (dsroo_worst_log_ratio). For tests and the
// errata only; never use it to sample.
[[nodiscard]] std::vector<double> dsroo_obscure_table_top_fix_only(double epsilon, std::size_t records,
                                                                   std::size_t k);

// The worst replace-one pair of a DS-ROO-style release (core/mechanisms/ds-roo/README.md#the-worst-pair): x with minimum
// count m and its neighbour x̃ with minimum count m̃, and a letter y with count `count` in x and `count_tilde` in x̃,
// maximising log Pr(y | x)/Pr(y | x̃) with Pr(y | x) = q_m/k + (1 − q_m)·c_y/n — the law sample() draws from, q_m
// being the table's double (an exact Bernoulli(q_m) coin, a uniform letter, a uniform record).
// log_ratio is an upper bound of that maximum: each ratio is evaluated in double-double arithmetic (relative error
// below 2^-100) and its logarithm by log1p in double, and the result is rounded up by 2^-50·|log_ratio| + 2^-95,
// which covers both; +∞ when a letter has probability 0 under x̃ and not under x. The pairs are the complete list
// (O(M) of them, the ends of each letter's feasible count range, exactly the pairs that exist for every k >= 2);
// k = 1 has no neighbours that change the output (log_ratio 0).
struct DsRooWorstPair {
  double log_ratio = 0.0;
  std::uint64_t m = 0;
  std::uint64_t m_tilde = 0;
  std::uint64_t count = 0;
  std::uint64_t count_tilde = 0;
};
// table: q_0..q_M (M = ⌊records/k⌋, so M + 1 entries), each in [0, 1]. Throws std::invalid_argument for records outside
// [1, kMaxRecords], k outside [1, kMaxCategories], a table of another length or an entry outside [0, 1].
[[nodiscard]] DsRooWorstPair dsroo_worst_log_ratio(std::span<const double> table, std::size_t records, std::size_t k);

namespace detail {

// How a DsRooSampler finds q_m for one k (core/mechanisms/ds-roo/README.md#the-sampler): either one value for every m (n < k,
// k = 1, ε′ = 0, or the fallback), or the corrected pass at ε′ of public length `last` (= J: M, or the early stop),
// of which every stride-th entry is kept, stride = ⌈√(J + 1)⌉.
enum class DsRooRecursion { corrected, top_fix_only };  // top_fix_only: a table made to fail, for the tests only
struct DsRooPlan {
  std::uint64_t n = 0;
  std::uint64_t k = 0;
  std::uint64_t top = 0;          // M = ⌊n/k⌋
  bool top_is_uniform = false;    // k | n: q_M := 0 (the exact-uniform histogram outputs U for any q)
  bool constant = false;          // q_m = constant_q for every m (with q_M := 0 when top_is_uniform)
  double constant_q = 0.0;
  bool verified = false;          // the pass met every constraint at ε (else constant_q is ROO's q_0: the fallback)
  double w = 1.0;                 // e^{−ε′}
  double a = 0.0;                 // 1 − e^{−ε′}
  DsRooRecursion recursion = DsRooRecursion::corrected;
  std::uint64_t last = 0;         // J
  std::uint64_t stride = 1;
  std::vector<double> checkpoints;  // q_0, q_stride, q_2·stride, … up to J
};

// The plan of a DsRooSampler at ε (validated; ε > 640 runs at 640) for n records over k letters: the table of
// dsroo_obscure_table at ε′ = ε − (1e-12·ε + 1e-14), then verified against every constraint at ε itself in double
// arithmetic with rigorous error bounds (core/mechanisms/ds-roo/README.md#verification-and-fallback); if one fails, every
// q_m is ROO's q_0 rounded up (always ε-DP). O(J) time once, O(√J) memory. `recursion` = top_fix_only builds the old
// table instead, for the tests of the fallback.
[[nodiscard]] DsRooPlan dsroo_plan(double epsilon, std::uint64_t n, std::uint64_t k,
                                   DsRooRecursion recursion = DsRooRecursion::corrected);

// One step of the plan's pass: q_j from q_{j−1}, for 1 <= j <= last. The same operations for every j and q: no
// branch on either (selects), so that re-running steps takes a time that says nothing about where they start.
[[nodiscard]] double dsroo_step(const DsRooPlan& plan, std::uint64_t j, double q_previous) noexcept;

// `if_true` or `if_false` by a mask of their bits, not by a branch (a select on doubles is a branch in V8's
// WebAssembly; the empty asm keeps the mask opaque there).
[[nodiscard]] inline double select_double(bool condition, double if_true, double if_false) noexcept {
  std::uint64_t mask = std::uint64_t{0} - static_cast<std::uint64_t>(condition);
#if defined(__wasm__)
  __asm__("" : "+r"(mask));
#endif
  return double_of((bits_of(if_true) & mask) | (bits_of(if_false) & ~mask));
}

// q_m under the plan with the same work for every m (the draw policy, docs/draw-policy.md): every checkpoint is read
// and one selected, then exactly stride − 1 calls of step(j, q) run from it (j clamped to last, the value at m
// selected), whatever m is. `step` is dsroo_step on the plan; the tests pass one that counts its calls.
template <class Step>
[[nodiscard]] double dsroo_lookup(const DsRooPlan& plan, std::uint64_t m, Step&& step) {
  if (plan.constant) return select_double(plan.top_is_uniform && m == plan.top, 0.0, plan.constant_q);
  const std::uint64_t target = m < plan.last ? m : plan.last;
  const std::uint64_t block = target / plan.stride;
  double q = 0.0;
  for (std::size_t t = 0; t < plan.checkpoints.size(); ++t) q = select_double(t == block, plan.checkpoints[t], q);
  const std::uint64_t base = block * plan.stride;
  double found = select_double(base == target, q, 0.0);
  for (std::uint64_t i = 1; i < plan.stride; ++i) {
    const std::uint64_t j = base + i < plan.last ? base + i : plan.last;
    q = step(j, q);
    found = select_double(base + i == target, q, found);
  }
  return select_double(m > plan.last, 0.0, found);
}

}  // namespace detail

// DS-ROO — Algorithm 2 corrected (core/mechanisms/ds-roo/README.md; two defects of the paper, docs/errata.md). As ROO, but
// q = q_m from the table of dsroo_obscure_table, where m = min_y c_y is the minimum count over ALL k letters of the
// public alphabet (0 if any letter is absent, then q = q_0 as in ROO). Datasets where every letter is frequent need
// little or no obscuring.
// Guarantee: ε-DP of the records (replace-one, public n and k). The table is the least one meeting every constraint
// of the complete list of neighbouring pairs; privacy does not rest on the proof of that construction: the table the
// sampler uses is verified against every constraint at ε in arithmetic whose rounding is bounded below the margin
// (the table is built at ε′ = ε − (1e-12·ε + 1e-14)), and when a check fails (seen only at ε below ~1e-7, where
// rounding is as large as the margin) the sampler falls back to ROO's q_0 for every m, which is always ε-DP.
// When n < k (M = 0) DS-ROO is ROO and uses ROO's rounded-up q_0. The guarantee states ε.
// q_m depends on the data and is never released (the aggregator cannot debias, core/mechanisms/ds-roo/README.md#assumptions).
// The pass's length J (at most M = ⌊n/k⌋) is public; the sampler runs it once per k, keeps every ⌈√(J+1)⌉-th entry,
// and finds each q_m with the same work for every m (detail::dsroo_lookup): data-independent timing, O(√J) time and
// memory per call.
class DsRooSampler : public RecordDpSampler<DsRooSampler> {
 public:
  static constexpr MechanismSpec spec{"ds-roo", MechanismSpace::finite, NotionRule::record_level, kRecordsOption, {},
                                      {}, "data-specific Reveal-or-Obscure (the paper's Algorithm 2, corrected)",
                                      "data-specific Reveal-or-Obscure",
                                      "Data-specific Reveal-or-Obscure (Tasnim et al., corrected): like ROO, "
                                      "but the obscuring step depends on your smallest count. Counts must be "
                                      "whole numbers."};
  [[nodiscard]] static DsRooSampler make(const MechanismOptions& options);

  using RecordDpSampler::RecordDpSampler;

  // Pr(y | x^n) = q_m/k + (1 − q_m)c_y/n; counts validated as for RooSampler.
  [[nodiscard]] std::vector<double> distribution(std::span<const double> counts) const;
  // Ready to release indices for this input under the draw policy (draw.hpp); sample() is one call of it.
  [[nodiscard]] IndexDraw prepare(std::span<const double> hist, std::size_t draws = 1) const;
  // The q_m this sampler uses for these counts (data-dependent: for tests and plots, never to be released).
  [[nodiscard]] double obscure_probability(std::span<const double> counts) const;
  // The whole table q_0..q_M this sampler uses for alphabet size k (public: it depends on ε, n and k only), bit for
  // bit the doubles its draws use. Throws std::invalid_argument when M + 1 > kMaxDsRooTableLength.
  [[nodiscard]] std::vector<double> obscure_table(std::size_t k) const;
  // All n records on one letter (minimum count 0 for k >= 2: q_0): that letter with probability 1 − q_0, else a
  // uniform letter.
  [[nodiscard]] std::optional<PointMassLaw> point_mass_law(std::size_t k) const;

  // The worst case is ROO's with this sampler's q_0: D_f(P̂ ‖ qU + (1−q)P̂) is nondecreasing in q (convex in q,
  // 0 at q = 0), q_m <= q_0, and point masses (m = 0 for k >= 2) use q_0. Same closed forms as RooSampler.
  [[nodiscard]] double worst_case_risk(const FDivergence& f, std::size_t k) const;
  [[nodiscard]] double worst_case_risk(NamedDivergence f, std::size_t k) const;

 private:
  [[nodiscard]] double q_for(std::size_t k, std::uint64_t m) const;
  [[nodiscard]] std::shared_ptr<const detail::DsRooPlan> plan(std::size_t k) const;
  // Filled on first use for a k (an immutable plan; copies share it). Not guarded: like a standard container,
  // one object must not be used from two threads at once — give each thread its own copy after warming it up,
  // or its own sampler. (A std::mutex would pull std::system_error and its messages into the client's WebAssembly.)
  mutable std::shared_ptr<const detail::DsRooPlan> cache_;
};

// dsroo_worst_log_ratio on the table a DsRooSampler actually uses for alphabet size k (its obscure_table(k)).
[[nodiscard]] DsRooWorstPair dsroo_worst_log_ratio(const DsRooSampler& sampler, std::size_t k);

}  // namespace privsample
