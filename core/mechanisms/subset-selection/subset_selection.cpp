#include "mechanisms/subset-selection/subset_selection.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace privsample {
namespace {

// 2^64 − ceil(2^64·(k − d)/(d·e^ε′ + k − d)): p_in with the share of "not in" rounded up
// (README.md#rounding-toward-privacy); at ε′ = 0, d/k exactly.
SubsetSelectionOracle::Coins include_coin(double epsilon, std::size_t k, std::size_t d) {
  const double running = coin_epsilon(epsilon);
  if (running == 0.0) return {d, k};
  const double out = static_cast<double>(k - d);
  const double in = static_cast<double>(d);
  return {0 - scaled_up(out / (in * std::exp(running) + out), 64), 0};
}

long double scale_of(const SubsetSelectionOracle::Coins& coins) {
  return coins.out_of == 0 ? 0x1.0p64L : static_cast<long double>(coins.out_of);
}

SupportLaw law_of(std::size_t k, std::size_t d, const SubsetSelectionOracle::Coins& coins) {
  const long double p = static_cast<long double>(coins.include) / scale_of(coins);
  const long double others = static_cast<long double>(k - 1);
  return {p, (p * static_cast<long double>(d - 1) + (1.0L - p) * static_cast<long double>(d)) / others};
}

// N·Var(f̂) at f → 0, q*(1 − q*)/(p* − q*)², in double: it only ranks two candidate d (and keeps the client module
// free of extended-precision arithmetic, which WebAssembly does in software).
double variance_at_zero(std::size_t k, std::size_t d, const SubsetSelectionOracle::Coins& coins) {
  const double p = static_cast<double>(coins.include) /
                   (coins.out_of == 0 ? 0x1.0p64 : static_cast<double>(coins.out_of));
  const double q = (p * static_cast<double>(d - 1) + (1.0 - p) * static_cast<double>(d)) / static_cast<double>(k - 1);
  return q * (1.0 - q) / ((p - q) * (p - q));
}

}  // namespace

SubsetSelectionOracle SubsetSelectionOracle::make(const MechanismOptions& options) { return oracle_from_options<SubsetSelectionOracle>(options); }

SubsetSelectionOracle::SubsetSelectionOracle(double epsilon, std::size_t k) : BitsetOracleParts(epsilon, k) {
  // k/(e^ε + 1) = k·e^−ε/(1 + e^−ε), without overflow at any ε
  const double decay = std::exp(-effective_epsilon(epsilon));
  const double ideal = static_cast<double>(k_) * decay / (1.0 + decay);
  double best = 0.0;
  for (const double candidate : {std::floor(ideal), std::ceil(ideal)}) {
    const std::size_t d = std::clamp<std::size_t>(static_cast<std::size_t>(candidate), 1, k_ - 1);
    const double variance = variance_at_zero(k_, d, include_coin(epsilon, k_, d));
    if (d_ == 0 || variance < best) {
      d_ = d;
      best = variance;
    }
  }
  coins_ = include_coin(epsilon, k_, d_);
}

SubsetSelectionOracle::SubsetSelectionOracle(Guarantee claimed, std::size_t k, std::size_t d, Coins coins)
    : BitsetOracleParts(claimed, k, coins), d_(d) {
  if (k < 2 || d < 1 || d >= k) throw std::invalid_argument("SubsetSelectionOracle: needs 1 <= d <= k - 1");
}

void SubsetSelectionOracle::report(std::size_t item, RandomBits& bits, std::span<std::uint8_t> out) const {
  std::fill(out.begin(), out.end(), std::uint8_t{0});
  // The subset is drawn among the others by rank (the others in order, 0 … k − 2), not by index: the loop's loads and
  // stores then fall on bytes the random words alone choose. Drawn by index (rank r at r + (r >= item)), which picks
  // shared a byte followed the item, and so did the time of the loads that wait for a store to that byte.
  const auto has = [&](std::uint64_t i) { return (out[i >> 3] >> (7 - (i & 7))) & 1U; };
  const auto set = [&](std::uint64_t i) { out[i >> 3] = static_cast<std::uint8_t>(out[i >> 3] | (0x80U >> (i & 7))); };
  const std::uint64_t step = uniform_below(bits, d_);
  std::uint64_t replaced = 0;
  const std::uint64_t others = k_ - 1;
  for (std::uint64_t j = others - d_, i = 0; j < others; ++j, ++i) {
    // Floyd: t uniform in [0, j]; take j if t is already taken. Both are random, so is the branch.
    const std::uint64_t t = uniform_below(bits, j + 1);
    const std::uint64_t pick = has(t) ? j : t;
    set(pick);
    replaced ^= (replaced ^ pick) & (0 - static_cast<std::uint64_t>(i == step));
  }
  // out_of is public (it depends on ε only)
  const auto in = static_cast<unsigned>(
      (coins_.out_of == 0 ? bits.next_u64() : uniform_below(bits, coins_.out_of)) < coins_.include);
  // in: clear the replaced rank's bit and set the item's; out: leave both (masks, no branch)
  out[replaced >> 3] = static_cast<std::uint8_t>(out[replaced >> 3] & ~((in * 0x80U) >> (replaced & 7)));
  open_gap(out, item, in);
}

void open_gap(std::span<std::uint8_t> bits, std::size_t item, unsigned item_bit) noexcept {
  // Word by word (8 bytes read as a little-endian integer, byte j at bits 8j … 8j + 7; the last word may be shorter),
  // from the last down, so each word reads the byte before it unchanged. Bits at index < item stay; bits at index >
  // item take the bit one index down; the item's bit is item_bit, written in the same pass (a store at the item's byte
  // after it would wait, or not, for the pass's last store). Which masks a word takes (all, none, or those of the
  // item's word) comes from integer comparisons made masks: every word costs the same whatever the item.
  static_assert(std::endian::native == std::endian::little, "open_gap reads bytes as little-endian words");
  const std::size_t item_byte = item >> 3;
  const unsigned offset = static_cast<unsigned>(item & 7);
  const unsigned shift = 8 * static_cast<unsigned>(item_byte % 8);  // the item's byte within its word
  const std::uint64_t lower = (std::uint64_t{1} << shift) - 1;      // the bytes before it
  const std::uint64_t stay_word = lower | (std::uint64_t{(0xFF00U >> offset) & 0xFFU} << shift);  // indices < item
  const std::uint64_t moved_word = ~(lower | (std::uint64_t{0xFF} << shift)) |                     // indices > item
                                   (std::uint64_t{0xFFU >> (offset + 1)} << shift);
  const std::uint64_t own_word = std::uint64_t{(0x80U >> offset) & (0U - (item_bit & 1U))} << shift;
  const auto all_if = [](bool condition) { return 0 - static_cast<std::uint64_t>(condition); };
  const std::size_t item_word = item_byte / 8;
  for (std::size_t w = (bits.size() + 7) / 8; w-- > 0;) {
    std::uint8_t* const at_word = bits.data() + 8 * w;
    const std::size_t length = std::min<std::size_t>(8, bits.size() - 8 * w);  // public: k alone sets it
    std::uint64_t current = 0;
    if (length == 8) {  // a fixed-size copy is one load; a copy of `length` bytes, a call
      std::memcpy(&current, at_word, 8);
    } else {
      std::memcpy(&current, at_word, length);
    }
    const std::uint64_t before = w == 0 ? 0U : at_word[-1];
    const std::uint64_t below = all_if(w < item_word);
    const std::uint64_t at = all_if(w == item_word);
    const std::uint64_t stay = below | (at & stay_word);
    const std::uint64_t moved = ~(below | at) | (at & moved_word);
    // each byte shifted right by one, its lowest bit carried into the next byte's highest
    const std::uint64_t shifted = ((current >> 1) & 0x7F7F7F7F7F7F7F7FU) | ((current << 15) & 0x8080808080808000U) |
                                  ((before & 1U) << 7);
    const std::uint64_t result = (current & stay) | (shifted & moved) | (at & own_word);
    if (length == 8) {
      std::memcpy(at_word, &result, 8);
    } else {
      std::memcpy(at_word, &result, length);
    }
  }
}

long double SubsetSelectionOracle::report_probability(std::span<const std::uint8_t> report, std::size_t item) const {
  std::size_t size = 0;
  for (const std::uint8_t byte : report) size += static_cast<std::size_t>(std::popcount(byte));
  if (size != d_) return 0.0L;
  long double subsets = 1.0L;  // C(k − 1, d) = Π_{i=1..d} (k − 1 − d + i)/i
  for (std::size_t i = 1; i <= d_; ++i) subsets = subsets * static_cast<long double>(k_ - 1 - d_ + i) / i;
  const ReportLevels l = levels();
  return (supports(report, item) ? l.supported : l.unsupported) / subsets;
}

ReportLevels SubsetSelectionOracle::levels() const noexcept {
  const long double include = coins_.include;
  const long double scale = scale_of(coins_);
  return {include * static_cast<long double>(k_ - d_) / (scale * static_cast<long double>(d_)),
          (scale - include) / scale};
}

SupportLaw SubsetSelectionOracle::support_law() const noexcept { return law_of(k_, d_, coins_); }

}  // namespace privsample
