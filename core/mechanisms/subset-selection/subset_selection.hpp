#pragma once
// Subset selection (Ye & Barg, "Optimal schemes for discrete distribution estimation under locally differential
// privacy", IEEE Trans. Inf. Theory 2018; Wang, Wu, Hu, "Mutual information optimal local differential privacy",
// 2016): the report is a set S of d items, d ≈ k/(e^ε + 1), with
//     Pr(S | v) = e^ε/Z if v ∈ S, 1/Z if not,    Z = C(k − 1, d − 1)·e^ε + C(k − 1, d).
// Drawn as: with probability p_in = d·e^ε/(d·e^ε + k − d) the item and a uniform (d − 1)-subset of the others, else a
// uniform d-subset of the others. Guarantee: pure ε-LDP. Proof sketch: Pr(S | v) is p_in/C(k − 1, d − 1) when v ∈ S
// and (1 − p_in)/C(k − 1, d) when not, whose ratio is p_in(k − d)/((1 − p_in)d) = e^ε at p_in's exact value; the
// coin's p_in is 2^64 − ceil(2^64·(k − d)/(d·e^ε′ + k − d)) over 2^64, at most that. Page: README.md beside this file.
#include <cstddef>
#include <cstdint>
#include <span>

#include "base/randomness.hpp"
#include "mechanisms/oracle.hpp"
#include "mechanisms/spec.hpp"
#include "privacy/privacy.hpp"

namespace privsample {

// The item is in the subset when a word is below `include` (probability include/2^64), or, with out_of > 0, when
// uniform_below(out_of) is (probability include/out_of: at ε′ = 0, where p_in = d/k exactly keeps both directions of
// the ratio at 1 and a dyadic coin cannot).
struct SubsetSelectionCoins {
  std::uint64_t include;
  std::uint64_t out_of = 0;
};

class SubsetSelectionOracle : public BitsetOracleParts<SubsetSelectionCoins> {
 public:
  static constexpr MechanismSpec spec{
      "subset-selection", MechanismSpace::finite, NotionRule::pure_epsilon, kCategoriesOption, {}, {},
      "subset selection: d ≈ k/(e^ε + 1) items, holding the user's with probability d·e^ε/(d·e^ε + k − d)"};

  [[nodiscard]] static SubsetSelectionOracle make(const MechanismOptions& options);
  // d: of ⌊k/(e^ε + 1)⌋ and ⌈k/(e^ε + 1)⌉, within [1, k − 1], the one with the smaller closed-form variance at f → 0.
  SubsetSelectionOracle(double epsilon, std::size_t k);
  // Tests: subset size and coins as given (1 <= d <= k − 1), claiming `claimed`.
  SubsetSelectionOracle(Guarantee claimed, std::size_t k, std::size_t d, Coins coins);

  [[nodiscard]] std::size_t subset_size() const noexcept { return d_; }

  // One report of `item` (< k, checked by the caller) as a bitset into out (report_bytes() bytes). Always draws a
  // uniform index r < d, a uniform d-subset T of the other k − 1 items (Floyd's algorithm: d uniform_below calls of
  // fixed bounds) and the coin; when the coin says "in", the element T took at its r-th step is replaced by the item
  // (a uniform (d − 1)-subset of the others, and the item). The same words whatever the item and the coin; T is drawn
  // over the others' ranks and moved to their indices by open_gap, so which bytes the draw touches does not depend
  // on the item either.
  void report(std::size_t item, RandomBits& bits, std::span<std::uint8_t> out) const;

  // 0 unless the report holds exactly d items; C(k − 1, d) in extended precision (exact for checks at small k).
  [[nodiscard]] long double report_probability(std::span<const std::uint8_t> report, std::size_t item) const;
  // Pr(S | v)/w with w = 1/C(k − 1, d): p_in·(k − d)/d when v ∈ S, 1 − p_in when not (p_in = include/2^64 or
  // include/out_of, each level one rounding of its exact fraction).
  [[nodiscard]] ReportLevels levels() const noexcept;
  // p* = p_in, q* = (p_in(d − 1) + (1 − p_in)d)/(k − 1).
  [[nodiscard]] SupportLaw support_law() const noexcept;

 private:
  std::size_t d_ = 0;
};

// A bitset over ranks 0 … k − 2 (MSB first) made one over indices 0 … k − 1 in place: bits at index < item stay, each
// bit at rank r >= item moves to index r + 1, the item's bit is item_bit (0 or 1). The same work for every item (one
// pass over every byte, masks from integer selects, no store addressed by the item). Bits past rank k − 2 must be 0.
void open_gap(std::span<std::uint8_t> bits, std::size_t item, unsigned item_bit) noexcept;

}  // namespace privsample
