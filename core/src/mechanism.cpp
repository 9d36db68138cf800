#include "privsample/mechanism.hpp"

#include <stdexcept>

namespace privsample {

FiniteMechanism make_finite_mechanism(std::string_view name, const MechanismOptions& options) {
  if (name == "minimax") return MinimaxSampler(options.epsilon);
  if (name == "linear") return LinearSampler(options.epsilon);
  throw std::invalid_argument("mechanism = '" + std::string(name) + "': unknown mechanism; use 'minimax' or 'linear'");
}

std::vector<double> distribution(const FiniteMechanism& mechanism, std::span<const double> hist) {
  return std::visit([&](const auto& m) { return m.distribution(hist); }, mechanism);
}

std::optional<double> normaliser(const FiniteMechanism& mechanism, std::span<const double> hist) {
  if (const auto* clip = std::get_if<MinimaxSampler>(&mechanism)) return clip->normaliser(hist);
  return std::nullopt;
}

Guarantee guarantee(const FiniteMechanism& mechanism) {
  return std::visit([](const auto& m) { return m.guarantee(); }, mechanism);
}

double worst_case_risk(const FiniteMechanism& mechanism, NamedDivergence f, std::size_t k) {
  return std::visit([&](const auto& m) { return m.worst_case_risk(f, k); }, mechanism);
}

std::vector<std::uint32_t> sample_many(const FiniteMechanism& mechanism, std::span<const double> hist,
                                       std::size_t n, RandomBits& bits) {
  const DiscreteSampler sampler(distribution(mechanism, hist));
  std::vector<std::uint32_t> draws(n);
  for (auto& draw : draws) draw = static_cast<std::uint32_t>(sampler.draw(bits));
  return draws;
}

}  // namespace privsample
