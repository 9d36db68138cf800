#include "base/draw.hpp"
#include "base/errors.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "base/numeric.hpp"

namespace privsample {
namespace {

void check_weights(std::span<const double> weights, const char* name) {
  if (weights.empty()) throw_invalid({name, " is empty: need at least one atom"});
  bool positive = false;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (!(weights[i] >= 0.0 && weights[i] < std::numeric_limits<double>::infinity())) {
      throw_invalid({name, "[", i, "] = ", weights[i], ": must be finite and >= 0"});
    }
    positive = positive || weights[i] > 0.0;
  }
  if (!positive) throw_invalid({name, " is all zeros: at least one entry must be positive"});
}

}  // namespace

namespace {

// upper[x] = w_0 + … + w_x as plain running sums, in one pass with no branch per weight; returns the total, and
// `valid` false when a weight is negative or NaN (+∞ shows in the total). Plain sums may drift from the exact
// prefix sums by a few ulps of the total, but a draw's law is set by the differences upper[x] − upper[x−1], each
// w_x up to one rounding of the running total, as with a compensated sum (which costs several times as much). Out
// of line: inlined into the constructor, GCC 12 kept the running sum in memory, one store-to-load wait per weight.
[[gnu::noinline]] double running_sums(std::span<const double> weights, std::span<double> upper, bool& valid) noexcept {
  double running = 0.0;
  bool all_valid = true;
  for (std::size_t x = 0; x < weights.size(); ++x) {
    all_valid &= weights[x] >= 0.0;
    running += weights[x];
    upper[x] = running;
  }
  valid = all_valid;
  return running;
}

}  // namespace

CumulativeTable::CumulativeTable(std::span<const double> weights) {
  upper_.resize(weights.size());
  bool valid = true;
  const double total = running_sums(weights, upper_, valid);
  if (!valid || weights.empty() || !(total > 0.0 && total < std::numeric_limits<double>::infinity())) {
    check_weights(weights, "weights");
    throw_invalid({"weights: the total overflows (", total, "): scale the weights down"});
  }
  while ((std::size_t{1} << steps_) < upper_.size()) ++steps_;
}

std::size_t CumulativeTable::draw(RandomBits& bits) const {
  const double target = uniform01(bits) * upper_.back();
  // The first x with upper_[x] > target, by a fixed number of halvings: low + width stays within the table.
  std::size_t low = 0;
  std::size_t width = std::size_t{1} << steps_;
  for (std::size_t step = 0; step < steps_; ++step) {
    width >>= 1;
    const std::size_t probe = std::min(low + width, upper_.size()) - 1;
    low = upper_[probe] <= target ? probe + 1 : low;
  }
  return std::min(low, upper_.size() - 1);
}

// Not inlined: every Held without a loop of its own calls this one copy (the same code in each, which the link
// merges), rather than a copy of the loop specialised to its draw.
[[gnu::noinline]] void IndexDraw::Callable::many(RandomBits& bits, std::span<std::uint32_t> out) const {
  for (auto& index : out) index = static_cast<std::uint32_t>((*this)(bits));
}

}  // namespace privsample
