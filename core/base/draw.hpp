#pragma once
// The draw policy: how every sampler turns its output pmf q = Q(·|P) into one released index so that an observer who
// can time the draw learns nothing about P from it.
//
// The rule (docs/draw-policy.md): the random words a draw consumes, and the operations it performs, have a law that
// does not depend on the private input. Every sampler releases through an exact release (release_plan.hpp): a coin
// with a public probability (or, for the record mechanisms, both candidates drawn whatever the coin says), then a
// public base or the data part, whose units are drawn by one word and one scan (a single release) or an alias table
// (many releases), built and drawn with the same operations for every input. The clip samplers build q for a
// release by clip-normalise's fixed schedule (RootSchedule::fixed: the same operations for every input). Not
// protected: the continuous samplers' q (the adaptive search), subnormal arithmetic, and the JS engine around the
// call; docs/draw-policy.md and docs/guide/privacy.md#what-timing-reveals state it.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "base/randomness.hpp"

namespace privsample {

// Inverse-CDF table with constant work: building it is one prefix-sum pass and every draw is a binary search of
// exactly ceil(log2 k) steps, whatever the weights are (an alias table's build pairs small and large atoms, which
// takes more steps for some inputs than for others). A draw's law puts on atom x the share of the 2^-53 grid that
// falls in its cumulative interval, so an atom far below 2^-53 of the total can get probability 0: use it only where
// the privacy guarantee does not rest on each atom's exact value — the data part of a public/data mixture whose
// bound holds for ANY pmf there, or post-processing (laplace-projection's noisy counts).
class CumulativeTable {
 public:
  // weights: finite, >= 0, not all zero.
  explicit CumulativeTable(std::span<const double> weights);
  [[nodiscard]] std::size_t draw(RandomBits& bits) const;
  [[nodiscard]] std::size_t size() const noexcept { return upper_.size(); }

 private:
  std::vector<double> upper_;  // upper_[x] = Σ_{y <= x} w_y
  std::size_t steps_ = 0;      // ceil(log2 k)
};

// What a sampler prepares for one input (its `prepare(hist)`): a function releasing one index per call under
// the policy above. Preparing costs time depending on k (and the mechanism's parameters) only. Move-only: a
// prepared draw is used where it was made, so unlike std::function it has no copy (and no type query), which each
// sampler's closure would otherwise carry into the client module.
class IndexDraw {
 public:
  IndexDraw() = default;
  template <class Draw, std::enable_if_t<!std::is_same_v<std::decay_t<Draw>, IndexDraw>, int> = 0>
  IndexDraw(Draw draw)  // NOLINT(google-explicit-constructor): samplers return their lambdas as IndexDraw
      : held_(std::make_unique<Held<Draw>>(std::move(draw)).release()) {}

  std::size_t operator()(RandomBits& bits) const { return (*held_)(bits); }
  // out.size() draws in a row: the same indices and the same words as that many calls. A draw with a member
  // many(bits, out) (the releases' alias draw) runs them in one loop; any other, one call each.
  void many(RandomBits& bits, std::span<std::uint32_t> out) const { held_->many(bits, out); }
  explicit operator bool() const noexcept { return held_ != nullptr; }

 private:
  // One virtual destroy() rather than a virtual destructor, which gives every Held two destructors (the complete
  // one and the deleting one) in the module.
  struct Callable {
    virtual std::size_t operator()(RandomBits& bits) const = 0;
    virtual void many(RandomBits& bits, std::span<std::uint32_t> out) const;  // one call per draw
    virtual void destroy() const noexcept = 0;  // deletes this Held

   protected:
    ~Callable() = default;
  };
  template <class Draw>
  struct Held final : Callable {
    explicit Held(Draw d) : draw(std::move(d)) {}
    std::size_t operator()(RandomBits& bits) const override { return draw(bits); }
    void many(RandomBits& bits, std::span<std::uint32_t> out) const override {
      if constexpr (requires { draw.many(bits, out); }) {
        draw.many(bits, out);
      } else {
        Callable::many(bits, out);
      }
    }
    void destroy() const noexcept override { std::unique_ptr<const Held>{this}; }
    Draw draw;
  };
  struct Destroy {
    void operator()(const Callable* held) const noexcept { held->destroy(); }
  };
  std::unique_ptr<const Callable, Destroy> held_;
};

}  // namespace privsample
