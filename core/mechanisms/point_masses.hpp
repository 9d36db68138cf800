#pragma once
// The law of a point mass's release for the mechanisms that share a form of output (spec.hpp's PointMassLaw): a clip
// box [lo, hi], whose point mass at x is clip_normalise's Case A (x takes what the floors leave) or Case B (x at its
// top, every other atom at lo + θ(hi − lo) with one θ), and a public/data mixture (1 − λ)·floor + λ·e_x.
#include <cstddef>
#include <span>

#include "mechanisms/spec.hpp"

namespace privsample {

// Point masses of clip_normalise into the box [lo, hi] (lo <= hi, Σlo <= 1 <= Σhi; atoms with hi = 0 never output).
[[nodiscard]] PointMassLaw clip_point_masses(std::span<const double> lo, std::span<const double> hi);
// The same box on every one of k atoms.
[[nodiscard]] PointMassLaw uniform_clip_point_masses(std::size_t k, double lo, double hi);
// A mixture that releases x with probability `spike` and otherwise draws from `floor` (the same for every x).
[[nodiscard]] PointMassLaw mixture_point_masses(std::span<const double> floor, double spike);

}  // namespace privsample
