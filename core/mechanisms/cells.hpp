#pragma once
// What the mechanisms share on grid cells (the continuous space; their page: cells.md beside this file): the class of
// densities between c1·h and c2·h around a reference h, Park's constants of that class, the validation of a density's
// cell masses, and OnCells — a mechanism's behaviour on cells, which a mechanism that also runs on categories holds
// when it was built on cells (so one mechanism type serves both spaces, and a build that never makes one on cells
// links none of this).
#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "base/errors.hpp"
#include "model/divergence.hpp"
#include "privacy/release_plan.hpp"

namespace privsample {

// ---- the bounded-density class and Park's constants ------------------------------------------------------------

// Constants of core/mechanisms/cells.md#classes-and-constants for NORMALISED (c1, c2) (Σh = 1, 0 <= c1 < 1 < c2), computed with e^{−ε} (docs/numerics.md#large-epsilon).
struct ContinuousConstants {
  double c1 = 0.0;
  double c2 = 1.0;
  double alpha = 1.0;    // (1 − c1)/(c2 − c1)
  double b = 1.0;        // floor of q/h:  1/(α e^ε + 1 − α)
  double ceiling = 1.0;  // b·e^ε, ceiling of q/h
  double r1 = 1.0;       // c1/b      (1 in the trivial case)
  double r2 = 1.0;       // c2/(b e^ε) (1 in the trivial case)
  double gamma = 1.0;    // Q† mixture weight (e^ε − 1)/((e^ε − 1)(1 − c1) + c2 − c1); 1 in the trivial case
  bool trivial = false;  // c2 <= c1·e^ε: the identity is ε-LDP on the class, R = 0 (docs/notions.md#classes-of-inputs)
};
// Throws std::invalid_argument naming c1 / c2 / epsilon unless 0 <= c1 < 1 < c2 (finite) and ε valid. ε above
// kMaxEffectiveEpsilon runs at it (privacy.hpp).
[[nodiscard]] ContinuousConstants continuous_constants(double c1, double c2, double epsilon);

// The class 𝒫̃_{c1,c2,h} on a grid: reference cell masses h (any scale, zeros allowed, positive total) and RAW
// constants, normalised per docs/notions.md#classes-of-inputs (h ← h/Z, c1 ← c1·Z, c2 ← c2·Z with Z = Σh). Throws std::invalid_argument
// naming "reference" (bad entries), "c1" (negative, not finite, or c1·Z >= 1: the class holds at most c1·h) or
// "c2" (c2 <= c1, not finite, or c2·Z <= 1: likewise).
struct DensityClass {
  std::vector<double> h;  // normalised reference
  double c1 = 0.0;        // normalised
  double c2 = 1.0;        // normalised
};
[[nodiscard]] DensityClass density_class(std::span<const double> reference, double c1, double c2);

// Relative slack of every class-membership check (cell masses of a density that touches its envelope, like the
// docs/experiments.md#park-fig-4-1-d-gaussian-mixtures Gaussian with |μ| = 1 whose tail equals h̃, differ from c2·h only by rounding).
inline constexpr double kClassTolerance = 1e-9;
// Does the pmf of `density` (cell masses, any scale) satisfy c1·h <= p <= c2·h within kClassTolerance?
[[nodiscard]] bool in_class(const DensityClass& cls, std::span<const double> density);

// Validated reference cell masses (any scale, zeros allowed, a positive finite total), normalised; `total` receives
// Z = Σ raw. Messages name `name` ("reference", "prior") and the cell.
[[nodiscard]] std::vector<double> normalised_reference(std::span<const double> raw, const char* name, double& total);
// A density's cell masses validated like a histogram (named "density") and normalised; `cells` must match.
[[nodiscard]] std::vector<double> density_pmf(std::span<const double> density, std::size_t cells);
// std::invalid_argument naming "density" when p is outside the class (beyond kClassTolerance).
void require_in_class(const DensityClass& cls, std::span<const double> p);

// A mechanism's behaviour on grid cells: densities arrive as cell masses (any positive scale, validated like a
// histogram and named "density"), outputs are pmfs over the same cells.
class OnCells {
 public:
  virtual ~OnCells() = default;
  [[nodiscard]] virtual std::size_t cells() const noexcept = 0;
  [[nodiscard]] virtual std::vector<double> distribution(std::span<const double> density) const = 0;
  // r_P of a clip sampler (0 in Case B); nothing for a linear sampler (the default), which still validates the
  // density.
  [[nodiscard]] virtual std::optional<double> normaliser(std::span<const double> density) const {
    (void)distribution(density);
    return std::nullopt;
  }
  [[nodiscard]] virtual Release release(std::span<const double> density) const = 0;
  // The worst case over the mechanism's class of densities.
  [[nodiscard]] virtual double worst_case_risk(const FDivergence& f) const = 0;
  [[nodiscard]] double worst_case_risk(NamedDivergence f) const { return worst_case_risk(f_divergence(f)); }
  // λ of a linear sampler; nothing for a clip sampler.
  [[nodiscard]] virtual std::optional<double> mixture_weight() const = 0;
};

// The worst case of a mechanism on cells, for a caller that states k: it must be the number of cells (the class fixes
// it), else std::invalid_argument (a ShapeError) naming both.
[[nodiscard]] inline double cells_risk(const OnCells& cells, const FDivergence& f, std::size_t k) {
  if (k != cells.cells()) throw_shape({"k = ", k, " but the mechanism is on ", cells.cells(), " cells"});
  return cells.worst_case_risk(f);
}

}  // namespace privsample
