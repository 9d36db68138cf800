#pragma once
// The binomial distribution, exactly: its cdf and tails through the regularised incomplete beta function, and the
// exact (Clopper–Pearson) confidence bounds of a binomial proportion; the Chernoff–Hoeffding bounds of a mean of
// independent bounded variables. The analysis layer's intervals (analysis/estimate.hpp) and the shuffling accountant
// (analysis/collection_accounting.hpp) are built on these. Docs: docs/analysis/estimate.md#the-interval-layer.
#include <cstddef>

namespace privsample {

// I_x(a, b) for a, b > 0 and x in [0, 1], by Lentz's continued fraction (Numerical Recipes, 3rd ed., §6.4) with the
// prefactor x^a (1 − x)^b / B(a, b) computed without subtracting large lgammas (DiDonato & Morris 1992, "brcomp"),
// so it holds ~1e-14 relative accuracy at a, b up to 10^12. std::invalid_argument outside the domain.
[[nodiscard]] double regularized_incomplete_beta(double a, double b, double x);

// Both tails of the beta cdf, each to relative accuracy (the smaller one is computed directly, never as 1 − the
// larger): lower = I_x(a, b), upper = 1 − I_x(a, b) = I_{1−x}(b, a). `y` is 1 − x given separately so that x near 1
// keeps its precision. a, b > 0; x, y in [0, 1] with x + y = 1 (unchecked: an internal building block).
struct BetaTails {
  double lower = 0.0;
  double upper = 0.0;
};
[[nodiscard]] BetaTails beta_tails(double a, double b, double x, double y);

// X ~ Bin(n, p): P(X <= k) (k floored; 0 below 0, 1 from n on), P(X > k), and the pmf through lgamma. n >= 0 finite,
// p in [0, 1] (std::invalid_argument otherwise).
[[nodiscard]] double binomial_cdf(double k, double n, double p);
[[nodiscard]] double binomial_sf(double k, double n, double p);
[[nodiscard]] double binomial_pmf(double k, double n, double p);
// ln P(X = k) for X ~ Bin(n, p) with q = 1 − p given separately, 0 <= k <= n integers, 0 < p < 1: through the
// incomplete beta's prefactor, so it keeps ~1e-14 relative accuracy at n up to 10^12 (lgamma differences do not).
[[nodiscard]] double binomial_log_pmf(double k, double n, double p, double q);

// The most trials the bounds below are solved for. Above the mode the upper tail is taken from the incomplete beta's
// continued fraction with the parameters swapped, whose terms cancel to a relative ~1e-16·trials/(successes + 1): at
// 10^9 trials the bounds still hold with the margin described below, at 10^10 an upper bound's tail exceeded its
// target by a relative 2.5e-7 (too narrow), at 2^53 by 7% (an adversarial review; checked against 40-digit sums).
inline constexpr double kLargestExactTrials = 1e9;

// The exact (Clopper & Pearson 1934) one-sided bounds of a binomial proportion from `successes` out of `trials`
// (integers, 0 <= successes <= trials, 1 <= trials <= kLargestExactTrials), each at tail probability `tail` in (0, ½]:
//   lower: the p with P_p(X >= successes) = tail (0 when successes = 0),
//   upper: the p with P_p(X <= successes) = tail (1 when successes = trials).
// For every p, P_p(lower(X) > p) <= tail and P_p(upper(X) < p) <= tail: the interval [lower, upper] at tail α/2 covers
// p with probability >= 1 − α whatever p and n are (it is conservative, never anti-conservative). The bounds are
// solved by Newton steps on the log tail (each lands on the side that widens the interval: the tail is log-concave)
// and then moved outward by a relative 1e-8, more than the incomplete beta's own error moves them (up to ~1e-9 in p at
// n = 10^9 and tails of 1e-8, where a continued fraction's first terms cancel), so rounding never narrows them.
// std::invalid_argument naming the parameter otherwise.
[[nodiscard]] double binomial_lower_bound(double successes, double trials, double tail);
[[nodiscard]] double binomial_upper_bound(double successes, double trials, double tail);

// The Chernoff–Hoeffding bounds of the mean μ of n independent variables with values in [0, 1] (Hoeffding 1963,
// Theorem 1: P(X̄ >= μ + t) <= exp(−n·kl(μ + t ‖ μ)) and its mirror, kl the Bernoulli relative entropy), inverted:
//   upper: the largest μ >= mean with n·kl(mean ‖ μ) <= ln(1/tail) (1 when the whole range qualifies),
//   lower: the smallest such μ <= mean (0 likewise).
// Valid whatever the variables' laws (not identically distributed, any shape inside [0, 1]); for two-valued variables
// it is the Chernoff bound of the binomial, a little wider than the exact one above. mean in [0, 1], n >= 1,
// tail in (0, ½]; std::invalid_argument otherwise. Moved outward by 1e-12 like the bounds above.
[[nodiscard]] double bounded_mean_lower_bound(double mean, double n, double tail);
[[nodiscard]] double bounded_mean_upper_bound(double mean, double n, double tail);

}  // namespace privsample
