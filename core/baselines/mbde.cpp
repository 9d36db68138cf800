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
#include <type_traits>
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

// uniform01 draws into out[0, n): a function with no object to destroy, so that the research module (built with
// Emscripten's JavaScript exceptions) calls the generator directly, not through a JavaScript trampoline per draw.
__attribute__((noinline)) void draw_uniforms(RandomBits& bits, double* out, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) out[i] = uniform01(bits);
}

// uniform01 draws in blocks, `total` of them in all: the generator's stream is consumed exactly as by one uniform01
// call per draw, so the samples are those of drawing one at a time.
class Uniforms {
 public:
  Uniforms(RandomBits& bits, std::size_t total)
      : bits_(bits), remaining_(total), block_(std::min<std::size_t>(total, 4096)) {}
  double next() {
    if (at_ == filled_) refill();
    return block_[at_++];
  }

 private:
  // Out of line, so that next() is inlined into the chains and only a refill is a call that may throw.
  __attribute__((noinline)) void refill() {
    filled_ = std::min(remaining_, block_.size());
    if (filled_ == 0) throw std::logic_error("mbde: more uniform draws than counted");
    draw_uniforms(bits_, block_.data(), filled_);
    remaining_ -= filled_;
    at_ = 0;
  }

  RandomBits& bits_;
  std::size_t remaining_;
  std::vector<double> block_;
  std::size_t filled_ = 0;
  std::size_t at_ = 0;
};

// Standard normals by Box–Muller from uniform01 (both outputs used). 1 − u lies in (0, 1], so the log is finite.
class NormalSource {
 public:
  explicit NormalSource(Uniforms& uniforms) : uniforms_(uniforms) {}
  double next() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    const double radius = std::sqrt(-2.0 * std::log(1.0 - uniforms_.next()));
    const double angle = 2.0 * std::numbers::pi * uniforms_.next();
    spare_ = radius * std::sin(angle);
    has_spare_ = true;
    return radius * std::cos(angle);
  }

 private:
  Uniforms& uniforms_;
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
  // Per step: d.dim normals (two uniforms per pair) and one uniform for the acceptance.
  const std::size_t steps = settings.training_samples * (settings.burn_in + 1);
  const std::size_t normals = steps * d.dim;
  Uniforms uniforms(bits, 2 * ((normals + 1) / 2) + steps);
  NormalSource normal(uniforms);
  for (std::size_t chain = 0; chain < settings.training_samples; ++chain) {
    std::array<double, 2> x = start;
    double px = mass_at(d, mass, x.data());
    for (std::size_t step = 0; step <= settings.burn_in; ++step) {
      std::array<double, 2> y = x;
      for (std::size_t a = 0; a < d.dim; ++a) y[a] += settings.proposal_std * normal.next();
      const double py = mass_at(d, mass, y.data());
      if (uniforms.next() * px < py) {
        x = y;
        px = py;
      }
    }
    for (Eigen::Index a = 0; a < dim; ++a) out(a, static_cast<Eigen::Index>(chain)) = x[static_cast<std::size_t>(a)];
  }
  return out;
}

// The weak learner of docs/baselines/mbde.md: dim → width (tanh) → … → width (tanh) → 1 (the logit; the sigmoid is
// applied by the loss and by classify()). In single precision, as PyTorch trains the authors' classifier, with the
// samples of a batch in float lanes (WebAssembly SIMD f32x4 in the research module, SSE natively): the loops below
// run over samples, four per operation, in a fixed order, so a seeded run gives the same classifier every time.
// Only c_t comes out of it, and the privacy bound holds for every c_t in [0, 1].
using Lanes = float __attribute__((vector_size(16)));
constexpr std::size_t kLanes = 4;

Lanes splat(float v) { return Lanes{v, v, v, v}; }
float lane_sum(Lanes v) { return (v[0] + v[1]) + (v[2] + v[3]); }
Lanes lane_min(Lanes a, Lanes b) { return a < b ? a : b; }
Lanes lane_max(Lanes a, Lanes b) { return a > b ? a : b; }

// tanh in float lanes: the rational approximation Eigen uses for float (generic_fast_tanh_float, its clamp for
// builds without FMA), within a few float ulps of tanh; |x| < 0.0004 returns x. libm's double tanh took most of
// the training time.
Lanes tanh_lanes(Lanes a) {
  const Lanes x = lane_max(lane_min(a, splat(7.90531110763549805f)), splat(-7.90531110763549805f));
  const Lanes x2 = x * x;
  Lanes p = x2 * splat(-2.76076847742355e-16f) + splat(2.00018790482477e-13f);
  p = x2 * p + splat(-8.60467152213735e-11f);
  p = x2 * p + splat(5.12229709037114e-08f);
  p = x2 * p + splat(1.48572235717979e-05f);
  p = x2 * p + splat(6.37261928875436e-04f);
  p = x2 * p + splat(4.89352455891786e-03f);
  p = x * p;
  Lanes q = x2 * splat(1.19825839466702e-06f) + splat(1.18534705686654e-04f);
  q = x2 * q + splat(2.26843463243900e-03f);
  q = x2 * q + splat(4.89352518554385e-03f);
  const auto tiny = (a < splat(0.0004f)) & (a > splat(-0.0004f));
  return tiny ? a : p / q;
}

// rows × samples, the samples of a row in lanes (the last lane padded).
struct Block {
  std::size_t rows = 0;
  std::size_t lanes = 0;
  std::vector<Lanes> data;
  // A new shape starts at 0; the same shape keeps the values (the padded lanes stay as they were: every column is
  // computed on its own, and the error signal is 0 on the padded samples).
  void resize(std::size_t r, std::size_t l) {
    if (r * l != data.size()) data.assign(r * l, splat(0.0f));
    rows = r;
    lanes = l;
  }
  Lanes* row(std::size_t i) { return data.data() + i * lanes; }
  [[nodiscard]] const Lanes* row(std::size_t i) const { return data.data() + i * lanes; }
};

struct Layer {
  std::size_t in = 0;
  std::size_t out = 0;
  std::vector<float> weight;  // out × in, row-major
  std::vector<float> bias;
};
using Mlp = std::vector<Layer>;

// PyTorch's nn.Linear default: weight and bias both U(−1/√fan_in, 1/√fan_in) (kaiming_uniform with a = √5); the
// weights drawn column by column, then the biases.
Mlp initial_mlp(std::size_t dim, const MbdeSettings& settings, RandomBits& bits) {
  std::vector<std::size_t> sizes{dim};
  for (std::size_t l = 0; l < settings.hidden_layers; ++l) sizes.push_back(settings.hidden_width);
  sizes.push_back(1);
  Mlp net;
  for (std::size_t l = 0; l + 1 < sizes.size(); ++l) {
    Layer layer{sizes[l], sizes[l + 1], std::vector<float>(sizes[l] * sizes[l + 1]), std::vector<float>(sizes[l + 1])};
    const double bound = 1.0 / std::sqrt(static_cast<double>(layer.in));
    for (std::size_t j = 0; j < layer.in; ++j) {
      for (std::size_t i = 0; i < layer.out; ++i) {
        layer.weight[i * layer.in + j] = static_cast<float>(bound * (2.0 * uniform01(bits) - 1.0));
      }
    }
    for (float& b : layer.bias) b = static_cast<float>(bound * (2.0 * uniform01(bits) - 1.0));
    net.push_back(std::move(layer));
  }
  return net;
}

// z = M·x + b for an out × in matrix M (row-major) and a bias b (null: 0): two rows of z by four lane groups of
// samples at a time (eight independent sums from six loads: the loop is bound by arithmetic, not by latency).
void combine(const float* m, const float* b, std::size_t out, std::size_t in, const Block& x, Block& z) {
  z.resize(out, x.lanes);
  auto rows = [&](std::size_t i, auto count) {  // `count` (1 or 2) rows of z from the same loads of x
    constexpr std::size_t kRows = decltype(count)::value;
    std::array<Lanes, kRows> start;
    for (std::size_t r = 0; r < kRows; ++r) start[r] = splat(b == nullptr ? 0.0f : b[i + r]);
    std::size_t c = 0;
    for (; c + 4 <= x.lanes; c += 4) {
      std::array<std::array<Lanes, 4>, kRows> a;
      for (std::size_t r = 0; r < kRows; ++r) a[r].fill(start[r]);
      for (std::size_t j = 0; j < in; ++j) {
        const Lanes* xj = x.row(j) + c;
        for (std::size_t r = 0; r < kRows; ++r) {
          const Lanes w = splat(m[(i + r) * in + j]);
          for (std::size_t t = 0; t < 4; ++t) a[r][t] += w * xj[t];
        }
      }
      for (std::size_t r = 0; r < kRows; ++r) {
        for (std::size_t t = 0; t < 4; ++t) z.row(i + r)[c + t] = a[r][t];
      }
    }
    for (; c < x.lanes; ++c) {
      for (std::size_t r = 0; r < kRows; ++r) {
        Lanes a = start[r];
        for (std::size_t j = 0; j < in; ++j) a += splat(m[(i + r) * in + j]) * x.row(j)[c];
        z.row(i + r)[c] = a;
      }
    }
  };
  std::size_t i = 0;
  for (; i + 2 <= out; i += 2) rows(i, std::integral_constant<std::size_t, 2>{});
  if (i < out) rows(i, std::integral_constant<std::size_t, 1>{});
}

void affine(const Layer& layer, const Block& x, Block& z) {
  combine(layer.weight.data(), layer.bias.data(), layer.out, layer.in, x, z);
}

// Forward pass; activations[l] is the input of layer l (activations[0] = x). Leaves the logits in `logits` (1 row).
void forward(const Mlp& net, std::vector<Block>& activations, Block& logits) {
  activations.resize(net.size());
  for (std::size_t l = 0; l + 1 < net.size(); ++l) {
    affine(net[l], activations[l], activations[l + 1]);
    for (Lanes& v : activations[l + 1].data) v = tanh_lanes(v);
  }
  affine(net.back(), activations.back(), logits);
}

// log(1 + e^z) without overflow.
double softplus(double z) { return z > 0.0 ? z + std::log1p(std::exp(-z)) : std::log1p(std::exp(z)); }
double sigmoid(double z) { return z >= 0.0 ? 1.0 / (1.0 + std::exp(-z)) : std::exp(z) / (1.0 + std::exp(z)); }

// Fisher–Yates, in a function with no object to destroy (direct calls to the generator, as draw_uniforms).
__attribute__((noinline)) void shuffle(std::vector<std::size_t>& order, RandomBits& bits) {
  for (std::size_t i = order.size(); i > 1; --i) {
    std::swap(order[i - 1], order[static_cast<std::size_t>(uniform_below(bits, i))]);
  }
}

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
        shuffle(order_, bits);
        next_ = 0;
      }
      out.push_back(order_[next_++]);
    }
  }

 private:
  std::vector<std::size_t> order_;
  std::size_t next_ = 0;
};

// The momentum buffers of one layer.
struct Velocity {
  std::vector<float> weight;
  std::vector<float> bias;
};

// out[r·b.rows + s] = Σ over the samples of a_r·b_s, two rows of a by four of b at a time (six loads per eight
// products).
void lane_products(const Block& a, const Block& b, std::vector<float>& out) {
  out.resize(a.rows * b.rows);
  auto single = [&](std::size_t r, std::size_t s) {
    Lanes sum = splat(0.0f);
    for (std::size_t c = 0; c < a.lanes; ++c) sum += a.row(r)[c] * b.row(s)[c];
    out[r * b.rows + s] = lane_sum(sum);
  };
  std::size_t r = 0;
  for (; r + 2 <= a.rows; r += 2) {
    const Lanes* a0 = a.row(r);
    const Lanes* a1 = a.row(r + 1);
    std::size_t s = 0;
    for (; s + 4 <= b.rows; s += 4) {
      std::array<Lanes, 8> sum;
      sum.fill(splat(0.0f));
      for (std::size_t c = 0; c < a.lanes; ++c) {
        for (std::size_t t = 0; t < 4; ++t) {
          const Lanes bt = b.row(s + t)[c];
          sum[t] += a0[c] * bt;
          sum[4 + t] += a1[c] * bt;
        }
      }
      for (std::size_t t = 0; t < 4; ++t) {
        out[r * b.rows + s + t] = lane_sum(sum[t]);
        out[(r + 1) * b.rows + s + t] = lane_sum(sum[4 + t]);
      }
    }
    for (; s < b.rows; ++s) {
      single(r, s);
      single(r + 1, s);
    }
  }
  for (; r < a.rows; ++r) {
    for (std::size_t s = 0; s < b.rows; ++s) single(r, s);
  }
}

// One SGD step of a layer from the error signal g at its output (rows = layer.out) and its input x: the gradients
// g·xᵀ and Σg, summed over the samples (padded samples carry g = 0), in PyTorch's Nesterov form
// v ← μv + grad, p ← p − lr·(grad + μv).
void descend(Layer& layer, Velocity& v, const Block& g, const Block& x, std::vector<float>& grad, float lr,
             float mu) {
  lane_products(g, x, grad);
  for (std::size_t i = 0; i < layer.weight.size(); ++i) {
    v.weight[i] = mu * v.weight[i] + grad[i];
    layer.weight[i] -= lr * (grad[i] + mu * v.weight[i]);
  }
  for (std::size_t i = 0; i < layer.out; ++i) {
    Lanes sum = splat(0.0f);
    for (std::size_t c = 0; c < g.lanes; ++c) sum += g.row(i)[c];
    const float gb = lane_sum(sum);
    v.bias[i] = mu * v.bias[i] + gb;
    layer.bias[i] -= lr * (gb + mu * v.bias[i]);
  }
}

// The error signal at the layer's input: (Wᵀg)·tanh′, with tanh′ = 1 − x² from the stored activation x.
void back_through(const Layer& layer, const Block& g, const Block& x, std::vector<float>& transposed, Block& out) {
  transposed.resize(layer.weight.size());
  for (std::size_t i = 0; i < layer.out; ++i) {
    for (std::size_t j = 0; j < layer.in; ++j) transposed[j * layer.out + i] = layer.weight[i * layer.in + j];
  }
  combine(transposed.data(), nullptr, layer.in, layer.out, g, out);
  for (std::size_t j = 0; j < layer.in; ++j) {
    Lanes* oj = out.row(j);
    const Lanes* xj = x.row(j);
    for (std::size_t c = 0; c < g.lanes; ++c) oj[c] *= splat(1.0f) - xj[c] * xj[c];
  }
}

// BCE training with SGD + Nesterov momentum. The loss weights each class ½ (the paper's mean over a batch of equal
// class sizes), so unequal data-point counts do not bias c_t. Returns the loss on the last batch.
double train(Mlp& net, const Matrix& positive, const Matrix& negative, const MbdeSettings& settings,
             RandomBits& bits) {
  const auto n_pos = static_cast<std::size_t>(positive.cols());
  const auto n_neg = static_cast<std::size_t>(negative.cols());
  const std::size_t batch_pos = std::min(settings.batch_size, n_pos);
  const std::size_t batch_neg = std::min(settings.batch_size, n_neg);
  const std::size_t steps_per_epoch = (settings.training_samples + settings.batch_size - 1) / settings.batch_size;
  const auto dim = static_cast<std::size_t>(positive.rows());
  const std::size_t batch = batch_pos + batch_neg;
  const std::size_t lanes = (batch + kLanes - 1) / kLanes;

  std::vector<Velocity> velocity;
  for (const Layer& layer : net) {
    velocity.push_back({std::vector<float>(layer.weight.size(), 0.0f), std::vector<float>(layer.bias.size(), 0.0f)});
  }
  BatchCursor cursor_pos(n_pos);
  BatchCursor cursor_neg(n_neg);
  std::vector<std::size_t> indices;
  std::vector<Block> activations(net.size());
  activations[0].resize(dim, lanes);  // the padded samples stay 0
  Block logits;
  Block g;
  Block g_in;
  std::vector<float> transposed;
  std::vector<float> grad;
  const double weight_pos = 0.5 / static_cast<double>(batch_pos);
  const double weight_neg = 0.5 / static_cast<double>(batch_neg);
  double loss = 0.0;
  const auto lr = static_cast<float>(settings.learning_rate);
  const auto mu = static_cast<float>(settings.momentum);
  const std::size_t steps = settings.epochs * steps_per_epoch;

  auto put = [&](const Matrix& samples, std::size_t column, std::size_t at) {
    for (std::size_t a = 0; a < dim; ++a) {
      activations[0].row(a)[at / kLanes][at % kLanes] =
          static_cast<float>(samples(static_cast<Eigen::Index>(a), static_cast<Eigen::Index>(column)));
    }
  };
  for (std::size_t step = 0; step < steps; ++step) {
    cursor_pos.take(batch_pos, bits, indices);
    for (std::size_t j = 0; j < batch_pos; ++j) put(positive, indices[j], j);
    cursor_neg.take(batch_neg, bits, indices);
    for (std::size_t j = 0; j < batch_neg; ++j) put(negative, indices[j], batch_pos + j);
    forward(net, activations, logits);
    // dL/dz of the weighted BCE-with-logits: w·(σ(z) − y); 0 on the padded samples.
    g.resize(1, lanes);
    const bool last = step + 1 == steps;
    loss = 0.0;
    for (std::size_t j = 0; j < batch; ++j) {
      const bool is_positive = j < batch_pos;
      const double w = is_positive ? weight_pos : weight_neg;
      const double z = logits.row(0)[j / kLanes][j % kLanes];
      if (last) loss += w * (is_positive ? softplus(-z) : softplus(z));
      g.row(0)[j / kLanes][j % kLanes] = static_cast<float>(w * (sigmoid(z) - (is_positive ? 1.0 : 0.0)));
    }
    for (std::size_t l = net.size(); l-- > 0;) {
      if (l > 0) back_through(net[l], g, activations[l], transposed, g_in);  // with the weights before this step's update
      descend(net[l], velocity[l], g, activations[l], grad, lr, mu);
      if (l > 0) std::swap(g, g_in);
    }
  }
  for (const Layer& layer : net) {
    for (const float w : layer.weight) {
      if (!std::isfinite(w)) throw std::runtime_error("mbde: classifier training diverged (non-finite weights)");
    }
  }
  return loss;
}

// c_t at every cell centre, in chunks so a 500 × 500 grid does not hold 250 000 × width activations at once.
std::vector<double> classify(const Mlp& net, const Matrix& centres) {
  constexpr std::size_t kChunk = 4096;
  const auto cells = static_cast<std::size_t>(centres.cols());
  const auto dim = static_cast<std::size_t>(centres.rows());
  std::vector<double> out(cells);
  std::vector<Block> activations(net.size());
  Block logits;
  for (std::size_t begin = 0; begin < cells; begin += kChunk) {
    const std::size_t count = std::min(kChunk, cells - begin);
    activations[0].resize(dim, (count + kLanes - 1) / kLanes);
    for (std::size_t j = 0; j < count; ++j) {
      for (std::size_t a = 0; a < dim; ++a) {
        activations[0].row(a)[j / kLanes][j % kLanes] =
            static_cast<float>(centres(static_cast<Eigen::Index>(a), static_cast<Eigen::Index>(begin + j)));
      }
    }
    forward(net, activations, logits);
    for (std::size_t j = 0; j < count; ++j) {
      // The sigmoid lies in [0, 1] in floating point too; the clamp documents (and enforces) the bound C = 1 on
      // which the privacy argument rests.
      out[begin + j] = std::clamp(sigmoid(logits.row(0)[j / kLanes][j % kLanes]), 0.0, 1.0);
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

std::size_t cells_of(const Grid1D& grid) { return grid.cells; }
std::size_t cells_of(const Grid2D& grid) { return cell_count(grid); }

// A data point's coordinates: one on a 1-D grid, two on a 2-D grid.
constexpr std::size_t dimensions_of(double) { return 1; }
constexpr std::size_t dimensions_of(const Point2D&) { return 2; }
double coordinate(double point, std::size_t) { return point; }
double coordinate(const Point2D& point, std::size_t a) { return point[a]; }

// Every entry point checks the grid, the settings and ε, in this order, before its data.
template <class Grid>
void validate_inputs(const Grid& grid, const MbdeSettings& settings, double epsilon) {
  validate_grid(grid);
  validate_settings(settings);
  validated_epsilon(epsilon);
}

template <class Grid>
MbdeResult run_on_density(const Grid& grid, std::span<const double> density, double epsilon,
                          const MbdeSettings& settings, RandomBits& bits) {
  validate_inputs(grid, settings, epsilon);
  const std::vector<double> target = checked_density(density, cells_of(grid));
  return run(domain_of(grid), base_density(grid, settings), target, nullptr, epsilon, settings, bits);
}

// The points as the columns of a dimensions × n matrix, each coordinate checked (point by point).
template <class Grid, class Point>
MbdeResult run_on_points(const Grid& grid, std::span<const Point> points, double epsilon, const MbdeSettings& settings,
                         RandomBits& bits) {
  validate_inputs(grid, settings, epsilon);
  check_points_size(points.size());
  const std::size_t dims = dimensions_of(Point{});
  Matrix positive(static_cast<Eigen::Index>(dims), static_cast<Eigen::Index>(points.size()));
  for (std::size_t i = 0; i < points.size(); ++i) {
    for (std::size_t a = 0; a < dims; ++a) {
      const double value = coordinate(points[i], a);
      check_point(value, i);
      positive(static_cast<Eigen::Index>(a), static_cast<Eigen::Index>(i)) = value;
    }
  }
  return run(domain_of(grid), base_density(grid, settings), {}, &positive, epsilon, settings, bits);
}

}  // namespace

MbdeResult mbde(const Grid1D& grid, std::span<const double> density, double epsilon, const MbdeSettings& settings,
                RandomBits& bits) {
  return run_on_density(grid, density, epsilon, settings, bits);
}

MbdeResult mbde(const Grid2D& grid, std::span<const double> density, double epsilon, const MbdeSettings& settings,
                RandomBits& bits) {
  return run_on_density(grid, density, epsilon, settings, bits);
}

MbdeResult mbde_from_points(const Grid1D& grid, std::span<const double> points, double epsilon,
                            const MbdeSettings& settings, RandomBits& bits) {
  return run_on_points(grid, points, epsilon, settings, bits);
}

MbdeResult mbde_from_points(const Grid2D& grid, std::span<const Point2D> points, double epsilon,
                            const MbdeSettings& settings, RandomBits& bits) {
  return run_on_points(grid, points, epsilon, settings, bits);
}

}  // namespace privsample
