#include "mechanisms/hadamard/hadamard.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace privsample {

HadamardOracle HadamardOracle::make(const MechanismOptions& options) { return oracle_from_options<HadamardOracle>(options); }

// f = ceil(2^64/(e^ε′ + 1))/2^64: rounded up, from ε′ < ε (README.md#rounding-toward-privacy); and at most 1/2, which
// rounding up passes at ε′ ≈ 0: then the bit is a fair coin, not one that favours the other items.
HadamardOracle::HadamardOracle(double epsilon, std::size_t k)
    : HadamardOracle({PrivacyNotion::pure_ldp, validated_epsilon(epsilon)}, oracle_categories(static_cast<double>(k)),
                     Coins{std::min(scaled_up(1.0 / (1.0 + std::exp(coin_epsilon(epsilon))), 64),
                                    std::uint64_t{1} << 63)}) {}

HadamardOracle::HadamardOracle(Guarantee claimed, std::size_t k, Coins coins) noexcept
    : OracleParts(claimed, k, coins),
      order_(std::bit_ceil(static_cast<std::uint64_t>(k))),
      shift_(63 - std::countr_zero(order_)) {}

bool HadamardOracle::supports(std::uint64_t report, std::size_t v) noexcept {
  return static_cast<std::uint64_t>(std::popcount((report >> 1) & v) & 1) == (report & 1);
}

long double HadamardOracle::report_probability(std::uint64_t report, std::size_t item) const {
  const ReportLevels l = levels();
  return (supports(report, item) ? l.supported : l.unsupported) / static_cast<long double>(order_);
}

ReportLevels HadamardOracle::levels() const noexcept {
  const long double flip = std::ldexp(static_cast<long double>(coins_.flip), -64);
  return {1.0L - flip, flip};
}

SupportLaw HadamardOracle::support_law() const noexcept { return {levels().supported, 0.5L}; }

std::vector<double> HadamardOracle::support_counts(std::span<const double> counts) const {
  std::vector<double> s(order_);
  double users = 0.0;
  for (std::uint64_t j = 0; j < order_; ++j) {
    s[j] = counts[2 * j] - counts[2 * j + 1];
    users += counts[2 * j] + counts[2 * j + 1];
  }
  // In place: after the pass of width h, s[v] = Σ over the j that differ from v in the bits below h.
  for (std::uint64_t h = 1; h < order_; h *= 2) {
    for (std::uint64_t i = 0; i < order_; i += 2 * h) {
      for (std::uint64_t j = i; j < i + h; ++j) {
        const double x = s[j];
        const double y = s[j + h];
        s[j] = x + y;
        s[j + h] = x - y;
      }
    }
  }
  std::vector<double> support(k_);
  for (std::size_t v = 0; v < k_; ++v) support[v] = (users + s[v]) / 2.0;
  return support;
}

}  // namespace privsample
