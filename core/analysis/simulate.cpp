#include "analysis/simulate.hpp"
#include "analysis/channel.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "base/errors.hpp"
#include "model/histogram.hpp"
#include "base/numeric.hpp"

namespace privsample {
namespace {

// Below this many holders per category an item's outputs are drawn one per holder instead of as a multinomial.
constexpr double kMultinomialPerUserFactor = 2.0;

}  // namespace

std::vector<MixtureParameters> random_mixtures(RandomBits& bits, std::size_t count, double poisson_mean,
                                               std::size_t max_components, double mean_range) {
  if (count > 1'000'000) throw std::invalid_argument("count = " + std::to_string(count) + ": must be at most 1000000");
  // Knuth's product method compares with e^{−mean}, which must stay a positive normal double: e^{−700} ≈ 1e-304.
  constexpr double kMaxPoissonMean = 700.0;
  if (!(poisson_mean > 0.0 && poisson_mean <= kMaxPoissonMean)) {
    throw std::invalid_argument("options.poissonMean = " + format_value(poisson_mean) + ": must be in (0, 700]");
  }
  if (max_components < 1 || max_components > 1000) {
    throw std::invalid_argument("maxComponents = " + std::to_string(max_components) + ": must be in [1, 1000]");
  }
  if (!(std::isfinite(mean_range) && mean_range >= 0.0)) {
    throw std::invalid_argument("options.meanRange = " + format_value(mean_range) + ": must be finite and >= 0");
  }
  const double limit = std::exp(-poisson_mean);  // > 0 for mean <= kMaxPoissonMean
  std::vector<MixtureParameters> out(count);
  for (MixtureParameters& mixture : out) {
    std::size_t poisson = 0;
    for (double product = uniform01(bits); product > limit; product *= uniform01(bits)) ++poisson;
    const std::size_t k = std::min(poisson + 1, max_components);
    mixture.means.resize(k);
    for (double& m : mixture.means) m = mean_range * (2.0 * uniform01(bits) - 1.0);
    mixture.weights.resize(k);
    double total = 0.0;
    for (double& w : mixture.weights) {
      w = -std::log1p(-uniform01(bits));  // Exp(1); 1 − u in (0, 1], so finite and >= 0
      total += w;
    }
    if (!(total > 0.0)) {
      // every draw was u = 0 (probability 2^{−53k}): equal weights, the Dirichlet's mean
      std::fill(mixture.weights.begin(), mixture.weights.end(), 1.0);
      total = static_cast<double>(k);
    }
    for (double& w : mixture.weights) w /= total;
  }
  return out;
}

EstimationErrors estimation_errors(std::span<const double> truth, std::span<const double> estimate) {
  if (truth.size() != estimate.size()) {
    throw std::invalid_argument("estimate has " + std::to_string(estimate.size()) + " entries but truth has " +
                                std::to_string(truth.size()));
  }
  const std::vector<double> p = normalized_pmf(truth, "truth");
  const std::vector<double> q = normalized_pmf(estimate, "estimate");
  EstimationErrors e;
  double l1 = 0.0;
  double l2 = 0.0;
  for (std::size_t x = 0; x < p.size(); ++x) {
    const double d = std::fabs(p[x] - q[x]);
    l1 += d;
    l2 += d * d;
    e.max_abs = std::max(e.max_abs, d);
  }
  e.tv = 0.5 * l1;
  e.l2 = std::sqrt(l2);
  e.kl = divergence(NamedDivergence::kl, p, q);
  return e;
}

namespace {

std::size_t checked_users(std::size_t users) {
  if (users < 1 || users > kMaxSimulatedUsers) {
    throw std::invalid_argument("options.users = " + std::to_string(users) + ": must be an integer in [1, " +
                                std::to_string(kMaxSimulatedUsers) + "]");
  }
  return users;
}

// Estimates and errors once the counts and the truth are known.
SimulationResult finish(const Mechanism& mechanism, SimulationResult result, const SimulationOptions& options) {
  result.estimate = estimate(mechanism, result.counts, options.alpha, options.divergence, options.point_mass_inversion);
  result.released_errors = estimation_errors(result.truth, result.estimate.released.q);
  if (result.estimate.population) {
    result.population_errors = estimation_errors(result.truth, result.estimate.population->projected);
  }
  if (result.estimate.point_masses) {
    result.point_mass_errors = estimation_errors(result.truth, result.estimate.point_masses->projected);
  }
  return result;
}

// One user's histogram → one released category (the mechanism's own sampler; fresh noise for laplace-projection).
std::size_t release_one(const Mechanism& mechanism, std::span<const double> hist, RandomBits& bits) {
  return sample_many(mechanism, hist, 1, bits).front();
}

// Each item's holders split three ways — their item (into counts), the floor, the lift (the totals) — by sequential
// binomials, a Multinomial(items[x]; spike[x], Σfloor, theta[x]·Σlift) per item. No object with a destructor is
// alive here, so where C++ exceptions are handled on the JavaScript side (Emscripten's -fexceptions) each draw is a
// direct call, not a trip through a JavaScript invoke_* wrapper, which a live vector in the frame would force.
[[gnu::noinline]] void split_items(const PointMassLaw& law, double floor_mass, double lift_mass,
                                   std::span<const double> items, RandomBits& bits, std::span<double> counts,
                                   std::uint64_t& on_floor, std::uint64_t& on_lift) {
  for (std::size_t x = 0; x < items.size(); ++x) {
    if (items[x] == 0.0) continue;
    const double lift = law.theta.empty() ? 0.0 : law.theta[x] * lift_mass;
    const double away = floor_mass + lift;
    const auto holders = static_cast<std::uint64_t>(items[x]);
    const std::uint64_t own = binomial(bits, holders, std::clamp(law.spike[x] / (law.spike[x] + away), 0.0, 1.0));
    const std::uint64_t floor = away > 0.0 ? binomial(bits, holders - own, std::clamp(floor_mass / away, 0.0, 1.0)) : 0;
    counts[x] += static_cast<double>(own);
    on_floor += floor;
    on_lift += holders - own - floor;
  }
}

// The released counts of point-mass users from the mechanism's point-mass law (PointMassLaw, spec.hpp): each item's
// holders split three ways (split_items), and the floor's and the lift's totals are then spread by one multinomial
// each. O(k) work whatever N is, and the counts have the mechanism's law.
std::vector<double> counts_from_law(const PointMassLaw& law, std::span<const double> items, RandomBits& bits) {
  const std::size_t k = items.size();
  std::vector<double> counts(k, 0.0);
  CompensatedSum floor_sum;
  CompensatedSum lift_sum;
  for (const double v : law.floor) floor_sum.add(v);
  for (const double v : law.lift) lift_sum.add(v);
  std::uint64_t on_floor = 0;
  std::uint64_t on_lift = 0;
  split_items(law, floor_sum.value(), lift_sum.value(), items, bits, counts, on_floor, on_lift);
  if (on_floor > 0) {
    const std::vector<std::uint64_t> spread = multinomial(bits, on_floor, law.floor);
    for (std::size_t y = 0; y < k; ++y) counts[y] += static_cast<double>(spread[y]);
  }
  if (on_lift > 0) {
    const std::vector<std::uint64_t> spread = multinomial(bits, on_lift, law.lift);
    for (std::size_t y = 0; y < k; ++y) counts[y] += static_cast<double>(spread[y]);
  }
  return counts;
}

// The released counts of point-mass users: one draw per user when per_user is set; else the mechanism's point-mass
// law (O(k)), or its own draw of such users (laplace-projection: fresh noise per user, O(1) each).
std::vector<double> released_counts(const Mechanism& mechanism, std::span<const double> items, RandomBits& bits,
                                    bool per_user) {
  validated_sample_counts(items, &mechanism, "items");
  const std::size_t k = items.size();
  if (!per_user) {
    if (const std::optional<PointMassLaw> law = point_mass_law(mechanism, k)) return counts_from_law(*law, items, bits);
    if (std::optional<std::vector<double>> counts = point_mass_counts(mechanism, items, bits)) return std::move(*counts);
  }
  std::vector<double> counts(k, 0.0);
  std::vector<double> input(k, 0.0);
  const double mass = guarantee(mechanism).notion == PrivacyNotion::record_dp ? guarantee(mechanism).records : 1.0;
  for (std::size_t x = 0; x < k; ++x) {
    if (items[x] == 0.0) continue;
    input[x] = mass;
    if (per_user) {
      for (const std::uint32_t y : sample_many(mechanism, input, static_cast<std::size_t>(items[x]), bits)) {
        counts[y] += 1.0;
      }
      input[x] = 0.0;
      continue;
    }
    // All holders of item x share the law distribution(e_x): their outputs are one Multinomial(items[x], row).
    const std::vector<double> row = distribution(mechanism, input);
    input[x] = 0.0;
    if (items[x] < kMultinomialPerUserFactor * static_cast<double>(k)) {
      // Few holders: k sequential binomials cost more than one draw per holder after an O(k) table; the law of the
      // counts is the same.
      const DiscreteSampler sampler(row);
      for (double i = 0.0; i < items[x]; i += 1.0) counts[sampler.draw(bits)] += 1.0;
      continue;
    }
    const std::vector<std::uint64_t> drawn = multinomial(bits, static_cast<std::uint64_t>(items[x]), row);
    for (std::size_t y = 0; y < k; ++y) counts[y] += static_cast<double>(drawn[y]);
  }
  return counts;
}

}  // namespace

std::vector<double> release_point_masses(const Mechanism& mechanism, std::span<const double> items,
                                         RandomBits& bits) {
  return released_counts(mechanism, items, bits, /*per_user=*/false);
}

std::vector<double> release_point_masses_per_user(const Mechanism& mechanism, std::span<const double> items,
                                                  RandomBits& bits) {
  return released_counts(mechanism, items, bits, /*per_user=*/true);
}

SimulationResult simulate(const Mechanism& mechanism, std::span<const double> population,
                          const SimulationOptions& options, RandomBits& bits) {
  validated_alpha(options.alpha);
  const std::vector<double> pop = normalized_pmf(population, "options.population");
  const std::size_t k = pop.size();
  const std::size_t n = checked_users(options.users);
  const Guarantee g = guarantee(mechanism);
  const bool records = g.notion == PrivacyNotion::record_dp;
  SimulationResult result;
  result.model = pop;  // E[P] for both models: each item's share, and the Dirichlet(c·pop) mean
  if (options.model == PopulationModel::point_masses) {
    if (options.concentration) {
      throw_invalid({"options.concentration = ", *options.concentration,
                     ": model 'point-masses' gives each user one item and has no concentration; use model 'dirichlet' "
                     "for users' histograms drawn from Dirichlet(concentration · population)"});
    }
    const std::vector<std::uint64_t> items = multinomial(bits, n, pop);
    result.items.assign(items.begin(), items.end());
    result.truth.resize(k);
    for (std::size_t x = 0; x < k; ++x) result.truth[x] = result.items[x] / static_cast<double>(n);
    result.counts = release_point_masses(mechanism, result.items, bits);
    return finish(mechanism, std::move(result), options);
  }
  if (options.model == PopulationModel::dirichlet) {
    const double concentration = options.concentration.value_or(1.0);
    if (!(concentration > 0.0) || !std::isfinite(concentration)) {
      throw_invalid({"options.concentration = ", concentration, ": must be finite and > 0"});
    }
    if (static_cast<double>(n) * static_cast<double>(k) > kMaxDirichletEntries) {
      throw_invalid({"options.users = ", static_cast<double>(n), ": model 'dirichlet' draws a histogram of k = ",
                     static_cast<double>(k), " categories for every user, ", static_cast<double>(n) *
                     static_cast<double>(k), " numbers in all; at most ", kMaxDirichletEntries, " (use fewer users, "
                     "or model 'point-masses', whose cost does not grow with the number of users)"});
    }
    std::vector<double> alpha(pop);
    for (double& a : alpha) a *= concentration;
    std::vector<CompensatedSum> truth(k);
    result.counts.assign(k, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
      std::vector<double> p = dirichlet(bits, alpha);
      if (records) {
        // A record-level user holds n_rec records drawn from P; their P is the record histogram / n_rec.
        const std::vector<std::uint64_t> c = multinomial(bits, static_cast<std::uint64_t>(g.records), p);
        for (std::size_t x = 0; x < k; ++x) p[x] = static_cast<double>(c[x]);
      }
      const std::vector<double> pmf = normalized_pmf(p, "user");
      for (std::size_t x = 0; x < k; ++x) truth[x].add(pmf[x]);
      result.counts[release_one(mechanism, p, bits)] += 1.0;
    }
    result.truth.resize(k);
    for (std::size_t x = 0; x < k; ++x) result.truth[x] = truth[x].value() / static_cast<double>(n);
    return finish(mechanism, std::move(result), options);
  }
  throw std::invalid_argument("options.model = given: call simulate_given with the users' histograms");
}

SimulationResult simulate_given(const Mechanism& mechanism, std::span<const double> users, std::size_t k,
                                const SimulationOptions& options, RandomBits& bits,
                                std::span<const double> population) {
  if (!population.empty()) {
    throw_invalid({"options.population: model 'given' takes the users' histograms (options.users) as the population; "
                   "omit options.population, or use model 'point-masses' or 'dirichlet' to draw users from it"});
  }
  if (options.concentration) {
    throw_invalid({"options.concentration = ", *options.concentration,
                   ": model 'given' uses the users' histograms as they are and has no concentration; use model "
                   "'dirichlet' for users' histograms drawn from Dirichlet(concentration · population)"});
  }
  validated_alpha(options.alpha);
  check_category_count(k, "k");
  if (users.empty() || users.size() % k != 0) {
    throw std::invalid_argument("users has " + std::to_string(users.size()) +
                                " entries: it must hold N >= 1 histograms of k = " + std::to_string(k) +
                                " entries each (row-major)");
  }
  const std::size_t n = checked_users(users.size() / k);
  SimulationResult result;
  std::vector<CompensatedSum> truth(k);
  result.counts.assign(k, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    const std::span<const double> hist = users.subspan(i * k, k);
    const std::vector<double> pmf = normalized_pmf(hist, "users[" + std::to_string(i) + "]");
    for (std::size_t x = 0; x < k; ++x) truth[x].add(pmf[x]);
    result.counts[release_one(mechanism, hist, bits)] += 1.0;
  }
  result.truth.resize(k);
  for (std::size_t x = 0; x < k; ++x) result.truth[x] = truth[x].value() / static_cast<double>(n);
  return finish(mechanism, std::move(result), options);
}

}  // namespace privsample
