#pragma once
// Small numeric helpers shared by the core: error-free transformations, compensated summation and value formatting
// for messages.
#include <cmath>
#include <cstddef>
#include <span>
#include <string>

namespace privsample {

// Neumaier's compensated sum: the error stays O(ulp) instead of O(k·ulp), so Σq = 1 holds to ~1e-15
// even for k = 10^7 categories.
class CompensatedSum {
 public:
  void add(double x) noexcept {
    const double t = sum_ + x;
    if (!std::isfinite(t)) [[unlikely]] {  // ±∞ (or NaN) absorbs everything; the correction would give NaN
      sum_ = t;
      correction_ = 0.0;
      return;
    }
    // Both error terms are computed and one selected, so there is no data-dependent branch.
    const double if_sum_larger = (sum_ - t) + x;
    const double if_x_larger = (x - t) + sum_;
    correction_ += std::fabs(sum_) >= std::fabs(x) ? if_sum_larger : if_x_larger;
    sum_ = t;
  }
  [[nodiscard]] double value() const noexcept { return sum_ + correction_; }

 private:
  double sum_ = 0.0;
  double correction_ = 0.0;
};

[[nodiscard]] double compensated_total(std::span<const double> values) noexcept;

// An unevaluated sum hi + lo, as the error-free transformations below return it.
struct TwoDoubles {
  double hi;
  double lo;
};

// Knuth's TwoSum: a + b = hi + lo exactly, hi the rounded sum, whatever the order of magnitudes.
[[nodiscard]] inline TwoDoubles two_sum(double a, double b) noexcept {
  const double s = a + b;
  const double b_part = s - a;
  return {s, (a - (s - b_part)) + (b - b_part)};
}

// a·b = hi + lo exactly (unless the product under- or overflows), hi the rounded product.
[[nodiscard]] inline TwoDoubles two_product(double a, double b) noexcept {
  const double p = a * b;
  return {p, std::fma(a, b, -p)};
}

// Knuth's TwoSum per term: branch-free (so it vectorises and never mispredicts), exact error terms whatever the
// order of magnitudes; the collected error is added once at the end. Several of them as separate locals give
// independent dependency chains (held in registers; an array of them indexed in a loop is not).
struct ExactSum {
  double sum = 0.0;
  double error = 0.0;
  void add(double x) noexcept {
    const TwoDoubles t = two_sum(sum, x);
    error += t.lo;
    sum = t.hi;
  }
  void add_to(CompensatedSum& total) const noexcept {
    total.add(sum);
    total.add(error);
  }
};

// "0.25", "-2", "NaN", "Infinity": the value as a user of the JS API would write it.
[[nodiscard]] std::string format_value(double value);

}  // namespace privsample
