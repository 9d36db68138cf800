#include "mechanisms/minimax/minimax.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "mechanisms/point_masses.hpp"
#include "model/histogram.hpp"
#include "privacy/privacy_box.hpp"

namespace privsample {
MinimaxSampler MinimaxSampler::make(const MechanismOptions& o) {
  (void)checked_options(spec, o);
  return MinimaxSampler(*o.epsilon);
}

ClipNormalised MinimaxSampler::solve(std::span<const double> hist, RootSchedule schedule) const {
  const std::vector<double> p = normalized_pmf(hist);
  const FiniteBox box = finite_minimax_box(p.size(), epsilon_);
  return clip_normalise(p, UniformBox{p.size(), box.floor, box.ceiling}, schedule);
}

std::vector<double> MinimaxSampler::distribution(std::span<const double> input) const {
  if (cells_) return cells_->distribution(input);
  std::vector<double> q(input.size());
  distribution_into(input, q);
  return q;
}

// p = normalized_pmf(hist) written into out and solved there: the same p and the same solve as solve(), so the same q
// to the last bit, with no memory beyond out and the search's scratch. The solver computes each p_x in its first pass
// (clip_normalise_quotients_into) rather than reading it back from out; the client module, whose bytes go to its size
// budget, normalises first and then solves.
void MinimaxSampler::distribution_into(std::span<const double> input, std::span<double> out) const {
  if (cells_) return copy_into(cells_->distribution(input), out);
#if defined(PRIVSAMPLE_CLIENT_SIZE_BUDGET)
  normalized_pmf_into(input, out);
  const FiniteBox box = finite_minimax_box(out.size(), epsilon_);
  (void)clip_normalise_into(out, UniformBox{out.size(), box.floor, box.ceiling}, out);
#else
  const HistogramScale rule = checked_histogram_scale(input);
  check_pmf_output(input.size(), out.size());
  const FiniteBox box = finite_minimax_box(out.size(), epsilon_);
  (void)clip_normalise_quotients_into(input, rule, UniformBox{out.size(), box.floor, box.ceiling}, out);
#endif
}

double MinimaxSampler::normaliser(std::span<const double> input) const {
  if (cells_) return *cells_->normaliser(input);
  const std::span<const double> hist = input;
  const ClipNormalised solved = solve(hist);
  if (solved.kind == ClipCase::root) return 1.0 / solved.scale;
  // ε = 0 or k = 1: every r in [1, (e^ε+k−1)/e^ε] gives the same Q*; report the right end of the bracket.
  return 1.0 + finite_spread(hist.size(), epsilon_);
}

// The floors ℓ are the public base; the data part is what q has above them, capped so that every released law stays
// within e^ε of the floor (release_plan.hpp).
Release MinimaxSampler::release(std::span<const double> input) const {
  if (cells_) return cells_->release(input);
  std::vector<double> q(input.size());
  fixed_schedule_q(input, q);
  return clip_release(release_plan(q.size()), q);
}

ReleasePlan MinimaxSampler::release_plan(std::size_t k) const {
  return uniform_clip_release_plan(k, finite_minimax_box(k, epsilon_).floor, epsilon_);
}

void MinimaxSampler::release_target_into(std::span<const double> input, const ReleasePlan& plan,
                                         std::span<double> target) const {
  fixed_schedule_q(input, target);
  clip_data_target_into(plan, target, target);
}

// q for a release: p = normalized_pmf(input) into `out`, then solved in place by the fixed schedule (the same
// operations for every input of this length).
void MinimaxSampler::fixed_schedule_q(std::span<const double> input, std::span<double> out) const {
  normalized_pmf_into(input, out);
  const FiniteBox box = finite_minimax_box(out.size(), epsilon_);
  (void)clip_normalise_into(out, UniformBox{out.size(), box.floor, box.ceiling}, out, RootSchedule::fixed);
}

double MinimaxSampler::worst_case_risk(const FDivergence& f, std::size_t k) const {
  if (cells_) return cells_risk(*cells_, f, k);
  return finite_minimax_risk(f, k, epsilon_);
}

double MinimaxSampler::worst_case_risk(NamedDivergence f, std::size_t k) const {
  if (cells_) return cells_risk(*cells_, f_divergence(f), k);
  return finite_minimax_risk(f, k, epsilon_);
}

std::optional<PointMassLaw> MinimaxSampler::point_mass_law(std::size_t k) const {
  if (cells_) return std::nullopt;
  const FiniteBox box = finite_minimax_box(k, epsilon_);
  return uniform_clip_point_masses(k, box.floor, box.ceiling);
}

}  // namespace privsample
