#pragma once
// Accounting for a collection (docs/analysis/collection-accounting.md): what a user's privacy is when they report
// several times (composition), and what n users' ε0-LDP reports guarantee centrally when they pass through a shuffler
// (amplification by shuffling). Pure functions of public numbers; nothing here sees data.
#include <cstddef>
#include <cstdint>
#include <string>

namespace privsample {

struct PrivacyLoss {
  double epsilon = 0.0;
  double delta = 0.0;
  std::string method;  // the bound that gave it: "basic" | "advanced" | "optimal"
};

// Messages call m `reports`, δ' `deltaPrime` and n (below) `users`, the names of the JS options. ε in [0, 1000],
// δ in [0, 1), m >= 1 an integer up to 1e12 (given as a double, as JavaScript numbers arrive).

// Basic (sequential) composition of m mechanisms, each (ε, δ)-DP/LDP: (mε, mδ)-DP (Dwork & Roth, "The Algorithmic
// Foundations of Differential Privacy", 2014, Thm 3.16); δ·m is capped at 1.
[[nodiscard]] PrivacyLoss basic_composition(double epsilon, double delta, double m);

// Advanced composition (Dwork, Rothblum, Vadhan, FOCS 2010, Thm III.3; Dwork & Roth Thm 3.20): for any δ' in (0, 1),
// m-fold adaptive composition of (ε, δ) mechanisms is (ε', mδ + δ')-DP with
//     ε' = sqrt(2m ln(1/δ'))·ε + m·ε·(e^ε − 1)      (e^ε − 1 as expm1).
[[nodiscard]] PrivacyLoss advanced_composition(double epsilon, double delta, double m, double delta_prime);

// The optimal composition (Kairouz, Oh, Viswanath, "The Composition Theorem for Differential Privacy", ICML 2015 /
// IEEE Trans. IT 2017, Theorems 3.3–3.4): the m-fold adaptive composition of (ε, δ) mechanisms is (ε_g, δ_g)-DP with
//     δ_g = 1 − (1 − δ)^m (1 − δ_m(ε_g)),
//     δ_m(ε_g) = Σ_{l=0}^{m} C(m, l) max(0, e^{(m−l)ε} − e^{ε_g} e^{lε}) / (1 + e^ε)^m,
// the hockey-stick divergence of m-fold binary randomized response, which attains it: no smaller ε_g holds for every
// (ε, δ) mechanism (Thm 3.3 states it at ε_g = (m − 2i)ε, where the sum is its δ̃_i; between those points the
// m-fold randomized response is still the worst case, Thm 3.4). Returned: the smallest ε_g with δ_m(ε_g) <= δ' (found
// by bisection to a relative 1e-12 and returned from above, with δ_m computed as a sum of positive terms in log space
// and required below δ'·(1 − 1e-9)), with δ = 1 − (1 − δ)^m (1 − δ') <= mδ + δ'. δ' in [0, 1): with δ' = 0 it is mε,
// basic composition, which is then exact.
[[nodiscard]] PrivacyLoss optimal_composition(double epsilon, double delta, double m, double delta_prime);

// δ_m(ε_g) above for pure ε (exposed for tests and plots; ε_g >= 0).
[[nodiscard]] double optimal_composition_delta(double epsilon, double m, double epsilon_total);

// The smallest ε of basic, advanced (when δ' > 0) and optimal, at a total δ no larger than mδ + δ'. With δ' = 0 (no
// extra δ allowed) that is basic composition, the exact answer there. The optimal one is never larger than the
// others; the minimum is kept so that 'best' never depends on that proof.
[[nodiscard]] PrivacyLoss best_composition(double epsilon, double delta, double m, double delta_prime = 0.0);

// ---- amplification by shuffling -------------------------------------------------------------------------------------
// Feldman, McMillan, Talwar, "Hiding Among the Clones: A Simple and Nearly Optimal Analysis of Privacy Amplification
// by Shuffling" (FOCS 2021, arXiv 2012.12803). n users each apply an ε0-LDP randomizer and a trusted shuffler releases
// the multiset of reports: the result is (ε, δ)-DP centrally (neighbouring = one user's data changes).

struct ShuffleBound {
  double epsilon = 0.0;
  double delta = 0.0;
  bool applies = false;        // false where the bound claims nothing (epsilon = ε0 then)
  double epsilon_lower = 0.0;  // numerical: the evaluated bound's exact value is >= this (its precision); else epsilon
};

// Two closed forms of Theorem 3.1. With a = 8·sqrt(e^ε0 ln(4/δ)/n) + 8e^ε0/n:
//  - shuffle_closed_form: the authors' reference code (apple/ml-shuffling-amplification, computeamplification.py,
//    `closedformanalysis`), for ε0 <= ln(n / (16 ln(4/δ))):
//        ε = ln(1 + (1 − e^{−ε0}) / (1 + e^{−ε0 − ε1})·a),   ε1 = ln(1 + a);
//  - shuffle_closed_form_printed: the theorem as printed (arXiv 2012.12803, Theorem 3.1), for
//    ε0 <= ln(n / (16 ln(2/δ))):
//        ε = ln(1 + (e^ε0 − 1)/(e^ε0 + 1)·a).
// The reference code's factor is the larger of the two (e^{−ε0−ε1} < e^{−ε0}) and its condition the stricter
// (ln(4/δ) > ln(2/δ)), so it is never below the printed one: it is the conservative default (the JS 'closed-form').
// Outside its regime a form claims nothing: `applies` is false and epsilon = ε0.
[[nodiscard]] ShuffleBound shuffle_closed_form(double epsilon0, double n, double delta);
[[nodiscard]] ShuffleBound shuffle_closed_form_printed(double epsilon0, double n, double delta);

// The numerical bound of their Section 4 (Theorem 3.2's reduction; the reference implementation's
// `numericalanalysis`): the shuffled output is (ε, δ)-DP if the C-mixtures
//     P = [α·A + (1−α)·(A+1)],  Q = [(1−α)·A + α·(A+1)],
//     C ~ Bin(n−1, e^{−ε0}),  A | C=c ~ Bin(c, ½),  α = e^ε0/(e^ε0 + 1),
// satisfy δ(ε) = max(Σ_c P(C=c)·D_c^{P‖Q}(ε), Σ_c P(C=c)·D_c^{Q‖P}(ε)) <= δ, D_c the conditional hockey-stick
// divergences (exact: the likelihood ratio is monotone in A, so the optimal set is {A <= β(c+1)}).
// Evaluated exactly up to a precision the caller sets: c is split into blocks, each charged between its endpoints'
// values (D_c is monotone in c) times its exact binomial mass, which brackets δ(ε) between a certified lower and upper
// sum; the block with the largest gap is halved until the comparison with δ is decided (blocks of one c are exact).
// ε is bisected from [0, min(ε0, closed form)]: `epsilon` is the smallest ε found with the upper sum below
// δ·(1 − 1e-9) — a proven upper bound — and `epsilon_lower` the largest with the lower sum at or above δ; the search
// stops when epsilon − epsilon_lower <= precision·epsilon (docs/analysis/collection-accounting.md has reference
// values). If max_evaluations runs out first, the certified bracket reached so far is returned: epsilon is still an
// upper bound, only wider than asked.
struct ShuffleNumericalOptions {
  double precision = 1e-3;                 // relative width of [epsilon_lower, epsilon], in (0, 0.5]
  std::size_t max_evaluations = 4'000'000;  // of D_c over the whole search: a guard on the work
};
[[nodiscard]] ShuffleBound shuffle_numerical(double epsilon0, double n, double delta,
                                             const ShuffleNumericalOptions& options = {});

// The certified bracket of δ(ε) above at one ε < ε0, refined until its width is at most `gap` (for tests and plots).
struct ShuffleDelta {
  double lower = 0.0;
  double upper = 0.0;
};
[[nodiscard]] ShuffleDelta shuffle_delta(double epsilon0, double n, double epsilon, double gap);

}  // namespace privsample
