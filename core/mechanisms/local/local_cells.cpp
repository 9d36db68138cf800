// The local clip sampler on grid cells (Ghoukasian et al. Thm 5.1; cells.md#local-clip-sampler): linked only where a
// mechanism is made on cells.
#include <memory>

#include "mechanisms/local/local_cells.hpp"

namespace privsample {

LocalClipSampler LocalClipSampler::make_on_cells(const MechanismOptions& o) {
  (void)checked_options(cells_spec, o);
  LocalClipSampler sampler(*o.epsilon, *o.gamma);
  auto cells = std::make_shared<const LocalOnCells>(sampler.epsilon_, *o.prior, sampler.gamma_, local_outside_of(o));
  sampler.prior_ = cells->prior();
  sampler.box_ = cells->box();
  sampler.cells_ = std::move(cells);
  return sampler;
}

}  // namespace privsample
