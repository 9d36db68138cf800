#include "mechanisms/neighbourhood.hpp"

#include <cmath>

#include "base/errors.hpp"

namespace privsample {

double validated_gamma(double gamma, std::string_view name) {
  if (!std::isfinite(gamma) || gamma <= 1.0 || gamma > kMaxGamma) {
    throw_invalid({name, " = ", gamma, ": must be a finite number in (1, ", kMaxGamma, "]"});
  }
  return gamma;
}

double validated_gamma(double gamma) { return validated_gamma(gamma, "gamma"); }

void check_prior_size(std::size_t k, std::size_t size, const char* name) {
  if (k != size) throw_shape({"k = ", k, " but the ", name, " has ", size, " categories"});
}

PrivacyBox neighbourhood_box(std::span<const double> prior, double gamma) {
  PrivacyBox box{std::vector<double>(prior.size()), std::vector<double>(prior.size())};
  for (std::size_t x = 0; x < prior.size(); ++x) {
    // Rounded inward (each rounding is within half an ulp, so one step in lands inside), so P̂ lies in N_γ(P0) as
    // real numbers, as the weight's worst-pair check assumes. γ within two ulps of 1: the point p0 itself.
    box.lo[x] = std::nextafter(prior[x] / gamma, 1.0);
    box.hi[x] = std::nextafter(prior[x] * gamma, 0.0);
    if (box.lo[x] > box.hi[x] || prior[x] == 0.0) box.lo[x] = box.hi[x] = prior[x];
  }
  return box;
}

std::string neighbourhood_risk_class() {
  return "every user's P inside N_gamma(P0) = {1/gamma <= P/P0 <= gamma}: the radius is the worst case over it only, "
         "and a user outside it (a user holding one item always is) can be farther from Q-bar, unseen in the counts";
}

std::string outside_region_caveat(std::size_t k, std::string_view region, std::string_view released_as,
                                  std::string_view target) {
  if (k < 2) return "";
  return "users outside " + std::string(region) +
         " (a user holding one item always is, as is every user with a category of share 0) are released, and so "
         "estimated, through " + std::string(released_as) + ": for them the target is " + std::string(target) +
         ", not P-bar, and the counts cannot show it (what such a user releases, a user inside can release too)";
}

}  // namespace privsample
