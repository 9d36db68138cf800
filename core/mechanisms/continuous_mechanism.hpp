#pragma once
// The continuous (grid) mechanisms by name, for entry points that choose one at run time; names and option rules
// come from the registry (registry.hpp, MechanismSpace::continuous). The free functions below are what an entry point
// asks of whichever mechanism it holds (the finite counterparts: mechanism.hpp).
#include <optional>
#include <span>
#include <string_view>
#include <variant>
#include <vector>

#include "mechanisms/continuous.hpp"
#include "model/divergence.hpp"
#include "privacy/privacy.hpp"
#include "base/randomness.hpp"
#include "mechanisms/registry.hpp"

namespace privsample {

using ContinuousMechanism = std::variant<ContinuousClipSampler, ContinuousLinearSampler, ContinuousLocalClipSampler,
                                         ContinuousLocalLinearSampler>;

// "minimax" (epsilon, reference, c2, optional c1 = 0) | "linear" (a notion, reference, c2, optional c1) | "local"
// (epsilon, prior, gamma) | "local-linear" (a notion, prior, gamma). Throws std::invalid_argument naming an
// unknown mechanism, a missing, unsupported or conflicting option, or a bad value.
[[nodiscard]] ContinuousMechanism make_continuous_mechanism(std::string_view name, const MechanismOptions& options);

// The output pmf over the cells for the density's cell masses (validated like a histogram, named "density").
[[nodiscard]] std::vector<double> distribution(const ContinuousMechanism& mechanism, std::span<const double> density);
// r_P of the clip samplers (0 in Case B); nothing for the linear samplers, which validate the density all the same.
[[nodiscard]] std::optional<double> normaliser(const ContinuousMechanism& mechanism, std::span<const double> density);
[[nodiscard]] Guarantee guarantee(const ContinuousMechanism& mechanism);
// The worst case over the mechanism's class of densities (continuous.hpp states each).
[[nodiscard]] double worst_case_risk(const ContinuousMechanism& mechanism, NamedDivergence f);
// λ of the linear samplers; nothing for the clip samplers.
[[nodiscard]] std::optional<double> mixture_weight(const ContinuousMechanism& mechanism);

// The exact law of a released cell for this density (release_plan.hpp): distribution(density) over the mechanism's
// public floors, quantized into its plan.
[[nodiscard]] Release released_law(const ContinuousMechanism& mechanism, std::span<const double> density);

// One released point for the density on the grid (one cell mass per grid cell): a cell from released_law (one scan
// of the cells and one word, or the public base), then a uniform point in that cell. The work does not depend on the
// density, but q itself comes from the adaptive solver, whose time does (docs/draw-policy.md).
[[nodiscard]] double sample_point(const ContinuousMechanism& mechanism, const Grid1D& grid,
                                  std::span<const double> density, RandomBits& bits);
[[nodiscard]] Point2D sample_point(const ContinuousMechanism& mechanism, const Grid2D& grid,
                                   std::span<const double> density, RandomBits& bits);

}  // namespace privsample
