#pragma once
// One-dimensional searches shared by the analysis layer (docs/numerics.md): a golden-section maximiser of a concave
// function and a bisection for the boundary of a monotone feasible set. Header-only: the callables are inlined.
#include <algorithm>

namespace privsample {

// Golden-section maximisation of a concave f on [lo, hi] in a fixed number of iterations; returns the best value
// seen, endpoints included (the optimum of the LMIDP problems is often at an endpoint).
template <class F>
double golden_section_max(int iterations, F&& f, double lo, double hi) {
  constexpr double kInvPhi = 0.6180339887498949;  // 1/φ
  double best = std::max(f(lo), f(hi));
  double a = lo;
  double b = hi;
  double c = b - kInvPhi * (b - a);
  double d = a + kInvPhi * (b - a);
  double fc = f(c);
  double fd = f(d);
  for (int it = 0; it < iterations; ++it) {
    if (fc >= fd) {
      b = d;
      d = c;
      fd = fc;
      c = b - kInvPhi * (b - a);
      fc = f(c);
    } else {
      a = c;
      c = d;
      fc = fd;
      d = a + kInvPhi * (b - a);
      fd = f(d);
    }
    best = std::max({best, fc, fd});
  }
  return best;
}

// Largest x in [lo, hi] with feasible(x), for feasible monotone (true then false), by at most `iterations`
// bisections (stopping early when the midpoint no longer moves); feasible(lo) is assumed.
template <class F>
double largest_feasible(int iterations, F&& feasible, double lo, double hi) {
  if (feasible(hi)) return hi;
  for (int it = 0; it < iterations; ++it) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    (feasible(mid) ? lo : hi) = mid;
  }
  return lo;
}

}  // namespace privsample
