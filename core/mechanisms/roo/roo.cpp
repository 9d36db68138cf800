#include "mechanisms/roo/roo.hpp"

#include <cmath>
#include <stdexcept>

#include "base/errors.hpp"

namespace privsample {

using namespace records;

double roo_obscure_probability(double epsilon, std::size_t records, std::size_t k) {
  const double eps = effective_epsilon(validated_epsilon(epsilon));
  const std::uint64_t n = checked_records(records);
  check_category_count(k, "k");
  return roo_q(decay(eps), n, k);
}

RooAccuracyBounds roo_accuracy_bounds(double epsilon, std::size_t records, std::size_t k) {
  const double eps = validated_epsilon(epsilon);
  const std::uint64_t n = checked_records(records);
  check_category_count(k, "k");
  if (k < 2) throw_invalid({"k = ", k, ": the accuracy formulas need k >= 2"});
  const double kd = static_cast<double>(k);
  RooAccuracyBounds out;
  out.roo = roo_q(decay(effective_epsilon(eps)), n, k) * (1.0 - 1.0 / kd);  // eq. 19
  out.rsss = eps == 0.0 ? std::numeric_limits<double>::infinity()
                        : 2.0 * kd / (static_cast<double>(n) * eps);     // eq. 18
  return out;
}

RooSampleComplexity roo_sample_complexity(std::size_t k, double alpha, double epsilon) {
  check_category_count(k, "k");
  if (k < 2) throw_invalid({"k = ", k, ": the sample complexities need k >= 2"});
  const double kd = static_cast<double>(k);
  if (!(alpha > 0.0 && alpha < 1.0 - 1.0 / kd)) {
    throw_invalid({"alpha = ", alpha, ": must lie in (0, 1 − 1/k) = (0, ", 1.0 - 1.0 / kd, ")"});
  }
  const double eps = validated_epsilon(epsilon);
  if (eps == 0.0) throw std::invalid_argument("epsilon = 0: no finite number of records is enough at ε = 0");
  RooSampleComplexity out;
  out.roo = (kd * (1.0 - alpha) - 1.0) / (alpha * std::expm1(eps));  // eq. 8 (0 once e^ε − 1 overflows)
  out.rsss = 2.0 * kd / (alpha * eps);                                  // eq. 5
  out.subrr = (kd - 1.0) * (1.0 - alpha) / (alpha * eps);               // eq. 45
  return out;
}

// ---- ROO ------------------------------------------------------------------------------------------------

RooSampler RooSampler::make(const MechanismOptions& o) {
  (void)checked_options(spec, o);
  return RooSampler(*o.epsilon, *o.records);
}

std::optional<AffineMap> RooSampler::affine_map(std::size_t k) const {
  // Tasnim et al. eq. 6: Pr(y) = q/k + (1 − q) c_y/n with the public q = q0(ε, n, k).
  const double q = obscure_probability(k);
  return AffineMap{1.0 - q, std::vector<double>(k, q / static_cast<double>(k)),
                   "P = the user's record histogram divided by the public n (every user has n records)", ""};
}

std::optional<PointMassLaw> RooSampler::point_mass_law(std::size_t k) const {
  const double q = obscure_probability(k);
  return PointMassLaw{std::vector<double>(k, q / static_cast<double>(k)), {}, {}, std::vector<double>(k, 1.0 - q)};
}

double RooSampler::obscure_probability(std::size_t k) const {
  check_category_count(k, "k");
  return round_up(roo_q(decay(with_margin(effective_epsilon(epsilon_))), records_, k));
}

std::vector<double> RooSampler::distribution(std::span<const double> counts) const {
  const Counts c = validated_counts(counts, records_, "ROO");
  return mixture(c, records_, obscure_probability(c.c.size()));
}

IndexDraw RooSampler::prepare(std::span<const double> counts, std::size_t draws) const {
  Counts c = validated_counts(counts, records_, "ROO");
  const double q = obscure_probability(c.c.size());
  return reveal_or_obscure_draws(std::move(c), records_, q, draws);
}

double RooSampler::worst_case_risk(const FDivergence& f, std::size_t k) const {
  return mixture_risk(f, spread(obscure_probability(k), k));
}

double RooSampler::worst_case_risk(NamedDivergence f, std::size_t k) const {
  return mixture_risk(f, spread(obscure_probability(k), k));
}

}  // namespace privsample
