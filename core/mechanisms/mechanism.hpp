#pragma once
// Mechanisms by name, and what an entry point asks of whichever one it holds (the JS handles, the analysis layer),
// dispatched by capability: each mechanism's folder says what it can do, and nothing here names a mechanism. Names and
// option rules come from the registry (registry.hpp), the types from the one list (list.hpp).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/draw.hpp"
#include "base/randomness.hpp"
#include "mechanisms/list.hpp"
#include "mechanisms/registry.hpp"
#include "model/divergence.hpp"
#include "model/grid.hpp"
#include "privacy/privacy.hpp"
#include "privacy/release_plan.hpp"

namespace privsample {

// Names accepted by make_finite_mechanism, in the order the documentation lists them.
[[nodiscard]] std::vector<std::string> finite_mechanism_names();

// A mechanism of the registry on categories (MechanismSpace::finite), or on grid cells (MechanismSpace::continuous:
// a reference or prior gives the cells), with the rules its spec states: the linear samplers take the notion from the
// options (epsilon alone is pure ε-LDP, epsilon with delta (ε,δ)-LDP, mu alone μ-Gaussian LDP). Throws
// std::invalid_argument naming an unknown mechanism, a missing, unsupported or conflicting option, or a bad value.
[[nodiscard]] Mechanism make_finite_mechanism(std::string_view name, const MechanismOptions& options);
[[nodiscard]] Mechanism make_continuous_mechanism(std::string_view name, const MechanismOptions& options);

// Its registry name ('minimax', …), and whether it was made on grid cells.
[[nodiscard]] std::string_view mechanism_name(const Mechanism& mechanism);
[[nodiscard]] bool on_cells(const Mechanism& mechanism);
// The number of categories (or cells) the mechanism itself fixes — a prior's, a reference's or the grid's — or nothing
// when it takes any k.
[[nodiscard]] std::optional<std::size_t> fixed_categories(const Mechanism& mechanism);

// What a mechanism can compute once for inputs of k categories, kept in it so that its later calls with k categories
// skip it: the (ε,δ) and μ-GDP linear sampler's weight (a numerical solve). Answers do not change; calls with another k
// still work. For an owner that calls a mechanism many times with one k (the JS sampler handle).
void keep_for_categories(Mechanism& mechanism, std::size_t k);

// The output pmf for an input: a histogram (counts or probabilities) on categories, a density's cell masses on cells.
[[nodiscard]] std::vector<double> distribution(const Mechanism& mechanism, std::span<const double> input);
// The same pmf into the caller's `out` (as many entries as the output: a shape error otherwise), the same bits. The
// clip samplers on categories and the linear ones solve in `out` itself (no memory beyond it and the solver's
// scratch); the others compute their distribution() and copy it.
void distribution_into(const Mechanism& mechanism, std::span<const double> input, std::span<double> out);
// r_P for clip samplers (0 when no normaliser exists, Case B), nothing for mechanisms without one (which still check
// the input, with their own messages).
[[nodiscard]] std::optional<double> normaliser(const Mechanism& mechanism, std::span<const double> input);
[[nodiscard]] Guarantee guarantee(const Mechanism& mechanism);
// The closed-form worst case over the mechanism's class for k categories (on cells k must be the number of cells).
// Throws std::domain_error for a mechanism without a closed form (laplace-projection).
[[nodiscard]] double worst_case_risk(const Mechanism& mechanism, NamedDivergence f, std::size_t k);
// The weight λ of a linear mechanism (for k categories where it depends on k; on cells the class's), nothing for the
// others and for k-RR (whose weight is a closed form).
[[nodiscard]] std::optional<double> mixture_weight(const Mechanism& mechanism, std::size_t k);
// q = λ·P + offset for k categories where the mechanism is affine in P, with its assumption (for the analyst's
// inversion, analysis/estimate.hpp); nothing where it is not.
[[nodiscard]] std::optional<AffineMap> affine_map(const Mechanism& mechanism, std::size_t k);
// Where the mechanism is meant for users who never hold a single item (a class that holds no point mass, e.g.
// N_γ(P0)), the words an analyst's point-mass inversion must carry; nothing otherwise (analysis/estimate.hpp).
[[nodiscard]] std::optional<std::string> point_mass_caveat(const Mechanism& mechanism);
// The users over whom worst_case_risk is the worst case, in words: the condition under which an analyst's divergence
// radius holds (analysis/estimate.hpp ReleasedEstimate::radius_assumption).
[[nodiscard]] std::string risk_class(const Mechanism& mechanism);
// False where distribution() is only an estimate (laplace-projection: a Monte-Carlo average).
[[nodiscard]] bool has_exact_distribution(const Mechanism& mechanism);

// What a user holding a single item x releases, as one law for every x (spec.hpp's PointMassLaw), where the
// mechanism has one on categories; and for the others the released counts of such users drawn directly (O(1) per
// user), where the mechanism offers it. analysis/simulate.hpp draws N point-mass users with these in O(k) or O(N).
[[nodiscard]] std::optional<PointMassLaw> point_mass_law(const Mechanism& mechanism, std::size_t k);
[[nodiscard]] std::optional<std::vector<double>> point_mass_counts(const Mechanism& mechanism,
                                                                   std::span<const double> items, RandomBits& bits);

// Ready to release `draws` indices for this input under the draw policy (draw.hpp): the work and the random words a
// release takes do not depend on the input.
[[nodiscard]] IndexDraw prepare(const Mechanism& mechanism, std::span<const double> input, std::size_t draws = 1);

// Single releases for an owner that makes many with one mechanism and inputs of one k (the JS sampler handle): the
// mechanism's release plan for k and the buffers of an input's data part are kept between calls, so a release after
// the first with that k builds no plan and allocates nothing (the mechanisms with release_plan(k) on categories:
// linear, minimax; the others go through prepare()). The same law and the same random words as
// prepare(mechanism, input)(bits). The plan depends on the mechanism and k only, never on an input. Use one object
// per mechanism: forget() when the owner's mechanism changes.
class SingleReleases {
 public:
  [[nodiscard]] std::size_t sample(const Mechanism& mechanism, std::span<const double> input, RandomBits& bits);
  void forget() noexcept { plan_.reset(); }

 private:
  std::optional<ReleasePlan> plan_;  // for inputs of target_.size() categories
  std::vector<double> target_;
  std::vector<std::uint64_t> units_;
};

// The exact law a release draws from for this input (release_plan.hpp), for the mechanisms that release through a
// plan; nothing for the record-level ones, whose released law is their distribution() (records.hpp).
[[nodiscard]] std::optional<Release> released_law(const Mechanism& mechanism, std::span<const double> input);
// The released law's probabilities, each rounded once to a double: the plan's law for the mechanisms with a plan,
// distribution() for the record-level ones (an exact mixture rounded), nothing where distribution() is only an
// estimate (laplace-projection, whose draw is post-processing of fresh noise).
[[nodiscard]] std::optional<std::vector<double>> released_probabilities(const Mechanism& mechanism,
                                                                        std::span<const double> input);

// n independent runs of the mechanism (each spends the privacy budget again). Mechanisms whose distribution() is exact
// draw from it; laplace-projection, whose distribution() is only an estimate, draws fresh noise each run.
[[nodiscard]] std::vector<std::uint32_t> sample_many(const Mechanism& mechanism, std::span<const double> input,
                                                     std::size_t n, RandomBits& bits);
// The same draws into `out` (n = out.size()): the same indices and the same words. From a seeded source, the first m
// draws of n are the draws for m (every m <= n).
void sample_many_into(const Mechanism& mechanism, std::span<const double> input, std::span<std::uint32_t> out,
                      RandomBits& bits);

// One released point for a density on the grid a mechanism on cells was made for: a cell from its exact release (one
// scan of the cells and one word, or the public base), then a uniform point in that cell. The work of the draw does not
// depend on the density, but q itself comes from the adaptive solver, whose time does (docs/draw-policy.md). Throws
// std::invalid_argument for a mechanism on categories or a density of another size.
[[nodiscard]] double sample_point(const Mechanism& mechanism, const Grid1D& grid, std::span<const double> density,
                                  RandomBits& bits);
[[nodiscard]] Point2D sample_point(const Mechanism& mechanism, const Grid2D& grid, std::span<const double> density,
                                   RandomBits& bits);

}  // namespace privsample
