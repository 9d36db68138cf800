// The local linear sampler on grid cells (Ghoukasian et al. Thm 4.1; cells.md#local-linear-sampler): linked only where
// a mechanism is made on cells.
#include <algorithm>
#include <memory>

#include "base/numeric.hpp"
#include "mechanisms/local-linear/local_linear_cells.hpp"

namespace privsample {

LocalLinearSampler LocalLinearSampler::make_on_cells(const MechanismOptions& o) {
  const Guarantee g = checked_options(cells_spec, o);
  auto cells = std::make_shared<const LocalLinearOnCells>(g, *o.prior, *o.gamma);
  LocalLinearSampler sampler(g, *o.gamma);
  sampler.prior_ = cells->prior();
  sampler.lambda_ = cells->lambda();
  sampler.complement_ = 1.0 - sampler.lambda_;
  sampler.cells_ = std::move(cells);
  return sampler;
}

}  // namespace privsample
