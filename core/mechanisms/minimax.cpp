#include "mechanisms/minimax.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "model/histogram.hpp"
#include "privacy/privacy_box.hpp"

namespace privsample {
namespace {

// t = (k−1)·e^{−ε}: every finite-space constant is a function of it (docs/numerics.md#large-epsilon), and e^{−ε} never overflows.
double spread(std::size_t k, double epsilon) {
  return static_cast<double>(k - 1) * std::exp(-effective_epsilon(epsilon));
}

}  // namespace

FiniteBox finite_minimax_box(std::size_t k, double epsilon) {
  check_category_count(k);
  validated_epsilon(epsilon);
  const double t = spread(k, epsilon);
  const double ceiling = 1.0 / (1.0 + t);
  const double floor = private_floor(std::exp(-effective_epsilon(epsilon)) / (1.0 + t), ceiling,
                                     effective_epsilon(epsilon));  // u/ℓ <= e^ε as doubles (privacy_box.hpp)
  // An ε below the doubles' resolution: the raised floor leaves no output summing to 1; every input then gets
  // the uniform distribution (ratio exactly 1).
  if (static_cast<double>(k) * floor > 1.0) return {1.0 / static_cast<double>(k), 1.0 / static_cast<double>(k)};
  return {floor, ceiling};
}

double finite_minimax_risk(const FDivergence& f, std::size_t k, double epsilon) {
  check_category_count(k);
  validated_epsilon(epsilon);
  return chord_risk(f, 0.0, 1.0 + spread(k, epsilon));  // r1 = 0, r2 = (e^ε+k−1)/e^ε
}

double finite_minimax_risk(NamedDivergence f, std::size_t k, double epsilon) {
  check_category_count(k);
  validated_epsilon(epsilon);
  const double t = spread(k, epsilon);
  switch (f) {
    case NamedDivergence::kl: return std::log1p(t);
    case NamedDivergence::tv: return t / (1.0 + t);
    case NamedDivergence::hellinger: return -std::expm1(-0.5 * std::log1p(t));  // 1 − (1+t)^{−1/2}
    case NamedDivergence::chi2: return t;
  }
  return finite_minimax_risk(f_divergence(f), k, epsilon);
}

ClipNormalised MinimaxSampler::solve(std::span<const double> hist, RootSchedule schedule) const {
  const std::vector<double> p = normalized_pmf(hist);
  const FiniteBox box = finite_minimax_box(p.size(), epsilon_);
  return clip_normalise(p, UniformBox{p.size(), box.floor, box.ceiling}, schedule);
}

double MinimaxSampler::normaliser(std::span<const double> hist) const {
  const ClipNormalised solved = solve(hist);
  if (solved.kind == ClipCase::root) return 1.0 / solved.scale;
  // ε = 0 or k = 1: every r in [1, (e^ε+k−1)/e^ε] gives the same Q*; report the right end of the bracket.
  return 1.0 + spread(hist.size(), epsilon_);
}

// The floors ℓ are the public base; the data part is what q has above them, capped so that every released law stays
// within e^ε of the floor (release_plan.hpp).
Release MinimaxSampler::release(std::span<const double> hist) const {
  const std::vector<double> q = solve(hist, RootSchedule::fixed).q;
  const FiniteBox box = finite_minimax_box(q.size(), epsilon_);
  auto plan = std::make_shared<const ReleasePlan>(uniform_clip_release_plan(q.size(), box.floor, epsilon_));
  return Release(plan, clip_data_target(*plan, q));
}

std::vector<double> LinearSampler::distribution(std::span<const double> hist) const {
  check_category_count(hist.size(), "hist");
  const FiniteBox box = finite_minimax_box(hist.size(), epsilon_);
  // γ = (e^ε−1)/(e^ε+k−1) and (1−γ)/k = ℓ; q = γP + ℓ, clamped so rounding never leaves [ℓ, u].
  const double gamma = -std::expm1(-effective_epsilon(epsilon_)) / (1.0 + spread(hist.size(), epsilon_));
  return normalized_pmf(hist, AffineClip{gamma, box.floor, box.ceiling});
}

// k-RR on one draw of P: with probability γ a draw from P (its units), else a uniform category. The released law is
// k-RR applied to the units' pmf, so the ratio bound 1 + kγ/(1−γ) holds for it exactly; γ is rounded down until that
// bound, with every rounding counted against it, is at most e^ε.
Release LinearSampler::release(std::span<const double> hist) const {
  const std::vector<double> p = normalized_pmf(hist);
  const double k = static_cast<double>(hist.size());
  const double eps = effective_epsilon(epsilon_);
  double gamma = std::clamp(-std::expm1(-eps) / (1.0 + spread(hist.size(), epsilon_)), 0.0, 1.0);
  // kγ/(1−γ) <= e^ε − 1 checked with both sides' rounding errors (<= 3 ulps and 1 ulp) counted against us.
  constexpr double kUlp = 0x1.0p-52;
  const double room = std::expm1(eps) * (1.0 - 2.0 * kUlp);
  while (gamma > 0.0 && k * gamma / (1.0 - gamma) * (1.0 + 4.0 * kUlp) > room) gamma = std::nextafter(gamma, 0.0);
  return Release(std::make_shared<const ReleasePlan>(mixture_release_plan(gamma, PublicBase::uniform(p.size()))), p);
}

}  // namespace privsample
