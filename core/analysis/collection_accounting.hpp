#pragma once
// Accounting for a collection: what a user's privacy is when they report several times
// (composition), and what n users' ε0-LDP reports guarantee centrally when they pass through a shuffler
// (amplification by shuffling). Pure functions of public numbers; nothing here sees data.
#include <cstddef>
#include <cstdint>

namespace privsample {

struct PrivacyLoss {
  double epsilon = 0.0;
  double delta = 0.0;
};

// Basic (sequential) composition of m mechanisms, each (ε, δ)-DP/LDP: (mε, mδ)-DP (Dwork & Roth, "The
// Algorithmic Foundations of Differential Privacy", 2014, Thm 3.16). ε in [0, 1000], δ in [0, 1), m >= 1 an integer
// (given as a double, as JavaScript numbers arrive); δ·m is capped at 1. Messages call m `reports`, δ' `deltaPrime`
// and n (below) `users`, the names of the JS options.
[[nodiscard]] PrivacyLoss basic_composition(double epsilon, double delta, double m);

// Advanced composition (Dwork, Rothblum, Vadhan, FOCS 2010, Thm III.3; Dwork & Roth Thm 3.20): for any δ' in (0, 1),
// m-fold adaptive composition of (ε, δ) mechanisms is (ε', mδ + δ')-DP with
//     ε' = sqrt(2m ln(1/δ'))·ε + m·ε·(e^ε − 1)
// (e^ε − 1 as expm1). It beats basic composition only for small ε and large m; `best_composition` takes the smaller ε
// of the two at the same total δ budget where both apply.
[[nodiscard]] PrivacyLoss advanced_composition(double epsilon, double delta, double m, double delta_prime);

// min over {basic (mε, mδ), advanced (ε', mδ + δ')} of ε, reported with its δ.
[[nodiscard]] PrivacyLoss best_composition(double epsilon, double delta, double m, double delta_prime);

// ---- amplification by shuffling -------------------------------------------------------------------------------------
// Feldman, McMillan, Talwar, "Hiding Among the Clones: A Simple and Nearly Optimal Analysis of Privacy Amplification
// by Shuffling" (FOCS 2021, arXiv 2012.12803). n users each apply an ε0-LDP randomizer and a trusted shuffler releases
// the multiset of reports: the result is (ε, δ)-DP centrally (neighbouring = one user's data changes).

// Theorem 3.1 (closed form): for δ in (0, 1) and ε0 <= ln(n / (16 ln(2/δ))), the shuffled output is (ε, δ)-DP with
//     ε = ln(1 + (e^ε0 − 1)/(e^ε0 + 1) · (8·sqrt(e^ε0 ln(4/δ))/sqrt(n) + 8e^ε0/n)).
// Outside that regime the theorem says nothing: `applies` is false and epsilon = ε0 (no amplification claimed).
struct ShuffleBound {
  double epsilon = 0.0;
  double delta = 0.0;
  bool applies = false;
};
[[nodiscard]] ShuffleBound shuffle_closed_form(double epsilon0, double n, double delta);

// The numerical bound of Section 4 (Theorem 3.2's reduction, computed as in the authors' reference implementation
// apple/ml-shuffling-amplification, computeamplification.py, `numericalanalysis` with upperbound=True):
// the shuffled output is (ε, δ)-DP if the two mixtures
//     P = C-mixture of [α·A + (1−α)·(A+1)],  Q = C-mixture of [(1−α)·A + α·(A+1)],
//     C ~ Bin(n−1, e^{−ε0}),  A | C=c ~ Bin(c, ½),  α = e^ε0/(e^ε0 + 1),
// satisfy max(D_{e^ε}(P‖Q), D_{e^ε}(Q‖P)) <= δ (hockey-stick divergences). For each c the conditional divergence is
// exact (the likelihood ratio is monotone in A, so the optimal set is {A <= β(c+1)}); c is grouped into blocks of
// `step` values, each block charged its largest endpoint value (the conditional divergence is monotone in c) times
// its mass; once the unexplored mass of C is below `tail_fraction` × the current δ it is charged in full (value 1).
// ε is found by bisection on [0, ε_start] for `iterations` steps and the upper end returned (an upper bound: the
// ε at which the computed δ-bound was below δ), ε_start = the closed form where it applies (else ε0).
// Differences from the reference code (each keeps an upper bound): (1) its δ(Q‖P) block charge
// `max(deltaq_upperc, deltaq_upperc)` is taken here as the maximum over both endpoints as intended; (2) blocks are
// visited outward from the mode of C instead of from n/2 (the same partition; only the early exit sees the order);
// (3) its early exit charges the unexplored mass as soon as it falls below the current δ (which can double δ); here
// the exit waits until the unexplored mass is below tail_fraction × max(current δ, target δ) (default 1e-3: at most
// 0.1% of δ is charged this way). Against the reference code it lies between the reference's own lower and upper
// bounds (docs/analysis/collection-accounting.md#shuffling).
struct ShuffleNumericalOptions {
  int iterations = 20;        // bisection steps: accuracy 2^{−iterations}·ε_start
  std::size_t step = 100;     // block width in c (1 = exact per c; larger = faster and looser)
  double tail_fraction = 1e-3;
};
[[nodiscard]] ShuffleBound shuffle_numerical(double epsilon0, double n, double delta,
                                             const ShuffleNumericalOptions& options = {});

// The hockey-stick δ bound of the above at a given ε (< ε0): max(D_{e^ε}(P‖Q), D_{e^ε}(Q‖P)) over blocks, for tests
// and plots (an upper bound on the exact value; exact for step = 1 and tail_fraction → 0).
[[nodiscard]] double shuffle_delta_bound(double epsilon0, double n, double epsilon,
                                         const ShuffleNumericalOptions& options = {});

// Binomial distribution helpers (used above; exposed for tests): the regularised incomplete beta function
// I_x(a, b) by Lentz's continued fraction (Numerical Recipes, 3rd ed., §6.4), the Bin(n, p) cdf P(X <= k) =
// I_{1−p}(n − k, k + 1) for real k (floored; 0 below 0, 1 from n on) and the pmf through lgamma.
[[nodiscard]] double regularized_incomplete_beta(double a, double b, double x);
[[nodiscard]] double binomial_cdf(double k, double n, double p);
[[nodiscard]] double binomial_pmf(double k, double n, double p);

}  // namespace privsample
