#pragma once
// Privacy accountant for finite mechanisms: the channel view W of a mechanism and what it guarantees in
// every notion — the LDP curve, (ε,δ)-LIP for a prior, mutual information, capacity (CI-LMIDP).
// Docs: docs/analysis/accountant.md (definitions, finite channels, the report), Ngo et al. Defs. 1–4.
// Information quantities are in bits (log base 2).
#include <Eigen/Dense>
#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace privsample {

// W(i, y) = Pr(output y | input i): one row per input (a histogram), one column per output; rows sum to 1.
using ChannelMatrix = Eigen::MatrixXd;

// Largest rows·columns accepted (the LDP curve costs O(rows²·columns) per ε').
inline constexpr std::size_t kMaxChannelEntries = 1'000'000;

// Entries finite and >= 0, every row sums to 1 within 1e-9 (then renormalised), rows·cols <= kMaxChannelEntries,
// at least one row and one column; std::invalid_argument naming the row/column and value otherwise.
[[nodiscard]] ChannelMatrix validated_channel(ChannelMatrix w);

// Pure LDP ε* = max over y and rows i, j of ln(W(i,y)/W(j,y)); +∞ when a column mixes zero and non-zero
// entries; 0 for a single row. (docs/analysis/accountant.md#ldp-curve)
[[nodiscard]] double pure_ldp_epsilon(const ChannelMatrix& w);

// The same ε from each output's largest and smallest probability over the rows alone (largest[y] >= smallest[y] >= 0,
// finite, equal lengths): max over y with largest[y] > 0 of ln(largest[y]/smallest[y]), +∞ when such a smallest[y]
// is 0. For channels with more rows than a matrix should hold (the reproductions track the extremes over many
// clients' outputs on 160,000 cells). std::invalid_argument naming the entry otherwise.
[[nodiscard]] double pure_ldp_epsilon_of_extremes(std::span<const double> largest, std::span<const double> smallest);

// The optimal LDP curve δ(ε') = max over ordered pairs i ≠ j of Σ_y max(0, W(i,y) − e^{ε'} W(j,y)), for each
// ε' >= 0 of `epsilons` (exact for a finite channel; docs/analysis/accountant.md#ldp-curve). 0 for a single row.
[[nodiscard]] std::vector<double> ldp_curve(const ChannelMatrix& w, std::span<const double> epsilons);

// H(prior) and I(X;Y) in bits for a prior over the rows (validated: finite, >= 0, sums to 1 within 1e-6).
[[nodiscard]] double entropy_bits(std::span<const double> prior);
[[nodiscard]] double mutual_information_bits(const ChannelMatrix& w, std::span<const double> prior);

// Capacity sup_prior I(X;Y) (= CI-LMIDP over all priors on the rows) by accelerated Blahut–Arimoto, with certified
// bounds lower = Σ π_x D_x <= C <= upper = max_x D_x (docs/analysis/accountant.md#mutual-information-and-capacity); stops when upper − lower <= tolerance.
// The bounds' default gap, in bits: far below any leakage worth reporting, and reached by the accelerated iteration
// on channels of the accountant's sizes; the iteration cap keeps a hard channel from running unbounded.
inline constexpr double kCapacityTolerance = 1e-9;
inline constexpr int kMaxCapacityIterations = 200000;
struct CapacityBounds {
  double lower = 0.0;
  double upper = 0.0;
  std::vector<double> prior;  // the last Blahut–Arimoto prior (capacity-achieving up to the gap)
  int iterations = 0;
};
[[nodiscard]] CapacityBounds channel_capacity(const ChannelMatrix& w, double tolerance = kCapacityTolerance,
                                              int max_iterations = kMaxCapacityIterations);

// LIP for a prior (x ranges over the support of the prior only, docs/analysis/accountant.md#lip):
// pure ε_LIP = max over x in supp, y with P_Y(y) > 0 of |ln(W(x,y)/P_Y(y))|;
// δ_LIP(ε') = max over x in supp of max{H_{e^ε'}(P_Y‖W_x), e^{−ε'}·H_{e^ε'}(W_x‖P_Y)}   (eq. 4).
[[nodiscard]] double pure_lip_epsilon(const ChannelMatrix& w, std::span<const double> prior);
[[nodiscard]] std::vector<double> lip_curve(const ChannelMatrix& w, std::span<const double> prior,
                                            std::span<const double> epsilons);

// Everything the accountant panel shows for one channel (and optionally one prior over its rows).
struct AccountantReport {
  double pure_ldp_epsilon = 0.0;          // +∞ when unbounded
  std::vector<double> epsilons;           // the ε' grid of the curves: as given, or by default 101 points
                                          // from 0 to 1.25·ε* (0 … 10 when ε* = ∞)
  std::vector<double> ldp_curve;          // δ_LDP(ε')
  CapacityBounds capacity;                // CI-LMIDP over all priors on the rows, bits (tolerance 1e-9, at most
                                          // max(100, 1e8/(rows·cols)) iterations: at k = 1000 the certified gap
                                          // may stay around 1e-6 bits)
  double capacity_bound_from_pure_ldp = 0.0;  // log2(e)·ε·tanh(ε/2) (Thm 1(b) for pure ε; +∞ if ε* = ∞)
  // Thm 1(b) on the exact curve; std::nullopt when rows²·cols > 4e6 (a few hundred quadrature points of it).
  std::optional<double> capacity_bound_from_ldp_curve;
  // With a prior (std::nullopt / empty without one):
  std::optional<double> prior_entropy;       // H(X), bits
  std::optional<double> prior_min_mass;      // the prior's smallest positive mass, the p_min of the corrected
                                             // Thm 2(a) (lmidp.hpp lip_delta_from_mutual_information)
  std::optional<double> mutual_information;  // I(X;Y) = CD-LMIDP for this prior, bits
  std::optional<double> pure_lip_epsilon;
  std::vector<double> lip_curve;             // δ_LIP(ε')
  std::optional<double> mutual_information_bound_from_lip_curve;  // Thm 2(b) on the exact LIP curve (as above)
};
[[nodiscard]] AccountantReport accountant_report(const ChannelMatrix& w, std::optional<std::span<const double>> prior,
                                                 std::span<const double> epsilons);

}  // namespace privsample
