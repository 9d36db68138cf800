#include "privsample/privacy.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "privsample/numeric.hpp"

namespace privsample {

double validated_epsilon(double epsilon) {
  if (!std::isfinite(epsilon) || epsilon < 0.0 || epsilon > kMaxEpsilon) {
    throw std::invalid_argument("epsilon = " + format_value(epsilon) + ": must be a finite number in [0, " +
                                format_value(kMaxEpsilon) + "]");
  }
  return epsilon;
}

double effective_epsilon(double epsilon) noexcept { return std::min(epsilon, kMaxEffectiveEpsilon); }

std::string notion_name(PrivacyNotion notion) {
  switch (notion) {
    case PrivacyNotion::pure_ldp:
      return "pure-ldp";
  }
  return "unknown";
}

}  // namespace privsample
