#pragma once
// Where an input sits relative to the class a worst-case risk is about: the bounded-ratio class
// P̃_{c1,c2,h} = {P : c1·h <= p <= c2·h} and its special case, the neighbourhood of a public prior
// N_γ(P0) = P̃_{1/γ,γ,P0} (docs/notions.md#classes-of-inputs). The class matters for the risk bound only: the clip
// samplers are private for every input. Guarantee: the ratios are those of the normalised input to the normalised
// reference (the scale rule of histogram.hpp), and `inside` is the one membership rule of the library (in_class,
// with the relative slack kClassTolerance), so a page that says "your P is outside the class" says what the core means.
#include <span>
#include <string_view>

#include "mechanisms/cells.hpp"

namespace privsample {

struct ClassMembership {
  double min_ratio = 0.0;  // min p/h over the cells where h > 0
  double max_ratio = 0.0;  // max p/h over the cells where h > 0; +∞ when p has mass where h = 0
  bool inside = false;     // c1·h <= p <= c2·h on every cell, within kClassTolerance
};

// The input (any positive scale, validated like a histogram and named `name`) against a class built by
// density_class. Throws std::invalid_argument naming `name` for bad entries and ShapeError when its length differs
// from the reference's.
[[nodiscard]] ClassMembership class_membership(const DensityClass& cls, std::span<const double> input,
                                               std::string_view name = "density");

// The histogram `hist` against N_γ(P0): prior as counts or probabilities, every entry > 0 (validated_prior), γ as
// the local samplers take it (validated_gamma). Errors name "hist", "prior" or "gamma".
[[nodiscard]] ClassMembership neighbourhood_membership(std::span<const double> hist, std::span<const double> prior,
                                                       double gamma);

}  // namespace privsample
