#pragma once
// Exact release tables: the law a release draws from, held exactly, and drawn with work that does not depend on it.
//
// Every finite sampler releases an index x with law
//     Pr(x) = c·B(x) + (1 − c)·w_x / 2^63
// where c ∈ [0, 1] is a double (a coin on its exact binary expansion), B a public pmf drawn exactly (uniform over k,
// or integer weights over their integer total) and w the data part: integers ("units") summing to exactly 2^63, drawn
// with one 63-bit uniform word. Every probability a release uses is therefore an exact rational of these doubles and
// integers, and a check of the released law against a guarantee needs no slack.
//
// The data units are kept in a public box [lo_x, hi_x] (in units). A mechanism picks c, B and that box once, from its
// public parameters, so that EVERY law of this form meets its guarantee (ReleasePlan, privacy layer); the quantizer
// below keeps any target inside the box. The rounding of the target to units is at most a few units (2^-63 each) per
// atom plus a remainder of about k units moved to the first atoms with room: far below every other rounding.
//
// Work: quantizing, the one-draw scan and building an alias table take the same operations for every input of a
// given size (no data-dependent branch or loop length); a draw from an alias table is one word and two selects.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "base/randomness.hpp"

namespace privsample {

// The data part's resolution: units of 2^-63, so that one 63-bit word draws it and sums fit in 64 bits.
inline constexpr std::uint64_t kReleaseUnits = std::uint64_t{1} << 63;

// The public box of the data part, in units: lo_x <= w_x <= hi_x, with Σlo <= 2^63 <= Σhi. Empty vectors stand for
// lo = 0 and hi = 2^63 on every atom (any pmf).
struct UnitBox {
  std::vector<std::uint64_t> lo;
  std::vector<std::uint64_t> hi;
};

// Units in [box.lo_x, box.hi_x] summing to exactly 2^63, as close to target_x·2^63 as the box allows: each target is
// floored and clamped into its box, then the difference from 2^63 is moved, in index order, onto the first atoms with
// room. The same operations for every target. target: finite and >= 0, summing to about 1 (std::invalid_argument
// if the box cannot hold 2^63 units, or its size differs from the target's).
void quantize_units(std::span<const double> target, const UnitBox& box, std::span<std::uint64_t> units);

// One index with law units/2^63 (Σ units = 2^63), by one 63-bit word compared with every prefix sum: O(k), the same
// operations for every table. For a single release; many releases share an AliasTable.
[[nodiscard]] std::size_t draw_units_once(std::span<const std::uint64_t> units, RandomBits& bits);

// Walker's alias table over integer weights, built and drawn exactly: the law of draw() is weight_x/Σweight with no
// rounding. It has K slots, K the smallest power of two >= k (with K − k extra atoms of weight 0), so that a slot is
// a few bits of a word; each slot holds Σweight/K (or Σweight, the weights scaled by K, when K does not divide it)
// split between one atom and its alias. Building takes K iterations of the same operations whatever the weights are
// (a sweep of two forward cursors, over the light atoms and the heavy ones, writing one slot per step in a fixed
// order scrambled within blocks of 512, so that no cursor keeps meeting the writes in flight; a mask for every
// choice).
class AliasTable {
 public:
  AliasTable() = default;
  // weights: Σ weights = total, 1 <= total <= 2^63, k <= 2^24 (std::invalid_argument otherwise).
  AliasTable(std::span<const std::uint64_t> weights, std::uint64_t total);

  [[nodiscard]] std::size_t draw(RandomBits& bits) const;
  // Whether one word draws the table (capacity() = 2^(63 − log2 slots()): a total of 2^63, as every release's).
  [[nodiscard]] bool one_word() const noexcept { return one_word_; }
  // When one_word(): the index draw() returns for its word. Inline, for loops of many draws.
  [[nodiscard]] std::size_t draw_one_word(std::uint64_t word) const {
    // The top bits choose the slot, the next 63 − bits the position in it.
    return in_slot(slot_of(word), (word & (~std::uint64_t{0} >> slot_bits_)) >> 1);
  }
  [[nodiscard]] std::size_t size() const noexcept { return atoms_; }
  // The table itself, for checks of its exactness: slot s returns atom(s) when its position is below threshold(s),
  // else alias(s); every slot holds capacity() positions.
  [[nodiscard]] std::size_t slots() const noexcept { return threshold_.size(); }
  [[nodiscard]] std::uint64_t capacity() const noexcept { return capacity_; }
  [[nodiscard]] std::uint64_t threshold(std::size_t slot) const { return threshold_[slot]; }
  [[nodiscard]] std::size_t atom(std::size_t slot) const { return static_cast<std::uint32_t>(pair_[slot]); }
  [[nodiscard]] std::size_t alias(std::size_t slot) const { return static_cast<std::size_t>(pair_[slot] >> 32); }

 private:
  [[nodiscard]] std::size_t slot_of(std::uint64_t word) const noexcept {
    return slot_bits_ == 0 ? 0 : static_cast<std::size_t>(word >> (64 - slot_bits_));
  }
  // The slot's atom and alias are one word, read whole, and one is chosen by a mask: a choice that reads memory on
  // one side only compiles to a branch, and a branch predictor learns the table, which is made of the data.
  [[nodiscard]] std::size_t in_slot(std::size_t slot, std::uint64_t position) const {
    const std::uint64_t pair = pair_[slot];
    const std::uint64_t stay = std::uint64_t{0} - static_cast<std::uint64_t>(position < threshold_[slot]);
    return static_cast<std::size_t>(((pair & stay) | ((pair >> 32) & ~stay)) & 0xFFFF'FFFFU);
  }

  std::size_t atoms_ = 0;
  unsigned slot_bits_ = 0;            // log2 K
  std::uint64_t capacity_ = 0;        // what each slot holds
  bool one_word_ = false;             // capacity = 2^(63 − slot_bits): one word draws slot and threshold
  std::vector<std::uint64_t> threshold_;  // return the slot's atom when the position is below its threshold
  std::vector<std::uint64_t> pair_;       // the slot's atom (low 32 bits) and its alias (high 32 bits)
};

// A public pmf drawn exactly: uniform over k atoms, or integer weights over their total.
class PublicBase {
 public:
  PublicBase() = default;
  [[nodiscard]] static PublicBase uniform(std::size_t k);
  // weights: Σ >= 1 and <= 2^63 (std::invalid_argument otherwise); zeros are atoms the base never draws.
  [[nodiscard]] static PublicBase from_weights(std::vector<std::uint64_t> weights);

  [[nodiscard]] std::size_t size() const noexcept { return atoms_; }
  [[nodiscard]] bool is_uniform() const noexcept { return weights_.empty(); }
  // B(x) = weight(x)/total(): 1/k for the uniform base.
  [[nodiscard]] std::uint64_t weight(std::size_t x) const noexcept { return weights_.empty() ? 1 : weights_[x]; }
  [[nodiscard]] std::uint64_t total() const noexcept { return total_; }
  [[nodiscard]] std::size_t draw(RandomBits& bits) const;
  // draw() with its first word given: the same words and the same index.
  [[nodiscard]] std::size_t draw(std::uint64_t word, RandomBits& bits) const;

 private:
  std::size_t atoms_ = 0;
  std::uint64_t total_ = 0;
  std::vector<std::uint64_t> weights_;  // empty: uniform
  std::vector<std::uint64_t> upper_;    // prefix sums of weights_
};

}  // namespace privsample
