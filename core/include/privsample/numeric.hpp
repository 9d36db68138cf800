#pragma once
// Small numeric helpers shared by the core: compensated summation and value formatting for messages.
#include <cstddef>
#include <span>
#include <string>

namespace privsample {

// Neumaier's compensated sum: the error stays O(ulp) instead of O(k·ulp), so Σq = 1 holds to ~1e-15
// even for k = 10^7 categories.
class CompensatedSum {
 public:
  void add(double x) noexcept;
  [[nodiscard]] double value() const noexcept { return sum_ + correction_; }

 private:
  double sum_ = 0.0;
  double correction_ = 0.0;
};

[[nodiscard]] double compensated_total(std::span<const double> values) noexcept;

// "0.25", "-2", "NaN", "Infinity": the value as a user of the JS API would write it.
[[nodiscard]] std::string format_value(double value);

}  // namespace privsample
