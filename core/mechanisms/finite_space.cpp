#include "mechanisms/finite_space.hpp"

#include <cmath>

#include "model/histogram.hpp"
#include "privacy/privacy.hpp"
#include "privacy/privacy_box.hpp"

namespace privsample {

double finite_spread(std::size_t k, double epsilon) {
  return static_cast<double>(k - 1) * std::exp(-effective_epsilon(epsilon));
}

FiniteBox finite_minimax_box(std::size_t k, double epsilon) {
  check_category_count(k);
  validated_epsilon(epsilon);
  const double t = finite_spread(k, epsilon);
  const double ceiling = 1.0 / (1.0 + t);
  const double floor = private_floor(std::exp(-effective_epsilon(epsilon)) / (1.0 + t), ceiling,
                                     effective_epsilon(epsilon));  // u/ℓ <= e^ε as doubles (privacy_box.hpp)
  // An ε below the doubles' resolution: the raised floor leaves no output summing to 1; every input then gets
  // the uniform distribution (ratio exactly 1).
  if (static_cast<double>(k) * floor > 1.0) return {1.0 / static_cast<double>(k), 1.0 / static_cast<double>(k)};
  return {floor, ceiling};
}

double finite_minimax_risk(const FDivergence& f, std::size_t k, double epsilon) {
  check_category_count(k);
  validated_epsilon(epsilon);
  return chord_risk(f, 0.0, 1.0 + finite_spread(k, epsilon));  // r1 = 0, r2 = (e^ε+k−1)/e^ε
}

double finite_minimax_risk(NamedDivergence f, std::size_t k, double epsilon) {
  check_category_count(k);
  validated_epsilon(epsilon);
  const double t = finite_spread(k, epsilon);
  switch (f) {
    case NamedDivergence::kl: return std::log1p(t);
    case NamedDivergence::tv: return t / (1.0 + t);
    case NamedDivergence::hellinger: return -std::expm1(-0.5 * std::log1p(t));  // 1 − (1+t)^{−1/2}
    case NamedDivergence::chi2: return t;
  }
  return finite_minimax_risk(f_divergence(f), k, epsilon);
}

}  // namespace privsample
