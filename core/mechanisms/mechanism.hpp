#pragma once
// The finite-space mechanisms by name, for entry points that choose one at run time (the JS bindings); names and
// option rules come from the registry (registry.hpp).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "mechanisms/clip_samplers.hpp"
#include "base/draw.hpp"
#include "model/divergence.hpp"
#include "privacy/privacy.hpp"
#include "base/randomness.hpp"
#include "mechanisms/linear_samplers.hpp"
#include "mechanisms/minimax.hpp"
#include "mechanisms/registry.hpp"
#include "mechanisms/reveal_or_obscure.hpp"

namespace privsample {

using FiniteMechanism =
    std::variant<MinimaxSampler, LinearSampler, MollifierSampler, LocalClipSampler, FunctionalLinearSampler,
                 LocalLinearSampler, RooSampler, DsRooSampler, LaplaceProjectionSampler>;

// Names accepted by make_finite_mechanism, in the order the documentation lists them.
[[nodiscard]] std::vector<std::string> finite_mechanism_names();

// A finite mechanism of the registry (mechanism_registry(), MechanismSpace::finite) with the rules it states: the
// linear samplers take the notion from the options (epsilon alone is pure ε-LDP, epsilon with delta is (ε,δ)-LDP,
// mu alone is μ-Gaussian LDP). Throws std::invalid_argument naming an unknown mechanism, a missing, unsupported
// or conflicting option, or a bad option value.
[[nodiscard]] FiniteMechanism make_finite_mechanism(std::string_view name, const MechanismOptions& options);

// What a mechanism can compute once for histograms of k categories, kept in it so that its later calls with k
// categories skip it: the (ε,δ) and μ-GDP linear sampler's weight (a numerical solve). Answers do not change; calls
// with another k still work. For an owner that calls a mechanism many times with one k (the JS sampler handle).
void keep_for_categories(FiniteMechanism& mechanism, std::size_t k);

[[nodiscard]] std::vector<double> distribution(const FiniteMechanism& mechanism, std::span<const double> hist);
// r_P for clip samplers (0 when no normaliser exists, Case B), nothing for mechanisms without one.
[[nodiscard]] std::optional<double> normaliser(const FiniteMechanism& mechanism, std::span<const double> hist);
[[nodiscard]] Guarantee guarantee(const FiniteMechanism& mechanism);
// Throws std::domain_error for a mechanism without a closed form (laplace-projection).
[[nodiscard]] double worst_case_risk(const FiniteMechanism& mechanism, NamedDivergence f, std::size_t k);

// Ready to release `draws` indices for this input under the draw policy (draw.hpp): the work and the random words a
// release takes do not depend on hist.
[[nodiscard]] IndexDraw prepare(const FiniteMechanism& mechanism, std::span<const double> hist, std::size_t draws = 1);

// The exact law a release draws from for this input (release_plan.hpp), for the mechanisms that release through a
// plan; nothing for the record-level ones, whose released law is their distribution() (reveal_or_obscure.hpp).
[[nodiscard]] std::optional<Release> released_law(const FiniteMechanism& mechanism, std::span<const double> hist);

// n independent runs of the mechanism (each spends the privacy budget again). Mechanisms whose distribution()
// is exact draw from it; laplace-projection, whose distribution() is only an estimate, draws fresh noise each run.
[[nodiscard]] std::vector<std::uint32_t> sample_many(const FiniteMechanism& mechanism, std::span<const double> hist,
                                                     std::size_t n, RandomBits& bits);

}  // namespace privsample
