#pragma once
// Which mechanism to use for a goal, from closed forms (no simulation): the advisor behind ps.advise.
//
// Goal "frequencies" — a population's item shares from N users' one report each. Every candidate is a pure frequency
// oracle (mechanisms/oracle.hpp) with support probabilities p*, q*; the frequency oracles of the registry, and k-RR
// (the 'linear' sampler on the user's point mass: p* = e^ε/(e^ε + k − 1), q* = 1/(e^ε + k − 1)). The predicted error
// is the expected total squared error E Σ_v (f̂_v − f_v)² = Σ_v Var(f̂_v) = [p*(1 − p*) + (k − 1)q*(1 − q*)] /
// (N(p* − q*)²): the per-item variances add up to this whatever the population, since Σ_v f_v = 1.
//
// Goal "sample" — one user's released sample close to their P in an f-divergence: the samplers that take ε alone
// ('minimax', 'linear', …), by their worst-case risk sup_P E D_f(P ‖ Q(P)) on k categories (each mechanism's
// worst_case_risk; the oracles release no sample). N plays no part.
//
// The choice weighs report size and server cost against the error: among the candidates whose predicted error is
// within kAdviceTolerance times the smallest, the one with the smallest report, then the fewest server operations,
// then the smallest error. Why 1.05: the errors are variances, so a candidate within 5% reaches the smallest error
// with at most 5% more users, and its intervals are at most sqrt(1.05) ≈ 2.5% wider; the reports it can replace differ
// by orders of magnitude (k bits for OUE and subset selection against tens for OLH, log2(2k) for Hadamard response).
// So at large k OLH (or Hadamard response at small ε), whose error comes within 1% of subset selection's, replaces
// its k-bit report. k-RR, whose report is the smallest, is within the factor exactly while k < 2e^ε + 1: below, subset
// selection's best subset is one item (the same channel as k-RR); from there on its two-item subsets gain more than 5%.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace privsample {

enum class AdviceGoal { frequencies, sample };

inline constexpr double kAdviceTolerance = 1.05;

struct AdviceCandidate {
  std::string mechanism;
  double error = 0.0;              // the goal's predicted error (above)
  double report_bits = 0.0;        // the size of one report
  std::string server_cost;         // how a server counts N reports, in words
  double server_operations = 0.0;  // the steps of that count for N reports (0: nothing to count)
};

struct Advice {
  std::string mechanism;      // the candidate the rule above chooses
  double error = 0.0;         // its predicted error
  double tolerance = kAdviceTolerance;
  std::string reason;         // why, in words: the errors compared, its report size and server cost
  std::vector<AdviceCandidate> candidates;  // every candidate, smallest error first
};

// "frequencies" or "sample" (std::invalid_argument naming options.goal otherwise).
[[nodiscard]] AdviceGoal parse_advice_goal(std::string_view goal);

// The advice for k categories (an integer in [2, 10^7]), ε > 0 and `users` N >= 1 (an integer; used by
// "frequencies"); `divergence` names the f of "sample" ("kl", "tv", …; model/divergence.hpp). Errors name
// options.k, options.epsilon, options.users.
[[nodiscard]] Advice advise(double k, double epsilon, double users, AdviceGoal goal,
                            std::string_view divergence = "kl");

}  // namespace privsample
