#pragma once
// The finite space [k] with the class of every pmf (Park et al. §3.1): the constants the minimax sampler and the linear
// sampler (k-RR) share, computed through e^{−ε} so ε up to kMaxEffectiveEpsilon never overflows.
#include <cstddef>

#include "model/divergence.hpp"

namespace privsample {

// The clip bounds of the finite space: floor ℓ = 1/(e^ε+k−1) and ceiling u = e^ε/(e^ε+k−1),
// computed through e^{−ε} so ε up to kMaxEffectiveEpsilon never overflows.
struct FiniteBox {
  double floor = 0.0;
  double ceiling = 0.0;
};
[[nodiscard]] FiniteBox finite_minimax_box(std::size_t k, double epsilon);

// Theorem 3.1: R = m·f(1/m) + (1−m)·f(0) with m = e^ε/(e^ε+k−1) = 𝔑(0, (e^ε+k−1)/e^ε).
// The named divergences use closed forms with log1p/expm1 (t = (k−1)e^{−ε}: KL log(1+t), TV t/(1+t),
// ½-Hellinger 1 − (1+t)^{−1/2}, χ² t).
[[nodiscard]] double finite_minimax_risk(const FDivergence& f, std::size_t k, double epsilon);
[[nodiscard]] double finite_minimax_risk(NamedDivergence f, std::size_t k, double epsilon);

// t = (k−1)·e^{−ε}: every finite-space constant is a function of it (docs/numerics.md#large-epsilon).
[[nodiscard]] double finite_spread(std::size_t k, double epsilon);

}  // namespace privsample
