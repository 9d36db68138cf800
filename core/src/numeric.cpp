#include "privsample/numeric.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace privsample {

void CompensatedSum::add(double x) noexcept {
  const double t = sum_ + x;
  if (std::fabs(sum_) >= std::fabs(x)) {
    correction_ += (sum_ - t) + x;
  } else {
    correction_ += (x - t) + sum_;
  }
  sum_ = t;
}

double compensated_total(std::span<const double> values) noexcept {
  CompensatedSum total;
  for (const double v : values) total.add(v);
  return total.value();
}

std::string format_value(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  // Prefer the shortest representation that round-trips, as JavaScript prints numbers.
  for (int precision = 1; precision <= 17; ++precision) {
    char candidate[40];
    std::snprintf(candidate, sizeof candidate, "%.*g", precision, value);
    if (std::strtod(candidate, nullptr) == value) return candidate;
  }
  return buffer;
}

}  // namespace privsample
