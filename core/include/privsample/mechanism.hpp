#pragma once
// The finite-space mechanisms by name, for entry points that choose one at run time (the JS bindings).
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "privsample/minimax.hpp"

namespace privsample {

using FiniteMechanism = std::variant<MinimaxSampler, LinearSampler>;

struct MechanismOptions {
  double epsilon = 0.0;
};

// "minimax" (Park clip sampler Q*) | "linear" (Park linear sampler Q†, k-RR on one draw).
// Throws std::invalid_argument naming an unknown mechanism or a bad option.
[[nodiscard]] FiniteMechanism make_finite_mechanism(std::string_view name, const MechanismOptions& options);

[[nodiscard]] std::vector<double> distribution(const FiniteMechanism& mechanism, std::span<const double> hist);
// r_P for clip samplers, nothing for mechanisms without a normaliser.
[[nodiscard]] std::optional<double> normaliser(const FiniteMechanism& mechanism, std::span<const double> hist);
[[nodiscard]] Guarantee guarantee(const FiniteMechanism& mechanism);
[[nodiscard]] double worst_case_risk(const FiniteMechanism& mechanism, NamedDivergence f, std::size_t k);

// n independent draws from the mechanism's output distribution (each spends ε again).
[[nodiscard]] std::vector<std::uint32_t> sample_many(const FiniteMechanism& mechanism, std::span<const double> hist,
                                                     std::size_t n, RandomBits& bits);

}  // namespace privsample
