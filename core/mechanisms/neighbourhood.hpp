#pragma once
// The neighbourhood N_γ(P0) = {P : 1/γ <= P/P0 <= γ} of a public prior P0, which the local samplers (local,
// local-linear; Ghoukasian et al.) centre on: its width γ and its box; and the check that a histogram has the
// categories of a public prior (or of the mollifier's reference).
#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "privacy/privacy_box.hpp"

namespace privsample {

// γ of the neighbourhood: finite, > 1 and at most kMaxGamma (std::invalid_argument naming gamma otherwise).
inline constexpr double kMaxGamma = 1e12;
double validated_gamma(double gamma, std::string_view name);
double validated_gamma(double gamma);

// N_γ(P0) as the box [p0/γ, γ·p0] that clip_normalise projects P onto (P̂, the f-projection of P onto N_γ(P0) for every
// f), its ends rounded inward so that P̂ lies in N_γ(P0) as real numbers. prior: a pmf; γ validated.
[[nodiscard]] PrivacyBox neighbourhood_box(std::span<const double> prior, double gamma);

// The users over whom the local samplers' worst-case risk is taken (mechanism.hpp risk_class).
[[nodiscard]] std::string neighbourhood_risk_class();

// A histogram of k categories against a public distribution of `size` entries, named `name` ("prior", "reference"):
// a ShapeError ("k = 3 but the prior has 4 categories") when they differ.
void check_prior_size(std::size_t k, std::size_t size, const char* name = "prior");

// The caveat of a local sampler's affine map (spec.hpp AffineMap), which holds only for users inside `region` (N_γ(P0)
// for local-linear, the identity box b·P0 <= P <= b·e^ε·P0 for local). Both regions are boxes P/P0 >= c > 0, so with
// k >= 2 categories every user with an entry of 0 — a user holding one item in particular — is outside, always. Such a
// user releases what some input inside releases (`released_as`: its projection onto N_γ(P0), its release law clipped
// into the box), so its counts look exactly like those of users inside: no count can show it, and for such users the
// estimate's target is `target`, not P-bar. k = 1 has one pmf, inside both regions: no caveat ("").
[[nodiscard]] std::string outside_region_caveat(std::size_t k, std::string_view region, std::string_view released_as,
                                                std::string_view target);

}  // namespace privsample
