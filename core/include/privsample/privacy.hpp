#pragma once
// Privacy parameters and the guarantee a mechanism states about itself.
#include <string>

namespace privsample {

// ε is accepted in [0, kMaxEpsilon]. Above kMaxEffectiveEpsilon the mechanisms run at
// kMaxEffectiveEpsilon instead: e^{-ε} would underflow to 0 in double precision and a floor
// probability of 0 would break the ratio bound; running at a smaller ε is a stronger guarantee
// and changes no output probability by more than e^{-700} ≈ 1e-304.
inline constexpr double kMaxEpsilon = 1000.0;
inline constexpr double kMaxEffectiveEpsilon = 700.0;

// Throws std::invalid_argument ("epsilon = NaN: must be a finite number in [0, 1000]") unless
// 0 <= epsilon <= kMaxEpsilon.
double validated_epsilon(double epsilon);

// min(epsilon, kMaxEffectiveEpsilon).
[[nodiscard]] double effective_epsilon(double epsilon) noexcept;

enum class PrivacyNotion {
  pure_ldp,  // for all P, P', x: Q(x|P) <= e^ε Q(x|P')
};

[[nodiscard]] std::string notion_name(PrivacyNotion notion);

struct Guarantee {
  PrivacyNotion notion = PrivacyNotion::pure_ldp;
  double epsilon = 0.0;
};

}  // namespace privsample
