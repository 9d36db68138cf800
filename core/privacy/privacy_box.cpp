#include "privacy/privacy_box.hpp"
#include "base/errors.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "base/numeric.hpp"

namespace privsample {

double exp_toward_zero(double epsilon) {
  // 1 <= e^ε for ε >= 0 exactly, so the floor at 1 keeps ε = 0 (and ε below an ulp) a box of one point.
  return std::max(1.0, std::nextafter(std::nextafter(std::exp(epsilon), 0.0), 0.0));
}

double private_floor(double lo, double top, double epsilon) {
  const double factor = exp_toward_zero(epsilon);
  double quotient = top / factor;
  // factor·quotient − top exactly (hi − top is exact: hi is within a factor of two of top), whose sign says whether
  // the quotient is below the real top/factor.
  const TwoDoubles product = two_product(factor, quotient);
  if ((product.hi - top) + product.lo < 0.0) {
    quotient = std::nextafter(quotient, std::numeric_limits<double>::infinity());
  }
  return std::max(lo, quotient);
}

namespace {


[[noreturn]] void refuse_underflow(std::string_view name, std::size_t x, double w, double floor, const Guarantee& g) {
  std::string at;
  std::string_view hint = " at this epsilon (or use a smaller epsilon)";
  if (g.notion == PrivacyNotion::gaussian_ldp) {
    at = message({"mu = ", g.mu});
    hint = " at this mu (or use a smaller mu)";
  } else if (g.notion == PrivacyNotion::approximate_ldp) {
    at = message({"epsilon = ", g.epsilon, ", delta = ", g.delta});
    hint = " at these parameters (or use a smaller epsilon or delta)";
  } else {
    at = message({"epsilon = ", g.epsilon});
  }
  // The least entry whose floor is at least kSmallestBoxFloor, as a double (the quotient rounded up where it rounded
  // down).
  double least = kSmallestBoxFloor / floor;
  if (floor * least < kSmallestBoxFloor) least = std::nextafter(least, std::numeric_limits<double>::infinity());
  // w is the entry's share of the weights' total (the sampler normalises them), which is what the caller must raise.
  throw_invalid({name, "[", x, "] = ", w, " (as a share of the total): at ", at, " the sampler's floor for it, ", floor,
                 " × ", w, ", is below 2^-960 (1.0e-289), too small for exact and constant-time arithmetic; entries of ", name,
                 " must be at least ", least, " of the total", hint});
}

}  // namespace

PrivacyBox privacy_box(std::span<const double> weights, double floor, double ceiling, double epsilon,
                       std::string_view name, UnderflowRule rule) {
  return privacy_box(weights, floor, ceiling, Guarantee{PrivacyNotion::pure_ldp, epsilon}, name, rule);
}

PrivacyBox privacy_box(std::span<const double> weights, double floor, double ceiling, const Guarantee& g,
                       std::string_view name, UnderflowRule rule) {
  const bool pure = g.notion == PrivacyNotion::pure_ldp;
  PrivacyBox box{std::vector<double>(weights.size()), std::vector<double>(weights.size())};
  for (std::size_t x = 0; x < weights.size(); ++x) {
    const double w = weights[x];
    if (w == 0.0) continue;
    const double lo = floor * w;
    if (!(lo >= kSmallestBoxFloor)) {
      if (rule == UnderflowRule::never_output) continue;
      refuse_underflow(name, x, w, floor, g);
    }
    box.hi[x] = ceiling * w;
    box.lo[x] = pure ? private_floor(lo, box.hi[x], effective_epsilon(g.epsilon)) : lo;
  }
  if (!pure) return box;
  // At an ε below the doubles' resolution the raised floors can sum above 1: no output within them exists.
  CompensatedSum floors;
  CompensatedSum mass;
  for (std::size_t x = 0; x < weights.size(); ++x) {
    floors.add(box.lo[x]);
    if (box.hi[x] > 0.0) mass.add(weights[x]);
  }
  if (floors.value() > 1.0) {
    for (std::size_t x = 0; x < weights.size(); ++x) box.lo[x] = box.hi[x] = box.hi[x] > 0.0 ? weights[x] / mass.value() : 0.0;
  }
  return box;
}

double box_log_width(std::span<const double> q, std::span<const double> h) {
  if (q.size() != h.size()) throw_shape({"q has ", q.size(), " entries but h has ", h.size()});
  double lowest = std::numeric_limits<double>::infinity();
  double highest = -std::numeric_limits<double>::infinity();
  for (std::size_t x = 0; x < q.size(); ++x) {
    if (!(std::isfinite(q[x]) && q[x] >= 0.0)) throw_invalid({"q[", x, "] = ", q[x], ": must be finite and >= 0"});
    if (!(std::isfinite(h[x]) && h[x] >= 0.0)) throw_invalid({"h[", x, "] = ", h[x], ": must be finite and >= 0"});
    if (h[x] == 0.0) {
      if (q[x] > 0.0) return std::numeric_limits<double>::infinity();
      continue;
    }
    // ln q − ln h, not ln(q/h): the quotient of a tiny q and a tiny h would round or overflow first
    const double log_ratio = std::log(q[x]) - std::log(h[x]);
    lowest = std::min(lowest, log_ratio);
    highest = std::max(highest, log_ratio);
  }
  if (lowest == std::numeric_limits<double>::infinity()) return 0.0;  // no atom with h_x > 0 (q is 0 there too)
  if (lowest == -std::numeric_limits<double>::infinity()) return std::numeric_limits<double>::infinity();  // q_x = 0 < h_x
  return highest - lowest;
}

}  // namespace privsample
