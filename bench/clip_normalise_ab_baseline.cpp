// The other side of bench/clip_normalise_ab.cpp: compiled by scripts/bench-clip-ab.sh against another commit's core,
// with -Dprivsample=privsample_baseline, so that its solver and this one live in one program.
#include <span>
#include <vector>

#include "privsample/clip_normalise.hpp"

std::vector<double> baseline_clip_normalise(std::span<const double> p, double lo, double hi) {
  return privsample::clip_normalise(p, privsample::UniformBox{p.size(), lo, hi}).q;
}
