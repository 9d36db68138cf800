#pragma once
// ROO, Reveal-or-Obscure (Tasnim et al., ITW 2025, Algorithm 1): the setting and the guarantee are the record-level
// mechanisms' (records.hpp); the page is README.md beside this file.
#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "base/draw.hpp"
#include "mechanisms/records.hpp"
#include "mechanisms/spec.hpp"

namespace privsample {

// ROO's obscure probability for a target ε, eq. 9: q_0 = 1/(1 + (n/k)(e^ε−1)) = k/(k + n·expm1(ε)),
// computed as k·e^{−ε}/(k·e^{−ε} + n·(1 − e^{−ε})) so nothing overflows. ε above kMaxEffectiveEpsilon = 640 is
// run at 640 (privacy.hpp): q_0 is then tiny (~3e-278·k/n) but positive — q = 0 would give a letter absent from
// the data probability 0 and break every finite ratio bound. ε = 0 gives 1 (uniform output).
// Throws std::invalid_argument for ε outside [0, 1000], records outside [1, kMaxRecords], k outside
// [1, kMaxCategories]. This is the mathematical value; RooSampler uses it at ε′ = ε − (1e-12·ε + 1e-14), rounded UP.
[[nodiscard]] double roo_obscure_probability(double epsilon, std::size_t records, std::size_t k);

// The paper's accuracy and sample-complexity formulas (§3, Theorem 1, Lemma 1; core/mechanisms/roo/README.md), for the
// comparisons of its Fig. 3 and §3. Accuracy α = the worst case over all P of d_TV(Q, P):
//   ROO (eq. 19): q_0(1 − 1/k) = (1 − 1/k)/(1 + (n/k)(e^ε − 1));
//   RSSS, the Laplace baseline, as the paper states it (eq. 18): 2k/(nε) (+∞ at ε = 0; it is a bound, not a TV,
//   so it can exceed 1).
// Throws std::invalid_argument for ε outside [0, 1000], records outside [1, kMaxRecords], k outside [2, kMaxCategories].
struct RooAccuracyBounds {
  double roo = 0.0;
  double rsss = 0.0;
};
[[nodiscard]] RooAccuracyBounds roo_accuracy_bounds(double epsilon, std::size_t records, std::size_t k);

// The number of records n that makes each sampler α-accurate on every P at ε (real numbers; round up for a count):
//   ROO (eq. 8/41): (k(1 − α) − 1)/(α(e^ε − 1));  RSSS (eq. 5): 2k/(αε);  Cheu–Nayak SubRR (eq. 45): (k−1)(1−α)/(αε).
// Lemma 1: roo < rsss and roo < subrr for every k >= 2, ε > 0, α in (0, 1 − 1/k). Throws std::invalid_argument for
// k outside [2, kMaxCategories], α outside (0, 1 − 1/k), ε outside (0, 1000].
struct RooSampleComplexity {
  double roo = 0.0;
  double rsss = 0.0;
  double subrr = 0.0;
};
[[nodiscard]] RooSampleComplexity roo_sample_complexity(std::size_t k, double alpha, double epsilon);

// ROO — Algorithm 1, Theorem 1 (core/mechanisms/roo/README.md#the-mechanism). With probability q output a uniform letter, otherwise output a
// uniformly chosen record: Pr(y | x^n) = q/k + (1 − q)·c_y/n, with q = q_0(ε, n, k).
// Guarantee: ε-DP of the records (replace-one, public n and k). Proof (eqs. 24–28): replacing one record
// changes each c_y by at most 1, so the ratio is at most (q/k + (1−q)/n)/(q/k) = 1 + k(1−q)/(nq), which is
// decreasing in q and equals e^ε at q_0; it is attained (tight). The q actually used is q_0 at
// ε′ = ε − (1e-12·ε + 1e-14), rounded UP by a few ulps (outward rounding): a larger q only lowers the ratio, so
// rounding never pushes the real loss above ε (n < k amplifies q's rounding error by k/n), and the margin is one
// that dsroo_worst_log_ratio resolves.
// Sampling is exact: bernoulli(q) compares random bits with q's binary expansion, and the uniform letter and
// the uniform record (uniform_below(n) walked over the counts in a fixed-length scan) have no modulo bias.
// Utility: TV(output, P̂) = q·TV(U, P̂) <= q(1 − 1/k) = α (eq. 7), reached by point masses.
class RooSampler : public RecordDpSampler<RooSampler> {
 public:
  static constexpr MechanismSpec spec{"roo", MechanismSpace::finite, NotionRule::record_level, kRecordsOption, {}, {},
                                      "Reveal-or-Obscure on a user's n records",
                                      "Reveal-or-Obscure",
                                      "Reveal-or-Obscure (Tasnim et al.): treats your counts as n records; with"
                                      " some probability reveals one of them at random, otherwise releases a "
                                      "random category. Counts must be whole numbers."};
  [[nodiscard]] static RooSampler make(const MechanismOptions& options);

  // epsilon validated in [0, 1000] (ε > 640 runs at 640); records an integer in [1, kMaxRecords].
  using RecordDpSampler::RecordDpSampler;

  // The exact output pmf q/k + (1−q)c_y/n. counts: the histogram of the n records (finite, >= 0, integers,
  // summing to records; 1 <= k <= kMaxCategories); std::invalid_argument otherwise.
  [[nodiscard]] std::vector<double> distribution(std::span<const double> counts) const;
  // Runs the algorithm itself: Bernoulli(q) → uniform letter, else a uniformly chosen record.
  // Ready to release indices for this input under the draw policy (draw.hpp); sample() is one call of it.
  [[nodiscard]] IndexDraw prepare(std::span<const double> hist, std::size_t draws = 1) const;
  // The q this sampler uses for alphabet size k (public: it depends on ε, n and k only).
  [[nodiscard]] double obscure_probability(std::size_t k) const;
  // Pr(y) = q/k + (1 − q)·c_y/n: affine in the user's record histogram over n, with the public q (for an analyst's
  // inversion).
  [[nodiscard]] std::optional<AffineMap> affine_map(std::size_t k) const;
  // All n records on one letter: that letter with probability 1 − q, else a uniform letter.
  [[nodiscard]] std::optional<PointMassLaw> point_mass_law(std::size_t k) const;

  // max over datasets of D_f(P̂ ‖ output) = 𝔑(0, 1/(1 − q + q/k)) (chord_risk), attained by a point-mass
  // dataset (D_f(P̂ ‖ qU + (1−q)P̂) is convex in P̂, so the maximum is at a vertex). With b = q(1 − 1/k):
  // TV = b (the paper's α), KL = −log(1 − b), ½-Hellinger = 1 − √(1 − b), χ² = b/(1 − b).
  [[nodiscard]] double worst_case_risk(const FDivergence& f, std::size_t k) const;
  [[nodiscard]] double worst_case_risk(NamedDivergence f, std::size_t k) const;
};

}  // namespace privsample
