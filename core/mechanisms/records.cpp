#include "mechanisms/records.hpp"

#include <algorithm>
#include <cmath>

#include "base/errors.hpp"
#include "base/release_table.hpp"
#include "base/numeric.hpp"

namespace privsample::records {

Decay decay(double epsilon) { return {std::exp(-epsilon), -std::expm1(-epsilon)}; }

std::uint64_t checked_records(std::size_t records) {
  if (records < 1 || records > kMaxRecords) {
    throw_invalid({"records = ", records, ": must be an integer in [1, ", kMaxRecords, "]"});
  }
  return records;
}

double roo_q(Decay d, std::uint64_t n, std::uint64_t k) {
  const double kw = static_cast<double>(k) * d.w;
  return kw / (kw + static_cast<double>(n) * d.a);
}

// with_margin's ε′ = ε − (kMarginRelative·ε + kMarginAbsolute): the check of the released law's worst log-ratio
// (dsroo_worst_log_ratio) is accurate to about 2^-47 ≈ 7e-15 in the log, so a margin of 1e-14 (and 1e-12 relative,
// for large ε) is one it always resolves, while it moves q by far less than the papers' printed digits.
constexpr double kMarginRelative = 1e-12;
constexpr double kMarginAbsolute = 1e-14;
// round_up's 8 ulp: a computed q_0 is within about 4 ulp of the exact value (records.hpp).
constexpr double kRoundUpFactor = 1.0 + 0x1.0p-50;

double with_margin(double epsilon) {
  const double margin = kMarginRelative * epsilon + kMarginAbsolute;
  return epsilon > margin ? epsilon - margin : 0.0;
}

double round_up(double q) {
  double up = q * kRoundUpFactor;
  up = std::nextafter(up, 2.0);
  up = std::nextafter(up, 2.0);
  return std::min(up, 1.0);
}

Counts validated_counts(std::span<const double> hist, std::uint64_t records, std::string_view mechanism) {
  check_category_count(hist.size(), "hist");
  Counts out;
  out.c.resize(hist.size());
  bool oversized = false;
  std::uint64_t total = 0;
  CompensatedSum approximate_total;  // for the message only, when some count exceeds records
  for (std::size_t i = 0; i < hist.size(); ++i) {
    const double v = hist[i];
    if (!std::isfinite(v) || v < 0.0) {
      throw_invalid({"hist[", i, "] = ", v, ": counts must be finite and >= 0"});
    }
    if (v != std::floor(v)) {
      throw_invalid({"hist[", i, "] = ", v, ": ", mechanism, " needs counts of records, which must be integers"});
    }
    approximate_total.add(v);
    if (v > static_cast<double>(records)) {
      oversized = true;
      continue;
    }
    out.c[i] = static_cast<std::uint64_t>(v);
    total += out.c[i];  // <= 10^7 · 10^9 < 2^64
  }
  if (oversized || total != records) {
    throw_invalid({"hist sums to ", oversized ? MessagePiece(approximate_total.value()) : MessagePiece(total),
                   " but records = ", records, ": ", mechanism, " needs the histogram of exactly the public n records"});
  }
  std::uint64_t smallest = out.c[0];
  for (const std::uint64_t value : out.c) smallest = std::min(smallest, value);  // full scan, no early exit
  out.min = smallest;
  return out;
}

namespace {

// obscure ? uniform : record by a mask: DS-ROO's obscuring probability is a function of the data (its least count),
// and a branch on the coin's outcome would be mispredicted at a rate that shows it.
std::size_t chosen(bool obscure, std::size_t uniform, std::size_t record) {
  const std::size_t mask = std::size_t{0} - static_cast<std::size_t>(obscure);
  return (uniform & mask) | (record & ~mask);
}

}  // namespace

std::size_t uniform_record(const Counts& counts, std::uint64_t n, RandomBits& bits) {
  const std::uint64_t r = uniform_below(bits, n);
  std::uint64_t cumulative = 0;
  std::size_t letter = 0;
  for (const std::uint64_t c : counts.c) {
    cumulative += c;
    letter += static_cast<std::size_t>(cumulative <= r);  // the number of blocks ending at or before r
  }
  return letter;
}

std::vector<double> mixture(const Counts& counts, std::uint64_t n, double q) {
  const double k = static_cast<double>(counts.c.size());
  const double nd = static_cast<double>(n);
  std::vector<double> out(counts.c.size());
  for (std::size_t y = 0; y < out.size(); ++y) out[y] = q / k + (1.0 - q) * (static_cast<double>(counts.c[y]) / nd);
  return out;
}

std::size_t reveal_or_obscure(const Counts& counts, std::uint64_t n, double q, RandomBits& bits) {
  const bool obscure = bernoulli_fixed_cost(bits, q);
  const auto uniform = static_cast<std::size_t>(uniform_below(bits, counts.c.size()));
  const std::size_t record = uniform_record(counts, n, bits);
  return chosen(obscure, uniform, record);
}

IndexDraw reveal_or_obscure_draws(Counts counts, std::uint64_t n, double q, std::size_t draws) {
  if (draws <= 1) {
    return [c = std::move(counts), n, q](RandomBits& bits) { return reveal_or_obscure(c, n, q, bits); };
  }
  const std::size_t k = counts.c.size();
  AliasTable records(counts.c, n);  // Σc = n <= kMaxRecords < 2^63, k <= kMaxCategories < 2^24
  return [records = std::move(records), k, coin = FixedCostCoin(q)](RandomBits& bits) -> std::size_t {
    const bool obscure = coin.toss(bits);
    const auto uniform = static_cast<std::size_t>(uniform_below(bits, k));
    const std::size_t record = records.draw(bits);
    return chosen(obscure, uniform, record);
  };
}

double mixture_risk(const FDivergence& f, double b) { return chord_risk(f, 0.0, 1.0 / (1.0 - b)); }

double mixture_risk(NamedDivergence f, double b) {
  switch (f) {
    case NamedDivergence::kl: return -std::log1p(-b);
    case NamedDivergence::tv: return b;
    case NamedDivergence::hellinger: return b / (1.0 + std::sqrt(1.0 - b));  // 1 − √(1 − b)
    case NamedDivergence::chi2: return b / (1.0 - b);
  }
  return mixture_risk(f_divergence(f), b);
}

double spread(double q, std::size_t k) {
  check_category_count(k, "k");
  return q * (static_cast<double>(k - 1) / static_cast<double>(k));
}

}  // namespace privsample::records
