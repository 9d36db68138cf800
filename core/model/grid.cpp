#include "model/grid.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>

#include "base/errors.hpp"
#include "base/numeric.hpp"
#include "model/histogram.hpp"

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
// Gauss–Legendre, 5 points on [−1, 1].
constexpr std::array<double, 5> kNodes{-0.9061798459386640, -0.5384693101056831, 0.0, 0.5384693101056831,
                                       0.9061798459386640};
constexpr std::array<double, 5> kWeights{0.2369268850561891, 0.4786286704993665, 0.5688888888888889, 0.4786286704993665,
                                         0.2369268850561891};

// Cell i between edges[i] and edges[i + 1] as the affine image of [−1, 1]: x = mid + half·t.
struct CellSpan {
  double half;
  double mid;
};

CellSpan cell_span(const std::vector<double>& edges, std::size_t i) {
  return {0.5 * (edges[i + 1] - edges[i]), 0.5 * (edges[i + 1] + edges[i])};
}

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
    const auto [half, mid] = cell_span(edges, i);
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
    const auto [hy, my] = cell_span(ey, iy);
    for (std::size_t ix = 0; ix < grid.nx; ++ix) {
      const auto [hx, mx] = cell_span(ex, ix);
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
