#pragma once
// For the tests only (tests/native/clip_normalise_test.cpp), not part of the core's interface.
#include <span>

#include "solver/clip_normalise.hpp"

namespace privsample::detail {

// The same solver without its small-k route (a UniformBox with k <= 128: the first bracket found by Newton steps on
// the stack instead of by sorting the breakpoints). The results are identical to the last bit; the test checks that
// they are.
[[nodiscard]] ClipNormalised clip_normalise_without_small_route(std::span<const double> p, const UniformBox& box);

}  // namespace privsample::detail
