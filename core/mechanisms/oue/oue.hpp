#pragma once
// Optimised unary encoding (OUE; Wang, Blocki, Li, Jha, USENIX Security 2017, §4.4): the report is k bits, the user's
// item's bit 1 with probability p = 1/2 and every other bit 1 with probability q = 1/(e^ε + 1), independently.
// Guarantee: pure ε-LDP. Proof sketch: two items v, v' give report laws that differ only in bits v and v', so the
// ratio of a report's probabilities is p(1 − q)/((1 − p)q) = (1 − q)/q at worst (bit v set, bit v' clear); the coin's
// q is ceil(2^32/(e^ε′ + 1))/2^32 >= 1/(e^ε + 1), so (1 − q)/q <= e^ε exactly. Page: README.md beside this file.
#include <cstddef>
#include <cstdint>
#include <span>

#include "base/randomness.hpp"
#include "mechanisms/oracle.hpp"
#include "mechanisms/spec.hpp"
#include "privacy/privacy.hpp"

namespace privsample {

// A bit is 1 when its 32-bit word is below its threshold: item_one for the item's bit (2^31: p = 1/2 exactly),
// other_one for every other bit (q = other_one/2^32).
struct OueCoins {
  std::uint32_t item_one;
  std::uint32_t other_one;
};

class OueOracle : public BitsetOracleParts<OueCoins> {
 public:
  static constexpr MechanismSpec spec{
      "oue", MechanismSpace::finite, NotionRule::pure_epsilon, kCategoriesOption, {}, {},
      "optimised unary encoding: k bits, the item's set with probability 1/2, every other with 1/(e^ε + 1)"};

  [[nodiscard]] static OueOracle make(const MechanismOptions& options);
  OueOracle(double epsilon, std::size_t k);
  // Tests: coins as given, claiming `claimed` (the privacy audit must see when they break it).
  OueOracle(Guarantee claimed, std::size_t k, Coins coins) noexcept : BitsetOracleParts(claimed, k, coins) {}

  // One report of `item` (< k, checked by the caller) into out (report_bytes() bytes). Reads ceil(k/8)·4 words
  // whatever the item: every position's coin takes 32 bits, the padding's too, and the item's threshold is selected
  // without a branch. Bits: RandomBits or a final generator (called directly).
  template <class Bits>
  void report(std::size_t item, Bits& bits, std::span<std::uint8_t> out) const {
    const std::uint32_t other = coins_.other_one;
    const std::uint32_t flip_to_item = other ^ coins_.item_one;
    const std::size_t bytes = report_bytes();
    const auto one = [&](std::uint32_t word, std::size_t i) -> unsigned {
      const std::uint32_t threshold = other ^ (flip_to_item & (0U - static_cast<std::uint32_t>(i == item)));
      return word < threshold ? 1U : 0U;
    };
    for (std::size_t byte = 0; byte < bytes; ++byte) {
      unsigned value = 0;
      for (std::size_t pair = 0; pair < 4; ++pair) {
        const std::uint64_t word = bits.next_u64();
        const std::size_t i = 8 * byte + 2 * pair;
        value = (value << 1) | one(static_cast<std::uint32_t>(word >> 32), i);
        value = (value << 1) | one(static_cast<std::uint32_t>(word), i + 1);
      }
      out[byte] = static_cast<std::uint8_t>(value);
    }
    const unsigned padding = static_cast<unsigned>(8 * bytes - k_);
    out[bytes - 1] = static_cast<std::uint8_t>(out[bytes - 1] & ~((1U << padding) - 1U));
  }

  // Pr(report | item) = w(report)·level (levels()), w(report) the product of the k coins' q or 1 − q computed the same
  // way for every item, so that two items' probabilities of one report have exactly the ratio of their levels up to
  // the final roundings (in extended precision; underflows for large k).
  [[nodiscard]] long double report_probability(std::span<const std::uint8_t> report, std::size_t item) const;
  // Pr(y | v)/w(y) with w(y) = Π_i q^{y_i}(1 − q)^{1 − y_i}: p/q when bit v is set, (1 − p)/(1 − q) when it is not.
  [[nodiscard]] ReportLevels levels() const noexcept;
  // p* = p, q* = q: the ones-count of v is its support count.
  [[nodiscard]] SupportLaw support_law() const noexcept;
};

}  // namespace privsample
