#pragma once
// Special functions the analysis layer needs beyond <cmath> (Emscripten's libc has erfc, lgamma, expm1 and log1p,
// not the Bessel functions): docs/analysis/lmidp.md#gaussian-mechanism.
#include <cstddef>

namespace privsample {

// ln M_d(κ) for κ >= 0, where M_d(κ) = 0F1(; d/2; κ²/4) (a scaled modified Bessel function I_{d/2−1}).
[[nodiscard]] double log_md(std::size_t d, double kappa);

// ln f_s(s; d, τ): the density at s of ||τe + Z||, Z ~ N(0, I_d) (the noncentral chi distribution).
[[nodiscard]] double log_noncentral_chi_density(std::size_t d, double tau, double s);

}  // namespace privsample
