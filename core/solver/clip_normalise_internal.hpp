#pragma once
// For the tests only (tests/native/clip_normalise_test.cpp), not part of the core's interface. The solver's own
// internal headers (clip_normalise_parts.hpp, clip_normalise_lanes.hpp) are for core/solver/ alone.
#include <span>

#include "solver/clip_normalise.hpp"

namespace privsample::detail {

// The same solver without its small-k route (a UniformBox with k <= 128: the first bracket found by Newton steps on
// the stack instead of by sorting the breakpoints). The results are identical to the last bit; the test checks that
// they are.
[[nodiscard]] ClipNormalised clip_normalise_without_small_route(std::span<const double> p, const UniformBox& box);

// F̃(t) = Σ clip(t·p; lo, hi) as the fixed schedule sums it (blocks of 256 atoms, four lanes by index modulo 4, each
// block's (lane 0 + lane 2) + (lane 1 + lane 3) added error-free), in this build's form of the pass (f64x2 lanes where
// it has them); the test checks it against the plain scalar loop bit for bit. p and the box unchecked, of one size.
[[nodiscard]] double fixed_schedule_value(std::span<const double> p, const UniformBox& box, double t);
[[nodiscard]] double fixed_schedule_value(std::span<const double> p, const AtomBox& box, double t);

}  // namespace privsample::detail
