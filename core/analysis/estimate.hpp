#pragma once
// The analyst's side: from the counts of released samples of N users to population estimates with confidence
// intervals (docs/analysis/estimate.md). Inputs are what a server can hold — counts[x] = how many users released
// category x, and the mechanism's public parameters — never a user's histogram.
//
// Two layers. The interval layer (first below) knows nothing of mechanisms: from counts of independent reports it
// gives exact intervals for the reports' mean law, and maps them through an affine or a general linear inversion to
// intervals for a named target; a frequency oracle's estimator calls it with its own map. The estimators (after it)
// take a mechanism, ask it for its map by capability (affine_map, its channel on point masses) and call the layer.
//
// Targets. Every interval covers, with the stated probability, BOTH
//   - the realised users' quantity: Q̄ = mean_i Q(·|P_i), P̄ = mean_i P_i (π, the item frequencies, for point-mass
//     users), the N users held fixed and only their releases random; and
//   - the population model's: when the N users are an independent sample from a population, the population's mean
//     law Q(E P) and its mean E[P].
// For the model the counts are exactly multinomial and the exact binomial intervals are near their nominal level;
// for the realised users the counts are sums of independent Bernoulli variables with different means (Poisson-
// binomial), whose tails beyond one count from the mean the binomial's dominate (Hoeffding 1956, Theorem 4), so the
// same intervals are conservative there — markedly so when users differ a lot (point-mass users at large ε) — but for
// a count of 1 (or N − 1) at an expected count below the tail t, where the realised tail is at most t·(1 + 2t): a
// 1 − α interval covers the realised users with probability >= 1 − α(1 + α) (docs/analysis/estimate.md#targets).
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Dense>

#include "model/divergence.hpp"
#include "mechanisms/mechanism.hpp"

namespace privsample {

// ---- validation --------------------------------------------------------------------------------------------------

// Why an estimator refuses more than kLargestExactTrials (10^9) of `unit` ("reports", "users"), for its message.
[[nodiscard]] std::string exact_trials_reason(std::string_view unit);

// Validates counts of released samples: 1 <= counts.size() <= kMaxCategories, every entry a finite integer >= 0
// (exactly representable, <= 2^53), total > 0. When `mechanism` is given, also that the mechanism accepts
// k = counts.size() categories (local / local-linear / mollifier with a reference fix k). Returns the total N.
double validated_sample_counts(std::span<const double> counts, const Mechanism* mechanism = nullptr,
                               std::string_view name = "counts");

// α of a (1−α) confidence level: finite, 0 < α < 1 (std::invalid_argument otherwise: "alpha = 2: must be in (0, 1)").
double validated_alpha(double alpha);

// z with P(Z > z) = tail for Z ~ N(0,1), tail in (0, 1); by bisection on erfc (full double precision;
// the standard normal quantile, e.g. z(0.025) = 1.959963984540054).
[[nodiscard]] double normal_upper_quantile(double tail);

// Euclidean projection of v onto the probability simplex {p >= 0, Σp = 1}: the sort-and-threshold algorithm of
// Duchi, Shalev-Shwartz, Singer, Chandra (ICML 2008, Fig. 1) / Wang & Carreira-Perpiñán (2013, Alg. 1):
// p_x = max(v_x − θ, 0) with θ chosen so Σp = 1. O(k log k). Entries must be finite.
[[nodiscard]] std::vector<double> project_to_simplex(std::span<const double> v);

// ---- the interval layer ------------------------------------------------------------------------------------------

struct Interval {
  double lower = 0.0;
  double upper = 1.0;
};

// The exact (Clopper–Pearson 1934) interval of a binomial proportion at level 1 − α (each tail α/2): covers p with
// probability >= 1 − α for every p and every number of trials. Never of zero width (0 < upper for any count, and
// lower < 1).
[[nodiscard]] Interval clopper_pearson_interval(double successes, double trials, double alpha);

// Intervals for one named target, one entry per category.
struct TargetIntervals {
  std::string target;       // what is covered, in words
  std::string method;       // how the intervals are built, in words
  double confidence = 0.95; // 1 − α
  std::vector<double> estimate;  // the unbiased point estimate (may leave [0, 1] after an inversion)
  // Pointwise: for each category x on its own, P(target_x ∈ [lower_x, upper_x]) >= 1 − α.
  std::vector<double> lower;
  std::vector<double> upper;
  // Simultaneous: P(target_x ∈ [simultaneous_lower_x, simultaneous_upper_x] for every x) >= 1 − α.
  std::vector<double> simultaneous_lower;
  std::vector<double> simultaneous_upper;
  // Run-time evidence against the assumptions: counts that no target of the assumed kind would give except with
  // probability <= α (e.g. a simultaneous box that holds no pmf). Empty when the counts are plausible.
  std::vector<std::string> warnings;
};

// θ_y = the mean over `reports` independent reports of Pr(report counts in category y) (one category per report, or
// several — a frequency oracle's bits); counts[y] = how many did. Exact intervals for θ̄: Clopper–Pearson at α
// pointwise, and at α/k per category (Bonferroni over the k categories) simultaneously. Valid for any mix of report
// laws (see Targets above); counts[y] <= reports, integers. O(distinct counts) bound solves.
[[nodiscard]] TargetIntervals proportion_intervals(std::span<const double> counts, double reports, double alpha);

// The target p with θ_y = scale·p_y + offset_y for every y (scale > 0; an affine mechanism, a frequency oracle's
// unbiased inversion): each interval of θ maps to the interval of p by the increasing map θ ↦ (θ − offset_y)/scale, so
// pointwise and simultaneous coverage are exactly those of `released` (a box maps to a box). The target is a pmf, so
// the ends are then cut to [0, 1] (intersected: the target is in [0, 1], so the coverage stays), and each pointwise
// interval lies inside its simultaneous one. An interval entirely outside [0, 1] (possible only when `released` missed
// θ) is reported as [0, its width] or [1 − width, 1] (the pointwise one cut to its simultaneous one), never with zero
// width; a simultaneous one so placed adds a warning naming the category (at level α for all categories together), as
// does a simultaneous box holding no pmf at all. A pointwise one alone does not (about α·k of them miss by chance). `target` and the words of `released.method` name what is covered.
// `released` is taken by value and mapped in place (move it in where it is not needed after).
[[nodiscard]] TargetIntervals affine_inversion_intervals(TargetIntervals released, double scale,
                                                         std::span<const double> offset, std::string target);

// The target p = M·θ + shift, where θ is the law of one report (one category per report, N = Σ counts independent
// reports) and M any k×k matrix (the inverse of a channel that is not a randomized response): p̂_x = mean over
// reports of M(x, y_report) + shift_x is a mean of independent variables bounded by row x's range, so the
// Chernoff–Hoeffding bound (base/binomial.hpp) gives pointwise intervals at α and simultaneous ones at α/k per row.
// Valid for every mix of report laws; wider than the exact binomial intervals (about 1.4× pointwise, 1.1× at
// α/1000). Cut to [0, 1] and checked like affine_inversion_intervals.
[[nodiscard]] TargetIntervals linear_inversion_intervals(std::span<const double> counts, const Eigen::MatrixXd& m,
                                                         std::span<const double> shift, double alpha,
                                                         std::string target);

// ---- 1. the released-sample distribution Q̄ -----------------------------------------------------------------------

struct ReleasedEstimate {
  double users = 0.0;                 // N = Σ counts
  double confidence = 0.95;           // 1 − α
  std::vector<double> q;              // Q̂ = counts / N, unbiased for Q̄
  // Simultaneous exact intervals: Clopper–Pearson at α/k per category (Bonferroni), all k together >= 1 − α.
  std::vector<double> lower;
  std::vector<double> upper;
  // Pointwise Clopper–Pearson intervals at level 1 − α (each category on its own).
  std::vector<double> pointwise_lower;
  std::vector<double> pointwise_upper;
  std::string target;                 // "Q̄ …": what the intervals cover (both targets, see the top of this file)
  std::string interval_method;
  std::string assumption;             // the intervals': N independent users, one sample each (any inputs)
  // For which users the radius below holds (the mechanism's class, risk_class in mechanism.hpp); empty without one.
  std::string radius_assumption;
  // The worst-case D_f(P ‖ Q(P)) of the mechanism over its class for the chosen f (mechanism.hpp worst_case_risk).
  // By joint convexity of D_f, D_f(P̄ ‖ Q̄) <= mean_i D_f(P_i ‖ Q(P_i)) <= radius when every user's P is in the
  // class (all pmfs for minimax / linear / mollifier; N_γ(P0) for local / local-linear; record histograms for
  // roo / ds-roo). Empty for laplace-projection (no closed form). The radius is around the TRUE Q̄; Q̂'s sampling
  // error is what the intervals above cover, so {P̄ : D_f(P̄ ‖ Q) <= radius for some Q in the simultaneous box} holds
  // P̄ with probability >= 1 − α.
  std::optional<double> radius;
  std::string divergence;             // the f of radius: "kl" | "tv" | "hellinger" | "chi2"
};

// Assumes: N independent users, each released one sample with `mechanism` (any mechanism, any inputs).
[[nodiscard]] ReleasedEstimate estimate_released(const Mechanism& mechanism, std::span<const double> counts,
                                                 double alpha = 0.05, NamedDivergence f = NamedDivergence::kl);

// ---- 2. affine mechanisms: the unbiased population estimate -------------------------------------------------------

// q(P) = λ·P + offset for every input P the map's assumption allows. The map comes from the mechanism itself
// (affine_map of mechanism.hpp): k-RR and the functional linear sampler (every input), local-linear (inside N_γ(P0)),
// ROO (P the record histogram over n), local (on its identity box, where it releases P itself). The other clip
// samplers, DS-ROO (data-dependent q_m) and laplace-projection are not affine.

struct PopulationEstimate {
  double users = 0.0;
  double confidence = 0.95;
  std::vector<double> estimate;         // unbiased p̂ (sums to 1, may have entries outside [0, 1])
  std::vector<double> variance;         // estimated Var(p̂_x): the plug-in of Q̂ into the multinomial closed form
  std::vector<double> standard_error;   // sqrt(variance) (the intervals are not built from it)
  std::vector<double> lower;            // pointwise exact intervals (interval_method), cut to [0, 1]
  std::vector<double> upper;
  std::vector<double> simultaneous_lower;  // all k categories together >= 1 − α
  std::vector<double> simultaneous_upper;
  std::vector<double> projected;        // project_to_simplex(estimate): a pmf, consistent but biased
  std::string method;                   // "affine inversion" | "point-mass channel inversion"
  std::string assumption;               // what the estimate assumes, in words
  std::string target;                   // what it estimates and the intervals cover, in words
  std::string interval_method;
  // Where the mechanism's map says the estimate is biased for users it is meant for, and nothing in the counts can
  // show it (local outside its identity box, local-linear for users outside N_γ(P0)); empty otherwise.
  std::string caveat;
  std::vector<std::string> warnings;    // run-time evidence against the assumption (TargetIntervals::warnings)
};

// Unbiased estimate of P̄ = (1/N) Σ_i P_i by inverting the affine map (method of moments; Wang, Blocki, Li, Jha,
// "Locally differentially private protocols for frequency estimation", USENIX Security 2017, §4 for k-RR = "DE"):
//   p̂ = (Q̂ − b)/λ,   E[p̂] = P̄   because E[Q̂] = Q̄ = λP̄ + b exactly (linearity, any mix of users).
// Intervals: the exact released intervals mapped through p = (q − b)/λ (affine_inversion_intervals), so their
// coverage is exactly that of the released ones. variance: Q̂_x(1 − Q̂_x)/(N λ²), exact for identical users.
// Assumes: N independent users, one sample each; the mechanism is affine (affine_map; else std::domain_error),
// with the map's assumption on the users' P.
[[nodiscard]] PopulationEstimate estimate_population(const Mechanism& mechanism, std::span<const double> counts,
                                                     double alpha = 0.05);

// Largest k for the point-mass channel inversion (a dense k×k inverse).
inline constexpr std::size_t kMaxPointMassCategories = 1000;

// Exact inversion for point-mass users (every user holds one item; ROO / DS-ROO / Laplace: all n records on one
// letter): W(x, y) = distribution(e_x)[y], E[Q̂] = Wᵀπ for the item frequencies π, so π̂ = W^{−T} Q̂ is unbiased.
// When W is a randomized-response channel (one diagonal value d, one off-diagonal o: minimax, linear, roo, ds-roo,
// and local / mollifier with a uniform prior or reference, on point masses) π = (Q̄ − o)/(d − o) per category, an
// affine map: exact intervals through affine_inversion_intervals, O(k²) to build W. Otherwise π = W^{−T}Q̄ needs every
// count: linear_inversion_intervals (Chernoff–Hoeffding), O(k³). variance: (Σ_y M_xy² Q̂_y − π̂_x²)/N, M = W^{−T}.
// Standard reference: the matrix-inversion estimator of randomized response (Chaudhuri & Mukerjee, "Randomized
// Response: Theory and Techniques", 1988, ch. 3; Kairouz, Bonawitz, Ramage ICML 2016 §2).
// Warns when the counts are implausible for point-mass users (the simultaneous box holds no pmf); states as a caveat
// when the mechanism is meant for users who are never point masses (point_mass_caveat of mechanism.hpp).
// A mechanism that fixes no k treats every category alike, so its W is read from one row (O(k) mechanism work).
// Throws std::domain_error when W is singular or too ill-conditioned (ε = 0, reciprocal condition < 1e-13) or not
// known exactly (laplace-projection: its distribution() is a Monte-Carlo estimate), and std::invalid_argument when
// k > kMaxPointMassCategories.
[[nodiscard]] PopulationEstimate estimate_point_masses(const Mechanism& mechanism,
                                                       std::span<const double> counts, double alpha = 0.05);

// Everything that applies to this mechanism, for `ps.estimate(sampler, counts)`:
struct EstimateReport {
  ReleasedEstimate released;                     // always
  std::optional<PopulationEstimate> population;  // when affine_map exists
  // When requested, k <= kMaxPointMassCategories, and the channel is known exactly and invertible (not for
  // laplace-projection, nor at ε = 0).
  std::optional<PopulationEstimate> point_masses;
};
[[nodiscard]] EstimateReport estimate(const Mechanism& mechanism, std::span<const double> counts,
                                      double alpha = 0.05, NamedDivergence f = NamedDivergence::kl,
                                      bool point_masses = true);

}  // namespace privsample
