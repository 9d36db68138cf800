#pragma once
// Hadamard response (the ±1 form of Cormode, Kulkarni, Srivastava, "Marginal release under local differential
// privacy", SIGMOD 2018, and of Acharya, Sun, Zhang's Hadamard response, AISTATS 2019): with K the smallest power of
// two >= k and H(v, j) = (−1)^{popcount(v AND j)} the Sylvester–Hadamard matrix, a report is a uniform column j ∈ [K]
// and the bit of H(item, j), flipped with probability f = 1/(e^ε + 1). Guarantee: pure ε-LDP. Proof sketch: j's law
// does not depend on the item, and given j the bit is binary randomized response, so a report's probabilities under
// two items are (1 − f)/K and f/K at worst; f = ceil(2^64/(e^ε′ + 1))/2^64 >= 1/(e^ε + 1) makes (1 − f)/f <= e^ε.
// Estimation: rows of H are orthogonal, so a report supports v (its bit equals H(v, j)'s) with probability 1 − f for
// the item's holders and exactly 1/2 for everyone else; the counts of the 2K report values give every support count
// at once by a fast Walsh–Hadamard transform, O(K log K). Page: README.md beside this file.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "base/randomness.hpp"
#include "mechanisms/oracle.hpp"
#include "mechanisms/spec.hpp"
#include "privacy/privacy.hpp"

namespace privsample {

// The bit is flipped when a word is below `flip` (probability flip/2^64).
struct HadamardCoins {
  std::uint64_t flip;
};

class HadamardOracle : public OracleParts<ReportFormat::integer, CountsKind::per_report, HadamardCoins> {
 public:
  static constexpr MechanismSpec spec{
      "hadamard", MechanismSpace::finite, NotionRule::pure_epsilon, kCategoriesOption, {}, {},
      "Hadamard response: a uniform column j of the Hadamard matrix and the item's ±1 there, flipped with probability "
      "1/(e^ε + 1)"};

  [[nodiscard]] static HadamardOracle make(const MechanismOptions& options);
  HadamardOracle(double epsilon, std::size_t k);
  // Tests: coins as given, claiming `claimed`.
  HadamardOracle(Guarantee claimed, std::size_t k, Coins coins) noexcept;

  // K, the smallest power of two >= k.
  [[nodiscard]] std::uint64_t order() const noexcept { return order_; }
  // Reports are the integers 2j + bit below 2K.
  [[nodiscard]] std::uint64_t report_values() const noexcept { return 2 * order_; }

  // One report of `item` (< k, checked by the caller): 2j + bit, bit = parity(item AND j) XOR the flip. Two words
  // (j by uniform_below(K), one for the coin) whatever the item. Bits: RandomBits or a final generator (called
  // directly).
  template <class Bits>
  [[nodiscard]] std::uint64_t report(std::size_t item, Bits& bits) const {
    // uniform_below(bits, K) for K = 2^b is the word's top b bits (word·K's high half; its low half is never below
    // 2^64 mod K = 0, so never rejected): the same column from the same word, without a 128-bit product. (Two shifts:
    // b = 0 is a shift by 64 in one.)
    const std::uint64_t column = (bits.next_u64() >> 1) >> shift_;
    const auto flip = static_cast<std::uint64_t>(bits.next_u64() < coins_.flip);
    const auto parity = static_cast<std::uint64_t>(std::popcount(column & item) & 1);
    return 2 * column + (parity ^ flip);
  }

  // Whether the report's bit equals parity(v AND j), i.e. its ±1 equals H(v, j).
  [[nodiscard]] static bool supports(std::uint64_t report, std::size_t v) noexcept;
  [[nodiscard]] long double report_probability(std::uint64_t report, std::size_t item) const;
  // Pr(j, bit | v)/w with w = 1/K: 1 − f when the bit agrees with H(v, j), f when it does not.
  [[nodiscard]] ReportLevels levels() const noexcept;
  // p* = 1 − f, q* = 1/2.
  [[nodiscard]] SupportLaw support_law() const noexcept;

  // The support counts of the k items from the counts of the 2K report values (counts[2j + bit]), by the fast
  // Walsh–Hadamard transform of S_j = counts[2j] − counts[2j + 1]: C_v = (N + (HS)_v)/2. Exact for integer counts.
  [[nodiscard]] std::vector<double> support_counts(std::span<const double> counts) const;

 private:
  std::uint64_t order_;
  int shift_;  // 63 − log2 K
};

}  // namespace privsample
