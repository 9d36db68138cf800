#include "mechanisms/continuous.hpp"
#include "mechanisms/membership.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>

#include "base/errors.hpp"
#include "privacy/privacy_box.hpp"
#include "mechanisms/clip_samplers.hpp"
#include "mechanisms/linear_samplers.hpp"
#include "model/histogram.hpp"
#include "base/numeric.hpp"

namespace privsample {
namespace {

// Messages are built only on failure (these checks run once per cell).
[[noreturn]] void fail(const std::string& message) { throw std::invalid_argument(message); }
[[noreturn]] void fail_shape(const std::string& message) { throw ShapeError(message); }

double axis_edge(double lo, double hi, std::size_t cells, std::size_t i) {
  if (i >= cells) return hi;  // the last edge exactly, whatever the rounding of lo + (hi − lo)·1
  return lo + (hi - lo) * (static_cast<double>(i) / static_cast<double>(cells));
}

std::vector<double> axis_edges(double lo, double hi, std::size_t cells) {
  std::vector<double> edges(cells + 1);
  for (std::size_t i = 0; i <= cells; ++i) edges[i] = axis_edge(lo, hi, cells, i);
  return edges;
}

void validate_axis(double lo, double hi, std::size_t cells, const std::string& lo_name, const std::string& hi_name,
                   const std::string& cells_name) {
  if (!(cells >= 1)) fail(cells_name + " = 0: must be >= 1");
  if (!(cells <= kMaxCategories))
    fail(cells_name + " = " + std::to_string(cells) + ": at most " + std::to_string(kMaxCategories) + " cells");
  if (!(std::isfinite(lo) && std::isfinite(hi) && lo < hi && std::isfinite(hi - lo)))
    fail(lo_name + " = " + format_value(lo) + ", " + hi_name + " = " + format_value(hi) + ": need finite lo < hi");
}

// Masses of N(mean, sigma²) on every cell of the edges. Each mass is a difference of erfc values taken on the
// mean's side of the cell (docs/numerics.md#sums-and-tails: tails must not cancel to 0 or go negative).
void add_gaussian_cells(std::span<const double> edges, double mean, double sigma, double weight,
                        std::vector<double>& out) {
  const double scale = 1.0 / (sigma * std::numbers::sqrt2);
  std::vector<double> upper(edges.size());  // P(X > e)
  std::vector<double> lower(edges.size());  // P(X < e)
  for (std::size_t i = 0; i < edges.size(); ++i) {
    const double z = (edges[i] - mean) * scale;
    upper[i] = 0.5 * std::erfc(z);
    lower[i] = 0.5 * std::erfc(-z);
  }
  for (std::size_t i = 0; i + 1 < edges.size(); ++i) {
    double mass = 0.0;
    if (edges[i] >= mean) {
      mass = upper[i] - upper[i + 1];
    } else if (edges[i + 1] <= mean) {
      mass = lower[i + 1] - lower[i];
    } else {
      mass = 1.0 - upper[i + 1] - lower[i];
    }
    out[i] += weight * std::max(mass, 0.0);
  }
}

// Masses of L(mean, scale) on every cell (exp of the distance, on the mean's side; expm1 for narrow cells).
void add_laplace_cells(std::span<const double> edges, double mean, double scale, double weight,
                       std::vector<double>& out) {
  for (std::size_t i = 0; i + 1 < edges.size(); ++i) {
    const double a = edges[i];
    const double b = edges[i + 1];
    double mass = 0.0;
    if (a >= mean) {
      mass = -0.5 * std::exp(-(a - mean) / scale) * std::expm1(-(b - a) / scale);
    } else if (b <= mean) {
      mass = -0.5 * std::exp((b - mean) / scale) * std::expm1(-(b - a) / scale);
    } else {
      mass = 1.0 - 0.5 * std::exp(-(b - mean) / scale) - 0.5 * std::exp((a - mean) / scale);
    }
    out[i] += weight * std::max(mass, 0.0);
  }
}

double gaussian_interval(double a, double b, double mean, double sigma) {
  std::vector<double> one(1, 0.0);
  const std::array<double, 2> edges{a, b};
  add_gaussian_cells(edges, mean, sigma, 1.0, one);
  return one[0];
}

std::vector<double> normalised_weights(std::span<const double> weights, std::size_t components) {
  if (!(components >= 1)) fail("means: need at least one component");
  if (!(weights.size() == components))
    fail_shape("weights has " + std::to_string(weights.size()) + " entries but means has " + std::to_string(components));
  CompensatedSum total;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (!(std::isfinite(weights[i]) && weights[i] >= 0.0))
      fail("weights[" + std::to_string(i) + "] = " + format_value(weights[i]) + ": must be finite and >= 0");
    total.add(weights[i]);
  }
  if (!(total.value() > 0.0 && std::isfinite(total.value()))) fail("weights: need a positive finite total");
  std::vector<double> out(weights.begin(), weights.end());
  for (double& w : out) w /= total.value();
  return out;
}

void check_scale(double value, const char* name) {
  if (!(std::isfinite(value) && value > 0.0))
    fail(std::string(name) + " = " + format_value(value) + ": must be a finite number > 0");
}

void check_mean(double value, std::size_t i) {
  if (!(std::isfinite(value))) fail("means[" + std::to_string(i) + "] = " + format_value(value) + ": must be finite");
}

// Truncation to the grid: divide by the total mass on it.
std::vector<double> truncated(std::vector<double> masses) {
  const double total = compensated_total(masses);
  if (!(total > 0.0 && std::isfinite(total)))
    fail("the density has no mass on the grid (it underflows to 0 there): move the grid or the density");
  for (double& m : masses) m /= total;
  return masses;
}

using AxisAdder = void (*)(std::span<const double>, double, double, double, std::vector<double>&);

// Σ_j w_j (component on x) ⊗ (component on y), per-axis scales.
std::vector<double> product_mixture_2d(const Grid2D& grid, std::span<const Point2D> means,
                                       std::span<const double> weights, double scale_x, double scale_y, AxisAdder add) {
  validate_grid(grid);
  const std::vector<double> w = normalised_weights(weights, means.size());
  const std::vector<double> ex = axis_edges(grid.x_lo, grid.x_hi, grid.nx);
  const std::vector<double> ey = axis_edges(grid.y_lo, grid.y_hi, grid.ny);
  std::vector<double> out(grid.nx * grid.ny, 0.0);
  std::vector<double> mx(grid.nx);
  std::vector<double> my(grid.ny);
  for (std::size_t j = 0; j < means.size(); ++j) {
    check_mean(means[j][0], j);
    check_mean(means[j][1], j);
    if (w[j] == 0.0) continue;
    std::fill(mx.begin(), mx.end(), 0.0);
    std::fill(my.begin(), my.end(), 0.0);
    add(ex, means[j][0], scale_x, 1.0, mx);
    add(ey, means[j][1], scale_y, w[j], my);
    for (std::size_t iy = 0; iy < grid.ny; ++iy) {
      double* row = out.data() + iy * grid.nx;
      const double wy = my[iy];
      if (wy == 0.0) continue;
      for (std::size_t ix = 0; ix < grid.nx; ++ix) row[ix] += wy * mx[ix];
    }
  }
  return truncated(std::move(out));
}

std::vector<double> mixture_1d(const Grid1D& grid, std::span<const double> means, std::span<const double> weights,
                               double scale, AxisAdder add) {
  validate_grid(grid);
  const std::vector<double> w = normalised_weights(weights, means.size());
  const std::vector<double> edges = cell_edges(grid);
  std::vector<double> out(grid.cells, 0.0);
  for (std::size_t j = 0; j < means.size(); ++j) {
    check_mean(means[j], j);
    if (w[j] > 0.0) add(edges, means[j], scale, w[j], out);
  }
  return truncated(std::move(out));
}

double sample_sd(std::span<const double> values) {
  CompensatedSum sum;
  for (const double v : values) sum.add(v);
  const double mean = sum.value() / static_cast<double>(values.size());
  CompensatedSum squares;
  for (const double v : values) squares.add((v - mean) * (v - mean));
  return std::sqrt(squares.value() / static_cast<double>(values.size() - 1));
}

void check_points(std::span<const double> points, const char* what) {
  if (!(!points.empty())) fail("points: need at least one point");
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!(std::isfinite(points[i])))
      fail(std::string("points[") + std::to_string(i) + "]" + what + " = " + format_value(points[i]) +
           ": must be finite");
  }
}

double scott_axis(std::span<const double> values, double exponent, const char* axis) {
  if (!(values.size() >= 2))
    fail(std::string("points: Scott's rule needs at least two points") + axis + "; give a bandwidth");
  const double sd = sample_sd(values);
  if (!(sd > 0.0 && std::isfinite(sd)))
    fail(std::string("points: all equal") + axis + ", Scott's rule gives bandwidth 0; give a bandwidth");
  return sd * std::pow(static_cast<double>(values.size()), exponent);
}

// Validated reference cell masses (any scale), normalised; `total` receives Z = Σ raw.
std::vector<double> normalised_reference(std::span<const double> raw, const char* name, double& total) {
  if (!(!raw.empty())) fail(std::string(name) + ": need at least one cell");
  if (!(raw.size() <= kMaxCategories))
    fail(std::string(name) + ": at most " + std::to_string(kMaxCategories) + " cells");
  CompensatedSum sum;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (!(std::isfinite(raw[i]) && raw[i] >= 0.0))
      fail(std::string(name) + "[" + std::to_string(i) + "] = " + format_value(raw[i]) + ": must be finite and >= 0");
    sum.add(raw[i]);
  }
  total = sum.value();
  if (!(total > 0.0 && std::isfinite(total))) fail(std::string(name) + ": need a positive finite total mass");
  std::vector<double> h(raw.begin(), raw.end());
  for (double& v : h) v /= total;
  return h;
}

std::vector<double> density_pmf(std::span<const double> density, std::size_t cells) {
  std::vector<double> p = normalized_pmf(density, "density");
  if (!(p.size() == cells))
    fail_shape("density has " + std::to_string(p.size()) + " cells but the reference has " + std::to_string(cells));
  return p;
}

// The weight a linear sampler runs at: effective guarantee, and the GDP weight rounded down (functional_ldp.hpp).

void require_in_class(const DensityClass& cls, std::span<const double> p) {
  if (!(in_class(cls, p)))
    fail("density: outside the class c1*h <= p <= c2*h (c1 = " + format_value(cls.c1) +
         ", c2 = " + format_value(cls.c2) + " after normalising h); this mechanism is private only on the class");
}

// Gauss–Legendre, 5 points on [−1, 1].
constexpr std::array<double, 5> kNodes{-0.9061798459386640, -0.5384693101056831, 0.0, 0.5384693101056831,
                                       0.9061798459386640};
constexpr std::array<double, 5> kWeights{0.2369268850561891, 0.4786286704993665, 0.5688888888888889, 0.4786286704993665,
                                         0.2369268850561891};

double checked_value(double value, double x) {
  if (!(std::isfinite(value) && value >= 0.0))
    fail("density(" + format_value(x) + ") = " + format_value(value) + ": must be finite and >= 0");
  return value;
}

}  // namespace

// ---- grids ------------------------------------------------------------------------------------------------------

void validate_grid(const Grid1D& grid) {
  validate_axis(grid.lo, grid.hi, grid.cells, "grid.lo", "grid.hi", "grid.cells");
}

void validate_grid(const Grid2D& grid) {
  validate_axis(grid.x_lo, grid.x_hi, grid.nx, "grid.xLo", "grid.xHi", "grid.nx");  // the names a JS caller writes
  validate_axis(grid.y_lo, grid.y_hi, grid.ny, "grid.yLo", "grid.yHi", "grid.ny");
  if (!(grid.nx <= kMaxCategories / grid.ny))
    fail("grid.nx * grid.ny = " + std::to_string(grid.nx) + " * " + std::to_string(grid.ny) + ": at most " +
         std::to_string(kMaxCategories) + " cells");
}

std::size_t cell_count(const Grid2D& grid) {
  validate_grid(grid);
  return grid.nx * grid.ny;
}

std::vector<double> cell_edges(const Grid1D& grid) {
  validate_grid(grid);
  return axis_edges(grid.lo, grid.hi, grid.cells);
}

namespace {
std::size_t axis_index(double lo, double hi, std::size_t cells, double x) {
  if (!(!std::isnan(x))) fail("x = NaN: must be a number");
  const double t = (x - lo) / (hi - lo) * static_cast<double>(cells);
  if (!(t > 0.0)) return 0;
  if (t >= static_cast<double>(cells)) return cells - 1;
  return static_cast<std::size_t>(t);
}
}  // namespace

std::size_t cell_index(const Grid1D& grid, double x) {
  validate_grid(grid);
  return axis_index(grid.lo, grid.hi, grid.cells, x);
}

std::size_t cell_index(const Grid2D& grid, double x, double y) {
  validate_grid(grid);
  return axis_index(grid.y_lo, grid.y_hi, grid.ny, y) * grid.nx + axis_index(grid.x_lo, grid.x_hi, grid.nx, x);
}

// ---- densities --------------------------------------------------------------------------------------------------

std::vector<double> gaussian_mixture(const Grid1D& grid, std::span<const double> means, std::span<const double> weights,
                                     double sigma) {
  check_scale(sigma, "sigma");
  return mixture_1d(grid, means, weights, sigma, add_gaussian_cells);
}

std::vector<double> gaussian_mixture(const Grid2D& grid, std::span<const Point2D> means,
                                     std::span<const double> weights, double sigma) {
  check_scale(sigma, "sigma");
  return product_mixture_2d(grid, means, weights, sigma, sigma, add_gaussian_cells);
}

std::vector<double> gaussian_ring(const Grid2D& grid, std::size_t modes, double variance, double radius) {
  if (!(modes >= 1)) fail("modes = 0: must be >= 1");
  check_scale(variance, "variance");
  if (!(std::isfinite(radius) && radius >= 0.0)) fail("radius = " + format_value(radius) + ": must be finite and >= 0");
  std::vector<Point2D> means(modes);
  for (std::size_t j = 0; j < modes; ++j) {
    const double angle = 2.0 * std::numbers::pi * static_cast<double>(j) / static_cast<double>(modes);
    means[j] = {radius * std::cos(angle), radius * std::sin(angle)};
  }
  const std::vector<double> weights(modes, 1.0);
  return gaussian_mixture(grid, means, weights, std::sqrt(variance));
}

std::vector<double> laplace_mixture(const Grid1D& grid, std::span<const double> means, std::span<const double> weights,
                                    double scale) {
  check_scale(scale, "scale");
  return mixture_1d(grid, means, weights, scale, add_laplace_cells);
}

std::vector<double> laplace_mixture(const Grid2D& grid, std::span<const Point2D> means, std::span<const double> weights,
                                    double scale) {
  check_scale(scale, "scale");
  return product_mixture_2d(grid, means, weights, scale, scale, add_laplace_cells);
}

double scott_bandwidth(std::span<const double> points) {
  check_points(points, "");
  return scott_axis(points, -0.2, "");
}

std::vector<double> kernel_density(const Grid1D& grid, std::span<const double> points, double bandwidth) {
  check_points(points, "");
  if (!(std::isfinite(bandwidth) && bandwidth >= 0.0))
    fail("bandwidth = " + format_value(bandwidth) + ": must be finite and > 0 (or 0 for Scott's rule)");
  const double bw = bandwidth > 0.0 ? bandwidth : scott_axis(points, -0.2, "");
  const std::vector<double> weights(points.size(), 1.0);
  return mixture_1d(grid, points, weights, bw, add_gaussian_cells);
}

std::vector<double> kernel_density(const Grid2D& grid, std::span<const Point2D> points, double bandwidth) {
  if (!(!points.empty())) fail("points: need at least one point");
  if (!(std::isfinite(bandwidth) && bandwidth >= 0.0))
    fail("bandwidth = " + format_value(bandwidth) + ": must be finite and > 0 (or 0 for Scott's rule)");
  std::vector<double> xs(points.size());
  std::vector<double> ys(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    xs[i] = points[i][0];
    ys[i] = points[i][1];
  }
  check_points(xs, "[0]");
  check_points(ys, "[1]");
  const double bx = bandwidth > 0.0 ? bandwidth : scott_axis(xs, -1.0 / 6.0, " (x axis)");
  const double by = bandwidth > 0.0 ? bandwidth : scott_axis(ys, -1.0 / 6.0, " (y axis)");
  const std::vector<double> weights(points.size(), 1.0);
  return product_mixture_2d(grid, points, weights, bx, by, add_gaussian_cells);
}

std::vector<double> gaussian_mixture_envelope(const Grid1D& grid, double sigma, double radius) {
  validate_grid(grid);
  check_scale(sigma, "sigma");
  if (!(std::isfinite(radius) && radius >= 0.0)) fail("radius = " + format_value(radius) + ": must be finite and >= 0");
  // The grid mass of N(μ, σ²) is log-concave in μ, so its minimum over |μ| <= radius is at an end (eq. 210).
  const double least =
      std::min(gaussian_interval(grid.lo, grid.hi, -radius, sigma), gaussian_interval(grid.lo, grid.hi, radius, sigma));
  if (!(least > 0.0)) fail("grid: a mixture component can have no mass on it; the envelope is unbounded");
  const std::vector<double> edges = cell_edges(grid);
  const double peak = 1.0 / (std::sqrt(2.0 * std::numbers::pi) * sigma * least);  // h̃ on the plateau
  std::vector<double> out(grid.cells, 0.0);
  for (std::size_t i = 0; i < grid.cells; ++i) {
    const double a = edges[i];
    const double b = edges[i + 1];
    // plateau [−radius, radius], where h̃ = peak
    const double plateau = std::max(0.0, std::min(b, radius) - std::max(a, -radius));
    // tails: exp(−(x ∓ radius)²/(2σ²)) integrates to √(2π)σ times a normal mass, so they carry 1/least
    double tails = 0.0;
    if (b > radius) tails += gaussian_interval(std::max(a, radius), b, radius, sigma);
    if (a < -radius) tails += gaussian_interval(a, std::min(b, -radius), -radius, sigma);
    out[i] = plateau * peak + tails / least;
  }
  return out;
}

std::vector<double> gaussian_ring_envelope(const Grid2D& grid, double variance, double radius) {
  validate_grid(grid);
  check_scale(variance, "variance");
  if (!(std::isfinite(radius) && radius >= 0.0)) fail("radius = " + format_value(radius) + ": must be finite and >= 0");
  const double sigma = std::sqrt(variance);
  const auto least_axis_mass = [&](double lo, double hi) {
    return std::min(gaussian_interval(lo, hi, -radius, sigma), gaussian_interval(lo, hi, radius, sigma));
  };
  const double z_lo = least_axis_mass(grid.x_lo, grid.x_hi) * least_axis_mass(grid.y_lo, grid.y_hi);
  if (!(z_lo > 0.0)) fail("grid: a ring component can have no mass on it; the envelope is unbounded");
  const double dx = (grid.x_hi - grid.x_lo) / static_cast<double>(grid.nx);
  const double dy = (grid.y_hi - grid.y_lo) / static_cast<double>(grid.ny);
  const double scale = dx * dy / (2.0 * std::numbers::pi * variance * z_lo);
  // The coordinate of [a, b] nearest 0.
  const auto nearest = [](double a, double b) { return a > 0.0 ? a : (b < 0.0 ? b : 0.0); };
  std::vector<double> out(cell_count(grid));
  for (std::size_t iy = 0; iy < grid.ny; ++iy) {
    const double y = nearest(grid.y_lo + static_cast<double>(iy) * dy, grid.y_lo + static_cast<double>(iy + 1) * dy);
    for (std::size_t ix = 0; ix < grid.nx; ++ix) {
      const double x = nearest(grid.x_lo + static_cast<double>(ix) * dx, grid.x_lo + static_cast<double>(ix + 1) * dx);
      const double excess = std::max(0.0, std::hypot(x, y) - radius);
      out[iy * grid.nx + ix] = scale * std::exp(-(excess * excess) / (2.0 * variance));
    }
  }
  return out;
}

std::vector<double> cell_masses(const Grid1D& grid, const std::function<double(double)>& density) {
  const std::vector<double> edges = cell_edges(grid);
  std::vector<double> out(grid.cells);
  for (std::size_t i = 0; i < grid.cells; ++i) {
    const double half = 0.5 * (edges[i + 1] - edges[i]);
    const double mid = 0.5 * (edges[i + 1] + edges[i]);
    double sum = 0.0;
    for (std::size_t k = 0; k < kNodes.size(); ++k) {
      const double x = mid + half * kNodes[k];
      sum += kWeights[k] * checked_value(density(x), x);
    }
    out[i] = sum * half;
  }
  return out;
}

std::vector<double> cell_masses(const Grid2D& grid, const std::function<double(double, double)>& density) {
  validate_grid(grid);
  const std::vector<double> ex = axis_edges(grid.x_lo, grid.x_hi, grid.nx);
  const std::vector<double> ey = axis_edges(grid.y_lo, grid.y_hi, grid.ny);
  std::vector<double> out(grid.nx * grid.ny);
  for (std::size_t iy = 0; iy < grid.ny; ++iy) {
    const double hy = 0.5 * (ey[iy + 1] - ey[iy]);
    const double my = 0.5 * (ey[iy + 1] + ey[iy]);
    for (std::size_t ix = 0; ix < grid.nx; ++ix) {
      const double hx = 0.5 * (ex[ix + 1] - ex[ix]);
      const double mx = 0.5 * (ex[ix + 1] + ex[ix]);
      double sum = 0.0;
      for (std::size_t a = 0; a < kNodes.size(); ++a) {
        const double x = mx + hx * kNodes[a];
        for (std::size_t b = 0; b < kNodes.size(); ++b) {
          const double y = my + hy * kNodes[b];
          const double v = density(x, y);
          if (!(std::isfinite(v) && v >= 0.0))
            fail("density(" + format_value(x) + ", " + format_value(y) + ") = " + format_value(v) +
                 ": must be finite and >= 0");
          sum += kWeights[a] * kWeights[b] * v;
        }
      }
      out[iy * grid.nx + ix] = sum * hx * hy;
    }
  }
  return out;
}

// ---- class and constants ------------------------------------------------------------------------------------------

ContinuousConstants continuous_constants(double c1, double c2, double epsilon) {
  validated_epsilon(epsilon);
  if (!(std::isfinite(c1) && c1 >= 0.0 && c1 < 1.0))
    fail("c1 = " + format_value(c1) + ": the normalised c1 must be finite and in [0, 1)");
  if (!(std::isfinite(c2) && c2 > 1.0)) fail("c2 = " + format_value(c2) + ": the normalised c2 must be finite and > 1");
  const double eps = effective_epsilon(epsilon);
  ContinuousConstants k;
  k.c1 = c1;
  k.c2 = c2;
  k.alpha = (1.0 - c1) / (c2 - c1);
  // c2 <= c1·e^ε, written as c2·e^{−ε} <= c1 (no overflow): the identity is already ε-LDP (docs/notions.md#classes-of-inputs).
  k.trivial = c2 * std::exp(-eps) <= c1;
  if (k.trivial) return k;  // b, r1, r2, γ stay 1: q = p
  const double shrink = std::exp(-eps);
  // b e^ε = 1/(α + (1−α)e^{−ε}), b = e^{−ε}·(b e^ε) (docs/numerics.md#large-epsilon).
  k.ceiling = 1.0 / (k.alpha + (1.0 - k.alpha) * shrink);
  k.b = k.ceiling * shrink;
  // r1 = c1/b < 1 < r2 = c2/(b e^ε) mathematically (eqs. 30–31); rounding must not cross 1.
  k.r1 = c1 == 0.0 ? 0.0 : std::min(1.0, c1 / k.b);
  k.r2 = std::max(1.0, c2 / k.ceiling);
  const double grow = std::expm1(eps);  // docs/numerics.md#small-epsilon: expm1 against cancellation at small ε
  k.gamma = grow / (grow * (1.0 - c1) + c2 - c1);
  return k;
}

DensityClass density_class(std::span<const double> reference, double c1, double c2) {
  if (!(std::isfinite(c1) && c1 >= 0.0)) fail("c1 = " + format_value(c1) + ": must be finite and >= 0");
  if (!(std::isfinite(c2) && c2 > c1))
    fail("c2 = " + format_value(c2) + ": must be finite and > c1 = " + format_value(c1));
  double total = 0.0;
  DensityClass cls;
  cls.h = normalised_reference(reference, "reference", total);
  cls.c1 = c1 * total;
  cls.c2 = c2 * total;
  if (!(cls.c1 < 1.0))
    fail("c1 = " + format_value(c1) + ": c1 times the reference mass (" + format_value(total) + ") is " +
         format_value(cls.c1) + " >= 1, so the class holds at most c1*h");
  if (!(cls.c2 > 1.0))
    fail("c2 = " + format_value(c2) + ": c2 times the reference mass (" + format_value(total) + ") is " +
         format_value(cls.c2) + " <= 1, so the class holds at most c2*h");
  return cls;
}

bool in_class(const DensityClass& cls, std::span<const double> density) {
  return class_membership(cls, density).inside;  // the one membership rule (membership.hpp)
}

// ---- Park's clip sampler ---------------------------------------------------------------------------------------

ContinuousClipSampler::ContinuousClipSampler(double epsilon, std::vector<double> reference, double c1, double c2)
    : ClipSampler(epsilon), class_(privsample::density_class(reference, c1, c2)) {
  constants_ = continuous_constants(class_.c1, class_.c2, epsilon_);
  // Trivial case: the box is the class itself (the exact projection, identity on members). Otherwise the
  // mollifier [b·h, b·e^ε·h] of Thm 3.3.
  const double floor = constants_.trivial ? class_.c1 : constants_.b;
  const double ceiling = constants_.trivial ? class_.c2 : constants_.ceiling;
  PrivacyBox box = privacy_box(class_.h, floor, ceiling, epsilon_, "reference",
                               UnderflowRule::never_output);
  lo_ = std::move(box.lo);
  hi_ = std::move(box.hi);
}

ClipNormalised ContinuousClipSampler::solve(std::span<const double> density) const {
  const std::vector<double> p = density_pmf(density, class_.h.size());
  if (constants_.trivial) require_in_class(class_, p);
  return clip_normalise(p, AtomBox{lo_, hi_});
}

double ContinuousClipSampler::normaliser(std::span<const double> density) const {
  const ClipNormalised solved = solve(density);
  return constants_.trivial ? 1.0 : normaliser_of(solved);
}

Release ContinuousClipSampler::release(std::span<const double> density) const {
  const std::vector<double> q = solve(density).q;
  auto plan = std::make_shared<const ReleasePlan>(clip_release_plan(lo_, epsilon_));
  return Release(plan, clip_data_target(*plan, q));
}

double ContinuousClipSampler::worst_case_risk(const FDivergence& f) const {
  if (constants_.trivial) return 0.0;
  return chord_risk(f, constants_.r1, constants_.r2);
}


// ---- linear sampler Q† ------------------------------------------------------------------------------------------

ContinuousLinearSampler::ContinuousLinearSampler(Guarantee g, std::vector<double> reference, double c1, double c2)
    : guarantee_(validated_ldp_guarantee(g)), class_(privsample::density_class(reference, c1, c2)) {
  // λ* = λ_T(g)/(1 − c1) (docs/mechanisms/linear.md#the-weight-for-each-notion); T > 1 because c2 > 1.
  const double T = (class_.c2 - class_.c1) / (1.0 - class_.c1);
  // The output's ratio to h lies in [λc1 + 1 − λ, λc2 + 1 − λ]; both ends, and the base share 1 − λ, are computed
  // without forming 1 − λ from a λ that rounds to 1 (ε or μ large), where the floor would vanish.
  double out_floor = 0.0;
  double out_ceiling = 0.0;
  if (guarantee_.notion == PrivacyNotion::pure_ldp) {
    // Park's γ (docs/mechanisms/continuous.md#linear-sampler): its output lies in the mollifier [b·h, b·e^ε·h] (eqs. 37–38), which is ε-LDP for every
    // T. For T < 2 (c1 + c2 < 2) the functional-LDP weight takes the β = 0 branch (e^ε − 1)/((e^ε + 1)(1 − c1)),
    // which is smaller (it bounds the total variation by 1, unreachable when T < 2); for T >= 2 the two agree.
    const ContinuousConstants k = continuous_constants(class_.c1, class_.c2, guarantee_.epsilon);
    lambda_ = std::clamp(k.gamma, 0.0, 1.0);
    out_floor = k.trivial ? class_.c1 : k.b;        // 1 − γ(1 − c1) = b
    out_ceiling = k.trivial ? class_.c2 : k.ceiling;  // 1 + γ(c2 − 1) = b·e^ε
    base_share_ = k.trivial ? 0.0 : std::clamp((out_floor - lambda_ * class_.c1), 0.0, 1.0);
  } else {
    const LinearWeight w = running_linear_weight(guarantee_, T);
    lambda_ = std::clamp(w.lambda / (1.0 - class_.c1), 0.0, 1.0);
    // 1 − λ = (1 − λ_T − c1)/(1 − c1) with 1 − λ_T = T·floor (solve_linear_weight computes the floor directly),
    // raised by a few roundings: a larger base share is still private (Lemma C.1).
    const double complement = T * w.floor;
    const double raw = (complement - class_.c1) / (1.0 - class_.c1);
    base_share_ = std::clamp(raw + 0x1p-50 * (complement + class_.c1) / (1.0 - class_.c1), 0.0, 1.0);
    out_floor = base_share_ + lambda_ * class_.c1;
    out_ceiling = base_share_ + lambda_ * class_.c2;
  }
  const std::size_t n = class_.h.size();
  lo_.resize(n);
  hi_.resize(n);
  out_lo_.resize(n);
  out_hi_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    lo_[i] = class_.c1 * class_.h[i];
    hi_[i] = class_.c2 * class_.h[i];
    out_lo_[i] = out_floor * class_.h[i];
    out_hi_[i] = out_ceiling * class_.h[i];
  }
}

std::vector<double> ContinuousLinearSampler::distribution(std::span<const double> density) const {
  const std::vector<double> p = density_pmf(density, class_.h.size());
  require_in_class(class_, p);
  // Exact projection onto the class box (identity up to rounding for members), so the mixture's ratio bound
  // holds in floating point; the clamp absorbs the rounding of the mixture itself.
  std::vector<double> q = clip_normalise(p, AtomBox{lo_, hi_}).q;
  for (std::size_t i = 0; i < q.size(); ++i) {
    q[i] = std::clamp(lambda_ * q[i] + base_share_ * class_.h[i], out_lo_[i], out_hi_[i]);
  }
  return q;
}

Release ContinuousLinearSampler::release(std::span<const double> density) const {
  if (guarantee_.notion == PrivacyNotion::pure_ldp) {
    const std::vector<double> q = distribution(density);
    auto plan = std::make_shared<const ReleasePlan>(clip_release_plan(out_lo_, guarantee_.epsilon));
    return Release(plan, clip_data_target(*plan, q));
  }
  const std::vector<double> p = density_pmf(density, class_.h.size());
  require_in_class(class_, p);
  auto plan = std::make_shared<const ReleasePlan>(class_release_plan(
      mixture_release_plan_by_base_share(base_share_, quantized_base(class_.h)), class_.c1, class_.c2));
  return Release(plan, clip_normalise(p, AtomBox{lo_, hi_}).q);
}

double ContinuousLinearSampler::worst_case_risk(const FDivergence& f) const {
  if (lambda_ >= 1.0) return 0.0;
  const LinearRiskConstants r = linear_risk_constants(class_.c1, class_.c2, lambda_);
  return chord_risk(f, r.r1, r.r2);
}


// ---- local samplers -----------------------------------------------------------------------------------------------

ContinuousLocalClipSampler::ContinuousLocalClipSampler(double epsilon, std::vector<double> prior, double gamma)
    : ClipSampler(epsilon), gamma_(validated_gamma(gamma)) {
  double total = 0.0;
  prior_ = normalised_reference(prior, "prior", total);
  box_ = local_clip_box(prior_, epsilon_, gamma_, UnderflowRule::never_output);
}

Release ContinuousLocalClipSampler::release(std::span<const double> density) const {
  const std::vector<double> q = solve(density).q;
  auto plan = std::make_shared<const ReleasePlan>(clip_release_plan(box_.lo, epsilon_));
  return Release(plan, clip_data_target(*plan, q));
}

ClipNormalised ContinuousLocalClipSampler::solve(std::span<const double> density) const {
  const std::vector<double> p = density_pmf(density, prior_.size());
  return clip_normalise(p, AtomBox{box_.lo, box_.hi});
}

double ContinuousLocalClipSampler::worst_case_risk(const FDivergence& f) const {
  return local_clip_risk(f, effective_epsilon(epsilon_), gamma_);
}


ContinuousLocalLinearSampler::ContinuousLocalLinearSampler(Guarantee g, std::vector<double> prior, double gamma)
    : guarantee_(validated_ldp_guarantee(g)), gamma_(validated_gamma(gamma)) {
  double total = 0.0;
  prior_ = normalised_reference(prior, "prior", total);
  // λ_loc = λ_{γ+1}(g)/(1 − 1/γ) (Thm 4.1 = Thm 3.4 with c1 = 1/γ, c2 = γ), rounded toward privacy.
  lambda_ = local_linear_weight(guarantee_, gamma_);
  complement_ = 1.0 - lambda_;
  PrivacyBox box = local_linear_box(guarantee_, prior_, gamma_, lambda_, UnderflowRule::never_output);
  // Cells whose output floor would underflow (far in the prior's tails) are never output, as in the other continuous
  // samplers: they leave the prior, which is renormalised (its other entries grow, so no other floor underflows).
  CompensatedSum kept;
  bool dropped = false;
  for (std::size_t i = 0; i < prior_.size(); ++i) {
    if (prior_[i] > 0.0 && box.hi[i] == 0.0) {
      prior_[i] = 0.0;
      dropped = true;
    }
    kept.add(prior_[i]);
  }
  if (dropped) {
    for (double& p : prior_) p /= kept.value();
    box = local_linear_box(guarantee_, prior_, gamma_, lambda_, UnderflowRule::never_output);
  }
  out_lo_ = std::move(box.lo);
  out_hi_ = std::move(box.hi);
  neighbourhood_ = neighbourhood_box(prior_, gamma_);
}

std::vector<double> ContinuousLocalLinearSampler::projection(std::span<const double> density) const {
  const std::vector<double> p = density_pmf(density, prior_.size());
  return clip_normalise(p, AtomBox{neighbourhood_.lo, neighbourhood_.hi}).q;
}

std::vector<double> ContinuousLocalLinearSampler::distribution(std::span<const double> density) const {
  std::vector<double> q = projection(density);
  for (std::size_t i = 0; i < q.size(); ++i) {
    q[i] = std::clamp(lambda_ * q[i] + complement_ * prior_[i], out_lo_[i], out_hi_[i]);
  }
  return q;
}

Release ContinuousLocalLinearSampler::release(std::span<const double> density) const {
  if (guarantee_.notion == PrivacyNotion::pure_ldp) {
    const std::vector<double> q = distribution(density);
    auto plan = std::make_shared<const ReleasePlan>(clip_release_plan(out_lo_, guarantee_.epsilon));
    return Release(plan, clip_data_target(*plan, q));
  }
  auto plan = std::make_shared<const ReleasePlan>(
      class_release_plan(mixture_release_plan(lambda_, quantized_base(prior_)), 1.0 / gamma_, gamma_));
  return Release(plan, projection(density));
}

double ContinuousLocalLinearSampler::worst_case_risk(const FDivergence& f) const {
  return local_linear_risk(f, gamma_, lambda_);
}

// ---- drawing ------------------------------------------------------------------------------------------------------

double point_in_cell(const Grid1D& grid, std::size_t cell, RandomBits& bits) {
  validate_grid(grid);
  if (!(cell < grid.cells))
    fail("cell = " + std::to_string(cell) + ": the grid has " + std::to_string(grid.cells) + " cells");
  const double a = axis_edge(grid.lo, grid.hi, grid.cells, cell);
  const double b = axis_edge(grid.lo, grid.hi, grid.cells, cell + 1);
  return std::clamp(a + uniform01(bits) * (b - a), a, b);
}

Point2D point_in_cell(const Grid2D& grid, std::size_t cell, RandomBits& bits) {
  const std::size_t n = cell_count(grid);
  if (!(cell < n)) fail("cell = " + std::to_string(cell) + ": the grid has " + std::to_string(n) + " cells");
  const std::size_t ix = cell % grid.nx;
  const std::size_t iy = cell / grid.nx;
  const double xa = axis_edge(grid.x_lo, grid.x_hi, grid.nx, ix);
  const double xb = axis_edge(grid.x_lo, grid.x_hi, grid.nx, ix + 1);
  const double ya = axis_edge(grid.y_lo, grid.y_hi, grid.ny, iy);
  const double yb = axis_edge(grid.y_lo, grid.y_hi, grid.ny, iy + 1);
  const double x = std::clamp(xa + uniform01(bits) * (xb - xa), xa, xb);
  const double y = std::clamp(ya + uniform01(bits) * (yb - ya), ya, yb);
  return {x, y};
}

double draw_point(const Grid1D& grid, std::span<const double> q, RandomBits& bits) {
  validate_grid(grid);
  if (!(q.size() == grid.cells))
    fail_shape("q has " + std::to_string(q.size()) + " entries but the grid has " + std::to_string(grid.cells) + " cells");
  return point_in_cell(grid, DiscreteSampler(q).draw(bits), bits);
}

Point2D draw_point(const Grid2D& grid, std::span<const double> q, RandomBits& bits) {
  const std::size_t n = cell_count(grid);
  if (!(q.size() == n))
    fail_shape("q has " + std::to_string(q.size()) + " entries but the grid has " + std::to_string(n) + " cells");
  return point_in_cell(grid, DiscreteSampler(q).draw(bits), bits);
}

}  // namespace privsample
