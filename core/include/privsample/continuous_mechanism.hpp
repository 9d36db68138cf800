#pragma once
// The continuous (grid) mechanisms by name, for entry points that choose one at run time; names and option rules
// come from the registry (registry.hpp, MechanismSpace::continuous).
#include <string_view>
#include <variant>

#include "privsample/continuous.hpp"
#include "privsample/registry.hpp"

namespace privsample {

using ContinuousMechanism = std::variant<ContinuousClipSampler, ContinuousLinearSampler, ContinuousLocalClipSampler,
                                         ContinuousLocalLinearSampler>;

// "minimax" (epsilon, reference, c2, optional c1 = 0) | "linear" (a notion, reference, c2, optional c1) | "local"
// (epsilon, prior, gamma) | "local-linear" (a notion, prior, gamma). Throws std::invalid_argument naming an
// unknown mechanism, a missing, unsupported or conflicting option, or a bad value.
[[nodiscard]] ContinuousMechanism make_continuous_mechanism(std::string_view name, const MechanismOptions& options);

}  // namespace privsample
