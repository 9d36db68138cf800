#include "privsample/clip_samplers.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "privsample/errors.hpp"
#include "privsample/histogram.hpp"
#include "privsample/numeric.hpp"
#include "privsample/privacy_box.hpp"

namespace privsample {
namespace {

void check_prior_size(std::size_t k, std::size_t prior_size, const char* name = "prior") {
  if (k != prior_size) {
    throw_shape({"k = ", k, " but the ", name, " has ", prior_size, " categories"});
  }
}

}  // namespace

// A probability never exceeds 1, so a ceiling above 1 only wastes proposals.
std::vector<double> capped_at_one(std::span<const double> ceiling) {
  std::vector<double> out(ceiling.begin(), ceiling.end());
  for (double& c : out) c = std::min(c, 1.0);
  return out;
}

double validated_gamma(double gamma) {
  if (!std::isfinite(gamma) || gamma <= 1.0 || gamma > kMaxGamma) {
    throw_invalid({"gamma = ", gamma, ": must be a finite number in (1, ", kMaxGamma, "]"});
  }
  return gamma;
}

PrivacyBox local_clip_box(std::span<const double> prior, double epsilon, double gamma, UnderflowRule rule) {
  // b = (γ+1)/(γ+e^ε) and b·e^ε = (γ+1)/(γ·e^{−ε}+1), through e^{−ε} so ε up to 700 never overflows.
  const double shrink = std::exp(-effective_epsilon(epsilon));
  const double ceiling = (gamma + 1.0) / (gamma * shrink + 1.0);
  const double floor = ceiling * shrink;
  return privacy_box(prior, floor, ceiling, epsilon, "prior", rule);
}

LocalClipSampler::LocalClipSampler(double epsilon, std::vector<double> prior, double gamma)
    : ClipSampler(epsilon), gamma_(validated_gamma(gamma)) {
  check_category_count(prior.size(), "prior");
  prior_ = validated_prior(prior, prior.size());
  box_ = local_clip_box(prior_, epsilon_, gamma_);
}

ClipNormalised LocalClipSampler::solve(std::span<const double> hist, RootSchedule schedule) const {
  const std::vector<double> p = normalized_pmf(hist);
  check_prior_size(p.size(), prior_.size());
  return clip_normalise(p, AtomBox{box_.lo, box_.hi}, schedule);
}

// Envelope draw under the box top hi = b·e^ε·p0 (public): Geometric(1/Σhi) proposals for every input.
IndexDraw LocalClipSampler::prepare(std::span<const double> hist) const {
  std::vector<double> q = solve(hist, RootSchedule::fixed).q;
  Envelope envelope(capped_at_one(box_.hi));
  return [q = std::move(q), envelope = std::move(envelope)](RandomBits& bits) { return envelope.draw(q, bits).cell; };
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

double LocalClipSampler::worst_case_risk(const FDivergence& f, std::size_t k) const {
  check_prior_size(k, prior_.size());
  return local_clip_risk(f, epsilon_, gamma_);
}

MollifierSampler::MollifierSampler(double epsilon, std::optional<std::vector<double>> reference)
    : ClipSampler(epsilon) {
  if (reference) {
    check_category_count(reference->size(), "reference");
    reference_ = validated_prior(*reference, reference->size(), "reference", /*allow_zeros=*/true);
    // Built once, here: a reference entry whose floor would underflow is refused now, not on every later call.
    const double half = effective_epsilon(epsilon_) / 2.0;
    box_ = privacy_box(*reference_, std::exp(-half), std::exp(half), epsilon_, "reference");
    for (double& hi : box_.hi) hi = std::min(1.0, hi);  // a probability never exceeds 1; the ratio only shrinks
  }
}

ClipNormalised MollifierSampler::solve(std::span<const double> hist, RootSchedule schedule) const {
  const std::vector<double> p = normalized_pmf(hist);
  const double half = effective_epsilon(epsilon_) / 2.0;
  const double shrink = std::exp(-half);
  const double grow = std::exp(half);
  if (!reference_) {
    const double uniform = 1.0 / static_cast<double>(p.size());
    const double top = std::min(1.0, grow * uniform);
    const double floor = private_floor(shrink * uniform, top, 2.0 * half);
    if (floor * static_cast<double>(p.size()) > 1.0) {
      return clip_normalise(p, UniformBox{p.size(), uniform, uniform}, schedule);
    }
    return clip_normalise(p, UniformBox{p.size(), floor, top}, schedule);
  }
  check_prior_size(p.size(), reference_->size(), "reference");
  return clip_normalise(p, AtomBox{box_.lo, box_.hi}, schedule);
}

// Envelope draw under the box top min(1, e^{ε/2}·Q0) (public).
IndexDraw MollifierSampler::prepare(std::span<const double> hist) const {
  ClipNormalised solved = solve(hist, RootSchedule::fixed);
  const std::size_t k = solved.q.size();
  const double grow = std::exp(effective_epsilon(epsilon_) / 2.0);
  Envelope envelope = [&] {
    if (!reference_) return Envelope(k, std::min(1.0, grow / static_cast<double>(k)));
    std::vector<double> top(k);
    for (std::size_t x = 0; x < k; ++x) top[x] = std::min(1.0, grow * (*reference_)[x]);
    return Envelope(std::move(top));
  }();
  return [q = std::move(solved.q), envelope = std::move(envelope)](RandomBits& bits) {
    return envelope.draw(q, bits).cell;
  };
}

double MollifierSampler::worst_case_risk(const FDivergence& f, std::size_t k) const {
  check_category_count(k);
  double smallest = 1.0 / static_cast<double>(k);
  if (reference_) {
    check_prior_size(k, reference_->size(), "reference");
    smallest = *std::min_element(reference_->begin(), reference_->end());
  }
  if (smallest == 0.0) {
    const double f0 = f.f_at_zero;
    const double fstar0 = f.f_star_at_zero;
    return f0 + fstar0;  // a point mass where Q0 = 0 is orthogonal to its output: M_f
  }
  const double half = effective_epsilon(epsilon_) / 2.0;
  // B(t) = mass the projection keeps on a point mass at an atom of reference mass t (eq. 185).
  const double kept = std::min(std::exp(half) * smallest, std::exp(-half) * smallest - std::expm1(-half));
  return chord_risk(f, 0.0, 1.0 / std::min(kept, 1.0));
}

}  // namespace privsample
