#include "mechanisms/oue/oue.hpp"

#include <algorithm>
#include <cmath>

namespace privsample {

OueOracle OueOracle::make(const MechanismOptions& options) { return oracle_from_options<OueOracle>(options); }

// q = ceil(2^32/(e^ε′ + 1))/2^32: rounded up, and from ε′ < ε (README.md#rounding-toward-privacy); and at most p = 1/2,
// which rounding up passes at ε′ ≈ 0: then q = p and the two items' laws are equal, not reversed.
OueOracle::OueOracle(double epsilon, std::size_t k) : BitsetOracleParts(epsilon, k) {
  const std::uint64_t other_one = scaled_up(1.0 / (1.0 + std::exp(coin_epsilon(epsilon))), 32);
  coins_ = {std::uint32_t{1} << 31, static_cast<std::uint32_t>(std::min<std::uint64_t>(other_one, std::uint64_t{1} << 31))};
}

long double OueOracle::report_probability(std::span<const std::uint8_t> report, std::size_t item) const {
  const long double q = std::ldexp(static_cast<long double>(coins_.other_one), -32);
  long double weight = 1.0L;
  for (std::size_t i = 0; i < k_; ++i) weight *= bit_of(report, i) ? q : 1.0L - q;
  const ReportLevels l = levels();
  return weight * (supports(report, item) ? l.supported : l.unsupported);
}

ReportLevels OueOracle::levels() const noexcept {
  const long double p = coins_.item_one;
  const long double q = coins_.other_one;
  const long double whole = 0x1.0p32L;
  return {p / q, (whole - p) / (whole - q)};
}

SupportLaw OueOracle::support_law() const noexcept {
  return {std::ldexp(static_cast<long double>(coins_.item_one), -32),
          std::ldexp(static_cast<long double>(coins_.other_one), -32)};
}

}  // namespace privsample
