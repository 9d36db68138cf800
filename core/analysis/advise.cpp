#include "analysis/advise.hpp"

#include <algorithm>
#include <cstdint>
#include <cmath>
#include <cstdio>

#include "base/errors.hpp"
#include "mechanisms/mechanism.hpp"
#include "mechanisms/oracles.hpp"
#include "mechanisms/registry.hpp"
#include "model/divergence.hpp"
#include "model/histogram.hpp"

namespace privsample {
namespace {

// Σ_v Var(f̂_v) for support probabilities p > q (advise.hpp).
double total_variance(const SupportLaw& law, double k, double users) {
  const long double p = law.p;
  const long double q = law.q;
  return static_cast<double>((p * (1.0L - p) + (k - 1.0L) * q * (1.0L - q)) / (users * (p - q) * (p - q)));
}

// Four significant digits (not format_value, which the WebAssembly modules defer to JS for error messages only).
std::string format_error(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", x);
  return text;
}

AdviceCandidate oracle_candidate(const Oracle& o, double k, double users) {
  AdviceCandidate c;
  c.mechanism = std::string(oracle_name(o));
  c.error = total_variance(support_law(o), k, users);
  if (report_format(o) == ReportFormat::bits) {
    c.report_bits = 8.0 * static_cast<double>(report_bytes(o));
    c.server_cost = "a support count per item and report, O(N·k) (SQL over the hex column)";
  } else {
    c.report_bits = std::ceil(std::log2(static_cast<double>(report_values(o))));
    c.server_cost = counts_kind(o) == CountsKind::per_report
                        ? "one GROUP BY over the reports, then a Walsh–Hadamard transform, O(N + k log k)"
                        : "a walk over each report's preimages of its hash, O(N·k/g) (batch routine; O(N·k) in SQL)";
  }
  // N reports of support_steps each; per-report counts add the transform of their counts, L·log2 L.
  const auto length = static_cast<double>(counts_length(o));
  c.server_operations = users * static_cast<double>(support_steps(o)) +
                        (counts_kind(o) == CountsKind::per_report ? length * std::log2(length) : 0.0);
  return c;
}

// The rule of advise.hpp: the smallest report, then the fewest server operations, then the smallest error, among the
// candidates within kAdviceTolerance times the smallest error (candidates sorted by error, so the first is within).
const AdviceCandidate& chosen_of(const std::vector<AdviceCandidate>& sorted) {
  const double limit = kAdviceTolerance * sorted.front().error;
  const AdviceCandidate* chosen = &sorted.front();
  for (const AdviceCandidate& c : sorted) {
    if (c.error > limit) break;
    if (c.report_bits < chosen->report_bits ||
        (c.report_bits == chosen->report_bits && c.server_operations < chosen->server_operations)) {
      chosen = &c;
    }
  }
  return *chosen;
}

// The ratio of two errors to three decimals (1.000 for a tie, e.g. k-RR and subset selection with d = 1).
std::string format_ratio(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", x);
  return text;
}

}  // namespace

AdviceGoal parse_advice_goal(std::string_view goal) {
  if (goal == "frequencies") return AdviceGoal::frequencies;
  if (goal == "sample") return AdviceGoal::sample;
  throw_invalid({"options.goal = '", goal,
                 "': use 'frequencies' (a population's shares) or 'sample' (one user's sample)"});
}

Advice advise(double k_value, double epsilon, double users, AdviceGoal goal, std::string_view divergence) {
  const std::size_t k = validated_count(k_value, "options.k", 2, kMaxCategories);
  if (!(std::isfinite(epsilon) && epsilon > 0.0)) throw_invalid({"options.epsilon = ", epsilon, ": must be > 0"});
  // N up to 2^53, as the estimators take it: checked as a double (std::size_t has 32 bits in WebAssembly).
  if (!(users >= 1.0 && users <= 0x1p53 && users == std::floor(users))) {
    throw_invalid({"options.users = ", users, ": must be an integer in [1, 2^53]"});
  }
  const double n = users;
  const auto kk = static_cast<double>(k);
  MechanismOptions options;
  options.epsilon = epsilon;
  Advice out;
  if (goal == AdviceGoal::frequencies) {
    // k-RR: the linear sampler on point masses (its release is one category)
    const double e = std::exp(std::min(epsilon, kMaxEffectiveEpsilon));
    AdviceCandidate krr{"linear", total_variance({e / (e + kk - 1.0), 1.0 / (e + kk - 1.0)}, kk, n),
                        std::ceil(std::log2(kk)), "one GROUP BY over the reports, O(N + k)", n + kk};
    if (!std::isfinite(krr.error)) krr.error = 0.0;  // e^ε beyond doubles: k-RR releases the item itself
    out.candidates.push_back(krr);
    options.categories = kk;
    for (const MechanismSpec& spec : oracle_registry()) {
      out.candidates.push_back(oracle_candidate(make_oracle(spec.name, options), kk, n));
    }
  } else {
    const NamedDivergence f = parse_divergence(divergence);
    for (const MechanismSpec& spec : mechanism_registry()) {
      if (spec.space != MechanismSpace::finite || !spec.required.empty() || spec.notion == NotionRule::record_level) {
        continue;
      }
      AdviceCandidate c;
      c.mechanism = std::string(spec.name);
      c.error = worst_case_risk(make_finite_mechanism(spec.name, options), f, k);
      c.report_bits = std::ceil(std::log2(kk));
      c.server_cost = "none: the user keeps or sends one category";
      out.candidates.push_back(c);
    }
  }
  std::stable_sort(out.candidates.begin(), out.candidates.end(),
                   [](const AdviceCandidate& a, const AdviceCandidate& b) { return a.error < b.error; });
  const AdviceCandidate& best = out.candidates.front();
  const AdviceCandidate& chosen = chosen_of(out.candidates);
  out.mechanism = chosen.mechanism;
  out.error = chosen.error;
  const std::string what = goal == AdviceGoal::frequencies
                               ? "predicted total squared error of the shares (the sum over items of Var)"
                               : "worst-case expected divergence of a user's sample";
  const std::string at =
      message({" at ",
               goal == AdviceGoal::frequencies ? message({"N = ", static_cast<std::uint64_t>(n), ", "}) : std::string(),
               "k = ", k, ", epsilon = ", format_error(epsilon)});
  const std::string within = message({"of the candidates within ", format_ratio(kAdviceTolerance),
                                      " times the smallest error it has the smallest report, then the fewest server "
                                      "operations"});
  const std::string cost = message({"a report of ", static_cast<std::uint64_t>(chosen.report_bits), " bits; server: ",
                                    chosen.server_cost,
                                    goal == AdviceGoal::frequencies
                                        ? message({", about ", format_error(chosen.server_operations), " operations"})
                                        : std::string(),
                                    "."});
  if (&chosen == &best) {
    const AdviceCandidate& next = out.candidates.size() > 1 ? out.candidates[1] : best;
    out.reason = message({"'", best.mechanism, "' has the smallest ", what, ": ", format_error(best.error), " (next '",
                          next.mechanism, "' ", format_error(next.error), ", ", format_ratio(next.error / best.error),
                          " times)", at, "; ", within, "; ", cost});
  } else {
    out.reason = message({"'", chosen.mechanism, "' has a ", what, " of ", format_error(chosen.error), ", ",
                          format_ratio(chosen.error / best.error), " times the smallest ('", best.mechanism, "' ",
                          format_error(best.error), ", a report of ", static_cast<std::uint64_t>(best.report_bits),
                          " bits)", at, "; ", within, "; ", cost});
  }
  return out;
}

}  // namespace privsample
