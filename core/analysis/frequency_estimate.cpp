#include "analysis/frequency_estimate.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <string_view>
#include <type_traits>
#include <variant>

#include "analysis/estimate.hpp"
#include "base/binomial.hpp"
#include "base/errors.hpp"

namespace privsample {
namespace {

constexpr double kLargestCount = 9007199254740992.0;  // 2^53: every count is an exact double

double validated_users(double users) {
  if (!(std::isfinite(users) && users == std::floor(users) && users >= 1.0 && users <= kLargestCount)) {
    throw_invalid({"users = ", users, ": must be an integer in [1, 9007199254740992]"});
  }
  return users;
}

// The support law, unless the reports carry nothing the doubles resolve about the item: p* − q* at most 2^-48 of p*
// (ε below ~1e-14). At ε = 0 most oracles' p* and q* are equal doubles, but subset selection's coin is an integer
// rational rounded toward privacy, whose p* and q* then differed by its rounding alone (one unit in 2^64): its
// "estimates" came out near ±1e34 with a variance near 1e65/N.
SupportLaw informative_law(const Oracle& oracle, std::string_view consequence) {
  const SupportLaw law = support_law(oracle);
  if (!(law.p - law.q > 0x1p-48L * law.p)) {
    throw_domain({"epsilon = ", guarantee(oracle).epsilon, ": a '", oracle_name(oracle),
                  "' report then carries nothing about the item (p* = q*, or within 2^-48 of p*)", consequence});
  }
  return law;
}

}  // namespace

FrequencyCounts frequency_counts(const Oracle& oracle, std::span<const std::string_view> reports) {
  if (report_format(oracle) != ReportFormat::bits) {
    throw_shape({"reports: a '", oracle_name(oracle), "' report is an integer, not text"});
  }
  const std::size_t k = categories(oracle);
  const std::size_t width = report_bytes(oracle);
  // An oracle whose reports hold a fixed number of items (subset selection) has each report checked for it.
  const std::size_t held = std::visit(
      [](const auto& o) -> std::size_t {
        if constexpr (requires { o.subset_size(); }) {
          return o.subset_size();
        } else {
          return 0;
        }
      },
      oracle);
  // How often each byte value came at each byte position (one addition per 8 items), expanded to the items' ones at
  // the end; beyond 2^22 tallies, the ones of each item directly.
  const bool by_byte = width * 256 <= (std::size_t{1} << 22);
  std::vector<std::uint64_t> tally(by_byte ? width * 256 : k, 0);
  std::vector<std::uint8_t> bytes(width);
  for (std::size_t i = 0; i < reports.size(); ++i) {
    read_hex(reports[i], k, bytes, i);
    std::size_t ones = 0;
    for (std::size_t b = 0; b < width; ++b) {
      ones += static_cast<std::size_t>(std::popcount(bytes[b]));
      if (by_byte) ++tally[b * 256 + bytes[b]];
    }
    if (!by_byte) {
      for (std::size_t v = 0; v < k; ++v) tally[v] += bit_of(bytes, v) ? 1U : 0U;
    }
    if (held != 0 && ones != held) {
      throw_invalid({"reports[", i, "] holds ", ones, " items: a '", oracle_name(oracle),
                     "' report on these options holds ", held});
    }
  }
  FrequencyCounts out{std::vector<double>(k, 0.0), static_cast<double>(reports.size())};
  for (std::size_t v = 0; v < k; ++v) {
    if (!by_byte) {
      out.counts[v] = static_cast<double>(tally[v]);
      continue;
    }
    std::uint64_t ones = 0;
    const unsigned bit = 7 - static_cast<unsigned>(v & 7);
    for (unsigned value = 0; value < 256; ++value) ones += ((value >> bit) & 1U) * tally[(v >> 3) * 256 + value];
    out.counts[v] = static_cast<double>(ones);
  }
  return out;
}

FrequencyCounts frequency_counts(const Oracle& oracle, std::span<const double> reports) {
  if (report_format(oracle) != ReportFormat::integer) {
    throw_shape({"reports: a '", oracle_name(oracle), "' report is hex text, not a number"});
  }
  const std::uint64_t values = report_values(oracle);
  std::vector<std::uint64_t> integers(reports.size());
  for (std::size_t i = 0; i < reports.size(); ++i) {
    const double r = reports[i];
    if (!(std::isfinite(r) && r == std::floor(r) && r >= 0.0 && r < static_cast<double>(values))) {
      throw_invalid({"reports[", i, "] = ", r, ": a '", oracle_name(oracle), "' report is an integer in [0, ",
                     values - 1, "]"});
    }
    integers[i] = static_cast<std::uint64_t>(r);
  }
  FrequencyCounts out{std::vector<double>(counts_length(oracle), 0.0), static_cast<double>(reports.size())};
  std::visit(
      [&](const auto& o) {
        if constexpr (requires { o.add_support(integers, out.counts); }) {
          o.add_support(integers, out.counts);
        } else {
          for (const std::uint64_t r : integers) out.counts[r] += 1.0;  // counts per report value
        }
      },
      oracle);
  return out;
}

std::vector<double> support_counts(const Oracle& oracle, std::span<const double> counts) {
  return std::visit(
      [&](const auto& o) -> std::vector<double> {
        if constexpr (requires { o.support_counts(counts); }) {
          return o.support_counts(counts);
        } else {
          return {counts.begin(), counts.end()};
        }
      },
      oracle);
}

FrequencyEstimate estimate_frequencies(const Oracle& oracle, std::span<const double> counts,
                                       std::optional<double> users, double alpha) {
  validated_alpha(alpha);
  const std::string_view name = oracle_name(oracle);
  const std::size_t length = counts_length(oracle);
  const bool per_category = counts_kind(oracle) == CountsKind::per_category;
  if (counts.size() != length) {
    throw_shape({"counts has ", counts.size(), " entries: a '", name, "' oracle on ", categories(oracle),
                 " items takes ", length,
                 per_category ? " (a support count per item)" : " (a count per report value)"});
  }
  double total = 0.0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    const double c = counts[i];
    if (!(std::isfinite(c) && c == std::floor(c) && c >= 0.0 && c <= kLargestCount)) {
      throw_invalid({"counts[", i, "] = ", c, ": counts must be integers >= 0"});
    }
    total += c;
  }
  double n = 0.0;
  if (per_category) {
    if (!users) throw_invalid({"users is required with the counts of a '", name, "' oracle (the number of reports)"});
    n = validated_users(*users);
    for (std::size_t i = 0; i < counts.size(); ++i) {
      if (counts[i] > n) throw_invalid({"counts[", i, "] = ", counts[i], ": more than users = ", n});
    }
  } else {
    n = validated_users(users.value_or(total));
    if (n != total) throw_invalid({"users = ", n, ": the counts of the report values add up to ", total});
  }
  if (n > kLargestExactTrials) {
    throw_invalid({"users = ", n, ": ", exact_trials_reason("users")});
  }
  const SupportLaw law = informative_law(oracle, ", so there is no estimate");
  const std::vector<double> support = support_counts(oracle, counts);
  const std::size_t k = support.size();
  FrequencyEstimate out;
  out.users = n;
  out.alpha = alpha;
  out.confidence = 1.0 - alpha;
  out.assumption = "N independent users, one report each of the item they hold (N = users, the reports behind the "
                   "counts)";
  out.target = "f, each item's share of the N users (for users drawn from a population: its item frequencies)";
  for (auto* column : {&out.estimate, &out.variance, &out.standard_error, &out.lower, &out.upper,
                       &out.simultaneous_lower, &out.simultaneous_upper}) {
    column->resize(k);
  }
  // The exact (Clopper–Pearson) intervals of each support share c_v/N, pointwise and Bonferroni over the k items
  // (estimate.hpp; each count solved once). A Poisson binomial of the same mean has lighter tails beyond one unit from
  // its mean (Hoeffding 1956, Thm 4), so they cover the support share too.
  TargetIntervals shares = proportion_intervals(support, n, alpha);
  const long double gap = law.p - law.q;
  for (std::size_t v = 0; v < k; ++v) {
    const long double share = static_cast<long double>(support[v]) / n;
    out.estimate[v] = static_cast<double>((share - law.q) / gap);
    out.variance[v] = support_variance(law, std::clamp(out.estimate[v], 0.0, 1.0), n);
    out.standard_error[v] = std::sqrt(out.variance[v]);
  }
  // The shares' intervals map to the items' by the increasing f = (m − q*)/(p* − q*), then are cut to [0, 1] the one
  // way every estimator cuts them (estimate.hpp affine_inversion_intervals): pointwise ⊆ simultaneous ⊆ [0, 1], and a
  // warning naming each item whose simultaneous interval misses [0, 1].
  const std::vector<double> offset(k, static_cast<double>(law.q));
  TargetIntervals items = affine_inversion_intervals(std::move(shares), static_cast<double>(gap), offset, "the items");
  out.lower = std::move(items.lower);
  out.upper = std::move(items.upper);
  out.simultaneous_lower = std::move(items.simultaneous_lower);
  out.simultaneous_upper = std::move(items.simultaneous_upper);
  out.interval_method = "the support shares' " + items.method + " (offset q*, scale p* - q*)";
  for (std::string& w : items.warnings) {
    out.warnings.push_back(w + " (assumed: " + out.assumption + ")");
  }
  return out;
}

double frequency_variance(const Oracle& oracle, double frequency, double users) {
  if (!(std::isfinite(frequency) && frequency >= 0.0 && frequency <= 1.0)) {
    throw_invalid({"frequency = ", frequency, ": must be in [0, 1]"});
  }
  validated_users(users);
  const SupportLaw law = informative_law(oracle, ": the variance is unbounded");
  return support_variance(law, frequency, users);
}

}  // namespace privsample
