#include "privsample/continuous_mechanism.hpp"

#include <stdexcept>
#include <string>

namespace privsample {

ContinuousMechanism make_continuous_mechanism(std::string_view name, const MechanismOptions& o) {
  const MechanismSpec& spec = mechanism_spec(name, MechanismSpace::continuous);
  const Guarantee g = checked_options(spec, o);
  if (name == "minimax") {
    return ContinuousClipSampler(*o.epsilon, *o.reference, o.c1.value_or(option_default(spec, "c1")), *o.c2);
  }
  if (name == "linear") return ContinuousLinearSampler(g, *o.reference, o.c1.value_or(option_default(spec, "c1")), *o.c2);
  if (name == "local") return ContinuousLocalClipSampler(*o.epsilon, *o.prior, *o.gamma);
  if (name == "local-linear") return ContinuousLocalLinearSampler(g, *o.prior, *o.gamma);
  throw std::logic_error("continuous mechanism '" + std::string(name) + "' is in the registry but has no factory");
}

}  // namespace privsample
