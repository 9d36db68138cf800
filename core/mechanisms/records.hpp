#pragma once
// What the record-level mechanisms (roo, ds-roo, laplace-projection) share: their setting, their sampler base, and
// the pieces of a release over the user's records.
//
// Tasnim, Gilani, Sankar, Kosut — "Reveal-or-Obscure: A Differentially Private Sampling Algorithm for
// Discrete Distributions" (ITW 2025, arXiv 2504.14696v1). Docs: core/mechanisms/roo/README.md, core/mechanisms/ds-roo/README.md, core/mechanisms/laplace-projection/README.md.
//
// Setting (core/mechanisms/roo/README.md#setting, core/mechanisms/roo/README.md#user-level-loss): the user holds n records over the PUBLIC alphabet [k], given as their histogram
// (counts c_0..c_{k−1}, integers summing to exactly n). n is public. The mechanisms release ONE letter and
// nothing else (never q, never m). The guarantee is central ε-DP of the records under replace-one
// neighbours (PrivacyNotion::record_dp): replacing any one record by another letter changes every output
// probability by a factor at most e^ε. It protects each record, NOT the user's whole histogram: at user level
// (any two histograms) ROO with q_0(ε, n) loses log(1 + n(e^ε − 1)) (core/mechanisms/roo/README.md#user-level-loss).
// Each released sample costs ε again (basic composition, docs/notions.md#composition).
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "base/randomness.hpp"
#include "mechanisms/sampler.hpp"
#include "model/divergence.hpp"
#include "model/histogram.hpp"
#include "privacy/privacy.hpp"

namespace privsample {

// Largest number of records n the mechanisms accept (public n; the counts must sum to it).
inline constexpr std::size_t kMaxRecords = 1'000'000'000;

// What the three record-level samplers below share (sampler.hpp's concept): ε-DP of the user's n records
// (replace-one, public n and k), ε validated in [0, 1000] (ε > 640 runs at 640) and n an integer in
// [1, kMaxRecords]; sample() is one call of S::prepare (the draw policy), unless S runs its own.
template <class S>
class RecordDpSampler : public SamplerBase<S> {
 public:
  explicit RecordDpSampler(double epsilon, double records)
      : epsilon_(validated_epsilon(epsilon)), records_(validated_count(records, "records", 1, kMaxRecords)) {}

  [[nodiscard]] Guarantee guarantee() const noexcept {
    return {PrivacyNotion::record_dp, epsilon_, 0.0, 0.0, static_cast<double>(records_)};
  }
  [[nodiscard]] double epsilon() const noexcept { return epsilon_; }
  [[nodiscard]] double records() const noexcept { return static_cast<double>(records_); }

 protected:
  double epsilon_;
  std::uint64_t records_;
};

namespace records {

// e^{−ε} and 1 − e^{−ε} at the effective ε: the formulas are written with these two, after dividing numerator and
// denominator by e^ε, so ε up to 700 never overflows (e^ε·n would for n > 1.8e4).
struct Decay {
  double w;  // e^{−ε}
  double a;  // 1 − e^{−ε} = −expm1(−ε) = e1/e^ε
};
[[nodiscard]] Decay decay(double epsilon);

// records in [1, kMaxRecords] (std::invalid_argument naming records otherwise).
[[nodiscard]] std::uint64_t checked_records(std::size_t records);

// ROO's q_0 = k/(k + n·e1) = k·w/(k·w + n·a).
[[nodiscard]] double roo_q(Decay d, std::uint64_t n, std::uint64_t k);

// ε′ = ε − (1e-12·ε + 1e-14) (0 below it; kMarginRelative and kMarginAbsolute in records.cpp): both ROO's and
// DS-ROO's q are computed at ε′, so the released law's worst log-ratio stays that far below ε — a margin every check
// of it (dsroo_worst_log_ratio, accurate to ~2^-47 in the log) resolves, where rounding q up alone leaves a margin of
// a few ulps.
[[nodiscard]] double with_margin(double epsilon);

// Outward rounding of an obscure probability: a computed q_0 is within ~4 ulp (exp/expm1 within 1 ulp, three
// correctly rounded operations) of k/(k + n·e1); 8 ulp up plus two steps of nextafter (which also covers subnormal q
// at ε near 700) make it >= the exact value, and a larger q only lowers the ratio.
[[nodiscard]] double round_up(double q);

// The counts of the n records: 1 <= k <= kMaxCategories, every entry a finite integer >= 0, summing to n.
struct Counts {
  std::vector<std::uint64_t> c;
  std::uint64_t min = 0;  // over ALL k letters
};
// hist validated (messages name hist[i] and the mechanism); the minimum is found by a full scan, no early exit.
[[nodiscard]] Counts validated_counts(std::span<const double> hist, std::uint64_t records, std::string_view mechanism);

// A uniformly chosen record: r = uniform_below(n), then the letter whose cumulative block contains r, found with a
// fixed-length scan over all k counts (no early exit, no data-dependent branch).
[[nodiscard]] std::size_t uniform_record(const Counts& counts, std::uint64_t n, RandomBits& bits);

// Pr(y | x^n) = q/k + (1 − q)·c_y/n.
[[nodiscard]] std::vector<double> mixture(const Counts& counts, std::uint64_t n, double q);

// One release: Bernoulli(q) → a uniform letter, else a uniform record. Both candidates are drawn whatever the coin
// says (the draw policy: constant work), so the time of a release does not tell whether it was obscured — which
// matters for DS-ROO, whose q depends on the data.
[[nodiscard]] std::size_t reveal_or_obscure(const Counts& counts, std::uint64_t n, double q, RandomBits& bits);
// `draws` such releases from one input (prepare): for one, reveal_or_obscure; for more, the uniform record from an
// alias table over the counts (exact: integer weights summing to n; built once in O(k) with the same operations for
// every input), so that each release costs O(1) instead of a scan of all k counts. Both candidates are still drawn
// whatever the coin says.
[[nodiscard]] IndexDraw reveal_or_obscure_draws(Counts counts, std::uint64_t n, double q, std::size_t draws);

// Worst case over datasets of D_f(P̂ ‖ qU + (1−q)P̂): a point mass, 𝔑(0, 1/(1 − b)) with b = q(1 − 1/k); the named
// divergences in closed form.
[[nodiscard]] double mixture_risk(const FDivergence& f, double b);
[[nodiscard]] double mixture_risk(NamedDivergence f, double b);
// b = q(1 − 1/k), k checked.
[[nodiscard]] double spread(double q, std::size_t k);

}  // namespace records
}  // namespace privsample
