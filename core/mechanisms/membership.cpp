// Class membership of an input (membership.hpp; docs/notions.md#classes-of-inputs). Both sides are normalised
// first, so the ratios compare pmfs whatever scale the caller used.
#include "mechanisms/membership.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "mechanisms/neighbourhood.hpp"
#include "base/errors.hpp"
#include "model/histogram.hpp"

namespace privsample {

ClassMembership class_membership(const DensityClass& cls, std::span<const double> input, std::string_view name) {
  const std::vector<double> p = normalized_pmf(input, name);
  if (p.size() != cls.h.size()) {
    throw ShapeError(std::string(name) + " has " + std::to_string(p.size()) + " entries but the reference has " +
                     std::to_string(cls.h.size()));
  }
  ClassMembership out;
  out.min_ratio = std::numeric_limits<double>::infinity();
  out.inside = true;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p[i] > cls.c2 * cls.h[i] * (1.0 + kClassTolerance)) out.inside = false;
    if (p[i] < cls.c1 * cls.h[i] * (1.0 - kClassTolerance)) out.inside = false;
    if (cls.h[i] > 0.0) {
      const double ratio = p[i] / cls.h[i];
      out.min_ratio = std::min(out.min_ratio, ratio);
      out.max_ratio = std::max(out.max_ratio, ratio);
    } else if (p[i] > 0.0) {
      out.max_ratio = std::numeric_limits<double>::infinity();  // mass where the reference has none
    }
  }
  return out;
}

ClassMembership neighbourhood_membership(std::span<const double> hist, std::span<const double> prior, double gamma) {
  const double g = validated_gamma(gamma);
  check_category_count(prior.size(), "prior");
  const std::vector<double> p0 = validated_prior(prior, prior.size());
  if (hist.size() != p0.size()) {
    throw ShapeError("hist has " + std::to_string(hist.size()) + " entries but the prior has " +
                     std::to_string(p0.size()));
  }
  // N_γ(P0) = P̃_{1/γ,γ,P0}; P0 is already normalised, so density_class leaves c1 and c2 as they are.
  return class_membership(density_class(p0, 1.0 / g, g), hist, "hist");
}

}  // namespace privsample
