// A release: the plan's coin, the quantized units of one input, and their draws (the per-release path; the plans
// themselves, built once per sampler and k, are release_plan.cpp).
#include "privacy/release_plan.hpp"

#include <utility>

namespace privsample {

Release::Release(std::shared_ptr<const ReleasePlan> plan, std::span<const double> data_target)
    : plan_(std::move(plan)), units_(data_target.size()) {
  quantize_units(data_target, plan_->box, units_);
}

double Release::probability(std::size_t x) const {
  const double base = static_cast<double>(plan_->base.weight(x)) / static_cast<double>(plan_->base.total());
  return plan_->base_share() * base + plan_->data_share() * (static_cast<double>(units_[x]) * 0x1p-63);
}

std::vector<double> Release::probabilities() const {
  std::vector<double> out(units_.size());
  for (std::size_t x = 0; x < out.size(); ++x) out[x] = probability(x);
  return out;
}

std::size_t Release::draw_once(RandomBits& bits) const {
  if (plan_->draws_data(bits)) return draw_units_once(units_, bits);
  return plan_->base.draw(bits);
}

IndexDraw Release::draw(Release release, std::size_t draws) {
  if (draws <= 1) return [release = std::move(release)](RandomBits& bits) { return release.draw_once(bits); };
  AliasTable table(release.units_, kReleaseUnits);
  return [plan = std::move(release.plan_), table = std::move(table)](RandomBits& bits) -> std::size_t {
    if (plan->draws_data(bits)) return table.draw(bits);
    return plan->base.draw(bits);
  };
}

}  // namespace privsample
