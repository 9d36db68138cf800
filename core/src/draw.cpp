#include "privsample/draw.hpp"
#include "privsample/errors.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "privsample/numeric.hpp"

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

Envelope::Envelope(std::size_t atoms, double height) : atoms_(atoms), height_(height) {
  if (atoms == 0) throw std::invalid_argument("envelope: atoms = 0: need at least one atom");
  if (!(height > 0.0 && height < std::numeric_limits<double>::infinity())) {
    throw_invalid({"envelope: height = ", height, ": must be finite and > 0"});
  }
  mass_ = static_cast<double>(atoms) * height;
}

Envelope::Envelope(std::vector<double> ceiling) : atoms_(ceiling.size()), ceiling_(std::move(ceiling)) {
  check_weights(ceiling_, "ceiling");
  const double largest = *std::max_element(ceiling_.begin(), ceiling_.end());
  proposal_acceptance_.resize(atoms_);
  CompensatedSum total;
  for (std::size_t x = 0; x < atoms_; ++x) {
    proposal_acceptance_[x] = ceiling_[x] / largest;
    total.add(ceiling_[x]);
  }
  mass_ = total.value();
}

EnvelopeDraw Envelope::draw(std::span<const double> q, RandomBits& bits) const {
  if (q.size() != atoms_) {
    throw_invalid({"q has ", q.size(), " entries but the envelope has ", atoms_, " atoms"});
  }
  EnvelopeDraw out;
  for (;;) {
    std::size_t x = 0;
    if (ceiling_.empty()) {
      x = static_cast<std::size_t>(uniform_below(bits, atoms_));
    } else {
      // A proposal ∝ ceiling by rejection from uniform indices; its trial count depends on the ceiling only.
      do {
        x = static_cast<std::size_t>(uniform_below(bits, atoms_));
      } while (!bernoulli(bits, proposal_acceptance_[x]));
    }
    ++out.proposals;
    const double top = ceiling_.empty() ? height_ : ceiling_[x];
    if (bernoulli_fixed_cost(bits, top > 0.0 ? std::min(1.0, q[x] / top) : 0.0)) {
      out.cell = x;
      return out;
    }
  }
}

EnvelopeDraw draw_cell_under_envelope(std::span<const double> q, std::span<const double> ceiling, RandomBits& bits) {
  if (q.size() != ceiling.size()) {
    throw_invalid({"q has ", q.size(), " entries but ceiling has ", ceiling.size()});
  }
  for (std::size_t i = 0; i < q.size(); ++i) {
    if (!(q[i] >= 0.0 && q[i] < std::numeric_limits<double>::infinity())) {
      throw_invalid({"q[", i, "] = ", q[i], ": must be finite and >= 0"});
    }
    if (q[i] > 0.0 && !(ceiling[i] > 0.0)) {
      throw_invalid({"ceiling[", i, "] = ", ceiling[i], " is below q[", i, "] = ", q[i], ": the envelope must cover q"});
    }
  }
  return Envelope(std::vector<double>(ceiling.begin(), ceiling.end())).draw(q, bits);
}

namespace {

// upper[x] = w_0 + … + w_x as plain running sums, in one pass with no branch per weight; returns the total, and
// `valid` false when a weight is negative or NaN (+∞ shows in the total). Plain sums may drift from the exact
// prefix sums by a few ulps of the total, but a draw's law is set by the differences upper[x] − upper[x−1], each
// w_x up to one rounding of the running total, as with a compensated sum (which took 4× as long). Out of line:
// inlined into the constructor, GCC 12 kept the running sum in memory, one store-to-load wait per weight.
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

IndexDraw mixture_draw(double data_weight, IndexDraw data, std::size_t categories, IndexDraw base) {
  if (!(data_weight >= 0.0 && data_weight <= 1.0)) throw_invalid({"data_weight = ", data_weight, ": must be in [0, 1]"});
  if (categories == 0) throw std::invalid_argument("categories = 0: need at least one category");
  return [data_weight, data = std::move(data), categories, base = std::move(base)](RandomBits& bits) -> std::size_t {
    if (bernoulli_fixed_cost(bits, data_weight)) return data(bits);
    return base ? base(bits) : static_cast<std::size_t>(uniform_below(bits, categories));
  };
}

}  // namespace privsample
