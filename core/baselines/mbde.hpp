#pragma once
// MBDE — Mollified Boosted Density Estimation (Husain et al., ref. [35] of the minimax paper), the continuous-space
// baseline exactly as the minimax paper ran it (docs/baselines/mbde.md, docs/experiments.md#park-fig-1-gaussian-ring, docs/experiments.md#park-fig-4-1-d-gaussian-mixtures), on grids.
//
//   θ = ε/(ε + 4C), C = 1 (the classifier output bound; sigmoid outputs lie in [0, 1] ⊂ [−C, C])
//   Q_0 = N(base_mean, base_std²) truncated to the grid
//   for t = 1..T:  c_t = MLP classifier of "samples of P" (label 1) vs "MH samples of Q_{t−1}" (label 0)
//                  Q_t(x) ∝ Q_{t−1}(x)·exp(θ^t·c_t(x))
//
// Privacy (docs/baselines/mbde.md, [35]): log(Q_T/Q_0) before normalisation is Σ_t θ^t c_t(x) ∈ [0, S] with
// S = Σ_{t<=T} θ^t < θ/(1 − θ) = ε/4, so the normaliser Z lies in [1, e^S] and q_T/q_0 ∈ [e^{−ε/4}, e^{ε/4}] ⊂
// [e^{−ε/2}, e^{ε/2}] pointwise: Q_T lies in the relative mollifier M_{ε,Q0}, and the released point (a cell from q_T,
// then uniform inside it, continuous.hpp) is ε-LDP. The bound is structural (it holds however badly the classifier
// is trained), which is why the tests can check it on every cell.
//
// On the grid: the densities are cell masses (continuous.hpp). c_t is evaluated at cell centres, so
// q_t,i ∝ q_{t−1},i·exp(θ^t·c_t(centre_i)) — the midpoint rule for the cell mass of the paper's update, and the
// update keeps the ratio bound exactly on cells (the paper's numerical integration would not).
// The MH chains walk on the piecewise-constant density q_i/|cell| (0 outside the grid).
#include <cstddef>
#include <span>
#include <vector>

#include "model/grid.hpp"
#include "base/randomness.hpp"

namespace privsample {

struct MbdeSettings {
  // Boosting (docs/baselines/mbde.md): T rounds; θ = ε/(ε + 4) is derived from ε, not a setting.
  std::size_t rounds = 3;
  // Weak learner: Linear(dim, width) – tanh – [Linear(width, width) – tanh] × (hidden_layers − 1) –
  // Linear(width, 1) – sigmoid, PyTorch's default initialisation U(±1/√fan_in); BCE loss;
  // SGD with Nesterov momentum; single precision, as PyTorch trains it (float lanes over the samples).
  std::size_t hidden_width = 25;
  std::size_t hidden_layers = 3;
  std::size_t epochs = 750;
  double learning_rate = 0.01;
  double momentum = 0.9;
  // Samples per class; each SGD step sees batch_size samples of each class (paper: 10 000 and 5 000, so two steps
  // per epoch on 10 000-element batches).
  std::size_t training_samples = 10000;
  std::size_t batch_size = 5000;
  // Metropolis–Hastings (docs/baselines/mbde.md, mh.py): training_samples independent chains, all started at base_mean,
  // burn_in steps each, then one sample per chain; Gaussian proposal with this standard deviation per coordinate
  // (the code's "proposal_var" = 1 is used as a standard deviation, docs/errata.md#park-et-al).
  std::size_t burn_in = 1000;
  double proposal_std = 1.0;
  // Q_0 = N(base_mean, base_std²) (isotropic in 2-D, mean (base_mean, base_mean)) truncated to the grid: docs/experiments.md#park-fig-4-1-d-gaussian-mixtures
  // eq. 212 (1-D); the ring's untruncated N(0, I₂) (docs/experiments.md#park-fig-1-gaussian-ring) becomes its restriction to the plotted grid.
  double base_mean = 0.0;
  double base_std = 1.0;

  // The paper's settings (the defaults above). Roughly 1e11 FLOPs per round, about 190 times the reduced preset's
  // work: not for a browser.
  [[nodiscard]] static MbdeSettings paper() { return {}; }
  // Small enough for a browser tab (bench/README.md times it): 3 rounds and the paper's architecture,
  // but 400 samples per class in one full batch, 100 epochs (100 SGD steps instead of 1500) at learning rate 0.05
  // (with 15× fewer steps, 0.01 leaves the classifier visibly under-trained) and 200 burn-in steps. Deviations from
  // the paper for speed only; the privacy bound does not depend on them.
  [[nodiscard]] static MbdeSettings reduced();
};

// Throws std::invalid_argument naming the field ("settings.rounds = 0: must be in [1, 50]") for counts that are 0 or
// absurdly large, batch_size > training_samples, a learning rate or proposal/base std that is not finite and > 0, a
// momentum outside [0, 1), or a base mean that is not finite.
void validate_settings(const MbdeSettings& settings);

struct MbdeResult {
  std::vector<double> density;    // q_T: cell masses, Σ = 1
  std::vector<double> reference;  // q_0: the truncated Gaussian base, cell masses, Σ = 1
  std::vector<double> log_ratio;  // log(q_T/q_0) per cell, in [−S, S] with S = Σ_t θ^t < ε/4
  double theta = 0.0;             // ε/(ε + 4), ε the effective ε (privacy.hpp)
  // Training loss (BCE, both classes weighted ½) on the last SGD batch of each round, for diagnostics. Empty when
  // ε = 0: θ = 0, so no round can change q and none is run.
  std::vector<double> final_loss;
};

// MBDE for a density given as cell masses (any positive scale; validated like a histogram, named "density"): the
// class-1 training samples are drawn from it by the same MH random walk as the Q_{t−1} samples, as in the paper's
// code. ε is validated_epsilon ("epsilon"); ε = 0 gives q_T = q_0. Throws std::invalid_argument for an invalid
// grid, settings or density (wrong length, negative / non-finite entries, zero total), and std::runtime_error if
// training diverges to non-finite weights (never seen with the presets).
[[nodiscard]] MbdeResult mbde(const Grid1D& grid, std::span<const double> density, double epsilon,
                              const MbdeSettings& settings, RandomBits& bits);
[[nodiscard]] MbdeResult mbde(const Grid2D& grid, std::span<const double> density, double epsilon,
                              const MbdeSettings& settings, RandomBits& bits);

// MBDE for data points (the points themselves are the class-1 samples; each SGD step takes min(batch_size, n) of
// them, cycling through a fresh shuffle each pass). Points must be finite ("points") and non-empty; points outside
// the grid are allowed (the classifier sees them, q only lives on the grid).
[[nodiscard]] MbdeResult mbde_from_points(const Grid1D& grid, std::span<const double> points, double epsilon,
                                          const MbdeSettings& settings, RandomBits& bits);
[[nodiscard]] MbdeResult mbde_from_points(const Grid2D& grid, std::span<const Point2D> points, double epsilon,
                                          const MbdeSettings& settings, RandomBits& bits);

}  // namespace privsample
