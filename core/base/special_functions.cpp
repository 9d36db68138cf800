#include "base/special_functions.hpp"

#include <cmath>
#include <cstddef>
#include <numbers>

namespace privsample {

namespace {
constexpr double kLn2 = std::numbers::ln2;
// The series of log_md rescales its sum by 1e-250 whenever it passes 1e250, far from overflow (1.8e308) even after
// the next term's growth, and far from underflow after rescaling.
constexpr double kRescaleAbove = 1e250;
constexpr double kRescaleBy = 1e-250;
constexpr double kRescaleExponent10 = 250.0;
// It stops once the terms fall (m + 1 > √x) and a term is below 1e-17 of the sum: under half an ulp, and the
// remaining terms decrease at least geometrically from there.
constexpr double kSeriesStop = 1e-17;
}  // namespace

// ln M_d(κ) for κ >= 0. d = 1 is ln cosh; otherwise the series Σ_m (κ²/4)^m Γ(d/2)/(m! Γ(m + d/2)), rescaled to
// avoid overflow, for κ <= 300, and the Hankel asymptotic expansion of I_{d/2−1} (7 terms) above.
double log_md(std::size_t d, double kappa) {
  if (kappa == 0.0) return 0.0;
  if (d == 1) return kappa + std::log1p(std::exp(-2.0 * kappa)) - kLn2;
  const double half_d = 0.5 * static_cast<double>(d);
  if (kappa <= 300.0) {
    const double x = 0.25 * kappa * kappa;
    double term = 1.0;
    double sum = 1.0;
    double log_scale = 0.0;
    for (int m = 0; m < 100000; ++m) {
      term *= x / ((m + 1.0) * (m + half_d));
      sum += term;
      if (sum > kRescaleAbove) {
        sum *= kRescaleBy;
        term *= kRescaleBy;
        log_scale += kRescaleExponent10 * std::numbers::ln10;
      }
      if (m + 1.0 > std::sqrt(x) && term < kSeriesStop * sum) break;
    }
    return std::log(sum) + log_scale;
  }
  const double nu = half_d - 1.0;
  const double four_nu2 = 4.0 * nu * nu;
  double series = 1.0;
  double a = 1.0;
  for (int j = 1; j <= 7; ++j) {
    const double odd = 2.0 * j - 1.0;
    a *= (four_nu2 - odd * odd) / (j * 8.0 * kappa);
    series += (j % 2 == 1 ? -a : a);
  }
  const double log_bessel = kappa - 0.5 * std::log(2.0 * std::numbers::pi * kappa) + std::log(series);
  return std::lgamma(half_d) + (1.0 - half_d) * std::log(0.5 * kappa) + log_bessel;
}

// ln f_s(s; d, τ): density of ||τe + Z|| (noncentral chi with d degrees of freedom), docs/analysis/lmidp.md#gaussian-mechanism.
double log_noncentral_chi_density(std::size_t d, double tau, double s) {
  const double half_d = 0.5 * static_cast<double>(d);
  const double log_power = d == 1 ? 0.0 : (static_cast<double>(d) - 1.0) * std::log(s);
  return log_power - 0.5 * (s * s + tau * tau) + log_md(d, tau * s) - (half_d - 1.0) * kLn2 - std::lgamma(half_d);
}

}  // namespace privsample
