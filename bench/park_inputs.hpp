#pragma once
// The histograms the clip-normalise benchmarks solve Park's finite box for (clip_normalise_bench.cpp,
// clip_normalise_ab.cpp): the same generators, so that "dense" and "sparse" mean the same inputs in both.
#include <cmath>
#include <cstddef>
#include <random>
#include <vector>

namespace privsample_bench {

// Dirichlet(0.5) over all k atoms, or (sparse) over a random ~1% of them (atom 0 always among them), normalised.
inline std::vector<double> dirichlet_half(std::size_t k, bool sparse, std::mt19937_64& rng) {
  std::gamma_distribution<double> gamma(0.5, 1.0);
  std::vector<double> p(k, 0.0);
  double total = 0.0;
  for (std::size_t i = 0; i < k; ++i) {
    if (!sparse || rng() % 100 == 0 || i == 0) p[i] = gamma(rng);
    total += p[i];
  }
  for (double& v : p) v /= total;
  return p;
}

// u³ + 1e-12 for uniform u, normalised: flat-topped (many masses near the largest), the opposite of Dirichlet(0.5).
inline std::vector<double> flat_topped(std::size_t k, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::vector<double> p(k);
  double total = 0.0;
  for (double& v : p) total += v = std::pow(uniform(rng), 3) + 1e-12;
  for (double& v : p) v /= total;
  return p;
}

}  // namespace privsample_bench
