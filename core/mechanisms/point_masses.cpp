#include "mechanisms/point_masses.hpp"

#include <algorithm>
#include <vector>

#include "base/numeric.hpp"

namespace privsample {

PointMassLaw clip_point_masses(std::span<const double> lo, std::span<const double> hi) {
  const std::size_t k = lo.size();
  PointMassLaw law{std::vector<double>(lo.begin(), lo.end()), std::vector<double>(k), std::vector<double>(k, 0.0),
                   std::vector<double>(k, 0.0)};
  CompensatedSum low;
  CompensatedSum high;
  for (std::size_t x = 0; x < k; ++x) {
    law.lift[x] = hi[x] - lo[x];
    low.add(lo[x]);
    high.add(hi[x]);
  }
  const double floors = low.value();
  const double tops = high.value();
  for (std::size_t x = 0; x < k; ++x) {
    const double others_low = floors - lo[x];
    if (hi[x] == 0.0) {
      // No mass where the box allows any: the data-independent lo + θ(hi − lo) over every atom.
      law.theta[x] = tops > floors ? std::clamp((1.0 - floors) / (tops - floors), 0.0, 1.0) : 0.0;
    } else if (hi[x] + others_low >= 1.0) {
      law.spike[x] = std::max(0.0, 1.0 - floors);  // Case A: x takes what the floors leave
    } else {
      // Case B: x at its top, the others at lo + θ(hi − lo).
      const double others_lift = (tops - hi[x]) - others_low;
      law.theta[x] = others_lift > 0.0 ? std::clamp((1.0 - hi[x] - others_low) / others_lift, 0.0, 1.0) : 0.0;
      law.spike[x] = (1.0 - law.theta[x]) * (hi[x] - lo[x]);
    }
  }
  return law;
}

PointMassLaw uniform_clip_point_masses(std::size_t k, double lo, double hi) {
  return clip_point_masses(std::vector<double>(k, lo), std::vector<double>(k, hi));
}

PointMassLaw mixture_point_masses(std::span<const double> floor, double spike) {
  return {std::vector<double>(floor.begin(), floor.end()), {}, {}, std::vector<double>(floor.size(), spike)};
}

}  // namespace privsample
