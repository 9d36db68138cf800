#include "analysis/channel.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <variant>

#include "base/errors.hpp"
#include "model/histogram.hpp"

namespace privsample {

std::vector<std::vector<double>> point_mass_inputs(const Mechanism& mechanism, std::size_t k) {
  check_category_count(k, "k");
  // Checked before anything is allocated: k point masses of k categories are k² numbers.
  if (k > kMaxChannelEntries / k) {
    throw_invalid({"k = ", k, ": the accountant's channel over the k point masses has k² = ", k, "² entries; at most ",
                   kMaxChannelEntries, " are supported (k <= ",
                   static_cast<std::size_t>(std::sqrt(static_cast<double>(kMaxChannelEntries))), ")"});
  }
  const Guarantee g = guarantee(mechanism);
  const double mass = g.notion == PrivacyNotion::record_dp ? g.records : 1.0;
  std::vector<std::vector<double>> inputs(k, std::vector<double>(k, 0.0));
  for (std::size_t x = 0; x < k; ++x) inputs[x][x] = mass;
  return inputs;
}

ChannelMatrix channel_matrix(const Mechanism& mechanism, std::span<const std::vector<double>> inputs) {
  if (inputs.empty()) throw std::invalid_argument("inputs is empty: the channel needs at least one input histogram");
  if (!has_exact_distribution(mechanism)) {
    // Its distribution() is a Monte-Carlo estimate; an accountant on it under-reports ε (1.4488 instead of
    // 1.4586 at ε = 2, n = 2), so it is refused rather than approximated.
    throw std::domain_error(
        "the accountant needs each input's exact output law; 'laplace-projection' only has a Monte-Carlo estimate of "
        "it, which would under-report epsilon: rely on its stated guarantee (record-level epsilon-DP) instead");
  }
  const std::size_t k = inputs.front().size();
  if (k == 0 || inputs.size() > kMaxChannelEntries / k) {
    throw_invalid({"inputs: ", inputs.size(), " histograms of ", k, " categories; the channel may have at most ",
                   kMaxChannelEntries, " entries"});
  }
  ChannelMatrix w(static_cast<Eigen::Index>(inputs.size()), static_cast<Eigen::Index>(k));
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].size() != k) {
      throw_shape({"inputs[", i, "] has ", inputs[i].size(), " categories but inputs[0] has ", k});
    }
    const std::vector<double> row = distribution(mechanism, inputs[i]);
    for (std::size_t y = 0; y < k; ++y) w(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(y)) = row[y];
  }
  return w;
}

}  // namespace privsample
