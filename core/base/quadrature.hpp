#pragma once
// Numerical integration shared by the analysis layer (docs/numerics.md).
#include <cstddef>
#include <functional>
#include <vector>

namespace privsample {

// ∫_a^b f by adaptive Gauss–Kronrod (7/15): a panel is split in two while its error estimate |K15 − G7| exceeds its
// share of tol, to depth 40 or a width of 1e-12·max(1, |a|). f must be smooth on each panel for the estimate to hold.
[[nodiscard]] double adaptive_gauss_kronrod(const std::function<double(double)>& f, double a, double b, double tol);

// Composite Simpson nodes and weights on [0, upper] with `panels` panels (even, >= 2): Σ w_i f(s_i) ≈ ∫_0^upper f.
struct SimpsonRule {
  std::vector<double> nodes;
  std::vector<double> weights;
};
[[nodiscard]] SimpsonRule composite_simpson(double upper, std::size_t panels);

}  // namespace privsample
