#pragma once
// The analyst's side of the frequency oracles (mechanisms/oracles.hpp): from N users' reports, or from the counts a
// database keeps of them, to the unbiased estimate of every item's share with its closed-form variance. Counting is
// additive: counts of batches of reports add up (users too), so a server can count in SQL (each oracle's page has the
// query) or with frequency_counts, batch by batch, and estimate once.
//
// Counts per oracle (counts_kind): per category, the support count of each item — the ones of bitset reports (OUE,
// subset selection), the reports whose hash matches (OLH) — with the number of users beside them; per report value,
// how many reports had each integer value (Hadamard response: 2K values), whose total is the number of users.
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mechanisms/oracles.hpp"

namespace privsample {

struct FrequencyCounts {
  std::vector<double> counts;  // counts_length(oracle) entries
  double users = 0.0;          // N, the number of reports counted
};

// The counts of bitset reports given as hex texts (report_format bits), or of integer reports given as doubles (as JS
// numbers arrive; report_format integer). Each report is validated; errors name reports[i] and its value. OLH's support
// counts are its walk over the hash residues, O(P/g) per report (OlhOracle::add_support); the others O(k/8) or O(1).
[[nodiscard]] FrequencyCounts frequency_counts(const Oracle& oracle, std::span<const std::string_view> reports);
[[nodiscard]] FrequencyCounts frequency_counts(const Oracle& oracle, std::span<const double> reports);

// Intervals: C_v is a sum of N independent Bernoulli variables (p* for v's holders, q* for the others), with mean
// N·m_v, m_v = q* + f_v(p* − q*), and a variance at most N·m_v(1 − m_v) (a Poisson binomial's is at most the
// binomial's of the same mean, and its tails beyond one unit from the mean are lighter: Hoeffding 1956). So the
// exact (Clopper–Pearson) interval for m_v from C_v of N, mapped to f_v by f = (m − q*)/(p* − q*) and intersected
// with [0, 1], covers f_v at least at about 1 − α — also for the small counts of rare items when q* is small (OUE,
// OLH and subset selection at large ε), whose skew a normal interval misses at the simultaneous level. The
// simultaneous intervals are the same at level 1 − α/k for each item (Bonferroni), covering all k shares at once at
// least at about 1 − α.
struct FrequencyEstimate {
  double users = 0.0;
  double alpha = 0.05;
  double confidence = 0.95;  // 1 − α
  std::string assumption;     // what the intervals assume: N independent users, one report each of the item they hold
  std::string target;         // what they cover, in words
  std::string interval_method;
  std::vector<double> estimate;        // f̂_v = (C_v/N − q*)/(p* − q*): unbiased, may leave [0, 1], sums to ≈ 1
  std::vector<double> variance;        // the closed form at f = clamp(f̂_v, 0, 1) (plug-in)
  std::vector<double> standard_error;  // sqrt(variance)
  std::vector<double> lower;           // each item's interval at level 1 − α
  std::vector<double> upper;
  std::vector<double> simultaneous_lower;  // every item's at once, at level 1 − α
  std::vector<double> simultaneous_upper;
  // Counts implausible for users holding one item each (estimate.hpp TargetIntervals::warnings): an item whose
  // simultaneous interval lies entirely outside [0, 1], named. The intervals are cut to [0, 1], each pointwise one
  // inside its simultaneous one, of zero width only for such an item.
  std::vector<std::string> warnings;
};

// The estimate from counts (counts_length(oracle) integers >= 0) and N users: required for counts per category (each
// count at most N), and for counts per report value either absent or equal to their total; intervals at level 1 − α.
// Throws std::invalid_argument naming counts[i], users or alpha, a ShapeError for counts of the wrong length, and
// std::domain_error when p* − q* is at most 2^-48 of p* (ε = 0, or below ~1e-14: the reports carry nothing about the
// items that the doubles resolve).
[[nodiscard]] FrequencyEstimate estimate_frequencies(const Oracle& oracle, std::span<const double> counts,
                                                     std::optional<double> users, double alpha = 0.05);

// The support counts C_v the estimate is made of (the counts themselves, or Hadamard response's transform of them).
[[nodiscard]] std::vector<double> support_counts(const Oracle& oracle, std::span<const double> counts);

// Var(f̂_v) in closed form for a share `frequency` of `users` users holding v (oracle.hpp's support_variance): the
// variance given the users' items, the standard form of Wang et al. (2017).
[[nodiscard]] double frequency_variance(const Oracle& oracle, double frequency, double users);

}  // namespace privsample
