#pragma once
// Draws from the common discrete and continuous laws a simulation needs, exact up to the rounding of the uniforms:
// binomial, multinomial, gamma and Dirichlet. For simulations and experiments (analysis/simulate.hpp), and for the
// mechanisms' own exact simulations of their releases.
#include <cstdint>
#include <span>
#include <vector>

#include "base/randomness.hpp"

namespace privsample {

// Binomial(n, p), p in [0, 1] (std::invalid_argument otherwise), drawn for min(p, 1−p) (the other side by symmetry).
// For n·min(p,1−p) small: inversion (sequential search of the cdf, Devroye 1986 §X.4.1; expected O(np) steps).
// Larger: Hörmann's transformed rejection with squeeze (BTRS, 1993), O(1) expected work whatever n is. Exact up to
// floating-point rounding of the uniforms and of the acceptance test.
[[nodiscard]] std::uint64_t binomial(RandomBits& bits, std::uint64_t n, double p);

// Multinomial(n, probs): counts by sequential conditional binomials, count_x ~ Bin(n − Σ_{y<x} count_y,
// probs_x / Σ_{y>=x} probs_y) (Devroye 1986 §XI.1.4). probs finite, >= 0, positive total (normalised here).
[[nodiscard]] std::vector<std::uint64_t> multinomial(RandomBits& bits, std::uint64_t n, std::span<const double> probs);

// Gamma(shape, 1), shape > 0: Marsaglia & Tsang (2000), with the shape < 1 boost G(a) = G(a+1)·U^{1/a}.
[[nodiscard]] double gamma_draw(RandomBits& bits, double shape);
// Dirichlet(alpha) by normalised gammas; alpha entries > 0 (zeros allowed: those coordinates are 0).
[[nodiscard]] std::vector<double> dirichlet(RandomBits& bits, std::span<const double> alpha);

}  // namespace privsample
