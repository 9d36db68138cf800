#pragma once
// Privacy parameters and the guarantee a mechanism states about itself.
#include <string>
#include <string_view>

namespace privsample {

// ε is accepted in [0, kMaxEpsilon]. Above kMaxEffectiveEpsilon the mechanisms run at
// kMaxEffectiveEpsilon instead: e^{-ε} would underflow to 0 in double precision and a floor
// probability of 0 would break the ratio bound; running at a smaller ε is a stronger guarantee
// and changes no output probability by more than e^{-640} ≈ 3e-278. (Not 700: floors below about
// e^{-672} have rounding errors below 2^-1022, and on some processors the arithmetic that meets
// them takes tens of times longer, following how many categories sit at their floor.)
inline constexpr double kMaxEpsilon = 1000.0;
inline constexpr double kMaxEffectiveEpsilon = 640.0;

// Throws std::invalid_argument ("epsilon = NaN: must be a finite number in [0, 1000]", the parameter called `name`)
// unless 0 <= epsilon <= kMaxEpsilon.
double validated_epsilon(double epsilon, std::string_view name);
double validated_epsilon(double epsilon);  // named "epsilon" (one argument: its callers pass no name)

// min(epsilon, kMaxEffectiveEpsilon).
[[nodiscard]] double effective_epsilon(double epsilon) noexcept;

// δ of (ε,δ)-LDP: a finite number in [0, 1). Throws std::invalid_argument ("delta = 1: must be in [0, 1)").
double validated_delta(double delta, std::string_view name);
double validated_delta(double delta);
// μ of μ-Gaussian LDP (the papers' ν): finite and > 0, at most kMaxMu.
inline constexpr double kMaxMu = 100.0;
double validated_mu(double mu, std::string_view name);
double validated_mu(double mu);

enum class PrivacyNotion {
  pure_ldp,         // for all inputs P, P' and outputs x: Q(x|P) <= e^ε Q(x|P')
  approximate_ldp,  // for all P, P' and sets A: Q(A|P) <= e^ε Q(A|P') + δ
  gaussian_ldp,     // μ-GLDP: every pair of output distributions is at least as hard to tell apart as
                    // N(0,1) from N(μ,1) (trade-off function G_μ); equivalently (β, δ_μ(β))-LDP for all β >= 0
  record_dp,        // central ε-DP of the user's n records: replacing one record changes each output
                    // probability by a factor at most e^ε (n is public)
};

// "pure-ldp" | "approx-ldp" | "gaussian-ldp" | "record-dp"
[[nodiscard]] std::string notion_name(PrivacyNotion notion);

struct Guarantee {
  PrivacyNotion notion = PrivacyNotion::pure_ldp;
  double epsilon = 0.0;  // pure-ldp, approx-ldp, record-dp
  double delta = 0.0;    // approx-ldp
  double mu = 0.0;       // gaussian-ldp
  double records = 0.0;  // record-dp: the public number of records n
};

}  // namespace privsample
