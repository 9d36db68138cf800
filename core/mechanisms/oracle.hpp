#pragma once
// What the frequency oracles share (OUE, OLH, Hadamard response, subset selection: one folder each). A frequency
// oracle releases a REPORT about the user's one item v ∈ [k] — a bitset or an integer, not a category — and a server
// estimates from N reports how many users hold each item. Every oracle here is "pure" in the sense of Wang, Blocki,
// Li, Jha (USENIX Security 2017, §4.1): a report y SUPPORTS some items, with
//     Pr(y supports v | item v) = p*,    Pr(y supports v | item w) = q*  for every w ≠ v,
// so the support count C_v of N reports gives the unbiased estimate and its variance in closed form
//     f̂_v = (C_v/N − q*)/(p* − q*),    Var(f̂_v) = [f_v·p*(1 − p*) + (1 − f_v)·q*(1 − q*)] / (N·(p* − q*)²),
// where f_v is the share of the N users holding v (each report's support of v is an independent Bernoulli: p* for
// the holders of v, q* for the others; the variance is given the users' items).
//
// Their laws are two-level: Pr(y | v) = w(y)·(y supports v ? supported : unsupported), with w(y) the same for every
// item, so the largest ratio of two items' report probabilities is supported/unsupported or its inverse, attained
// at any report that supports one item and not the other. The privacy audit checks exactly that ratio from the
// exact values of the coins (analysis/privacy_audit.hpp).
//
// Coins: a report's random choices are uniform integers (uniform_below, exact) and coins that compare one uniform
// word with an integer threshold (probability threshold/2^64, or threshold/2^32 for OUE's per-bit coins, exactly).
// Each threshold comes from a share computed at ε′ = coin_epsilon(ε) = ε − (1e-12·ε + 1e-14) and rounded toward
// privacy past the few ulps of computing it (scaled_up), so the exact ratio of the coins is at most e^ε′ < e^ε: the
// rounding alone keeps it at most e^ε, and the margin also covers an exp() less accurate than its documented ulp
// (each oracle's page proves it for its coins). The words a report reads have a law that depends on ε and k only.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "mechanisms/spec.hpp"

namespace privsample {

// How a report travels: a bitset of k bits (as lowercase hex, two digits per byte, item i the bit 7 − i mod 8 of byte
// i/8 so that the bits read left to right are items 0, 1, …; padding bits 0), or one integer below 2^53 (exact in a
// JS number and in a SQL BIGINT).
enum class ReportFormat { bits, integer };

// What a server's counts of reports are: per category (the support count of every item, length k), or per report
// value (how many times each possible integer report came in, for an oracle with few report values).
enum class CountsKind { per_category, per_report };

// A number a server needs to count an oracle's reports without the library (the SQL on its page), under the name the
// page and ps.oracle(…).parameters use. The names are string literals (NUL-terminated, for the JS glue).
struct OracleParameter {
  std::string_view name;
  double value = 0.0;
};

// p* and q* (module comment), as exact as the coins allow (rounded once where they are not dyadic).
struct SupportLaw {
  long double p = 0.0L;
  long double q = 0.0L;
};

// Pr(y | v) / w(y) for a report that supports v and for one that does not (module comment).
struct ReportLevels {
  long double supported = 0.0L;
  long double unsupported = 0.0L;
};

// options.categories validated: an integer in [2, kMaxCategories] (std::invalid_argument naming options.categories).
[[nodiscard]] std::size_t oracle_categories(const MechanismOptions& options);
[[nodiscard]] std::size_t oracle_categories(double k);

// An item in [0, k): std::invalid_argument "item = 12: must be an integer in [0, 9]" (name: the caller's parameter).
[[nodiscard]] std::size_t validated_item(double item, std::size_t k, std::string_view name = "item");

// ε′ = min(ε, 640) − (1e-12·ε + 1e-14), and 0 below it: the ε every oracle computes its coins at.
[[nodiscard]] double coin_epsilon(double epsilon);

// A coin's share x (a probability computed in doubles, within 5 ulps of its exact value) as a threshold in units of
// 2^-bits rounded toward privacy: ceil(x·(1 + 2^-50)·2^bits), at least the exact value times 2^bits (2^-50 is more than
// 5 ulps; scaling by 2^bits and ceil are exact). x in [0, 1 − 2^-40], bits in [1, 64].
[[nodiscard]] std::uint64_t scaled_up(double x, int bits);

// The closed-form variance of f̂_v above for a share `frequency` of `users` users holding v (module comment).
[[nodiscard]] double support_variance(const SupportLaw& law, double frequency, double users);

// Bytes of a bitset report of k bits, and the length of its hex text.
[[nodiscard]] constexpr std::size_t bitset_bytes(std::size_t k) noexcept { return (k + 7) / 8; }

// Item i's bit of a bitset report (the layout above).
[[nodiscard]] inline bool bit_of(std::span<const std::uint8_t> bytes, std::size_t i) noexcept {
  return (bytes[i >> 3] >> (7 - (i & 7))) & 1U;
}

// What every oracle keeps and answers alike: the guarantee it states, k and its coins (the thresholds above), and how
// its reports travel and are counted. Each oracle derives from it and still declares, in its folder, its own spec and
// its validating make(options) (whose body is oracle_from_options).
template <ReportFormat Format, CountsKind Counts, class OracleCoins>
class OracleParts {
 public:
  using Coins = OracleCoins;
  static constexpr ReportFormat report_format = Format;
  static constexpr CountsKind counts_kind = Counts;

  [[nodiscard]] Guarantee guarantee() const noexcept { return guarantee_; }
  [[nodiscard]] std::size_t categories() const noexcept { return k_; }
  [[nodiscard]] Coins coins() const noexcept { return coins_; }

 protected:
  // Pure ε-LDP at epsilon over k items, each validated (std::invalid_argument naming epsilon or options.categories;
  // make(options) names options.epsilon) before the oracle computes its coins from them.
  OracleParts(double epsilon, std::size_t k)
      : guarantee_{PrivacyNotion::pure_ldp, validated_epsilon(epsilon)}, k_(oracle_categories(static_cast<double>(k))) {}
  // Tests: as given, claiming `claimed`.
  OracleParts(Guarantee claimed, std::size_t k, Coins coins) noexcept : guarantee_(claimed), k_(k), coins_(coins) {}

  Guarantee guarantee_;
  std::size_t k_;
  Coins coins_{};
};

// The bitset oracles' (OUE, subset selection): k bits a report, which supports v when its bit v is set.
template <class Coins>
class BitsetOracleParts : public OracleParts<ReportFormat::bits, CountsKind::per_category, Coins> {
 public:
  [[nodiscard]] std::size_t report_bytes() const noexcept { return bitset_bytes(this->k_); }
  [[nodiscard]] static bool supports(std::span<const std::uint8_t> report, std::size_t v) noexcept {
    return bit_of(report, v);
  }

 protected:
  using OracleParts<ReportFormat::bits, CountsKind::per_category, Coins>::OracleParts;
};

// The body of every oracle's make(options): options.epsilon and options.categories checked against the oracle's spec
// (std::invalid_argument naming the option), then the oracle at that ε over that many items.
template <class Oracle>
[[nodiscard]] Oracle oracle_from_options(const MechanismOptions& options) {
  const Guarantee g = checked_options(Oracle::spec, options);
  return Oracle(g.epsilon, oracle_categories(options));
}

// The bytes as lowercase hex, two digits per byte, written at out (2·bytes.size() characters).
void write_hex(std::span<const std::uint8_t> bytes, char* out) noexcept;

// A bitset report of k bits from its hex text (either case): exactly 2·bitset_bytes(k) hex digits, padding bits 0.
// std::invalid_argument naming reports[index] and the text otherwise (the message is built only then: a server reads
// millions of reports).
void read_hex(std::string_view text, std::size_t k, std::span<std::uint8_t> out, std::size_t index);

}  // namespace privsample
