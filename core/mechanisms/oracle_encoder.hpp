#pragma once
// A frequency oracle as a JS handle encodes with it: reports one call after another, from one generator. k and the
// report's form are asked once, the buffers of the last reports are kept, and the report loop dispatches once per call
// (not once per report, as encode_report does): the client module builds this file for speed with the oracles'
// report() while the rest of the dispatch (oracles.cpp) is built for size. Each report is drawn as encode_report draws
// it, from the same words in the same order.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "base/randomness.hpp"
#include "mechanisms/oracles.hpp"

namespace privsample {

// Bits: RandomBits (any generator), or a final one such as SecureRandom, whose next_u64 the report loops of Hadamard
// response and OUE call directly, not through RandomBits's table (the client's: BasicOracleEncoder<SecureRandom>).
template <class Bits>
class BasicOracleEncoder {
 public:
  // Every report draws from `bits`, which must outlive the encoder.
  BasicOracleEncoder(Oracle oracle, Bits& bits);

  [[nodiscard]] const Oracle& oracle() const noexcept { return oracle_; }
  [[nodiscard]] std::size_t categories() const noexcept { return k_; }
  // The hex characters of a report; 0 for an integer oracle.
  [[nodiscard]] std::size_t text_width() const noexcept { return width_; }

  // One report of `item` (std::invalid_argument "item = 12: must be an integer in [0, 9]" unless it is an item of
  // [0, k)): an integer oracle's report, or 0 with a bitset oracle's hex text in text().
  double encode(double item);
  // One report per item, in order, every item checked before any is drawn (std::invalid_argument naming items[i]):
  // an integer oracle's reports into `reports` (items.size() of them; it may be `items` itself: each item is read
  // before its report is written), a bitset oracle's hex texts back to back in text().
  void encode_many(std::span<const double> items, std::span<double> reports);

  // The last call's bitset reports (until the next call): NUL-terminated hex text, text_width() characters a report.
  [[nodiscard]] const char* text() const noexcept { return text_.data(); }

 private:
  // The reports of items (each an item of [0, k)) into out (integer oracle) or text_.
  void draw(std::span<const double> items, double* out);

  Oracle oracle_;
  Bits* bits_;
  std::size_t k_ = 0;  // k and the width, asked once: every call needs them
  std::size_t width_ = 0;
  std::vector<std::uint8_t> bytes_;
  std::vector<char> text_ = std::vector<char>(1);  // NUL-terminated
};

using OracleEncoder = BasicOracleEncoder<RandomBits>;
extern template class BasicOracleEncoder<RandomBits>;
extern template class BasicOracleEncoder<SecureRandom>;

}  // namespace privsample
