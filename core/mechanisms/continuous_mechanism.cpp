#include "mechanisms/continuous_mechanism.hpp"

#include <stdexcept>
#include <string>
#include <type_traits>

#include "base/errors.hpp"

namespace privsample {

ContinuousMechanism make_continuous_mechanism(std::string_view name, const MechanismOptions& o) {
  const MechanismSpec& spec = mechanism_spec(name, MechanismSpace::continuous);
  const Guarantee g = checked_options(spec, o);
  if (name == "minimax") {
    return ContinuousClipSampler(*o.epsilon, *o.reference, o.c1.value_or(option_default(spec, "c1")), *o.c2);
  }
  if (name == "linear") return ContinuousLinearSampler(g, *o.reference, o.c1.value_or(option_default(spec, "c1")), *o.c2);
  if (name == "local") return ContinuousLocalClipSampler(*o.epsilon, *o.prior, *o.gamma);
  if (name == "local-linear") return ContinuousLocalLinearSampler(g, *o.prior, *o.gamma);
  throw std::logic_error("continuous mechanism '" + std::string(name) + "' is in the registry but has no factory");
}

std::vector<double> distribution(const ContinuousMechanism& mechanism, std::span<const double> density) {
  return std::visit([&](const auto& m) { return m.distribution(density); }, mechanism);
}

std::optional<double> normaliser(const ContinuousMechanism& mechanism, std::span<const double> density) {
  const std::optional<double> r = std::visit(
      [&](const auto& m) -> std::optional<double> {
        if constexpr (requires { m.normaliser(density); }) {
          return m.normaliser(density);
        } else {
          return std::nullopt;
        }
      },
      mechanism);
  // Without a normaliser the density is still checked, as the clip samplers check it (mechanism.cpp does the same).
  if (!r) (void)distribution(mechanism, density);
  return r;
}

Guarantee guarantee(const ContinuousMechanism& mechanism) {
  return std::visit([](const auto& m) { return m.guarantee(); }, mechanism);
}

double worst_case_risk(const ContinuousMechanism& mechanism, NamedDivergence f) {
  return std::visit([&](const auto& m) { return m.worst_case_risk(f); }, mechanism);
}

std::optional<double> mixture_weight(const ContinuousMechanism& mechanism) {
  return std::visit(
      [](const auto& m) -> std::optional<double> {
        if constexpr (requires { m.lambda(); }) {
          return m.lambda();
        } else {
          return std::nullopt;
        }
      },
      mechanism);
}

namespace {

// A cell from the mechanism's exact release (release_plan.hpp), then a uniform point in it.
template <typename Grid>
auto point_from(const ContinuousMechanism& mechanism, const Grid& grid, std::span<const double> density,
                RandomBits& bits) {
  validate_grid(grid);
  std::size_t cells = 0;
  if constexpr (std::is_same_v<Grid, Grid1D>) {
    cells = grid.cells;
  } else {
    cells = cell_count(grid);
  }
  if (density.size() != cells) throw_shape({"density has ", density.size(), " cells but the grid has ", cells});
  return point_in_cell(grid, released_law(mechanism, density).draw_once(bits), bits);
}

}  // namespace

Release released_law(const ContinuousMechanism& mechanism, std::span<const double> density) {
  return std::visit([&](const auto& m) { return m.release(density); }, mechanism);
}

double sample_point(const ContinuousMechanism& mechanism, const Grid1D& grid, std::span<const double> density,
                    RandomBits& bits) {
  return point_from(mechanism, grid, density, bits);
}

Point2D sample_point(const ContinuousMechanism& mechanism, const Grid2D& grid, std::span<const double> density,
                     RandomBits& bits) {
  return point_from(mechanism, grid, density, bits);
}

}  // namespace privsample
