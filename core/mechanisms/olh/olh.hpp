#pragma once
// Optimised local hashing (OLH; Wang, Blocki, Li, Jha, USENIX Security 2017, §4.4): each report draws a fresh hash
// H_s from a universal family with a CSPRNG seed s, hashes the item into g ≈ e^ε + 1 values and releases (s, y), y
// the hashed value through g-ary randomized response. Guarantee: pure ε-LDP. Proof sketch: the seed's law does not
// depend on the item, and given s the report is g-ary randomized response on H_s(v), whose two probabilities keep
// (for y = H_s(v)) and other (each other y) have keep/other <= e^ε; so Pr(s, y | v)/Pr(s, y | v') <= e^ε for any hash
// family. The family (below) matters for the estimator only. Page: README.md beside this file.
//
// The family: P the smallest prime >= max(k, 16g), s uniform in [0, P²) read as a = s div P, b = s mod P, and
// H_s(v) = ((a·v + b) mod P) mod g. For v ≠ w in [k] the pair (a·v + b, a·w + b) mod P is uniform on Z_P², so every
// pair of items collides with the same probability c = Σ_j n_j²/P² (n_j = #{r < P : r mod g = j}), within
// g/(4P²) of 1/g. The report is the integer s·g + y < P²·g <= 2^53 (g is lowered until it fits).
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "base/randomness.hpp"
#include "mechanisms/oracle.hpp"
#include "mechanisms/spec.hpp"
#include "privacy/privacy.hpp"

namespace privsample {

// The hashed value is kept when a word is below `keep` (probability keep/2^64), else one of the other g − 1 values is
// released uniformly (each with probability (2^64 − keep)/(2^64·(g − 1))).
struct OlhCoins {
  std::uint64_t keep;
};

class OlhOracle : public OracleParts<ReportFormat::integer, CountsKind::per_category, OlhCoins> {
 public:
  static constexpr MechanismSpec spec{
      "olh", MechanismSpace::finite, NotionRule::pure_epsilon, kCategoriesOption, {}, {},
      "optimised local hashing: a fresh random hash of the item into g ≈ e^ε + 1 values, then g-ary randomized "
      "response"};

  [[nodiscard]] static OlhOracle make(const MechanismOptions& options);
  OlhOracle(double epsilon, std::size_t k);
  // Tests: hash range, prime and coins as given (g >= 2, P prime >= k, P²·g <= 2^53), claiming `claimed`.
  OlhOracle(Guarantee claimed, std::size_t k, std::uint64_t g, std::uint64_t prime, Coins coins);

  [[nodiscard]] std::uint64_t hash_range() const noexcept { return g_; }
  [[nodiscard]] std::uint64_t prime() const noexcept { return prime_; }
  // What a server's SQL needs to decode a report (README.md#counting): g and P, by those names.
  [[nodiscard]] std::array<OracleParameter, 2> parameters() const noexcept {
    return {{{"g", static_cast<double>(g_)}, {"P", static_cast<double>(prime_)}}};
  }
  // Reports are the integers below P²·g.
  [[nodiscard]] std::uint64_t report_values() const noexcept { return prime_ * prime_ * g_; }
  // c, the probability that two given items hash to the same value (exact rational, rounded once).
  [[nodiscard]] long double collision_probability() const noexcept;

  // H_s(v) for a seed s < P² and v < P, without a division on v (mod_below: a division's time depends on its operands
  // on some processors).
  [[nodiscard]] std::uint64_t hash(std::uint64_t seed, std::uint64_t v) const noexcept;

  // One report of `item` (< k, checked by the caller): uniform_below(P²), one word for the coin and
  // uniform_below(g − 1),
  // whatever the item and the coin.
  [[nodiscard]] std::uint64_t report(std::size_t item, RandomBits& bits) const;

  // Whether y = report mod g equals H_s(v), s = report div g.
  [[nodiscard]] bool supports(std::uint64_t report, std::size_t v) const noexcept;
  [[nodiscard]] long double report_probability(std::uint64_t report, std::size_t item) const;
  // Pr(s, y | v)/w with w = 1/P²: keep/2^64 when y = H_s(v), else (2^64 − keep)/(2^64·(g − 1)).
  [[nodiscard]] ReportLevels levels() const noexcept;
  // p* = keep/2^64, q* = c·p* + (1 − c)·(2^64 − keep)/(2^64·(g − 1)).
  [[nodiscard]] SupportLaw support_law() const noexcept;

  // Adds the support counts of `reports` (each < report_values(), checked by the caller) to counts (k entries): for
  // each report the items v < k with H_s(v) = y, found by walking the ≈ P/g residues r ≡ y (mod g) below P and
  // v = a⁻¹(r − b) mod P, one addition mod P per step: O(P/g) per report instead of O(k).
  void add_support(std::span<const std::uint64_t> reports, std::span<double> counts) const;
  // The residues add_support walks per report, at most ceil(P/g).
  [[nodiscard]] std::uint64_t support_steps() const noexcept { return (prime_ + g_ - 1) / g_; }

 private:
  std::uint64_t g_;
  std::uint64_t prime_;
  double inverse_prime_;  // 1/P and 1/g, for mod_below
  double inverse_range_;
};

}  // namespace privsample
