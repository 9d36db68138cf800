#include "privacy/privacy.hpp"
#include "base/errors.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "base/numeric.hpp"

namespace privsample {

double validated_epsilon(double epsilon, std::string_view name) {
  if (!std::isfinite(epsilon) || epsilon < 0.0 || epsilon > kMaxEpsilon) {
    throw_invalid({name, " = ", epsilon, ": must be a finite number in [0, ", kMaxEpsilon, "]"});
  }
  return epsilon;
}

double validated_epsilon(double epsilon) { return validated_epsilon(epsilon, "epsilon"); }

double effective_epsilon(double epsilon) noexcept { return std::min(epsilon, kMaxEffectiveEpsilon); }

double validated_delta(double delta, std::string_view name) {
  if (!std::isfinite(delta) || delta < 0.0 || delta >= 1.0) {
    throw_invalid({name, " = ", delta, ": must be a finite number in [0, 1)"});
  }
  return delta;
}

double validated_delta(double delta) { return validated_delta(delta, "delta"); }

double validated_mu(double mu, std::string_view name) {
  if (!std::isfinite(mu) || mu <= 0.0 || mu > kMaxMu) {
    throw_invalid({name, " = ", mu, ": must be a finite number in (0, ", kMaxMu, "]"});
  }
  // A subnormal μ overflows the profile's β/μ (the weight's check points came out NaN, reported as "beta = NaN").
  if (mu < std::numeric_limits<double>::min()) {
    throw_invalid({name, " = ", mu, ": must be at least 2.2e-308 (the least normal double)"});
  }
  return mu;
}

double validated_mu(double mu) { return validated_mu(mu, "mu"); }

std::string notion_name(PrivacyNotion notion) {
  switch (notion) {
    case PrivacyNotion::pure_ldp: return "pure-ldp";
    case PrivacyNotion::approximate_ldp: return "approx-ldp";
    case PrivacyNotion::gaussian_ldp: return "gaussian-ldp";
    case PrivacyNotion::record_dp: return "record-dp";
  }
  return "unknown";
}

}  // namespace privsample
