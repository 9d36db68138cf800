// The minimax clip sampler on grid cells (Park et al. Thm 3.3; cells.md#minimax-clip-sampler): linked only where a
// mechanism is made on cells.
#include <memory>
#include <utility>

#include "mechanisms/minimax/minimax_cells.hpp"
#include "privacy/privacy_box.hpp"

namespace privsample {

MinimaxSampler MinimaxSampler::make_on_cells(const MechanismOptions& o) {
  (void)checked_options(cells_spec, o);
  MinimaxSampler sampler(*o.epsilon);
  sampler.cells_ = std::make_shared<const MinimaxOnCells>(sampler.epsilon_, *o.reference,
                                                          o.c1.value_or(option_default(cells_spec, "c1")), *o.c2);
  return sampler;
}

}  // namespace privsample
