#include "analysis/simulate.hpp"
#include "analysis/channel.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "base/errors.hpp"
#include "model/histogram.hpp"
#include "base/numeric.hpp"

namespace privsample {
namespace {

// Below this mean n·min(p, 1−p) the cdf search is cheap (expected <= 21 steps) and q^n cannot underflow
// (q >= ½ and n·p < 20 give q^n >= e^{−28}).
constexpr double kInversionMean = 20.0;

// Below this many holders per category an item's outputs are drawn one per holder instead of as a multinomial.
constexpr double kMultinomialPerUserFactor = 2.0;

// Bin(n, p) for p <= ½ by sequential search of the cdf: f(x+1)/f(x) = ((n+1)/x' − 1)·p/q with x' = x + 1.
std::uint64_t binomial_inversion(RandomBits& bits, std::uint64_t n, double p) {
  const double q = 1.0 - p;
  const double s = p / q;
  const double a = (static_cast<double>(n) + 1.0) * s;
  const double r0 = std::exp(static_cast<double>(n) * std::log1p(-p));
  for (;;) {
    double u = uniform01(bits);
    double r = r0;
    std::uint64_t x = 0;
    while (u >= r) {
      u -= r;
      ++x;
      if (x > n || r <= 0.0) break;  // rounding left u above the last cdf step: draw again
      r *= a / static_cast<double>(x) - s;
    }
    if (x <= n && u < r) return x;
  }
}

double standard_normal(RandomBits& bits) {
  // Box–Muller with u1 in (0, 1] so the log is finite.
  const double u1 = 1.0 - uniform01(bits);
  const double u2 = uniform01(bits);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

double beta_draw(RandomBits& bits, double a, double b) {
  const double x = gamma_draw(bits, a);
  const double y = gamma_draw(bits, b);
  return x / (x + y);
}

std::vector<double> checked_pmf(std::span<const double> values, std::string_view name) {
  return normalized_pmf(values, name);
}

}  // namespace

std::uint64_t binomial(RandomBits& bits, std::uint64_t n, double p) {
  if (!(p >= 0.0 && p <= 1.0)) {
    throw std::invalid_argument("p = " + format_value(p) + ": a binomial probability must be in [0, 1]");
  }
  std::uint64_t below = 0;  // successes already accounted for
  bool flipped = false;     // drawing failures instead (p > ½)
  if (p > 0.5) {
    p = 1.0 - p;
    flipped = true;
  }
  const std::uint64_t total = n;
  // Knuth's splitting: the a-th smallest of n uniforms is X ~ Beta(a, n + 1 − a). If X >= p the successes are among
  // the a − 1 smaller ones, uniform on [0, X): Bin(a − 1, p/X). Otherwise a successes plus Bin(n − a, (p − X)/(1 − X)).
  while (n > 0 && p > 0.0 && static_cast<double>(n) * std::min(p, 1.0 - p) >= kInversionMean) {
    const std::uint64_t a = 1 + n / 2;
    const std::uint64_t b = n + 1 - a;
    const double x = beta_draw(bits, static_cast<double>(a), static_cast<double>(b));
    if (x >= p) {
      n = a - 1;
      p = p / x;
    } else {
      below += a;
      n = b - 1;
      p = (p - x) / (1.0 - x);
    }
    p = std::clamp(p, 0.0, 1.0);
  }
  std::uint64_t rest = 0;
  if (n > 0 && p > 0.0) {
    rest = p <= 0.5 ? binomial_inversion(bits, n, p) : n - binomial_inversion(bits, n, 1.0 - p);
  }
  const std::uint64_t successes = below + rest;
  return flipped ? total - successes : successes;
}

std::vector<std::uint64_t> multinomial(RandomBits& bits, std::uint64_t n, std::span<const double> probs) {
  const std::vector<double> p = checked_pmf(probs, "probs");
  std::vector<std::uint64_t> out(p.size(), 0);
  // Suffix masses, so the conditional probability p_x / Σ_{y>=x} p_y is computed without cancellation.
  std::vector<double> suffix(p.size() + 1, 0.0);
  for (std::size_t x = p.size(); x-- > 0;) suffix[x] = suffix[x + 1] + p[x];
  std::uint64_t left = n;
  for (std::size_t x = 0; x < p.size() && left > 0; ++x) {
    if (x + 1 == p.size()) {
      out[x] = left;
      break;
    }
    const double conditional = suffix[x] > 0.0 ? std::clamp(p[x] / suffix[x], 0.0, 1.0) : 0.0;
    out[x] = binomial(bits, left, conditional);
    left -= out[x];
  }
  return out;
}

double gamma_draw(RandomBits& bits, double shape) {
  if (!(shape > 0.0) || !std::isfinite(shape)) {
    throw std::invalid_argument("shape = " + format_value(shape) + ": a gamma shape must be finite and > 0");
  }
  if (shape < 1.0) {
    // G(a) = G(a + 1)·U^{1/a} (Marsaglia & Tsang 2000, §6); U in (0, 1].
    const double u = 1.0 - uniform01(bits);
    return gamma_draw(bits, shape + 1.0) * std::pow(u, 1.0 / shape);
  }
  const double d = shape - 1.0 / 3.0;
  const double c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    const double x = standard_normal(bits);
    const double t = 1.0 + c * x;
    if (t <= 0.0) continue;
    const double v = t * t * t;
    const double u = uniform01(bits);
    if (u < 1.0 - 0.0331 * x * x * x * x) return d * v;
    if (std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v))) return d * v;
  }
}

std::vector<double> dirichlet(RandomBits& bits, std::span<const double> alpha) {
  std::vector<double> g(alpha.size(), 0.0);
  double total = 0.0;
  for (std::size_t i = 0; i < alpha.size(); ++i) {
    if (!std::isfinite(alpha[i]) || alpha[i] < 0.0) {
      throw std::invalid_argument("alpha[" + std::to_string(i) + "] = " + format_value(alpha[i]) +
                                  ": Dirichlet parameters must be finite and >= 0");
    }
    if (alpha[i] > 0.0) g[i] = gamma_draw(bits, alpha[i]);
    total += g[i];
  }
  if (!(total > 0.0)) {
    // Every gamma underflowed (tiny shapes): the limit is a point mass at a coordinate drawn ∝ alpha.
    g[DiscreteSampler(alpha).draw(bits)] = 1.0;
    return g;
  }
  for (double& v : g) v /= total;
  return g;
}

std::vector<MixtureParameters> random_mixtures(RandomBits& bits, std::size_t count, double poisson_mean,
                                               std::size_t max_components, double mean_range) {
  if (count > 1'000'000) throw std::invalid_argument("count = " + std::to_string(count) + ": must be at most 1000000");
  if (!(poisson_mean > 0.0 && poisson_mean <= 700.0)) {
    throw std::invalid_argument("poissonMean = " + format_value(poisson_mean) + ": must be in (0, 700]");
  }
  if (max_components < 1 || max_components > 1000) {
    throw std::invalid_argument("maxComponents = " + std::to_string(max_components) + ": must be in [1, 1000]");
  }
  if (!(std::isfinite(mean_range) && mean_range >= 0.0)) {
    throw std::invalid_argument("meanRange = " + format_value(mean_range) + ": must be finite and >= 0");
  }
  const double limit = std::exp(-poisson_mean);  // > 0 for mean <= 700
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
    throw std::invalid_argument("users = " + std::to_string(users) + ": must be an integer in [1, " +
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

// The released counts of point-mass users: one draw per user when per_user is set, else one multinomial per item.
std::vector<double> released_counts(const Mechanism& mechanism, std::span<const double> items, RandomBits& bits,
                                    bool per_user) {
  validated_sample_counts(items, &mechanism, "items");
  const std::size_t k = items.size();
  const std::vector<std::vector<double>> inputs = point_mass_inputs(mechanism, k);
  std::vector<double> counts(k, 0.0);
  for (std::size_t x = 0; x < k; ++x) {
    if (items[x] == 0.0) continue;
    if (per_user) {
      for (const std::uint32_t y : sample_many(mechanism, inputs[x], static_cast<std::size_t>(items[x]), bits)) {
        counts[y] += 1.0;
      }
      continue;
    }
    // All holders of item x share the law distribution(e_x): their outputs are one Multinomial(items[x], row).
    const std::vector<double> row = distribution(mechanism, inputs[x]);
    if (items[x] < kMultinomialPerUserFactor * static_cast<double>(k)) {
      // Few holders: k sequential binomials (~50 ns each) cost more than one draw per holder (~20 ns each after an
      // O(k) table); the law of the counts is the same.
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
  // laplace-projection's distribution() is only an estimate: draw every user with fresh noise.
  return released_counts(mechanism, items, bits, !has_exact_distribution(mechanism));
}

std::vector<double> release_point_masses_per_user(const Mechanism& mechanism, std::span<const double> items,
                                                  RandomBits& bits) {
  return released_counts(mechanism, items, bits, /*per_user=*/true);
}

SimulationResult simulate(const Mechanism& mechanism, std::span<const double> population,
                          const SimulationOptions& options, RandomBits& bits) {
  validated_alpha(options.alpha);
  const std::vector<double> pop = normalized_pmf(population, "population");
  const std::size_t k = pop.size();
  const std::size_t n = checked_users(options.users);
  const Guarantee g = guarantee(mechanism);
  const bool records = g.notion == PrivacyNotion::record_dp;
  SimulationResult result;
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
