// Times the simulation of N = 10^6 point-mass users (simulate.hpp) for k = 10, 100, 1000 against two baselines
// measured in the same run, and prints ratios:
//   per-user draw     one draw per user from the output law of the user's item, the law computed once per item
//                     (sample_many per item: the fast path's inputs, but a DiscreteSampler draw per user);
//   per-user sample   what a loop over users calling the sampler does: the output law computed for every user,
//                     then one draw (timed on 10^4 users and scaled to 10^6, since it is O(N·k)).
// The fast path draws one Multinomial(n_x, distribution(e_x)) per item x by sequential binomials: O(k² + k·log N).
// Mechanism: minimax (Park clip) at ε = 1; population: Zipf(1.1) over the k items; seeded randomness.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

#include "mechanisms/mechanism.hpp"
#include "analysis/channel.hpp"
#include "base/randomness.hpp"
#include "analysis/simulate.hpp"
#include "timing.hpp"

namespace {

using privsample_bench::sink;

// At least 3 runs (a simulation takes long), within about 0.5 s.
template <class Body>
double median_seconds(Body&& body) {
  return privsample_bench::median_seconds(body, {3, 0.5, 100});
}

}  // namespace

int main() {
  using namespace privsample;
  MechanismOptions options;
  options.epsilon = 1.0;
  const Mechanism mechanism = make_finite_mechanism("minimax", options);
  constexpr std::size_t kUsers = 1'000'000;
  std::printf("N = %zu point-mass users, minimax eps = 1, Zipf(1.1) population; median wall times\n", kUsers);
  std::printf("%6s %14s %14s %14s %16s %12s %12s\n", "k", "fast (ms)", "simulate (ms)", "per-draw (ms)",
              "per-sample (ms)", "draw/fast", "sample/fast");
  for (const std::size_t k : {10, 100, 1000}) {
    std::vector<double> population(k);
    for (std::size_t x = 0; x < k; ++x) population[x] = 1.0 / std::pow(static_cast<double>(x + 1), 1.1);
    SeededRandom bits(2026);
    std::vector<double> items;
    for (const auto c : multinomial(bits, kUsers, population)) items.push_back(static_cast<double>(c));

    const double fast = median_seconds([&] { sink = sink + release_point_masses(mechanism, items, bits)[0]; });
    // The whole batch call: items, counts, the three estimates (k = 1000 includes a 1000×1000 inversion) and errors.
    SimulationOptions so;
    so.users = kUsers;
    const double whole = median_seconds([&] { sink = sink + simulate(mechanism, population, so, bits).counts[0]; });
    const double per_draw =
        median_seconds([&] { sink = sink + release_point_masses_per_user(mechanism, items, bits)[0]; });
    // Per-user sample on 10^4 users (same item mix), scaled by 100.
    const auto inputs = point_mass_inputs(mechanism, k);
    std::vector<std::size_t> user_items;
    for (std::size_t x = 0; x < k; ++x) {
      for (double i = 0; i < items[x] / 100.0 - 0.5; i += 1.0) user_items.push_back(x);
    }
    const double per_sample_small = median_seconds([&] {
      std::vector<double> counts(k, 0.0);
      for (const std::size_t x : user_items) counts[sample_many(mechanism, inputs[x], 1, bits)[0]] += 1.0;
      sink = sink + counts[0];
    });
    const double per_sample = per_sample_small * static_cast<double>(kUsers) / static_cast<double>(user_items.size());
    std::printf("%6zu %14.2f %14.2f %14.2f %16.1f %12.1f %12.1f\n", k, 1e3 * fast, 1e3 * whole, 1e3 * per_draw,
                1e3 * per_sample, per_draw / fast, per_sample / fast);
  }
  return 0;
}
