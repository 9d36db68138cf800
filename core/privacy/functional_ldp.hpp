#pragma once
// Functional LDP (g-FLDP) for the three trade-off functions the samplers support — pure ε-LDP (g_ε),
// (ε,δ)-LDP (g_{ε,δ}) and μ-Gaussian LDP (G_μ) — and the weight of the optimal linear sampler.
// Ghoukasian, Lee, Asoodeh, "Locally Optimal Private Sampling: Beyond the Global Minimax" (NeurIPS 2025);
// docs/notions.md#functional-ldp-and-the-privacy-profile, core/mechanisms/linear/README.md#the-weight-for-each-notion.
//
// The bridge used everywhere (Dong et al. Prop 6, docs/notions.md#functional-ldp-and-the-privacy-profile): Q is g-FLDP iff it is (β, δ_g(β))-LDP for
// every β >= 0, with the privacy profile δ_g(β) = 1 + g*(−e^β). A linear sampler λP + (1−λ)h on a class
// P̃_{c1,c2,h} is (β, δ)-LDP iff λ <= (e^β − 1 + Tδ)/((1−c1)(e^β + T − 1)), T = (c2−c1)/(1−c1) (Lemma C.1,
// Prop C.2); λ_T(g) below is the infimum of that bound over β (times 1−c1).
#include <span>
#include <vector>

#include "privacy/privacy.hpp"

namespace privsample {

// Above this μ the samplers run at kMaxEffectiveMu (a stronger guarantee: G_μ' >= G_μ for μ' <= μ), for the
// same reason ε is capped at kMaxEffectiveEpsilon: the share (1 − λ)/k every category gets from the global linear
// sampler is at least (1 − δ_μ(0))/k = 2Φ(−μ/2)/k ≈ e^{−μ²/8}, and must stay a normal double, or a point mass
// would map to an output with zeros (no longer private in floating point). At μ = 37 it is ~1e-76/k; at μ = 100
// it underflows. At μ = 37 the guarantee is already vacuous in practice (δ_μ(β) ≈ 1 − 1e-14 even at β = 400).
inline constexpr double kMaxEffectiveMu = 37.0;

// The notion's parameters checked (pure: epsilon; approx: epsilon and delta; gaussian: mu) and every other
// field zeroed. Throws std::invalid_argument from validated_epsilon / validated_delta / validated_mu, or for a
// notion that is not a local one ("notion = record-dp: ...").
[[nodiscard]] Guarantee validated_ldp_guarantee(const Guarantee& g);

// The guarantee a sampler actually runs at: ε -> effective_epsilon(ε), μ -> min(μ, kMaxEffectiveMu).
// Always at least as strong as g. g must be validated.
[[nodiscard]] Guarantee effective_ldp_guarantee(const Guarantee& g);

// Φ(x) and log Φ(x) of the standard normal, accurate in both tails (erfc, and an asymptotic series below −37
// where erfc underflows).
[[nodiscard]] double normal_cdf(double x) noexcept;
[[nodiscard]] double log_normal_cdf(double x) noexcept;

// δ_g(β) = 1 + g*(−e^β) for β >= 0 (β = +∞ gives the limit), docs/notions.md#functional-ldp-and-the-privacy-profile:
//   pure ε:   (e^ε − e^β)/(e^ε + 1) for β <= ε, else 0
//   (ε,δ):    δ + (1−δ)(e^ε − e^β)/(e^ε + 1) for β <= ε, else δ
//   μ-GDP:    Φ(μ/2 − β/μ) − e^β Φ(−μ/2 − β/μ)   (the second term as exp(β + log Φ(·)))
// Overflow-free for ε up to 1000 (written with e^{β−ε} and e^{−ε}). Clamped to [0, 1] against rounding.
// Throws std::invalid_argument for an invalid guarantee or β < 0 / NaN.
[[nodiscard]] double privacy_profile(const Guarantee& g, double beta);

// 1 − δ_g(β), computed without cancellation (what the linear weight's complement is built from).
[[nodiscard]] double privacy_profile_complement(const Guarantee& g, double beta);

// The minimisation behind λ_T(g): value, minimiser and the complement share.
struct LinearWeight {
  double lambda = 0.0;  // λ_T(g) = inf_{β>=0} (e^β − 1 + T·δ_g(β)) / (e^β + T − 1), unclamped
  double floor = 0.0;   // (1 − λ)/T = (1 − δ_g(β*))/(e^{β*} + T − 1), computed directly (no cancellation:
                        // this is the probability the global sampler gives every category, ~e^{−ε}/T)
  double beta = 0.0;    // a minimiser β* (ε for pure / (ε,δ) when T >= 2, 0 when T < 2; numerical for GDP)
};

// λ_T(g) for T >= 1 (T = (c2−c1)/(1−c1); T = k for the global finite sampler, γ+1 for the local one).
// Closed forms (inf attained at β = ε when T >= 2, at β = 0 when T < 2 — the c1+c2 < 2 branch of eq. (29)):
//   pure:   (e^ε − 1)/(e^ε + T − 1)            [T < 2: (e^ε − 1)/(e^ε + 1)]
//   (ε,δ):  (e^ε − 1 + Tδ)/(e^ε + T − 1)       [T < 2: (e^ε − 1 + 2δ)/(e^ε + 1)]
// μ-GDP (Cor 3.8, no closed form): a robust 1-D minimisation — the objective on a uniform grid (400 steps) and a
// log-spaced grid (200 points from min(1e-3, μ·1e-4)) over [0, β_max], then golden-section refinement on the
// bracket around the best grid point (which may be the endpoint β = 0, e.g. always for T = 2). Candidates are
// compared on h(β) where it is small and on w(β) = (1 − δ_μ(β))/(e^β + T − 1) = (1 − h)/T where λ ≈ 1, so both
// λ and the floor keep full relative precision. β_max = max(50, μ²/2 + 5μ + 5, μ·sqrt(2 log 4T) + 5): beyond
// it the objective provably increases (derivation in the source), so the minimiser lies inside. Checked against
// high-precision (mpmath) references: |λ error| <= 3e-16 and floor relative error <= 4e-16 for μ ∈ [1e-6, 37],
// T ∈ [1, 1e12]. A sampler solves it once per k and keeps it (keep_for_categories).
// All forms use e^{−ε}/e^{−β} only, so ε up to 1000 and μ up to 100 never overflow.
// Throws std::invalid_argument for an invalid guarantee or T < 1 / non-finite.
[[nodiscard]] LinearWeight solve_linear_weight(const Guarantee& g, double T);
[[nodiscard]] double linear_weight(const Guarantee& g, double T);

// The samplers round a numerically minimised (GDP) weight down by this much before use: λ_T(g) is only found
// to ~3e-16, and by Lemma C.1 any smaller weight is still g-FLDP (outward rounding of a privacy constant).
// Closed forms (pure, (ε,δ)) are used as computed.
inline constexpr double kGaussianWeightSlack = 1e-12;

// The weight every linear sampler runs at (finite global: T = k; local: T = γ+1; continuous: T of the class):
// λ_T at effective_ldp_guarantee(g); for μ-GDP lowered by kGaussianWeightSlack and then re-checked: the worst
// pair's hockey-stick of the mixture, max(0, λ + f − e^β f) with f = (1−λ)/T (Lemma C.1), must not exceed
// δ_μ(β) at the minimiser and on a log grid of β up to β_max; where it does (a minimisation or rounding error
// larger than the slack), λ is lowered to the largest value that passes every checked β.
[[nodiscard]] LinearWeight running_linear_weight(const Guarantee& g, double T);

// The β values at which a GDP weight is checked against the profile δ_μ(β) (running_linear_weight, and the local
// linear sampler after its own rounding): 0, the minimiser β* and its neighbours at relative steps ±1e-9 and ±1e-6,
// and 65 log-spaced values from min(1e-3, μ·1e-4) to β_max (as in solve_linear_weight).
[[nodiscard]] std::vector<double> gaussian_check_points(double mu, double T, double beta_star);

// E_{e^β}(P‖Q) = Σ_x max(0, p_x − e^β q_x) on the given (unnormalised) masses; Q is (β, δ)-LDP for a pair
// of inputs iff E_{e^β}(Q_P‖Q_P') <= δ. Terms with q_x = 0 contribute p_x (also for β = +∞).
// Throws std::invalid_argument for a length mismatch, negative / non-finite masses, or β < 0 / NaN.
[[nodiscard]] double hockey_stick_divergence(std::span<const double> p, std::span<const double> q, double beta);

// Risk constants of a linear sampler λP + (1−λ)h on P̃_{c1,c2,h} (Thm 3.4): every P in the class has
// r1 <= p/q <= r2 with r1 = c1/(1 − (1−c1)λ) and r2 = c2/((c2−1)λ + 1), so the worst-case risk is
// chord_risk(f, r1, r2) (Lemma C.3; attained when h is (1/T, T, 1)-decomposable). r1 = 0 when c1 = 0.
// Requires 0 <= c1 < 1 < c2 (finite) and λ ∈ [0, 1]; throws std::invalid_argument otherwise.
struct LinearRiskConstants {
  double r1 = 0.0;
  double r2 = 1.0;
};
[[nodiscard]] LinearRiskConstants linear_risk_constants(double c1, double c2, double lambda);

}  // namespace privsample
