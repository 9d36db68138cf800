#include "mechanisms/cells.hpp"

#include <array>
#include <optional>
#include <type_traits>

#include "mechanisms/mechanism.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "base/errors.hpp"
#include "base/numeric.hpp"
#include "mechanisms/factory.hpp"
#include "mechanisms/membership.hpp"
#include "model/histogram.hpp"

namespace privsample {
namespace {

// Messages are built only on failure (these checks run once per cell).
[[noreturn]] void fail(const std::string& message) { throw std::invalid_argument(message); }
[[noreturn]] void fail_shape(const std::string& message) { throw ShapeError(message); }

// A mechanism of the list on grid cells: its name there and its factory (factory.hpp).
template <class T>
struct OnCellsEntry {
  static constexpr std::string_view name = T::cells_spec.name;
  static Mechanism make(const MechanismOptions& o) { return Mechanism(std::in_place_type<T>, T::make_on_cells(o)); }
};

template <class Grid>
auto point_from(const Mechanism& mechanism, const Grid& grid, std::span<const double> density, RandomBits& bits) {
  validate_grid(grid);
  std::size_t cells = 0;
  if constexpr (std::is_same_v<Grid, Grid1D>) {
    cells = grid.cells;
  } else {
    cells = cell_count(grid);
  }
  if (!on_cells(mechanism)) throw_invalid({"the '", mechanism_name(mechanism), "' mechanism is on categories, not cells"});
  if (density.size() != cells) throw_shape({"density has ", density.size(), " cells but the grid has ", cells});
  return point_in_cell(grid, released_law(mechanism, density)->draw_once(bits), bits);
}

}  // namespace

std::vector<double> normalised_reference(std::span<const double> raw, const char* name, double& total) {
  if (!(!raw.empty())) fail(std::string(name) + ": need at least one cell");
  if (!(raw.size() <= kMaxCategories))
    fail(std::string(name) + ": at most " + std::to_string(kMaxCategories) + " cells");
  CompensatedSum sum;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (!(std::isfinite(raw[i]) && raw[i] >= 0.0))
      fail(std::string(name) + "[" + std::to_string(i) + "] = " + format_value(raw[i]) + ": must be finite and >= 0");
    sum.add(raw[i]);
  }
  total = sum.value();
  if (!(total > 0.0 && std::isfinite(total))) fail(std::string(name) + ": need a positive finite total mass");
  std::vector<double> h(raw.begin(), raw.end());
  for (double& v : h) v /= total;
  return h;
}

std::vector<double> density_pmf(std::span<const double> density, std::size_t cells) {
  std::vector<double> p = normalized_pmf(density, "density");
  if (!(p.size() == cells))
    fail_shape("density has " + std::to_string(p.size()) + " cells but the reference has " + std::to_string(cells));
  return p;
}

void require_in_class(const DensityClass& cls, std::span<const double> p) {
  if (!(in_class(cls, p)))
    fail("density: outside the class c1*h <= p <= c2*h (c1 = " + format_value(cls.c1) +
         ", c2 = " + format_value(cls.c2) + " after normalising h); this mechanism is private only on the class");
}

// ---- class and constants ------------------------------------------------------------------------------------------

ContinuousConstants continuous_constants(double c1, double c2, double epsilon) {
  validated_epsilon(epsilon);
  if (!(std::isfinite(c1) && c1 >= 0.0 && c1 < 1.0))
    fail("c1 = " + format_value(c1) + ": the normalised c1 must be finite and in [0, 1)");
  if (!(std::isfinite(c2) && c2 > 1.0)) fail("c2 = " + format_value(c2) + ": the normalised c2 must be finite and > 1");
  const double eps = effective_epsilon(epsilon);
  ContinuousConstants k;
  k.c1 = c1;
  k.c2 = c2;
  k.alpha = (1.0 - c1) / (c2 - c1);
  // c2 <= c1·e^ε, written as c2·e^{−ε} <= c1 (no overflow): the identity is already ε-LDP (docs/notions.md#classes-of-inputs).
  k.trivial = c2 * std::exp(-eps) <= c1;
  if (k.trivial) return k;  // b, r1, r2, γ stay 1: q = p
  const double shrink = std::exp(-eps);
  // b e^ε = 1/(α + (1−α)e^{−ε}), b = e^{−ε}·(b e^ε) (docs/numerics.md#large-epsilon).
  k.ceiling = 1.0 / (k.alpha + (1.0 - k.alpha) * shrink);
  k.b = k.ceiling * shrink;
  // r1 = c1/b < 1 < r2 = c2/(b e^ε) mathematically (eqs. 30–31); rounding must not cross 1.
  k.r1 = c1 == 0.0 ? 0.0 : std::min(1.0, c1 / k.b);
  k.r2 = std::max(1.0, c2 / k.ceiling);
  const double grow = std::expm1(eps);  // docs/numerics.md#small-epsilon: expm1 against cancellation at small ε
  k.gamma = grow / (grow * (1.0 - c1) + c2 - c1);
  return k;
}

DensityClass density_class(std::span<const double> reference, double c1, double c2) {
  if (!(std::isfinite(c1) && c1 >= 0.0)) fail("c1 = " + format_value(c1) + ": must be finite and >= 0");
  if (!(std::isfinite(c2) && c2 > c1))
    fail("c2 = " + format_value(c2) + ": must be finite and > c1 = " + format_value(c1));
  double total = 0.0;
  DensityClass cls;
  cls.h = normalised_reference(reference, "reference", total);
  cls.c1 = c1 * total;
  cls.c2 = c2 * total;
  if (!(cls.c1 < 1.0))
    fail("c1 = " + format_value(c1) + ": c1 times the reference mass (" + format_value(total) + ") is " +
         format_value(cls.c1) + " >= 1, so the class holds at most c1*h");
  if (!(cls.c2 > 1.0))
    fail("c2 = " + format_value(c2) + ": c2 times the reference mass (" + format_value(total) + ") is " +
         format_value(cls.c2) + " <= 1, so the class holds at most c2*h");
  return cls;
}

bool in_class(const DensityClass& cls, std::span<const double> density) {
  return class_membership(cls, density).inside;  // the one membership rule (membership.hpp)
}

// The mechanisms on cells: made by name, and a released point (mechanism.hpp), here so that a build that never makes
// a mechanism on cells links none of their code.

Mechanism make_continuous_mechanism(std::string_view name, const MechanismOptions& options) {
  return made<OnCellsEntry>(ContinuousMechanisms{}, mechanism_spec(name, MechanismSpace::continuous), options);
}

double sample_point(const Mechanism& mechanism, const Grid1D& grid, std::span<const double> density,
                    RandomBits& bits) {
  return point_from(mechanism, grid, density, bits);
}

Point2D sample_point(const Mechanism& mechanism, const Grid2D& grid, std::span<const double> density,
                     RandomBits& bits) {
  return point_from(mechanism, grid, density, bits);
}

}  // namespace privsample
