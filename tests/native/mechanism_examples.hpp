#pragma once
// Every finite mechanism of the registry with example options, and the variants whose point-mass law takes another
// path (mollifier with a reference, linear and local-linear with δ, linear with μ): shared by the simulation tests and
// bench/simulate_bench.cpp, so that both cover the same configurations. A label is the mechanism's name, then a space
// and the variant in parentheses.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "mechanisms/mechanism.hpp"

namespace privsample_test {

inline std::vector<std::pair<std::string, privsample::MechanismOptions>> mechanism_examples(std::size_t k,
                                                                                            double epsilon) {
  using privsample::MechanismOptions;
  std::vector<double> prior(k);
  for (std::size_t x = 0; x < k; ++x) prior[x] = 1.0 + static_cast<double>((3 * x) % 5);
  std::vector<std::pair<std::string, MechanismOptions>> all;
  for (const std::string& name : privsample::finite_mechanism_names()) {
    MechanismOptions o;
    o.epsilon = epsilon;
    if (name == "local" || name == "local-linear") {
      o.prior = prior;
      o.gamma = 3.0;
    }
    if (name == "roo" || name == "ds-roo" || name == "laplace-projection") o.records = 40.0;
    all.emplace_back(name, o);
    if (name == "mollifier") {
      MechanismOptions r = o;
      r.reference = prior;
      all.emplace_back("mollifier (reference)", r);
    }
    if (name == "linear" || name == "local-linear") {
      MechanismOptions d = o;
      d.delta = 1e-3;
      all.emplace_back(name + " (delta)", d);
    }
    if (name == "linear") {
      MechanismOptions m;
      m.mu = epsilon;
      all.emplace_back("linear (mu)", m);
    }
  }
  return all;
}

}  // namespace privsample_test
