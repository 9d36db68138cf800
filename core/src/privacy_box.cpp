#include "privsample/privacy_box.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "privsample/numeric.hpp"

namespace privsample {
PrivacyBox privacy_box(std::span<const double> weights, double floor, double ceiling, double epsilon,
                       std::string_view name, UnderflowRule rule) {
  constexpr double kSmallestNormal = std::numeric_limits<double>::min();
  PrivacyBox box{std::vector<double>(weights.size()), std::vector<double>(weights.size())};
  for (std::size_t x = 0; x < weights.size(); ++x) {
    const double w = weights[x];
    if (w == 0.0) continue;
    const double lo = floor * w;
    if (!(lo >= kSmallestNormal)) {
      if (rule == UnderflowRule::never_output) continue;
      throw std::invalid_argument(
          std::string(name) + "[" + std::to_string(x) + "] = " + format_value(w) + ": at epsilon = " +
          format_value(epsilon) + " the sampler's floor for it, " + format_value(floor) + " × " + format_value(w) +
          ", is below the smallest normal double (2.2e-308), so the privacy bound could not hold in floating point; "
          "entries of " + std::string(name) + " must be at least " + format_value(kSmallestNormal / floor) +
          " at this epsilon (or use a smaller epsilon)");
    }
    box.lo[x] = lo;
    box.hi[x] = ceiling * w;
  }
  return box;
}

}  // namespace privsample
