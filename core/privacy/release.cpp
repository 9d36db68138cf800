// A release: the plan's coin, the quantized units of one input, and their draws (the per-release path; the plans
// themselves, built once per sampler and k, are release_plan.cpp).
#include "privacy/release_plan.hpp"

#include <algorithm>
#include <utility>

#include "base/errors.hpp"
#include "base/numeric.hpp"

namespace privsample {

void clip_data_target_into(const ReleasePlan& plan, std::span<const double> q, std::span<double> target) {
  if (q.size() != plan.size() || target.size() != q.size()) {
    throw_shape({"q has ", q.size(), " entries, the target ", target.size(), " and the release plan ", plan.size()});
  }
  const double data_share = plan.data_share();
  if (data_share <= 0.0) {
    std::fill(target.begin(), target.end(), 0.0);
    return;
  }
  const double base_share = plan.base_share();
  const double total = static_cast<double>(plan.base.total());
  for (std::size_t x = 0; x < q.size(); ++x) {
    const double floor = base_share * (static_cast<double>(plan.base.weight(x)) / total);
    target[x] = (q[x] - floor) / data_share;  // the quantizer clamps what rounding puts below 0
  }
}

// Both sides are drawn whatever the coin says, and one is kept by a mask. Drawing only the side the coin picks made a
// release's time say which side its index came from (the data side's scan takes O(k), the base's draw O(1)), and an
// index known to come from the data side is drawn from the data part alone: for 'linear', the user's own category.
std::size_t draw_release_once(const ReleasePlan& plan, std::span<const std::uint64_t> units, RandomBits& bits) {
  const std::uint64_t data = opaque_mask(plan.draws_data(bits));
  const std::size_t from_data = draw_units_once(units, bits);
  const std::size_t from_base = plan.base.draw(bits);
  return static_cast<std::size_t>((from_data & data) | (from_base & ~data));
}

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

std::size_t Release::draw_once(RandomBits& bits) const { return draw_release_once(*plan_, units_, bits); }

namespace {

// Many releases of one input: the plan's coin, then the data part's alias table (one word: its total is 2^63) or
// the base.
struct ReleaseDraws {
  std::shared_ptr<const ReleasePlan> plan;
  AliasTable table;
  FixedCostCoin coin;  // on plan->share

  // One draw is a loop of one.
  std::size_t operator()(RandomBits& bits) const {
    std::uint32_t index = 0;
    many(bits, std::span<std::uint32_t>(&index, 1));
    return index;
  }
  // The draws in one loop, their words borrowed from the source's buffer in runs (BufferedBits): the coin's first
  // word and the table's without a virtual call. Every draw reads at least two words (the coin's, then the one the
  // table and the base share), so borrowing two per draw left never takes a word past the last draw's.
  // As in draw_release_once, both sides are drawn and one is kept by a mask, so that neither the time of a draw nor
  // the words it reads say which side its index came from. They may share a word: the coin, independent of both,
  // keeps one of them.
  void many(RandomBits& bits, std::span<std::uint32_t> out) const {
    BufferedBits words(bits);
    const bool share_is_data = plan->share_is_data;
    const PublicBase& base = plan->base;
    const bool uniform = base.is_uniform();
    const std::uint64_t k = base.size();
    for (std::size_t i = 0; i < out.size(); ++i) {
      words.reserve(2 * (out.size() - i));
      const std::uint64_t data = opaque_mask(coin.toss(words) == share_is_data);
      const std::uint64_t word = words.next_u64();
      const std::uint64_t from_data = table.draw_one_word(word);
      // the uniform base inline: base.draw()'s words and index
      const std::uint64_t from_base = uniform ? uniform_below(word, k, words) : base.draw(word, words);
      out[i] = static_cast<std::uint32_t>((from_data & data) | (from_base & ~data));
    }
  }
};

}  // namespace

IndexDraw Release::draw(Release release, std::size_t draws) {
  if (draws <= 1) return [release = std::move(release)](RandomBits& bits) { return release.draw_once(bits); };
  AliasTable table(release.units_, kReleaseUnits);
  const FixedCostCoin coin(release.plan_->share);
  return ReleaseDraws{std::move(release.plan_), std::move(table), coin};
}

}  // namespace privsample
