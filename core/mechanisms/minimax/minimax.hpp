#pragma once
// Park, Asoodeh, Lee — "Exactly Minimax-Optimal Locally Differentially Private Sampling" (NeurIPS 2024): the minimax
// clip sampler on categories (Thm 3.1, every pmf on [k]) and on grid cells (Thm 3.3, a class of densities around a
// reference). Page: README.md beside this file.
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "mechanisms/cells.hpp"
#include "mechanisms/finite_space.hpp"
#include "mechanisms/sampler.hpp"
#include "mechanisms/spec.hpp"
#include "model/divergence.hpp"
#include "privacy/privacy.hpp"
#include "privacy/release_plan.hpp"
#include "solver/clip_normalise.hpp"

namespace privsample {

// Q*_{k,ε}(x|P) = max(P(x)/r_P, ℓ) — Theorem 3.1 (eq. 8); equivalently clip(P(x)/r_P; ℓ, u).
// Guarantee: pure ε-LDP, since ℓ <= Q*(x|P) <= u = e^ε·ℓ for every P (both bounds hold exactly in
// floating point: q is clamped into [ℓ, u] by clip_normalise). Optimal for every f simultaneously, and
// pointwise the f-projection of P onto the box (Prop. 3.4), so never worse than the linear sampler.
// A clip sampler (sampler.hpp): distribution() = solve().q, guarantee(), epsilon() and sample() come from there.
// On grid cells (Thm 3.3, cells.md#minimax-clip-sampler) the box is [b·h, b·e^ε·h] around a reference h of a class of
// densities c1·h <= p <= c2·h, with b = 1/(α e^ε + 1 − α), α = (1 − c1)/(c2 − c1); ε-LDP for EVERY input density,
// the risk bound for densities of the class. Trivial case c2 <= c1·e^ε: the identity, private only on the class, so
// densities outside it are refused there. Worst case over the class: chord_risk(f, r1, r2) (0 if trivial).
class MinimaxSampler : public ClipSampler<MinimaxSampler> {
 public:
  static constexpr MechanismSpec spec{"minimax", MechanismSpace::finite, NotionRule::pure_epsilon, {}, {}, {},
                                      "minimax-optimal clip sampler Q*_{k,ε} (Park et al. Thm 3.1)",
                                      "the minimax sampler",
                                      "Minimax-optimal clip sampler (Park, Asoodeh, Lee): scales P and clips it"
                                      " into the privacy box, so no category falls below 1/(e^ε+k−1). The "
                                      "smallest worst-case loss of any ε-LDP sampler."};
  static constexpr MechanismSpec cells_spec{"minimax", MechanismSpace::continuous, NotionRule::pure_epsilon,
                                            kDensityClassOptions, kC1Option, kC1Zero,
                                            "minimax clip sampler Q*_{c1,c2,h,ε} on a grid (Park et al. Thm 3.3)"};
  // Validated options (spec.hpp's checked_options) to a sampler on categories, or on the cells of `reference`.
  [[nodiscard]] static MinimaxSampler make(const MechanismOptions& options);
  [[nodiscard]] static MinimaxSampler make_on_cells(const MechanismOptions& options);

  using ClipSampler::ClipSampler;  // explicit MinimaxSampler(double epsilon) on categories; privacy.hpp for ε > 640

  // The exact output pmf on categories (one clip_normalise into the uniform box [ℓ, u]).
  [[nodiscard]] ClipNormalised solve(std::span<const double> hist,
                                     RootSchedule schedule = RootSchedule::adaptive) const;
  [[nodiscard]] std::vector<double> distribution(std::span<const double> input) const;
  // The same q into the caller's `out` (as many entries as the input: a shape error otherwise), with no memory beyond
  // it and the solver's scratch.
  void distribution_into(std::span<const double> input, std::span<double> out) const;
  // r_P ∈ [1, (e^ε+k−1)/e^ε] (r_P = 1/scale); the right end of that bracket when every r gives the same Q*. On cells:
  // r_P of the normalised density (0 in Case B, 1 in the trivial case).
  [[nodiscard]] double normaliser(std::span<const double> input) const;
  // The exact release for this input (release_plan.hpp): the fixed schedule's q with the box's floors as the public
  // base; prepare() and sample() draw from it.
  [[nodiscard]] Release release(std::span<const double> input) const;
  // On categories: release()'s plan for k categories (from ε and k only) and an input's data part under it into
  // `target` (k entries), so that release(input) is Release(plan, target) with the same bits; for callers that keep
  // the plan per k (SingleReleases, mechanism.hpp).
  [[nodiscard]] ReleasePlan release_plan(std::size_t k) const;
  void release_target_into(std::span<const double> input, const ReleasePlan& plan, std::span<double> target) const;
  // Theorem 3.1 (finite_minimax_risk), the named divergences through their closed forms; on cells Thm 3.3 over the
  // class (k is then the number of cells, which the class fixes).
  [[nodiscard]] double worst_case_risk(const FDivergence& f, std::size_t k) const;
  [[nodiscard]] double worst_case_risk(NamedDivergence f, std::size_t k) const;
  // What a user holding only item x releases, for k categories (spec.hpp); nothing on cells.
  [[nodiscard]] std::optional<PointMassLaw> point_mass_law(std::size_t k) const;
  // The behaviour on cells, or nullptr on categories.
  [[nodiscard]] const OnCells* on_cells() const noexcept { return cells_.get(); }

 private:
  void fixed_schedule_q(std::span<const double> input, std::span<double> out) const;

  std::shared_ptr<const OnCells> cells_;
};

}  // namespace privsample
