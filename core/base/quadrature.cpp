#include "base/quadrature.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>

#include "base/numeric.hpp"

namespace privsample {

namespace {

constexpr double kXgk[8] = {0.991455371120812639206854697526329, 0.949107912342758524526189684047851,
                            0.864864423359769072789712788640926, 0.741531185599394439863864773280788,
                            0.586087235467691130294144845693013, 0.405845151377397166906606412076961,
                            0.207784955007898467600689403773245, 0.000000000000000000000000000000000};
constexpr double kWgk[8] = {0.022935322010529224963732008058970, 0.063092092629978553290700663189204,
                            0.104790010322250183839876322541518, 0.140653259715525918745189590510238,
                            0.169004726639267902826583426598550, 0.190350578064785409913256402421014,
                            0.204432940075298892414161999234649, 0.209482141084727828012999174891714};
constexpr double kWg[4] = {0.129484966168869693270611432679082, 0.279705391489276667901467771423780,
                           0.381830050505118944950369775488975, 0.417959183673469387755102040816327};

struct Rule {
  double value;
  double error;
};

Rule gauss_kronrod(const std::function<double(double)>& f, double a, double b) {
  const double center = 0.5 * (a + b);
  const double half = 0.5 * (b - a);
  const double fc = f(center);
  double kronrod = fc * kWgk[7];
  double gauss = fc * kWg[3];
  for (int j = 0; j < 7; ++j) {
    const double dx = half * kXgk[j];
    const double sum = f(center - dx) + f(center + dx);
    kronrod += kWgk[j] * sum;
    if (j % 2 == 1) gauss += kWg[j / 2] * sum;
  }
  return {kronrod * half, std::fabs((kronrod - gauss) * half)};
}

// Where the bisection stops short of its tolerance: 40 halvings narrow an interval by 2^40 ≈ 1e12, and an interval
// narrower than 1e-12 of max(1, |a|) — a few thousand ulps of its ends — would be split into points the rule
// cannot tell apart, so its estimate is final there (an integrable singularity ends the recursion instead of
// looping).
constexpr int kMaxDepth = 40;
constexpr double kNarrowestInterval = 1e-12;

double adaptive_integral(const std::function<double(double)>& f, double a, double b, double tol, int depth) {
  const Rule whole = gauss_kronrod(f, a, b);
  if (whole.error <= tol || depth >= kMaxDepth || b - a <= kNarrowestInterval * std::max(1.0, std::fabs(a))) {
    return whole.value;
  }
  const double mid = 0.5 * (a + b);
  return adaptive_integral(f, a, mid, 0.5 * tol, depth + 1) + adaptive_integral(f, mid, b, 0.5 * tol, depth + 1);
}

}  // namespace

double adaptive_gauss_kronrod(const std::function<double(double)>& f, double a, double b, double tol) {
  return adaptive_integral(f, a, b, tol, 0);
}

SimpsonRule composite_simpson(double upper, std::size_t panels) {
  if (panels < 2 || panels % 2 != 0) {
    throw std::invalid_argument("panels = " + std::to_string(panels) + ": composite Simpson needs an even number >= 2");
  }
  SimpsonRule rule;
  rule.nodes.resize(panels + 1);
  rule.weights.resize(panels + 1);
  const double h = upper / static_cast<double>(panels);
  for (std::size_t i = 0; i <= panels; ++i) {
    rule.nodes[i] = h * static_cast<double>(i);
    const double c = (i == 0 || i == panels) ? 1.0 : (i % 2 == 1 ? 4.0 : 2.0);
    rule.weights[i] = c * h / 3.0;
  }
  return rule;
}

}  // namespace privsample
