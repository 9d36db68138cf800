#pragma once
// The Laplace baseline of the record-level mechanisms (records.hpp); the page is README.md beside this file.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "base/draw.hpp"
#include "mechanisms/records.hpp"
#include "mechanisms/spec.hpp"

namespace privsample {

// The Laplace baseline of Raskhodnikova–Sivakumar–Smith–Swanberg (NeurIPS 2021; ROO paper ref. [5], "RSSS";
// core/mechanisms/laplace-projection/README.md — the ROO paper gives neither the noise scale nor the projection, these are the natural choices):
// add independent Laplace(2/ε) noise to every count (replace-one changes two counts by 1: L1 sensitivity 2),
// clip negatives to 0 and renormalise (uniform if all are 0), and draw one letter from the result.
// Guarantee: ε-DP of the records (Laplace mechanism + post-processing). Caveat: the noise is the textbook
// floating-point construction (inverse CDF of a 53-bit uniform: sign bit × (2/ε)·(−log(1 − U))), NOT the
// Mironov-hardened (snapping) one, so the guarantee holds for the idealised real-valued mechanism only. It is a
// baseline for comparisons and plots (paper eq. 18: α_RSSS = 2k/(nε)), not a recommended mechanism.
// ε = 0 outputs a uniform letter (the limit of infinite noise).
class LaplaceProjectionSampler : public RecordDpSampler<LaplaceProjectionSampler> {
 public:
  static constexpr MechanismSpec spec{"laplace-projection", MechanismSpace::finite, NotionRule::record_level,
                                      kRecordsOption, {}, {},
                                      "baseline: Laplace noise on the counts, projected to the simplex, then one draw",
                                      "Laplace + projection",
                                      "Laplace baseline: adds Laplace(2/ε) noise to your counts, clips and "
                                      "renormalises them, then draws one category. No closed-form worst case. "
                                      "Counts must be whole numbers."};
  [[nodiscard]] static LaplaceProjectionSampler make(const MechanismOptions& options);
  // distribution() is a Monte-Carlo estimate, not the exact law (an accountant or an audit must not take it as one).
  static constexpr bool exact_distribution = false;

  using RecordDpSampler::RecordDpSampler;

  // A Monte-Carlo ESTIMATE of the expected output pmf E[P̃]: the average of the projected noisy pmfs over
  // kDistributionDraws noise draws from a fixed internal SeededRandom (so it is deterministic; standard error
  // about sd(P̃_y)/√20000). Cost O(20000·k): ~0.4 s natively for k = 1000, ~4 s for k = 10^4. Exactly uniform
  // when ε = 0.
  static constexpr std::size_t kDistributionDraws = 20000;
  static constexpr std::uint64_t kDistributionSeed = 0x5253'5353'524F'4F00ULL;
  [[nodiscard]] std::vector<double> distribution(std::span<const double> counts) const;
  // Runs the algorithm with fresh noise from `bits`.
  // Ready to release indices for this input under the draw policy (draw.hpp); sample() is one call of it.
  [[nodiscard]] IndexDraw prepare(std::span<const double> hist, std::size_t draws = 1) const;
  [[nodiscard]] std::size_t sample(std::span<const double> counts, RandomBits& bits) const;

  // The released counts of users who each hold all n records on one letter (items[x] users on letter x), drawn
  // exactly for the idealised mechanism in O(1) per user (about 4 random words): the draw from the normalised noisy
  // counts as an exponential race, where the k − 1 other letters' best time has a closed-form law; the release is the
  // letter when it wins, else (by symmetry) a uniform other letter; uniform when every noisy count is <= 0.
  [[nodiscard]] std::vector<double> point_mass_counts(std::span<const double> items, RandomBits& bits) const;

  // Throws std::domain_error("laplace-projection has no closed-form worst-case risk"), for every f.
  using SamplerBase::worst_case_risk;
  [[nodiscard]] double worst_case_risk(const FDivergence& f, std::size_t k) const;

 private:
  // The projected noisy pmf for one noise draw (uniform if every noisy count is <= 0).
  void project_noisy(std::span<const double> counts, RandomBits& bits, std::vector<double>& out) const;
};

}  // namespace privsample
