#include "mechanisms/ds-roo/ds_roo.hpp"
#include "mechanisms/ds-roo/ds_roo_steps.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "base/errors.hpp"

namespace privsample {

using namespace records;

namespace detail {

double dsroo_step(const DsRooPlan& plan, std::uint64_t j, double q_previous) noexcept {
  const Decay d{plan.w, plan.a};
  return plan.recursion == DsRooRecursion::corrected ? corrected_step(d, plan.n, plan.k, j, q_previous)
                                                     : top_fix_step(d, plan.n, plan.k, j, q_previous);
}

}  // namespace detail

DsRooSampler DsRooSampler::make(const MechanismOptions& o) {
  (void)checked_options(spec, o);
  return DsRooSampler(*o.epsilon, *o.records);
}

// ---- DS-ROO: the sampler ----------------------------------------------------------------------------------------

// Built once per k (depends on ε, n and k only), then shared by copies.
std::shared_ptr<const detail::DsRooPlan> DsRooSampler::plan(std::size_t k) const {
  if (cache_ && cache_->k == k) return cache_;
  cache_ = std::make_shared<const detail::DsRooPlan>(detail::dsroo_plan(epsilon_, records_, k));
  return cache_;
}

double DsRooSampler::q_for(std::size_t k, std::uint64_t m) const {
  check_category_count(k, "k");
  const std::shared_ptr<const detail::DsRooPlan> p = plan(k);
  return detail::dsroo_lookup(*p, m, [&](std::uint64_t j, double q) { return detail::dsroo_step(*p, j, q); });
}

std::vector<double> DsRooSampler::obscure_table(std::size_t k) const {
  check_category_count(k, "k");
  const std::uint64_t M = detail::checked_table_top(records_, k);
  const std::shared_ptr<const detail::DsRooPlan> p = plan(k);
  std::vector<double> table(M + 1, 0.0);
  if (p->constant) {
    std::fill(table.begin(), table.end(), p->constant_q);
    if (p->top_is_uniform) table[M] = 0.0;
    return table;
  }
  double q = p->checkpoints.front();
  table[0] = q;
  for (std::uint64_t j = 1; j <= p->last; ++j) {
    q = detail::dsroo_step(*p, j, q);
    table[j] = q;
  }
  return table;
}

DsRooWorstPair dsroo_worst_log_ratio(const DsRooSampler& sampler, std::size_t k) {
  return dsroo_worst_log_ratio(sampler.obscure_table(k), static_cast<std::size_t>(sampler.records()), k);
}

double DsRooSampler::obscure_probability(std::span<const double> counts) const {
  const Counts c = validated_counts(counts, records_, "DS-ROO");
  return q_for(c.c.size(), c.min);
}

std::vector<double> DsRooSampler::distribution(std::span<const double> counts) const {
  const Counts c = validated_counts(counts, records_, "DS-ROO");
  return mixture(c, records_, q_for(c.c.size(), c.min));
}

IndexDraw DsRooSampler::prepare(std::span<const double> counts, std::size_t draws) const {
  Counts c = validated_counts(counts, records_, "DS-ROO");
  const double q = q_for(c.c.size(), c.min);
  return reveal_or_obscure_draws(std::move(c), records_, q, draws);
}

double DsRooSampler::worst_case_risk(const FDivergence& f, std::size_t k) const {
  return mixture_risk(f, spread(q_for(k, 0), k));
}

double DsRooSampler::worst_case_risk(NamedDivergence f, std::size_t k) const {
  return mixture_risk(f, spread(q_for(k, 0), k));
}

std::optional<PointMassLaw> DsRooSampler::point_mass_law(std::size_t k) const {
  check_category_count(k, "k");
  const double q = q_for(k, k == 1 ? records_ : 0);
  return PointMassLaw{std::vector<double>(k, q / static_cast<double>(k)), {}, {}, std::vector<double>(k, 1.0 - q)};
}

}  // namespace privsample
