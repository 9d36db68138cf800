#include "mechanisms/local/local.hpp"

#include <algorithm>
#include <cmath>

#include "base/errors.hpp"
#include "base/numeric.hpp"
#include "mechanisms/point_masses.hpp"
#include "model/histogram.hpp"

namespace privsample {
LocalOutside local_outside_of(const MechanismOptions& o) {
  if (!o.outside_neighbourhood || *o.outside_neighbourhood == "clip") return LocalOutside::clip;
  if (*o.outside_neighbourhood == "projection") return LocalOutside::projection;
  throw_invalid({"options.outsideNeighbourhood = '", *o.outside_neighbourhood,
                 "': use 'clip' (clip into the box, the default) or 'projection' (the projection onto N_gamma(P0), "
                 "the paper's sampler)"});
}

PrivacyBox local_clip_box(std::span<const double> prior, double epsilon, double gamma, UnderflowRule rule,
                          LocalOutside outside) {
  // The same test as local_clip_risk's trivial regime (γ <= 10^12, so 2 ln γ < 56 is far below effective ε's cap).
  if (outside == LocalOutside::projection && epsilon >= 2.0 * std::log(gamma)) {
    return privacy_box(prior, 1.0 / gamma, gamma, epsilon, "prior", rule);
  }
  // b = (γ+1)/(γ+e^ε) and b·e^ε = (γ+1)/(γ·e^{−ε}+1), through e^{−ε} so ε up to 700 never overflows.
  const double shrink = std::exp(-effective_epsilon(epsilon));
  const double ceiling = (gamma + 1.0) / (gamma * shrink + 1.0);
  const double floor = ceiling * shrink;
  return privacy_box(prior, floor, ceiling, epsilon, "prior", rule);
}

LocalClipSampler::LocalClipSampler(double epsilon, std::vector<double> prior, double gamma, LocalOutside outside)
    : ClipSampler(epsilon), gamma_(validated_gamma(gamma)), outside_(outside) {
  check_category_count(prior.size(), "prior");
  prior_ = validated_prior(prior, prior.size());
  box_ = local_clip_box(prior_, epsilon_, gamma_, UnderflowRule::refuse, outside);
}

LocalClipSampler LocalClipSampler::make(const MechanismOptions& o) {
  (void)checked_options(spec, o);
  return LocalClipSampler(*o.epsilon, *o.prior, *o.gamma, local_outside_of(o));
}

LocalClipSampler::LocalClipSampler(double epsilon, double gamma) : ClipSampler(epsilon), gamma_(validated_gamma(gamma)) {}

std::vector<double> LocalClipSampler::distribution(std::span<const double> input) const {
  if (cells_) return cells_->distribution(input);
  return solve(input).q;
}

double LocalClipSampler::normaliser(std::span<const double> input) const {
  if (cells_) return *cells_->normaliser(input);
  return normaliser_of(solve(input));
}

ClipNormalised LocalClipSampler::solve(std::span<const double> hist, RootSchedule schedule) const {
  const std::vector<double> p = normalized_pmf(hist);
  check_prior_size(p.size(), prior_.size());
  return clip_normalise(p, AtomBox{box_.lo, box_.hi}, schedule);
}

// The floors b·p0 are the public base (release_plan.hpp).
Release LocalClipSampler::release(std::span<const double> input) const {
  if (cells_) return cells_->release(input);
  const std::vector<double> q = solve(input, RootSchedule::fixed).q;
  return clip_release(clip_release_plan(box_.lo, epsilon_), q);
}

double local_clip_risk(const FDivergence& f, double epsilon, double gamma) {
  validated_epsilon(epsilon);
  validated_gamma(gamma);
  if (epsilon >= 2.0 * std::log(gamma)) return 0.0;  // trivial regime: q = P on N_γ(P0)
  const double growth = std::exp(epsilon);          // < γ² here, so finite
  const double r1 = (growth + gamma) / (gamma * (gamma + 1.0));
  const double r2 = gamma * (growth + gamma) / (growth * (gamma + 1.0));
  return chord_risk(f, std::min(r1, 1.0), std::max(r2, 1.0));
}

std::optional<AffineMap> LocalClipSampler::affine_map(std::size_t k) const {
  if (cells_) return std::nullopt;
  check_prior_size(k, prior_.size());
  const double shrink = std::exp(-effective_epsilon(epsilon_));
  const bool trivial = epsilon_ >= 2.0 * std::log(gamma_);
  // The projection variant's box in the trivial regime is N_γ(P0)'s own (local_clip_box).
  const bool own = trivial && outside_ == LocalOutside::projection;
  const double ceiling = own ? gamma_ : (gamma_ + 1.0) / (gamma_ * shrink + 1.0);  // b·e^ε
  const double floor = own ? 1.0 / gamma_ : ceiling * shrink;                         // b
  const std::string box = format_value(floor) + " <= P/P0 <= " + format_value(ceiling);
  AffineMap map{1.0, std::vector<double>(k, 0.0),
                "users' P inside the identity box " + box +
                    (own ? std::string(" (N_gamma(P0))") : std::string(" (b <= P/P0 <= b e^epsilon)")) +
                    ", where 'local' releases P itself" +
                    (trivial && !own ? std::string(": all of N_gamma(P0), since epsilon >= 2 ln gamma")
                                     : std::string()),
                outside_region_caveat(k, "the identity box " + box,
                                      own ? "their projection onto N_gamma(P0)"
                                          : "their release law, clipped into that box",
                                      "the mean of their release laws")};
  if (!trivial) {
    map.caveat += std::string(map.caveat.empty() ? "" : "; and ") +
                  "N_gamma(P0) = {1/gamma <= P/P0 <= gamma} reaches beyond the identity box: there 'local' is not "
                  "affine in P and no unbiased estimator of P-bar exists from its counts; for users inside N_gamma(P0) "
                  "this estimate is off by at most the worst-case TV risk " +
                  format_value(local_clip_risk(f_divergence(NamedDivergence::tv), epsilon_, gamma_)) +
                  " per category, and the counts cannot show by how much";
  }
  return map;
}

std::string LocalClipSampler::point_mass_caveat() const {
  return "'local' is meant for users inside N_gamma(P0) = {1/gamma <= P/P0 <= gamma}, which holds no point mass: for "
         "such users this estimate is biased (the population estimate is unbiased on the sampler's identity box)";
}

double LocalClipSampler::worst_case_risk(const FDivergence& f, std::size_t k) const {
  if (cells_) return cells_risk(*cells_, f, k);
  check_prior_size(k, prior_.size());
  return local_clip_risk(f, epsilon_, gamma_);
}

std::optional<PointMassLaw> LocalClipSampler::point_mass_law(std::size_t k) const {
  if (cells_) return std::nullopt;
  check_prior_size(k, prior_.size());
  return clip_point_masses(box_.lo, box_.hi);
}

}  // namespace privsample
