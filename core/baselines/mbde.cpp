// MBDE baseline (docs/baselines/mbde.md): boosting with MLP weak learners trained on Metropolis–Hastings
// samples, on grid cells. See mbde.hpp for the algorithm and the privacy argument.
#include "baselines/mbde.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <numbers>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/histogram.hpp"
#include "base/numeric.hpp"
#include "privacy/privacy.hpp"

namespace privsample {

MbdeSettings MbdeSettings::reduced() {
  MbdeSettings s;
  s.rounds = 3;
  s.epochs = 100;
  s.learning_rate = 0.05;
  s.training_samples = 400;
  s.batch_size = 400;
  s.burn_in = 200;
  return s;
}

namespace {

void check_count(std::size_t value, std::string_view name, std::size_t minimum, std::size_t maximum) {
  if (value < minimum || value > maximum) {
    throw std::invalid_argument("settings." + std::string(name) + " = " + std::to_string(value) + ": must be in [" +
                                std::to_string(minimum) + ", " + std::to_string(maximum) + "]");
  }
}

void check_positive(double value, std::string_view name) {
  if (!std::isfinite(value) || value <= 0.0) {
    throw std::invalid_argument("settings." + std::string(name) + " = " + format_value(value) +
                                ": must be a finite number > 0");
  }
}

}  // namespace

void validate_settings(const MbdeSettings& settings) {
  // The caps keep one call from running for hours or exhausting a browser tab's memory; the paper's values are
  // well inside them.
  check_count(settings.rounds, "rounds", 1, 50);
  check_count(settings.hidden_width, "hidden_width", 1, 256);
  check_count(settings.hidden_layers, "hidden_layers", 1, 8);
  check_count(settings.epochs, "epochs", 1, 100'000);
  check_count(settings.training_samples, "training_samples", 1, 1'000'000);
  check_count(settings.batch_size, "batch_size", 1, settings.training_samples);
  check_count(settings.burn_in, "burn_in", 0, 1'000'000);
  check_positive(settings.learning_rate, "learning_rate");
  check_positive(settings.proposal_std, "proposal_std");
  check_positive(settings.base_std, "base_std");
  if (!(settings.momentum >= 0.0 && settings.momentum < 1.0)) {
    throw std::invalid_argument("settings.momentum = " + format_value(settings.momentum) + ": must be in [0, 1)");
  }
  if (!std::isfinite(settings.base_mean)) {
    throw std::invalid_argument("settings.base_mean = " + format_value(settings.base_mean) +
                                ": must be a finite number");
  }
}

namespace {

using Matrix = Eigen::MatrixXd;  // samples as columns: dim × n
using Vector = Eigen::VectorXd;

// The grid as the MH walk and the classifier see it (1-D: one axis; 2-D: cell (ix, iy) at index iy·nx + ix).
struct Domain {
  std::size_t dim = 1;
  std::array<double, 2> lo{};
  std::array<double, 2> hi{};
  std::array<std::size_t, 2> cells{1, 1};
};

Domain domain_of(const Grid1D& g) { return {1, {g.lo, 0.0}, {g.hi, 0.0}, {g.cells, 1}}; }
Domain domain_of(const Grid2D& g) { return {2, {g.x_lo, g.y_lo}, {g.x_hi, g.y_hi}, {g.nx, g.ny}}; }

std::size_t total_cells(const Domain& d) { return d.cells[0] * d.cells[1]; }

// Cell mass at x, 0 outside the grid: the piecewise-constant density q_i/|cell| up to the common factor |cell|,
// which cancels in the MH acceptance ratio.
double mass_at(const Domain& d, std::span<const double> mass, const double* x) {
  std::size_t index = 0;
  std::size_t stride = 1;
  for (std::size_t a = 0; a < d.dim; ++a) {
    if (!(x[a] >= d.lo[a] && x[a] <= d.hi[a])) return 0.0;
    const double position = (x[a] - d.lo[a]) / (d.hi[a] - d.lo[a]) * static_cast<double>(d.cells[a]);
    const auto cell = std::min(static_cast<std::size_t>(position), d.cells[a] - 1);
    index += cell * stride;
    stride *= d.cells[a];
  }
  return mass[index];
}

Matrix cell_centres(const Domain& d) {
  Matrix centres(static_cast<Eigen::Index>(d.dim), static_cast<Eigen::Index>(total_cells(d)));
  for (std::size_t iy = 0; iy < d.cells[1]; ++iy) {
    for (std::size_t ix = 0; ix < d.cells[0]; ++ix) {
      const auto column = static_cast<Eigen::Index>(iy * d.cells[0] + ix);
      for (std::size_t a = 0; a < d.dim; ++a) {
        const std::size_t i = a == 0 ? ix : iy;
        const double width = (d.hi[a] - d.lo[a]) / static_cast<double>(d.cells[a]);
        centres(static_cast<Eigen::Index>(a), column) = d.lo[a] + (static_cast<double>(i) + 0.5) * width;
      }
    }
  }
  return centres;
}

// Standard normals by Box–Muller from uniform01 (both outputs used). 1 − u lies in (0, 1], so the log is finite.
class NormalSource {
 public:
  explicit NormalSource(RandomBits& bits) : bits_(bits) {}
  double next() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    const double radius = std::sqrt(-2.0 * std::log(1.0 - uniform01(bits_)));
    const double angle = 2.0 * std::numbers::pi * uniform01(bits_);
    spare_ = radius * std::sin(angle);
    has_spare_ = true;
    return radius * std::cos(angle);
  }

 private:
  RandomBits& bits_;
  bool has_spare_ = false;
  double spare_ = 0.0;
};

// mh.py (docs/baselines/mbde.md): `chains` independent random walks started at `start`, Gaussian proposals of std proposal_std,
// accepted when U·p(x) < p(x′); burn_in + 1 steps ("1001 steps" for 1000 burn-in, docs/baselines/mbde.md), then the state is
// the chain's one sample. The rule accepts any move out of a zero-density start into the support and never a move
// out of the support.
Matrix metropolis_hastings(const Domain& d, std::span<const double> mass, const std::array<double, 2>& start,
                           const MbdeSettings& settings, RandomBits& bits) {
  const auto dim = static_cast<Eigen::Index>(d.dim);
  Matrix out(dim, static_cast<Eigen::Index>(settings.training_samples));
  NormalSource normal(bits);
  for (std::size_t chain = 0; chain < settings.training_samples; ++chain) {
    std::array<double, 2> x = start;
    double px = mass_at(d, mass, x.data());
    for (std::size_t step = 0; step <= settings.burn_in; ++step) {
      std::array<double, 2> y = x;
      for (std::size_t a = 0; a < d.dim; ++a) y[a] += settings.proposal_std * normal.next();
      const double py = mass_at(d, mass, y.data());
      if (uniform01(bits) * px < py) {
        x = y;
        px = py;
      }
    }
    for (Eigen::Index a = 0; a < dim; ++a) out(a, static_cast<Eigen::Index>(chain)) = x[static_cast<std::size_t>(a)];
  }
  return out;
}

// The weak learner of docs/baselines/mbde.md: dim → width (tanh) → … → width (tanh) → 1 (the logit; the sigmoid is applied by
// the loss and by classify()).
struct Mlp {
  std::vector<Matrix> weights;  // layer l: out × in
  std::vector<Vector> biases;
};

// PyTorch's nn.Linear default: weight and bias both U(−1/√fan_in, 1/√fan_in) (kaiming_uniform with a = √5).
Mlp initial_mlp(std::size_t dim, const MbdeSettings& settings, RandomBits& bits) {
  std::vector<std::size_t> sizes{dim};
  for (std::size_t l = 0; l < settings.hidden_layers; ++l) sizes.push_back(settings.hidden_width);
  sizes.push_back(1);
  Mlp net;
  for (std::size_t l = 0; l + 1 < sizes.size(); ++l) {
    const auto in = static_cast<Eigen::Index>(sizes[l]);
    const auto out = static_cast<Eigen::Index>(sizes[l + 1]);
    const double bound = 1.0 / std::sqrt(static_cast<double>(sizes[l]));
    Matrix w(out, in);
    Vector b(out);
    for (Eigen::Index j = 0; j < in; ++j) {
      for (Eigen::Index i = 0; i < out; ++i) w(i, j) = bound * (2.0 * uniform01(bits) - 1.0);
    }
    for (Eigen::Index i = 0; i < out; ++i) b(i) = bound * (2.0 * uniform01(bits) - 1.0);
    net.weights.push_back(std::move(w));
    net.biases.push_back(std::move(b));
  }
  return net;
}

// Forward pass; activations[l] is the input of layer l (activations[0] = x). Returns the logits (1 × n).
Eigen::RowVectorXd forward(const Mlp& net, const Matrix& x, std::vector<Matrix>& activations) {
  activations.resize(net.weights.size());
  activations[0] = x;
  for (std::size_t l = 0; l + 1 < net.weights.size(); ++l) {
    activations[l + 1] = ((net.weights[l] * activations[l]).colwise() + net.biases[l]).array().tanh().matrix();
  }
  return (net.weights.back() * activations.back()).colwise() + net.biases.back();
}

// log(1 + e^z) without overflow.
double softplus(double z) { return z > 0.0 ? z + std::log1p(std::exp(-z)) : std::log1p(std::exp(z)); }
double sigmoid(double z) { return z >= 0.0 ? 1.0 / (1.0 + std::exp(-z)) : std::exp(z) / (1.0 + std::exp(z)); }

// Mini-batches of one class: a shuffled order consumed `count` at a time, reshuffled when exhausted (for the
// paper's sizes, 10 000 / 5 000, exactly PyTorch's per-epoch shuffle).
class BatchCursor {
 public:
  explicit BatchCursor(std::size_t n) : order_(n) {
    for (std::size_t i = 0; i < n; ++i) order_[i] = i;
    next_ = n;  // shuffle before first use
  }
  void take(std::size_t count, RandomBits& bits, std::vector<std::size_t>& out) {
    out.clear();
    while (out.size() < count) {
      if (next_ == order_.size()) {
        for (std::size_t i = order_.size(); i > 1; --i) {  // Fisher–Yates
          std::swap(order_[i - 1], order_[static_cast<std::size_t>(uniform_below(bits, i))]);
        }
        next_ = 0;
      }
      out.push_back(order_[next_++]);
    }
  }

 private:
  std::vector<std::size_t> order_;
  std::size_t next_ = 0;
};

// BCE training with SGD + Nesterov momentum, PyTorch's form: v ← μv + g, p ← p − lr·(g + μv). The loss weights each
// class ½ (the paper's mean over a batch of equal class sizes), so unequal data-point counts do not bias c_t.
// Returns the loss on the last batch.
double train(Mlp& net, const Matrix& positive, const Matrix& negative, const MbdeSettings& settings,
             RandomBits& bits) {
  const auto n_pos = static_cast<std::size_t>(positive.cols());
  const auto n_neg = static_cast<std::size_t>(negative.cols());
  const std::size_t batch_pos = std::min(settings.batch_size, n_pos);
  const std::size_t batch_neg = std::min(settings.batch_size, n_neg);
  const std::size_t steps_per_epoch = (settings.training_samples + settings.batch_size - 1) / settings.batch_size;
  const auto dim = positive.rows();
  const auto batch = static_cast<Eigen::Index>(batch_pos + batch_neg);

  std::vector<Matrix> velocity_w;
  std::vector<Vector> velocity_b;
  for (std::size_t l = 0; l < net.weights.size(); ++l) {
    velocity_w.push_back(Matrix::Zero(net.weights[l].rows(), net.weights[l].cols()));
    velocity_b.push_back(Vector::Zero(net.biases[l].size()));
  }
  BatchCursor cursor_pos(n_pos);
  BatchCursor cursor_neg(n_neg);
  std::vector<std::size_t> indices;
  Matrix x(dim, batch);
  std::vector<Matrix> activations;
  const double weight_pos = 0.5 / static_cast<double>(batch_pos);
  const double weight_neg = 0.5 / static_cast<double>(batch_neg);
  double loss = 0.0;
  const double lr = settings.learning_rate;
  const double mu = settings.momentum;

  for (std::size_t epoch = 0; epoch < settings.epochs; ++epoch) {
    for (std::size_t step = 0; step < steps_per_epoch; ++step) {
      cursor_pos.take(batch_pos, bits, indices);
      for (std::size_t j = 0; j < batch_pos; ++j) {
        x.col(static_cast<Eigen::Index>(j)) = positive.col(static_cast<Eigen::Index>(indices[j]));
      }
      cursor_neg.take(batch_neg, bits, indices);
      for (std::size_t j = 0; j < batch_neg; ++j) {
        x.col(static_cast<Eigen::Index>(batch_pos + j)) = negative.col(static_cast<Eigen::Index>(indices[j]));
      }
      const Eigen::RowVectorXd logits = forward(net, x, activations);
      // dL/dz of the weighted BCE-with-logits: w·(σ(z) − y).
      Matrix grad(1, batch);
      loss = 0.0;
      for (Eigen::Index j = 0; j < batch; ++j) {
        const bool is_positive = static_cast<std::size_t>(j) < batch_pos;
        const double w = is_positive ? weight_pos : weight_neg;
        const double z = logits(j);
        loss += w * (is_positive ? softplus(-z) : softplus(z));
        grad(0, j) = w * (sigmoid(z) - (is_positive ? 1.0 : 0.0));
      }
      for (std::size_t l = net.weights.size(); l-- > 0;) {
        const Matrix grad_w = grad * activations[l].transpose();
        const Vector grad_b = grad.rowwise().sum();
        if (l > 0) {
          // tanh′ = 1 − tanh², from the stored activation.
          grad = (net.weights[l].transpose() * grad).cwiseProduct(
              (1.0 - activations[l].array().square()).matrix());
        }
        velocity_w[l] = mu * velocity_w[l] + grad_w;
        velocity_b[l] = mu * velocity_b[l] + grad_b;
        net.weights[l] -= lr * (grad_w + mu * velocity_w[l]);
        net.biases[l] -= lr * (grad_b + mu * velocity_b[l]);
      }
    }
  }
  for (const Matrix& w : net.weights) {
    if (!w.allFinite()) throw std::runtime_error("mbde: classifier training diverged (non-finite weights)");
  }
  return loss;
}

// c_t at every cell centre, in chunks so a 500 × 500 grid does not hold 250 000 × width activations at once.
std::vector<double> classify(const Mlp& net, const Matrix& centres) {
  constexpr Eigen::Index kChunk = 4096;
  std::vector<double> out(static_cast<std::size_t>(centres.cols()));
  std::vector<Matrix> activations;
  for (Eigen::Index begin = 0; begin < centres.cols(); begin += kChunk) {
    const Eigen::Index count = std::min(kChunk, centres.cols() - begin);
    const Eigen::RowVectorXd logits = forward(net, centres.middleCols(begin, count), activations);
    for (Eigen::Index j = 0; j < count; ++j) {
      // The sigmoid lies in [0, 1] in floating point too; the clamp documents (and enforces) the bound C = 1 on
      // which the privacy argument rests.
      out[static_cast<std::size_t>(begin + j)] = std::clamp(sigmoid(logits(j)), 0.0, 1.0);
    }
  }
  return out;
}

// q ∝ q0·exp(log_weight), normalised; also returns log Z so log(q/q0) = log_weight − log Z.
std::vector<double> reweighted(std::span<const double> q0, std::span<const double> log_weight, double& log_z) {
  std::vector<double> q(q0.size());
  for (std::size_t i = 0; i < q0.size(); ++i) q[i] = q0[i] * std::exp(log_weight[i]);
  const double z = compensated_total(q);
  for (double& v : q) v /= z;
  log_z = std::log(z);
  return q;
}

// The boosting loop of docs/baselines/mbde.md. `positive` is null when the class-1 samples are drawn from `target` by MH each
// round (density input), else the fixed data points.
MbdeResult run(const Domain& d, std::vector<double> q0, std::span<const double> target, const Matrix* positive,
               double epsilon, const MbdeSettings& settings, RandomBits& bits) {
  const double eps = effective_epsilon(validated_epsilon(epsilon));
  const double theta = eps / (eps + 4.0);  // C = 1: θ = ε/(ε + 4C), docs/baselines/mbde.md
  const std::size_t k = q0.size();
  const Matrix centres = cell_centres(d);
  // The chains start at the base mean (mh.py starts every chain at the base mean), clamped into the grid so the
  // start has positive Q_{t−1} density.
  std::array<double, 2> start{};
  for (std::size_t a = 0; a < d.dim; ++a) start[a] = std::clamp(settings.base_mean, d.lo[a], d.hi[a]);

  MbdeResult result;
  result.theta = theta;
  std::vector<double> log_weight(k, 0.0);  // Σ_s θ^s c_s(centre_i) so far, in [0, Σθ^s]
  std::vector<double> q = q0;
  double log_z = 0.0;
  double theta_power = 1.0;
  for (std::size_t t = 1; t <= settings.rounds; ++t) {
    theta_power *= theta;
    if (theta_power == 0.0) break;  // ε = 0 (or θ^t underflowed): no further round can change q
    const Matrix negative = metropolis_hastings(d, q, start, settings, bits);
    Matrix drawn;
    if (positive == nullptr) drawn = metropolis_hastings(d, target, start, settings, bits);
    const Matrix& pos = positive == nullptr ? drawn : *positive;
    Mlp net = initial_mlp(d.dim, settings, bits);
    result.final_loss.push_back(train(net, pos, negative, settings, bits));
    const std::vector<double> c = classify(net, centres);
    for (std::size_t i = 0; i < k; ++i) log_weight[i] += theta_power * c[i];
    q = reweighted(q0, log_weight, log_z);
  }
  result.log_ratio.resize(k);
  for (std::size_t i = 0; i < k; ++i) result.log_ratio[i] = log_weight[i] - log_z;
  result.density = std::move(q);
  result.reference = std::move(q0);
  return result;
}

std::vector<double> checked_density(std::span<const double> density, std::size_t cells) {
  if (density.size() != cells) {
    throw std::invalid_argument("density has " + std::to_string(density.size()) + " entries: the grid has " +
                                std::to_string(cells) + " cells");
  }
  return normalized_pmf(density, "density");
}

void check_points_size(std::size_t n) {
  if (n == 0) throw std::invalid_argument("points is empty: need at least one data point");
  if (n > 10'000'000) throw std::invalid_argument("points has " + std::to_string(n) + " entries: at most 10000000");
}

void check_point(double value, std::size_t index) {
  if (!std::isfinite(value)) {
    throw std::invalid_argument("points[" + std::to_string(index) + "] = " + format_value(value) +
                                ": must be finite");
  }
}

std::vector<double> base_density(const Grid1D& grid, const MbdeSettings& s) {
  const std::array<double, 1> mean{s.base_mean};
  const std::array<double, 1> weight{1.0};
  return gaussian_mixture(grid, mean, weight, s.base_std);
}

std::vector<double> base_density(const Grid2D& grid, const MbdeSettings& s) {
  const std::array<Point2D, 1> mean{Point2D{s.base_mean, s.base_mean}};
  const std::array<double, 1> weight{1.0};
  return gaussian_mixture(grid, mean, weight, s.base_std);
}

}  // namespace

MbdeResult mbde(const Grid1D& grid, std::span<const double> density, double epsilon, const MbdeSettings& settings,
                RandomBits& bits) {
  validate_grid(grid);
  validate_settings(settings);
  validated_epsilon(epsilon);
  const std::vector<double> target = checked_density(density, grid.cells);
  return run(domain_of(grid), base_density(grid, settings), target, nullptr, epsilon, settings, bits);
}

MbdeResult mbde(const Grid2D& grid, std::span<const double> density, double epsilon, const MbdeSettings& settings,
                RandomBits& bits) {
  validate_grid(grid);
  validate_settings(settings);
  validated_epsilon(epsilon);
  const std::vector<double> target = checked_density(density, cell_count(grid));
  return run(domain_of(grid), base_density(grid, settings), target, nullptr, epsilon, settings, bits);
}

MbdeResult mbde_from_points(const Grid1D& grid, std::span<const double> points, double epsilon,
                            const MbdeSettings& settings, RandomBits& bits) {
  validate_grid(grid);
  validate_settings(settings);
  validated_epsilon(epsilon);
  check_points_size(points.size());
  Matrix positive(1, static_cast<Eigen::Index>(points.size()));
  for (std::size_t i = 0; i < points.size(); ++i) {
    check_point(points[i], i);
    positive(0, static_cast<Eigen::Index>(i)) = points[i];
  }
  return run(domain_of(grid), base_density(grid, settings), {}, &positive, epsilon, settings, bits);
}

MbdeResult mbde_from_points(const Grid2D& grid, std::span<const Point2D> points, double epsilon,
                            const MbdeSettings& settings, RandomBits& bits) {
  validate_grid(grid);
  validate_settings(settings);
  validated_epsilon(epsilon);
  check_points_size(points.size());
  Matrix positive(2, static_cast<Eigen::Index>(points.size()));
  for (std::size_t i = 0; i < points.size(); ++i) {
    for (std::size_t a = 0; a < 2; ++a) {
      check_point(points[i][a], i);
      positive(static_cast<Eigen::Index>(a), static_cast<Eigen::Index>(i)) = points[i][a];
    }
  }
  return run(domain_of(grid), base_density(grid, settings), {}, &positive, epsilon, settings, bits);
}

}  // namespace privsample
