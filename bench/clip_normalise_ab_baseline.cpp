// The other side of bench/clip_normalise_ab.cpp: compiled by scripts/bench-clip-ab.sh against another commit's core,
// with -Dprivsample=privsample_baseline, so that its solver and this one live in one program.
#include <span>
#include <vector>

#if __has_include("solver/clip_normalise.hpp")
#include "solver/clip_normalise.hpp"
#else
#include "privsample/clip_normalise.hpp"  // a commit from before the core's folders by layer
#endif

std::vector<double> baseline_clip_normalise(std::span<const double> p, double lo, double hi) {
  return privsample::clip_normalise(p, privsample::UniformBox{p.size(), lo, hi}).q;
}
