#pragma once
// f-divergences D_f(P‖Q) = Σ_x q(x) f(p(x)/q(x)) with the zero-mass conventions of docs/divergences.md#definition-and-zero-mass-conventions:
//   0·f(0/0) = 0,   q·f(0/q) = q·f(0),   0·f(p/0) = p·f*(0)   with f*(0) = lim_{t→∞} f(t)/t.
#include <functional>
#include <span>
#include <string>
#include <string_view>

namespace privsample {

// A convex f with f(1) = 0, given with its limits at 0 and ∞ so zero masses are handled right.
struct FDivergence {
  std::function<double(double)> f;
  double f_at_zero = 0.0;       // f(0) = lim_{x→0+} f(x), may be +∞
  double f_star_at_zero = 0.0;  // f*(0) = lim_{t→∞} f(t)/t, may be +∞
};

enum class NamedDivergence {
  kl,         // f(x) = x log x                 Σ p log(p/q)
  tv,         // f(x) = |x − 1| / 2             ½Σ|p − q|
  hellinger,  // f(x) = ½(1 − √x)²              ½Σ(√p − √q)², at most 1 (the papers' figures)
  chi2,       // f(x) = (x − 1)²                Σ (p − q)²/q
};

// "kl" | "tv" | "hellinger" | "chi2"; throws std::invalid_argument naming the unknown value.
[[nodiscard]] NamedDivergence parse_divergence(std::string_view name);
[[nodiscard]] std::string divergence_name(NamedDivergence divergence);
[[nodiscard]] FDivergence f_divergence(NamedDivergence divergence);

// D_f(p‖q) for pmfs p, q of equal length (validated: finite, >= 0; each is normalised here).
// Throws std::invalid_argument on length mismatch or invalid entries.
[[nodiscard]] double divergence(const FDivergence& f, std::span<const double> p, std::span<const double> q);
[[nodiscard]] double divergence(NamedDivergence f, std::span<const double> p, std::span<const double> q);

// The chord value 𝔑(r1, r2) = (1−r1)/(r2−r1)·f(r2) + (r2−1)/(r2−r1)·f(r1) for 0 <= r1 <= 1 <= r2
// (the worst-case risk of every clip sampler, docs/divergences.md#the-chord-bound); f(0) is used at r1 = 0 and a zero
// weight times an infinite f counts as 0. Returns 0 when r1 = r2 = 1.
[[nodiscard]] double chord_risk(const FDivergence& f, double r1, double r2);

}  // namespace privsample
