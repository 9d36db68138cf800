// The linear sampler on grid cells (Park et al. §3.3; Ghoukasian et al. Thm 3.4 / Cor 3.7; cells.md#linear-sampler):
// linked only where a mechanism is made on cells.
#include <algorithm>
#include <memory>

#include "mechanisms/linear/linear_cells.hpp"
#include "solver/clip_normalise.hpp"

namespace privsample {

LinearSampler LinearSampler::make_on_cells(const MechanismOptions& o) {
  const Guarantee g = checked_options(cells_spec, o);
  auto cells = std::make_shared<const LinearOnCells>(g, *o.reference, o.c1.value_or(option_default(cells_spec, "c1")),
                                                     *o.c2);
  LinearSampler sampler(g);
  sampler.cells_ = std::move(cells);
  return sampler;
}

}  // namespace privsample
