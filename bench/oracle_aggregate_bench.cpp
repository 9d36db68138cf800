// Server-side aggregation of frequency-oracle reports at k = 1000, ε = 1: the time to turn 10^7 reports as they
// travel (hex text or integers) into the estimate — counting (frequency_counts: OUE and subset selection by byte
// values, OLH by its walk over each report's hash preimages, Hadamard response by tallying report values) and
// estimating (estimate_frequencies: Hadamard's transform, the intervals). One batch of 10^6 reports is drawn by the
// encoders (seeded) and counted ten times: counts of batches add up, so that is the work of 10^7 reports.
#include <chrono>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/frequency_estimate.hpp"
#include "base/randomness.hpp"
#include "mechanisms/oracles.hpp"
#include "mechanisms/registry.hpp"
#include "timing.hpp"

int main() {
  using namespace privsample;
  using Clock = std::chrono::steady_clock;
  constexpr std::size_t kBatch = 1'000'000;
  constexpr int kBatches = 10;
  constexpr std::size_t k = 1000;
  std::printf("aggregation of %d x %zu reports, k = %zu, eps = 1 (seconds for 10^7 reports)\n", kBatches, kBatch, k);
  std::printf("%-18s %12s %12s\n", "oracle", "count (s)", "estimate (s)");
  for (const MechanismSpec& spec : oracle_registry()) {
    MechanismOptions options;
    options.epsilon = 1.0;
    options.categories = static_cast<double>(k);
    const Oracle o = make_oracle(spec.name, options);
    SeededRandom bits(2026);
    std::vector<std::string> texts;
    std::vector<double> integers;
    std::vector<std::uint8_t> bytes;
    for (std::size_t u = 0; u < kBatch; ++u) {
      const std::uint64_t r = encode_report(o, (u * 7919) % k, bits, bytes);
      if (report_format(o) == ReportFormat::bits) {
        std::string text(2 * bytes.size(), '0');
        write_hex(bytes, text.data());
        texts.push_back(std::move(text));
      } else {
        integers.push_back(static_cast<double>(r));
      }
    }
    const std::vector<std::string_view> views(texts.begin(), texts.end());
    std::vector<double> total(counts_length(o), 0.0);
    double users = 0.0;
    const auto t0 = Clock::now();
    for (int b = 0; b < kBatches; ++b) {
      const FrequencyCounts c = report_format(o) == ReportFormat::bits ? frequency_counts(o, views)
                                                                       : frequency_counts(o, integers);
      for (std::size_t i = 0; i < total.size(); ++i) total[i] += c.counts[i];
      users += c.users;
    }
    const auto t1 = Clock::now();
    const FrequencyEstimate e = estimate_frequencies(o, total, users);
    const auto t2 = Clock::now();
    privsample_bench::sink = e.estimate[0];
    std::printf("%-18s %12.2f %12.4f\n", std::string(spec.name).c_str(),
                std::chrono::duration<double>(t1 - t0).count(), std::chrono::duration<double>(t2 - t1).count());
  }
}
