#pragma once
// Shared helpers of the frequency oracles' tests (core/mechanisms/<oracle>/*_test.cpp, frequency_oracles_test.cpp):
// a generator that counts the words it hands out, the report law of an encoder against report_probability by
// chi-square, and simulated collections of reports from users with fixed items.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "analysis/frequency_estimate.hpp"
#include "base/randomness.hpp"
#include "mechanisms/oracles.hpp"
#include "test_support.hpp"

namespace privsample_test {

// Counts the 64-bit words drawn: a draw's operations are a fixed number per word (a uniform index or one Bernoulli
// step each), so equal word-count laws mean equal work (the draw policy's measure).
class WordCounter final : public privsample::RandomBits {
 public:
  explicit WordCounter(std::uint64_t seed) : inner_(seed) {}
  std::uint64_t next_u64() override {
    ++words_;
    return inner_.next_u64();
  }
  [[nodiscard]] std::uint64_t words() const { return words_; }

 private:
  privsample::SeededRandom inner_;
  std::uint64_t words_ = 0;
};

// The items of `users` users, item v held by floor(users/((v + 1)·H_k)) of them (H_k = Σ 1/(v + 1)), the users the
// floors leave over holding item 0: a skewed population whose counts add up to `users`.
inline std::vector<std::size_t> skewed_holders(std::size_t users, std::size_t k) {
  std::vector<std::size_t> holders(k);
  double weight = 0.0;
  for (std::size_t v = 0; v < k; ++v) weight += 1.0 / static_cast<double>(v + 1);
  for (std::size_t v = 0; v < k; ++v) {
    holders[v] = static_cast<std::size_t>(std::floor(static_cast<double>(users) / (static_cast<double>(v + 1) * weight)));
  }
  holders[0] += users - std::accumulate(holders.begin(), holders.end(), std::size_t{0});
  return holders;
}

// A report as a key: the integer, or the bitset's bytes.
template <class O>
std::uint64_t report_key(const O& o, std::size_t item, privsample::RandomBits& bits, std::vector<std::uint8_t>& bytes) {
  if constexpr (O::report_format == privsample::ReportFormat::bits) {
    o.report(item, bits, bytes);
    std::uint64_t key = 0;
    for (const std::uint8_t b : bytes) key = key * 256 + b;
    return key;
  } else {
    return o.report(item, bits);
  }
}

// n reports of `item`, tallied over the `reports` (every report of positive probability, as keys with their
// bytes or integers); returns the chi-square p-value against report_probability, and REQUIREs that no report outside
// the list came out.
template <class O, class Report>
double report_law_p_value(const O& o, std::size_t item, const std::vector<Report>& reports, std::size_t n,
                          std::uint64_t seed) {
  std::map<std::uint64_t, std::size_t> index;
  std::vector<double> probs;
  std::vector<std::uint8_t> bytes;
  for (std::size_t i = 0; i < reports.size(); ++i) {
    std::uint64_t key = 0;
    if constexpr (O::report_format == privsample::ReportFormat::bits) {
      for (const std::uint8_t b : reports[i]) key = key * 256 + b;
    } else {
      key = reports[i];
    }
    index[key] = i;
    probs.push_back(static_cast<double>(o.report_probability(reports[i], item)));
  }
  double total = 0.0;
  for (const double p : probs) total += p;
  REQUIRE(total == Approx(1.0).epsilon(1e-12));
  if constexpr (O::report_format == privsample::ReportFormat::bits) bytes.resize(o.report_bytes());
  privsample::SeededRandom bits(seed);
  std::vector<std::size_t> counts(reports.size(), 0);
  for (std::size_t t = 0; t < n; ++t) {
    const auto at = index.find(report_key(o, item, bits, bytes));
    REQUIRE(at != index.end());
    ++counts[at->second];
  }
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (probs[i] == 0.0) REQUIRE(counts[i] == 0);
  }
  std::size_t bins = 0;
  for (const double p : probs) bins += p > 0.0 ? 1 : 0;
  return chi_square_survival(chi_square_statistic(counts, probs, n), static_cast<int>(bins) - 1);
}

// Every bitset of k bits (k <= 16), as report bytes.
inline std::vector<std::vector<std::uint8_t>> all_bitsets(std::size_t k) {
  std::vector<std::vector<std::uint8_t>> out;
  for (std::uint32_t m = 0; m < (1U << k); ++m) {
    std::vector<std::uint8_t> bytes(privsample::bitset_bytes(k), 0);
    for (std::size_t i = 0; i < k; ++i) {
      if ((m >> i) & 1U) bytes[i >> 3] = static_cast<std::uint8_t>(bytes[i >> 3] | (0x80U >> (i & 7)));
    }
    out.push_back(bytes);
  }
  return out;
}

// The support counts of `holders[v]` users holding each item v, each reporting once through the oracle's encoder,
// counted the way a server counts them (frequency_counts on the reports as they travel: hex text or numbers).
inline privsample::FrequencyCounts simulated_counts(const privsample::Oracle& oracle,
                                                    const std::vector<std::size_t>& holders,
                                                    privsample::RandomBits& bits) {
  std::vector<std::uint8_t> bytes;
  std::vector<double> integers;
  std::vector<std::string> texts;
  for (std::size_t v = 0; v < holders.size(); ++v) {
    for (std::size_t u = 0; u < holders[v]; ++u) {
      const std::uint64_t r = privsample::encode_report(oracle, v, bits, bytes);
      if (privsample::report_format(oracle) == privsample::ReportFormat::bits) {
        std::string text(2 * bytes.size(), '0');
        privsample::write_hex(bytes, text.data());
        texts.push_back(std::move(text));
      } else {
        integers.push_back(static_cast<double>(r));
      }
    }
  }
  if (privsample::report_format(oracle) == privsample::ReportFormat::integer) {
    return privsample::frequency_counts(oracle, integers);
  }
  std::vector<std::string_view> views(texts.begin(), texts.end());
  return privsample::frequency_counts(oracle, views);
}

// `each` called with the estimate of each of `reps` collections of `holders`' reports, drawn by the oracle's encoder
// with SeededRandom(seed) and counted as a server counts them.
template <class Each>
void for_each_estimate(const privsample::Oracle& o, const std::vector<std::size_t>& holders, std::size_t reps,
                       std::uint64_t seed, Each each) {
  privsample::SeededRandom bits(seed);
  for (std::size_t r = 0; r < reps; ++r) {
    const privsample::FrequencyCounts c = simulated_counts(o, holders, bits);
    each(privsample::estimate_frequencies(o, c.counts, c.users));
  }
}

// Each item's mean estimate and the estimates' sample variance (divisor R − 1) over for_each_estimate's collections.
struct EstimateMoments {
  std::vector<double> mean;
  std::vector<double> variance;
};

inline EstimateMoments estimate_moments(const privsample::Oracle& o, const std::vector<std::size_t>& holders,
                                        std::size_t reps, std::uint64_t seed) {
  const std::size_t k = holders.size();
  std::vector<double> sum(k, 0.0);
  std::vector<double> sum_sq(k, 0.0);
  for_each_estimate(o, holders, reps, seed, [&](const privsample::FrequencyEstimate& e) {
    for (std::size_t v = 0; v < k; ++v) {
      sum[v] += e.estimate[v];
      sum_sq[v] += e.estimate[v] * e.estimate[v];
    }
  });
  EstimateMoments m{std::vector<double>(k), std::vector<double>(k)};
  for (std::size_t v = 0; v < k; ++v) {
    m.mean[v] = sum[v] / static_cast<double>(reps);
    m.variance[v] = (sum_sq[v] - static_cast<double>(reps) * m.mean[v] * m.mean[v]) / static_cast<double>(reps - 1);
  }
  return m;
}

}  // namespace privsample_test
