#pragma once
// The analyst's side: from the counts of released samples of N users to population estimates with confidence
// intervals (docs/design.md#the-javascript-api). Inputs are what a server can hold — counts[x] = how many
// users released category x, and the mechanism's public parameters — never a user's histogram.
//
// Three estimators, from weakest to strongest assumption:
//   1. estimate_released: Q̄ = mean over users of Q(·|P_i), the law of one released sample. Assumes only that the
//      N users are independent and each released ONE sample with the given mechanism. Simultaneous intervals.
//      With it: the radius R of the mechanism's worst-case f-divergence, since by joint convexity of D_f
//      D_f(P̄ ‖ Q̄) <= mean_i D_f(P_i ‖ Q(P_i)) <= R (for inputs in the mechanism's class).
//   2. estimate_population: where the mechanism is affine in P (q = λP + b): the unbiased estimate of
//      P̄ = mean of the users' P (normalised histograms), p̂ = (Q̂ − b)/λ, its variance, normal intervals and the
//      Euclidean projection onto the simplex.
//   3. estimate_point_masses: every user holds one item (P_i a point mass): invert the k×k channel W of the
//      mechanism on point masses (row x = distribution(e_x)); unbiased for the item frequencies π, any mechanism.
// Every function validates counts (finite integers >= 0, not all zero, the mechanism's k) and throws
// std::invalid_argument naming the parameter, index and value: "counts[3] = -2: counts must be integers >= 0".
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/divergence.hpp"
#include "mechanisms/mechanism.hpp"

namespace privsample {

// ---- helpers ----------------------------------------------------------------------------------------------------

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

// Wilson score interval for a binomial proportion (Wilson 1927; Agresti & Coull 1998 §2): the set of p with
// |x/n − p| <= z·sqrt(p(1−p)/n). Always inside [0, 1], never empty, well-behaved at x = 0 and x = n.
struct Interval {
  double lower = 0.0;
  double upper = 1.0;
};
[[nodiscard]] Interval wilson_interval(double successes, double trials, double z);

// Euclidean projection of v onto the probability simplex {p >= 0, Σp = 1}: the sort-and-threshold algorithm of
// Duchi, Shalev-Shwartz, Singer, Chandra (ICML 2008, Fig. 1) / Wang & Carreira-Perpiñán (2013, Alg. 1):
// p_x = max(v_x − θ, 0) with θ chosen so Σp = 1. O(k log k). Entries must be finite.
[[nodiscard]] std::vector<double> project_to_simplex(std::span<const double> v);

// ---- 1. the released-sample distribution Q̄ -----------------------------------------------------------------------

struct ReleasedEstimate {
  double users = 0.0;                 // N = Σ counts
  double confidence = 0.95;           // 1 − α
  std::vector<double> q;              // Q̂ = counts / N, unbiased for Q̄
  // Simultaneous intervals: Bonferroni-adjusted Wilson score intervals, each at level 1 − α/k (z = z_{α/(2k)}),
  // so by the union bound P(Q̄_x ∈ [lower_x, upper_x] for ALL x) >= 1 − α (asymptotically; Wilson's per-category
  // coverage is close to nominal from N·Q̄_x ≳ 5). Reference: Goodman (1965) "On simultaneous confidence intervals
  // for multinomial proportions" (Bonferroni construction), with Wilson instead of Wald intervals.
  std::vector<double> lower;
  std::vector<double> upper;
  // Per-category Wilson intervals at level 1 − α (each on its own, not simultaneous).
  std::vector<double> pointwise_lower;
  std::vector<double> pointwise_upper;
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

// q(P) = λ·P + offset for every input P of the mechanism's domain (see `assumption`).
// The affine map of a mechanism on k categories (mechanisms/spec.hpp's AffineMap) comes from the mechanism itself
// (affine_map of mechanism.hpp): k-RR and the functional linear sampler (λ, uniform offset, every input), local-linear
// (λ_loc, offset (1 − λ)P0, affine in the projection P̂ = P inside N_γ(P0)) and ROO (λ = 1 − q0, uniform offset, P the
// user's record histogram over n). The clip samplers, DS-ROO (data-dependent q_m) and laplace-projection are not affine.

struct PopulationEstimate {
  double users = 0.0;
  double confidence = 0.95;
  std::vector<double> estimate;         // unbiased p̂ (sums to 1, may have entries outside [0, 1])
  std::vector<double> variance;         // estimated Var(p̂_x) (plug-in of Q̂ into the closed form)
  std::vector<double> standard_error;   // sqrt(variance)
  std::vector<double> lower;            // p̂ ± z_{α/2}·se, clipped to [0, 1] (the truth is there; clipping
  std::vector<double> upper;            //   only removes impossible values)
  std::vector<double> simultaneous_lower;  // Bonferroni: z_{α/(2k)}, clipped to [0, 1]
  std::vector<double> simultaneous_upper;
  std::vector<double> projected;        // project_to_simplex(estimate): a pmf, consistent but biased
  std::string method;                   // "affine inversion" | "point-mass channel inversion"
  std::string assumption;               // what the estimate assumes, in words
};

// Unbiased estimate of P̄ = (1/N) Σ_i P_i by inverting the affine map (method of moments; Wang, Blocki, Li, Jha,
// "Locally differentially private protocols for frequency estimation", USENIX Security 2017, §4 for k-RR = "DE"):
//   p̂ = (Q̂ − b)/λ,   E[p̂] = P̄   because E[Q̂] = Q̄ = λP̄ + b exactly (linearity, any mix of users);
//   Var(p̂_x) = Var(Q̂_x)/λ² <= Q̄_x(1 − Q̄_x)/(N λ²), with equality when all users share one Q (e.g. identical users
//   or the multinomial case); heterogeneous users make counts Poisson-binomial, whose variance is smaller, so the
//   plug-in Q̂_x(1 − Q̂_x)/(N λ²) is conservative. Intervals: normal approximation (CLT).
// Assumes: N independent users, one sample each; the mechanism is affine (affine_map; else std::domain_error),
// for local-linear the users' P inside N_γ(P0) (otherwise the estimate is of the mean of the projections P̂_i).
[[nodiscard]] PopulationEstimate estimate_population(const Mechanism& mechanism, std::span<const double> counts,
                                                     double alpha = 0.05);

// Largest k for the point-mass channel inversion (a dense k×k inverse).
inline constexpr std::size_t kMaxPointMassCategories = 1000;

// Exact inversion for point-mass users (every user holds one item; ROO / DS-ROO / Laplace: all n records on one
// letter): W(x, y) = distribution(e_x)[y], E[Q̂] = Wᵀπ for the item frequencies π, so π̂ = W^{−T} Q̂ is unbiased,
// with Cov(π̂) = W^{−T} Σ_Q W^{−1}, Σ_Q = (diag Q̄ − Q̄Q̄ᵀ)/N (multinomial, exact for point-mass users: users of one
// item share one output law), estimated by plugging in Q̂: Var(π̂_x) = (Σ_y M_xy² Q̂_y − π̂_x²)/N, M = W^{−T}.
// On point masses minimax and linear are both k-RR with λ = (e^ε−1)/(e^ε+k−1); local and mollifier give other W.
// Standard reference: the matrix-inversion estimator of randomized response (Chaudhuri & Mukerjee, "Randomized
// Response: Theory and Techniques", 1988, ch. 3; Kairouz, Bonawitz, Ramage ICML 2016 §2).
// When W is a randomized-response channel (one diagonal value, one off-diagonal value: minimax, linear, roo, ds-roo
// on point masses) the same estimate and variance are computed in closed form in O(k²) (building W) instead of O(k³).
// Throws std::domain_error when W is singular or too ill-conditioned (ε = 0, reciprocal condition < 1e-13) and
// std::invalid_argument when k > kMaxPointMassCategories. For laplace-projection, W is its Monte-Carlo
// distribution() (an estimate, so π̂ carries that error too; k² · 20000 work).
[[nodiscard]] PopulationEstimate estimate_point_masses(const Mechanism& mechanism,
                                                       std::span<const double> counts, double alpha = 0.05);

// Everything that applies to this mechanism, for `ps.estimate(sampler, counts)`:
struct EstimateReport {
  ReleasedEstimate released;                     // always
  std::optional<PopulationEstimate> population;  // when affine_map exists
  // When requested, k <= kMaxPointMassCategories, the channel is invertible, and the mechanism is not
  // laplace-projection (its Monte-Carlo distribution() makes the k rows slow; call estimate_point_masses directly).
  std::optional<PopulationEstimate> point_masses;
};
[[nodiscard]] EstimateReport estimate(const Mechanism& mechanism, std::span<const double> counts,
                                      double alpha = 0.05, NamedDivergence f = NamedDivergence::kl,
                                      bool point_masses = true);

}  // namespace privsample
