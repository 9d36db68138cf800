#pragma once
// Conversions between local mutual-information DP (LMIDP), LDP and LIP — Ngo, Östman, Graell i Amat,
// "Local Mutual-Information Differential Privacy" — with the paper's Theorem 2(a) corrected.
// Docs: docs/analysis/lmidp.md (conversions, mechanisms), docs/experiments.md#ngo-et-al (figures).
// Information quantities in bits; ε in nats (e^ε).
#include <cstddef>
#include <functional>
#include <span>

namespace privsample {

// ---- information primitives (docs/analysis/lmidp.md#information-quantities, docs/analysis/lmidp.md#bac-capacity) -------------------------------------------------------------
[[nodiscard]] double binary_entropy_bits(double p);
[[nodiscard]] double bernoulli_kl_bits(double p1, double p0);
// Capacity of the binary asymmetric channel with crossovers (e0, e1), eq. (7), stable near e0 + e1 = 1.
[[nodiscard]] double bac_capacity_bits(double e0, double e1);

// ---- Theorem 1: CI-LMIDP <-> LDP ---------------------------------------------------------------------------
// Thm 1(a), eq. (6): the tight δ such that every μ-CI-LMIDP mechanism is (ε, δ)-LDP.
[[nodiscard]] double ldp_delta_from_capacity(double mu_bits, double epsilon);
// Its limit as ε → ∞, p̄_μ (the horizontal asymptote; a μ-bit mechanism can out this fraction of a group).
[[nodiscard]] double ldp_delta_floor_from_capacity(double mu_bits);
// Thm 1(b), eq. (8): μ = log2(e)·∫_0^∞ (1 + e^{−ε}) δ(ε) dε from an LDP curve valid for all ε >= 0 (adaptive
// quadrature; +∞ when δ does not decay). eps_hint: where δ is known to reach 0 (pure mechanisms), or 0.
[[nodiscard]] double capacity_bound_from_ldp_curve(const std::function<double(double)>& delta, double eps_hint = 0.0);
// Thm 1(b) for pure ε-LDP in closed form: log2(e)·ε·tanh(ε/2).
[[nodiscard]] double capacity_bound_from_pure_ldp(double epsilon);

// ---- Theorem 2: CD-LMIDP <-> LIP ---------------------------------------------------------------------------
// Thm 2(a), eq. (9) EXACTLY AS PRINTED. It is wrong (docs/analysis/lmidp.md#theorem-2a-corrected): a Gaussian mechanism violates it. Kept only to
// document the counterexample; never use it as a guarantee.
[[nodiscard]] double lip_delta_from_mutual_information_as_printed(double mu_bits, double epsilon);
// The corrected Thm 2(a) (docs/analysis/lmidp.md#theorem-2a-corrected): uses the smallest prior mass p_min (per-input KL <= μ / p_min).
[[nodiscard]] double lip_delta_from_mutual_information(double mu_bits, double p_min, double epsilon);
// Thm 2(b), eq. (10): μ_CD = log2(e)·∫_0^∞ (e^{ε} + e^{−ε}) δ_LIP(ε) dε (valid).
[[nodiscard]] double mutual_information_bound_from_lip_curve(const std::function<double(double)>& delta,
                                                             double eps_hint = 0.0);

// ---- closed forms for k-ary randomized response (docs/analysis/accountant.md#k-rr-closed-forms) ------------------------------------------------
[[nodiscard]] double krr_capacity_bits(std::size_t k, double epsilon);
[[nodiscard]] double krr_ldp_delta(std::size_t k, double epsilon, double eps_prime);

// ---- the Gaussian mechanism and Theorem 3 (docs/analysis/lmidp.md#theorem-3-gaussian, docs/analysis/lmidp.md#gaussian-mechanism) ------------------------------------------------
// δ of the Gaussian mechanism with L2 sensitivity s and noise σ at ε (Balle–Wang, exact).
[[nodiscard]] double gaussian_ldp_delta(double epsilon, double l2_sensitivity, double sigma);
// The paper's Gaussian mechanism (5): x in the ball ||x|| <= √d·Δ (diameter, i.e. L2 sensitivity, 2√d·Δ) plus
// N(0, σ²I_d); its optimal LDP curve δ̄_G(ε) = gaussian_ldp_delta(ε, 2√d·Δ, σ) (Fig. 1; docs/analysis/lmidp.md).
[[nodiscard]] double gaussian_ball_ldp_delta(double epsilon, std::size_t d, double delta_bound, double sigma2);
// CI-LMIDP of d-dimensional Gaussian noise of variance σ² per coordinate: average-power constraint
// (d/2)·log2(1 + Δ²/σ²) (Thm 3, the best additive noise), and the peak constraint ||x|| <= √d·Δ (docs/analysis/lmidp.md#gaussian-mechanism).
[[nodiscard]] double gaussian_capacity_average_power(std::size_t d, double delta_bound, double sigma2);
[[nodiscard]] double gaussian_capacity_peak(std::size_t d, double delta_bound, double sigma2);
// σ² such that the peak-constrained capacity equals μ (Fig. 1 calibration: μ = 0.1, d = 10, Δ = 1 → 71.635899).
[[nodiscard]] double gaussian_sigma2_for_capacity(double mu_bits, std::size_t d, double delta_bound);
// A scalar Gaussian mechanism on a discrete prior over points xs (Fig. 3/4 setup): I(X; X + N(0, σ²)) in bits
// and its LIP curve δ_LIP(ε) (x over the support).
[[nodiscard]] double gaussian_mixture_mutual_information(std::span<const double> xs, std::span<const double> prior,
                                                         double sigma2);
[[nodiscard]] double gaussian_mixture_lip_delta(std::span<const double> xs, std::span<const double> prior,
                                                double sigma2, double epsilon);

}  // namespace privsample
