#pragma once
// The draw policy: how every sampler turns its exact output pmf q = Q(·|P) into one released index so that an
// observer who can time the draw learns nothing about P from it.
//
// The rule (docs/draw-policy.md): the random words a draw consumes, and the operations it performs, have a law
// that does not depend on the private input. Two forms satisfy it, and every sampler uses one of them:
//
//  * Envelope rejection (clip samplers, on categories and on grid cells). The mechanism has a public ceiling
//    c with q_x <= c_x for EVERY input (the top of its box, e^ε·ℓ_x). Propose x with probability c_x/Σc, accept
//    with probability q_x/c_x (exact Bernoulli), repeat. Each proposal is accepted with probability
//    Σ_x (c_x/Σc)(q_x/c_x) = 1/Σc whatever q is, so the number of proposals is Geometric(1/Σc): its law is
//    fixed by public data. The accepted index has law q exactly (up to one rounding of q_x/c_x).
//  * Public/data mixture (linear samplers, Reveal-or-Obscure): q = λ·D(P) + (1−λ)·B with public λ and base B.
//    The data part D(P) is made ready in time depending on k only (a cumulative table, or a constant-work record
//    draw) before the coin is tossed, and both branches cost O(1) words.
//
// The clip samplers build q for a release by clip-normalise's fixed schedule (RootSchedule::fixed: the same
// operations for every input). Not protected: the continuous samplers' q (the adaptive search), subnormal arithmetic,
// and the JS engine around the call; docs/draw-policy.md and README "What timing reveals" state it.
#include <cstddef>
#include <memory>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "privsample/randomness.hpp"

namespace privsample {

struct EnvelopeDraw {
  std::size_t cell = 0;
  std::size_t proposals = 0;  // Geometric(1/Σ ceiling): independent of q
};

// A public envelope over k atoms. Build it from mechanism parameters only, never from an input.
class Envelope {
 public:
  // The same height on every atom (Park's box, the uniform mollifier): proposals are uniform indices.
  Envelope(std::size_t atoms, double height);
  // Heights per atom: finite, >= 0, not all zero (std::invalid_argument otherwise).
  explicit Envelope(std::vector<double> ceiling);

  [[nodiscard]] std::size_t size() const noexcept { return atoms_; }
  // Σ ceiling: the expected number of proposals per draw.
  [[nodiscard]] double mass() const noexcept { return mass_; }
  [[nodiscard]] double height(std::size_t x) const noexcept { return ceiling_.empty() ? height_ : ceiling_[x]; }

  // q: one entry per atom with q_x <= ceiling_x (q_x/ceiling_x above 1 by rounding is taken as 1).
  [[nodiscard]] EnvelopeDraw draw(std::span<const double> q, RandomBits& bits) const;

 private:
  std::size_t atoms_ = 0;
  double height_ = 0.0;
  std::vector<double> ceiling_;  // empty for a constant height
  std::vector<double> proposal_acceptance_;  // ceiling_x / max ceiling (rejection from uniform indices)
  double mass_ = 0.0;
};

// One draw from q under a ceiling given as a vector (builds the Envelope; the continuous samplers' entry point).
[[nodiscard]] EnvelopeDraw draw_cell_under_envelope(std::span<const double> q, std::span<const double> ceiling,
                                                    RandomBits& bits);

// Inverse-CDF table with constant work: building it is one prefix-sum pass and every draw is a binary search of
// exactly ceil(log2 k) steps, whatever the weights are (an alias table's build pairs small and large atoms, which
// takes more steps for some inputs than for others). A draw's law puts on atom x the share of the 2^-53 grid that
// falls in its cumulative interval, so an atom far below 2^-53 of the total can get probability 0: use it only where
// the privacy guarantee does not rest on each atom's exact value — the data part of a public/data mixture whose
// bound holds for ANY pmf there (k-RR: (1−λ)/k <= q_x <= (1−λ)/k + λ for every pmf), or post-processing.
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
      : held_(std::make_unique<Held<Draw>>(std::move(draw))) {}

  std::size_t operator()(RandomBits& bits) const { return (*held_)(bits); }
  explicit operator bool() const noexcept { return held_ != nullptr; }

 private:
  struct Callable {
    virtual ~Callable() = default;
    virtual std::size_t operator()(RandomBits& bits) const = 0;
  };
  template <class Draw>
  struct Held final : Callable {
    explicit Held(Draw d) : draw(std::move(d)) {}
    std::size_t operator()(RandomBits& bits) const override { return draw(bits); }
    Draw draw;
  };
  std::unique_ptr<const Callable> held_;
};

// The public/data mixture: with probability `data_weight` an index from the data part, else one from the public
// base (uniform over `categories` when `base` is empty). Both parts are ready before the coin is tossed.
[[nodiscard]] IndexDraw mixture_draw(double data_weight, IndexDraw data, std::size_t categories,
                                     IndexDraw base = {});

}  // namespace privsample
