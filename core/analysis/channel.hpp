#pragma once
// The channel view of a finite mechanism (analysis layer: the mechanism registry does not include it): the
// ChannelMatrix W(i, y) = Pr(output y | input i) over a list of input histograms, which the accountant, the
// estimators and the simulations read (docs/analysis/accountant.md#channel-view).
#include <cstddef>
#include <span>
#include <vector>

#include "analysis/accountant.hpp"
#include "mechanisms/mechanism.hpp"

namespace privsample {

// The inputs the accountant looks at when the caller gives none: the k point masses (a user who holds one
// item), as counts of `records` for the record-level mechanisms (all n records on one letter).
[[nodiscard]] std::vector<std::vector<double>> point_mass_inputs(const Mechanism& mechanism, std::size_t k);

// The channel view: row i is the mechanism's output distribution for inputs[i] (at least one input, all of the
// same length; rows·k <= kMaxChannelEntries).
[[nodiscard]] ChannelMatrix channel_matrix(const Mechanism& mechanism,
                                           std::span<const std::vector<double>> inputs);

}  // namespace privsample
