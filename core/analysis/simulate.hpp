#pragma once
// Simulation of N users releasing one private sample each: draw the users' histograms from a
// population model, privatize each with a finite mechanism, aggregate the counts, estimate, and measure the
// error against the truth P̄ = mean of the users' (normalised) histograms. One call does the whole batch.
//
// Point-mass users are fast: every finite mechanism's point-mass law (spec.hpp's PointMassLaw) gives the counts of
// all users holding item x by two binomials, then the floor's and the lift's totals are spread by one multinomial
// each: O(k) work whatever N is (laplace-projection, which has no closed-form law: an exact O(1) draw per user).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "analysis/estimate.hpp"
#include "mechanisms/mechanism.hpp"
#include "model/discrete_draws.hpp"
#include "base/randomness.hpp"

namespace privsample {

// ---- the papers' random 1-D mixtures (experiment set-up) ----------------------------------------------------------

// One mixture's parameters: component means and weights (Σ weights = 1).
struct MixtureParameters {
  std::vector<double> means;
  std::vector<double> weights;
};

// `count` random mixtures of the papers' continuous experiments (docs/experiments.md#park-fig-4-1-d-gaussian-mixtures,
// Park et al. eq. 208, reused by Ghoukasian et al. Figs 4 and 10), drawn in this order per mixture:
//   k = min(Poisson(poisson_mean) + 1, max_components)   (Knuth: count uniforms until their product <= e^{−mean})
//   means m_i = mean_range·(2u − 1) ~ U[−mean_range, mean_range] iid
//   weights ~ Dirichlet(1, …, 1), as normalised Exp(1) draws −log(1 − u).
// With a SeededRandom the mixtures are reproducible (set-up only: not numpy's draws, the papers' code used PCG64).
// Throws std::invalid_argument for count > 1e6, poisson_mean not in (0, 700], max_components not in [1, 1000], or
// mean_range not finite and >= 0, naming the last two as the research entry's options (options.poissonMean = 0: …).
[[nodiscard]] std::vector<MixtureParameters> random_mixtures(RandomBits& bits, std::size_t count, double poisson_mean = 2.0,
                                                             std::size_t max_components = 10, double mean_range = 1.0);

// ---- error metrics -----------------------------------------------------------------------------------------------

// The errors of an estimate against the truth (both pmfs of the same length, normalised here):
// TV = ½Σ|p − q|, KL = D(truth ‖ estimate) (+∞ when the estimate misses part of the truth's support),
// max-abs = max_x |p_x − q_x|, L2 = sqrt(Σ (p_x − q_x)²).
struct EstimationErrors {
  double tv = 0.0;
  double kl = 0.0;
  double max_abs = 0.0;
  double l2 = 0.0;
};
[[nodiscard]] EstimationErrors estimation_errors(std::span<const double> truth, std::span<const double> estimate);

// ---- simulation --------------------------------------------------------------------------------------------------

enum class PopulationModel {
  point_masses,  // each user holds one item x ~ population (record mechanisms: all n records on that letter)
  dirichlet,     // each user's P ~ Dirichlet(concentration · population) (record mechanisms: n records ~ Mult(n, P))
  given,         // the users' histograms as given (`users`)
};

struct SimulationOptions {
  PopulationModel model = PopulationModel::point_masses;
  std::size_t users = 0;                  // N (point_masses, dirichlet); ignored for given
  // dirichlet: total concentration c > 0 (small = heterogeneous users), 1 when not given. The other models have
  // none and refuse one (std::invalid_argument naming options.concentration) rather than ignore it.
  std::optional<double> concentration;
  double alpha = 0.05;                    // confidence level 1 − α of the intervals
  NamedDivergence divergence = NamedDivergence::kl;  // f of the released estimate's radius
  bool point_mass_inversion = true;       // also run estimate_point_masses (k <= kMaxPointMassCategories)
};

// Largest N the simulation accepts (point masses cost O(k) whatever N is; the per-user models cost O(N·k)).
inline constexpr std::size_t kMaxSimulatedUsers = 1'000'000'000;
// Largest N·k the 'dirichlet' model accepts: it draws k gammas and privatizes a k-category histogram per user.
inline constexpr double kMaxDirichletEntries = 1e8;

struct SimulationResult {
  std::vector<double> truth;    // P̄ = mean of the users' normalised histograms (the realised users, not the model)
  std::vector<double> model;    // the population model's mean E[P] = the normalised population, the other target
                                //   the intervals cover (analysis/estimate.hpp); empty for 'given'
  std::vector<double> items;    // point_masses: how many users hold each item; otherwise empty
  std::vector<double> counts;   // released counts per category (what a server holds)
  EstimateReport estimate;      // estimate(mechanism, counts, ...)
  EstimationErrors released_errors;                     // Q̂ as an estimate of P̄ (biased towards the mechanism's mix)
  std::optional<EstimationErrors> population_errors;   // projected affine estimate vs P̄
  std::optional<EstimationErrors> point_mass_errors;   // projected point-mass inversion vs P̄ (exact target only
                                                       //   under the point_masses model)
};

// point_masses / dirichlet: `population` is a histogram over the k categories (validated, normalised); N users.
// The per-user models (dirichlet, given) privatize each user with sample_many(mechanism, P_i, 1, bits).
[[nodiscard]] SimulationResult simulate(const Mechanism& mechanism, std::span<const double> population,
                                        const SimulationOptions& options, RandomBits& bits);

// given: `users` holds N histograms of k entries each, row-major (users.size() = N·k, k >= 1). The users' histograms
// are the population: a non-empty `population` (a caller passing one along, e.g. JS options.population) is refused,
// as is options.concentration, with std::invalid_argument naming the option.
[[nodiscard]] SimulationResult simulate_given(const Mechanism& mechanism, std::span<const double> users,
                                              std::size_t k, const SimulationOptions& options, RandomBits& bits,
                                              std::span<const double> population = {});

// The released counts alone for N point-mass users with item counts `items` (items[x] users hold item x): the
// fast path of simulate (the point-mass law, or laplace-projection's own draw) and its baseline (one sample() per user).
[[nodiscard]] std::vector<double> release_point_masses(const Mechanism& mechanism,
                                                       std::span<const double> items, RandomBits& bits);
[[nodiscard]] std::vector<double> release_point_masses_per_user(const Mechanism& mechanism,
                                                                std::span<const double> items, RandomBits& bits);

}  // namespace privsample
