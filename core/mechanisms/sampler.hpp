#pragma once
// The mechanism concept, written once for the finite samplers (on categories) and the continuous ones (on grid
// cells): every sampler states its guarantee, computes its exact output pmf Q(·|P) with distribution(), and gives
// its closed-form worst-case risk for any f (docs/divergences.md); the finite ones also release an index under the
// draw policy (docs/draw-policy.md). The bases below hold what these samplers share, so that each sampler's own
// file holds only its box or its mixture and its theorem:
//
//  * PureLdpSampler<S>: a mechanism whose guarantee is pure ε-LDP (docs/notions.md), ε validated once here.
//  * ClipSampler<S>: a clip sampler over a box, Q(·|P) = clip(P/r_P; lo, hi) with Σq = 1 computed by ONE
//    clip_normalise in S::solve(input); distribution() is its q and normaliser() its r_P (normaliser_of). Its
//    guarantee is pure ε-LDP because the box's ends differ by e^ε at every atom (privacy_box.hpp).
//  * SamplerBase<S>: worst_case_risk(NamedDivergence, …) through the named divergence's f and S's
//    worst_case_risk(const FDivergence&, …) (finite samplers take k, continuous ones nothing); sample(hist, bits)
//    as one call of S::prepare(hist), the sampler's draw under the draw policy. A sampler with a closed form of its
//    own for the named divergences (minimax.hpp) declares that overload itself.
//
// A derived sampler that declares worst_case_risk(const FDivergence&, …) brings the named overload back into view
// with `using SamplerBase<S>::worst_case_risk;` (C++ hides base overloads of the same name).
#include <algorithm>
#include <cstddef>
#include <span>
#include <vector>

#include "base/errors.hpp"
#include "solver/clip_normalise.hpp"
#include "model/divergence.hpp"
#include "privacy/privacy.hpp"
#include "base/randomness.hpp"
#include "privacy/release_plan.hpp"

namespace privsample {

// r_P of a clip_normalise solution q = clip(P/r_P; lo, hi): 1/scale when a normaliser exists (Case A); 0 in Case B,
// where no normaliser exists (the limit r → 0: the support at the ceiling); 1 when the box is a single point (ε = 0:
// every r gives the reference itself).
[[nodiscard]] inline double normaliser_of(const ClipNormalised& solved) noexcept {
  if (solved.kind == ClipCase::sparse_support) return 0.0;
  if (solved.kind == ClipCase::box_is_point) return 1.0;
  return 1.0 / solved.scale;
}

// A computed pmf into the caller's `out`, which must have as many entries (a shape error otherwise): for the
// distribution_into of samplers without a path of their own.
inline void copy_into(const std::vector<double>& q, std::span<double> out) {
  if (out.size() != q.size()) {
    throw_shape({"the output has ", out.size(), " entries but the distribution has ", q.size()});
  }
  std::copy(q.begin(), q.end(), out.begin());
}

template <class S>
class SamplerBase {
 public:
  template <class... Size>
  [[nodiscard]] double worst_case_risk(NamedDivergence f, Size... k) const {
    return self().worst_case_risk(f_divergence(f), k...);
  }
  // One released index for this input, drawn under the draw policy (S::prepare, draw.hpp). Only samplers with a
  // prepare() call it: a member of a class template is instantiated when used. (No requires-clause: clang 14
  // checks it while S is still incomplete and then rejects every call.)
  [[nodiscard]] std::size_t sample(std::span<const double> hist, RandomBits& bits) const {
    return self().prepare(hist)(bits);
  }
  // Ready to release `draws` indices for this input: the sampler's exact release (S::release, release_plan.hpp)
  // drawn by one scan for a single draw, or an alias table for many. Samplers without release() declare their own.
  [[nodiscard]] IndexDraw prepare(std::span<const double> hist, std::size_t draws = 1) const {
    return Release::draw(self().release(hist), draws);
  }

 protected:
  [[nodiscard]] const S& self() const noexcept { return static_cast<const S&>(*this); }
};

template <class S>
class PureLdpSampler : public SamplerBase<S> {
 public:
  explicit PureLdpSampler(double epsilon) : epsilon_(validated_epsilon(epsilon)) {}

  [[nodiscard]] Guarantee guarantee() const noexcept { return {PrivacyNotion::pure_ldp, epsilon_}; }
  [[nodiscard]] double epsilon() const noexcept { return epsilon_; }

 protected:
  double epsilon_;
};

template <class S>
class ClipSampler : public PureLdpSampler<S> {
 public:
  explicit ClipSampler(double epsilon) : PureLdpSampler<S>(epsilon) {}

  [[nodiscard]] std::vector<double> distribution(std::span<const double> input) const { return this->self().solve(input).q; }
  [[nodiscard]] double normaliser(std::span<const double> input) const { return normaliser_of(this->self().solve(input)); }
};

}  // namespace privsample
