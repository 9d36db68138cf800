#pragma once
// The clip boxes the clip samplers release from, rounded toward privacy (DESIGN.md "Numerics and privacy hygiene").
//
// A clip sampler's output satisfies lo_x <= q_x <= hi_x exactly (clip_normalise clamps), so its pure ε-LDP
// guarantee holds in floating point when hi_x/lo_x is e^ε up to rounding (a few ulps: the tests bound the realised
// ratio by e^ε·(1 + 1e-12)) — which fails when lo_x underflows: a subnormal floor has lost its relative precision
// and a zero one allows an infinite ratio. privacy_box builds lo_x = floor·w_x and hi_x = ceiling·w_x from public
// weights w (a prior, a reference, cell masses) and applies the underflow rule:
//   an entry w_x > 0 whose floor lo_x = floor·w_x falls below the smallest normal double (2.2e-308) is either
//   refused — std::invalid_argument naming the entry, its floor and the smallest entry that works at this ε (finite
//   priors and references: the caller wrote that number; e.g. a prior entry of 1e-300 works up to ε ≈ 18 with
//   γ = 2, not at ε = 50) — or made a category that is never output, lo_x = hi_x = 0 (grid cells far in a
//   reference's tails, where a density of the class could only have mass below ~1e-300 anyway).
// Entries w_x = 0 give lo_x = hi_x = 0 (a category the sampler never outputs).
#include <span>
#include <string_view>
#include <vector>

namespace privsample {

struct PrivacyBox {
  std::vector<double> lo;
  std::vector<double> hi;
};

// weights finite and >= 0 (validated by the caller); 0 < floor <= ceiling; epsilon the ε the sampler runs at
// (<= 700). `name` is the weights' name in messages ("prior", "reference", "reference cell masses").
enum class UnderflowRule { refuse, never_output };

[[nodiscard]] PrivacyBox privacy_box(std::span<const double> weights, double floor, double ceiling, double epsilon,
                                     std::string_view name, UnderflowRule rule = UnderflowRule::refuse);

}  // namespace privsample
