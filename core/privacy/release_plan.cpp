#include "privacy/release_plan.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "base/errors.hpp"
#include "base/numeric.hpp"
#include "privacy/privacy.hpp"

namespace privsample {
namespace {

using Wide = __uint128_t;

// Each cap is a product of a few doubles, each rounded once (at most 2^-53 relative); six roundings stay below this
// factor's 2^-50, so a cap computed with it is below the real bound.
constexpr double kBelowRounding = 1.0 - 0x1p-50;
constexpr double kAboveRounding = 1.0 + 0x1p-50;

// e^ε − 1 rounded down: expm1 is faithful (error below one ulp), so one step toward 0 is at most the real value.
double growth_minus_one(double epsilon) {
  return std::max(0.0, std::nextafter(std::expm1(effective_epsilon(epsilon)), 0.0));
}

// The largest H with (1 − c)·H·2^-63 <= g·c·b/T as real numbers (capped at 2^63), c the floor mass.
std::uint64_t cap_units(double c, double g, std::uint64_t b, std::uint64_t total) {
  if (b == 0) return 0;
  // c·g first: c can be near the smallest normal double and g near the largest, and no product may underflow
  // (a subnormal intermediate loses the relative precision the slack counts on).
  const double ratio = c * g * (static_cast<double>(b) / static_cast<double>(total)) / (1.0 - c) * kBelowRounding;
  if (!(ratio < 1.0)) return kReleaseUnits;  // +∞ included (c = 1, or e^ε large)
  return static_cast<std::uint64_t>(ratio * 0x1p63);
}

// v rounded up to an integer, for 0 <= v <= 2^63 (at and above 2^53 every double is an integer already).
std::uint64_t ceil_units(double v) {
  const auto floor = static_cast<std::uint64_t>(v);
  return floor + static_cast<std::uint64_t>(static_cast<double>(floor) < v);
}

ReleasePlan plan_from_floors(PublicBase base, double floor_mass, double epsilon) {
  const std::size_t k = base.size();
  const double g = growth_minus_one(epsilon);
  double c = std::clamp(floor_mass, 0.0, 1.0);
  // Raising the floor mass c raises every cap; at c = 1 the base alone is released (a ratio of exactly 1).
  while (c < 1.0) {
    UnitBox box{std::vector<std::uint64_t>(k, 0), std::vector<std::uint64_t>(k)};
    Wide total = 0;
    if (base.is_uniform()) {
      const std::uint64_t cap = cap_units(c, g, 1, k);
      std::fill(box.hi.begin(), box.hi.end(), cap);
      total = Wide{cap} * k;
    } else {
      for (std::size_t x = 0; x < k; ++x) {
        box.hi[x] = cap_units(c, g, base.weight(x), base.total());
        total += box.hi[x];
      }
    }
    if (total >= kReleaseUnits) return {c, false, std::move(base), std::move(box)};
    c += (1.0 - c) / 2.0;
  }
  return {1.0, false, std::move(base), {}};
}

}  // namespace

PublicBase quantized_base(std::span<const double> weights) {
  CompensatedSum sum;
  for (const double w : weights) sum.add(w);
  const double total = sum.value();
  if (!(total > 0.0 && std::isfinite(total))) throw_invalid({"a public base needs finite weights with a positive total"});
  std::vector<std::uint64_t> units(weights.size(), 0);
  for (std::size_t x = 0; x < weights.size(); ++x) {
    if (!(weights[x] > 0.0)) continue;
    const double scaled = std::nearbyint(weights[x] / total * 0x1p52);
    units[x] = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(scaled));
  }
  return PublicBase::from_weights(std::move(units));
}

ReleasePlan clip_release_plan(std::span<const double> lo, double epsilon) {
  if (lo.empty()) throw_invalid({"a release plan needs at least one category"});
  CompensatedSum floors;
  for (const double v : lo) floors.add(v);
  const bool uniform = std::all_of(lo.begin(), lo.end(), [&](double v) { return v == lo[0]; }) && lo[0] > 0.0;
  return plan_from_floors(uniform ? PublicBase::uniform(lo.size()) : quantized_base(lo), floors.value(), epsilon);
}

ReleasePlan uniform_clip_release_plan(std::size_t k, double floor, double epsilon) {
  if (k == 0) throw_invalid({"a release plan needs at least one category"});
  return plan_from_floors(PublicBase::uniform(k), static_cast<double>(k) * floor, epsilon);
}

ReleasePlan mixture_release_plan(double data_share, PublicBase base) {
  if (!(data_share >= 0.0 && data_share <= 1.0)) throw_invalid({"data share = ", data_share, ": must be in [0, 1]"});
  return {data_share, true, std::move(base), {}};
}

ReleasePlan mixture_release_plan_by_base_share(double base_share, PublicBase base) {
  if (!(base_share >= 0.0 && base_share <= 1.0)) throw_invalid({"base share = ", base_share, ": must be in [0, 1]"});
  return {base_share, false, std::move(base), {}};
}

ReleasePlan class_release_plan(ReleasePlan plan, double c1, double c2) {
  const std::size_t k = plan.base.size();
  UnitBox box{std::vector<std::uint64_t>(k), std::vector<std::uint64_t>(k)};
  Wide low = 0;
  Wide high = 0;
  const double total = static_cast<double>(plan.base.total());
  for (std::size_t x = 0; x < k; ++x) {
    const double share = static_cast<double>(plan.base.weight(x)) / total;
    box.lo[x] = ceil_units(std::min(0x1p63, share * c1 * kAboveRounding * 0x1p63));
    box.hi[x] = static_cast<std::uint64_t>(std::min(0x1p63, share * c2 * kBelowRounding * 0x1p63));
    low += box.lo[x];
    high += box.hi[x];
  }
  if (low > kReleaseUnits || high < kReleaseUnits) return {1.0, false, std::move(plan.base), {}};
  plan.box = std::move(box);
  return plan;
}

std::vector<double> clip_data_target(const ReleasePlan& plan, std::span<const double> q) {
  std::vector<double> target(q.size(), 0.0);
  clip_data_target_into(plan, q, target);
  return target;
}

Release clip_release(ReleasePlan plan, std::span<const double> q) {
  auto shared = std::make_shared<const ReleasePlan>(std::move(plan));
  std::vector<double> target = clip_data_target(*shared, q);
  return Release(std::move(shared), target);
}

}  // namespace privsample
