#pragma once
// Draws from the common discrete and continuous laws a simulation needs, exact up to the rounding of the uniforms:
// binomial, multinomial, gamma and Dirichlet. For simulations and experiments (analysis/simulate.hpp), and for the
// mechanisms' own exact simulations of their releases.
#include <cstdint>
#include <span>
#include <vector>

#include "base/randomness.hpp"

namespace privsample {

// Binomial(n, p), p in [0, 1] (std::invalid_argument otherwise). For n·min(p,1−p) small: inversion (sequential
// search of the cdf, Devroye 1986 §X.4.1; expected O(np) steps). Larger: Knuth's beta-splitting recursion (TAOCP
// vol. 2, §3.4.1 F, exercise 27 / Devroye §X.4.3): the j-th smallest of n uniforms is Beta(j, n+1−j); comparing it
// with p halves n per level, so O(log n) Beta draws (Marsaglia–Tsang gammas) then inversion. Exact up to
// floating-point rounding of the uniforms and the gamma draws.
[[nodiscard]] std::uint64_t binomial(RandomBits& bits, std::uint64_t n, double p);

// Multinomial(n, probs): counts by sequential conditional binomials, count_x ~ Bin(n − Σ_{y<x} count_y,
// probs_x / Σ_{y>=x} probs_y) (Devroye 1986 §XI.1.4). probs finite, >= 0, positive total (normalised here).
[[nodiscard]] std::vector<std::uint64_t> multinomial(RandomBits& bits, std::uint64_t n, std::span<const double> probs);

// Gamma(shape, 1), shape > 0: Marsaglia & Tsang (2000), with the shape < 1 boost G(a) = G(a+1)·U^{1/a}.
[[nodiscard]] double gamma_draw(RandomBits& bits, double shape);
// Dirichlet(alpha) by normalised gammas; alpha entries > 0 (zeros allowed: those coordinates are 0).
[[nodiscard]] std::vector<double> dirichlet(RandomBits& bits, std::span<const double> alpha);

}  // namespace privsample
