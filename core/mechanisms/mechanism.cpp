#include "mechanisms/mechanism.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "base/errors.hpp"
#include "privacy/functional_ldp.hpp"
#include "model/histogram.hpp"

namespace privsample {
std::vector<std::string> finite_mechanism_names() { return mechanism_names(MechanismSpace::finite); }

FiniteMechanism make_finite_mechanism(std::string_view name, const MechanismOptions& o) {
  const MechanismSpec& spec = mechanism_spec(name, MechanismSpace::finite);
  const Guarantee g = checked_options(spec, o);
  if (name == "minimax") return MinimaxSampler(*o.epsilon);
  if (name == "linear") {
    if (g.notion == PrivacyNotion::pure_ldp) return LinearSampler(g.epsilon);  // k-RR on one draw, Park §3
    return FunctionalLinearSampler(g);
  }
  if (name == "mollifier") return MollifierSampler(*o.epsilon, o.reference);
  if (name == "local") return LocalClipSampler(*o.epsilon, *o.prior, *o.gamma);
  if (name == "local-linear") return LocalLinearSampler(g, *o.prior, *o.gamma);
  if (name == "roo") return RooSampler(*o.epsilon, *o.records);
  if (name == "ds-roo") return DsRooSampler(*o.epsilon, *o.records);
  if (name == "laplace-projection") return LaplaceProjectionSampler(*o.epsilon, *o.records);
  throw std::logic_error("mechanism '" + std::string(name) + "' is in the registry but has no factory");
}

void keep_for_categories(FiniteMechanism& mechanism, std::size_t k) {
  if (auto* linear = std::get_if<FunctionalLinearSampler>(&mechanism)) linear->keep_weight_for(k);
}

std::vector<double> distribution(const FiniteMechanism& mechanism, std::span<const double> hist) {
  return std::visit([&](const auto& m) { return m.distribution(hist); }, mechanism);
}

std::optional<double> normaliser(const FiniteMechanism& mechanism, std::span<const double> hist) {
  const std::optional<double> r = std::visit(
      [&](const auto& m) -> std::optional<double> {
        if constexpr (requires { m.normaliser(hist); }) {
          return m.normaliser(hist);
        } else {
          return std::nullopt;
        }
      },
      mechanism);
  // Without a normaliser the histogram is still checked, with the mechanism's own checks and messages: a bad one
  // throws rather than getting "none" (continuous_mechanism.cpp does the same).
  if (!r) (void)distribution(mechanism, hist);
  return r;
}

Guarantee guarantee(const FiniteMechanism& mechanism) {
  return std::visit([](const auto& m) { return m.guarantee(); }, mechanism);
}

double worst_case_risk(const FiniteMechanism& mechanism, NamedDivergence f, std::size_t k) {
  return std::visit([&](const auto& m) { return m.worst_case_risk(f, k); }, mechanism);
}

IndexDraw prepare(const FiniteMechanism& mechanism, std::span<const double> hist, std::size_t draws) {
  return std::visit([&](const auto& m) { return m.prepare(hist, draws); }, mechanism);
}

std::optional<Release> released_law(const FiniteMechanism& mechanism, std::span<const double> hist) {
  return std::visit(
      [&](const auto& m) -> std::optional<Release> {
        if constexpr (requires { m.release(hist); }) {
          return m.release(hist);
        } else {
          return std::nullopt;
        }
      },
      mechanism);
}

std::vector<std::uint32_t> sample_many(const FiniteMechanism& mechanism, std::span<const double> hist,
                                       std::size_t n, RandomBits& bits) {
  std::vector<std::uint32_t> draws(n);
  const IndexDraw draw_one = prepare(mechanism, hist, n);
  for (auto& draw : draws) draw = static_cast<std::uint32_t>(draw_one(bits));
  return draws;
}

}  // namespace privsample
