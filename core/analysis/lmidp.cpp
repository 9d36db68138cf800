// Conversions between local mutual-information DP (LMIDP), LDP and LIP (Ngo, Östman, Graell i Amat), with the
// paper's Theorem 2(a) corrected. Docs: docs/analysis/lmidp.md. Information in bits, ε in nats.
//
// Numerics follow docs/analysis/lmidp.md#numerics: every optimisation in (6) and (9) is a concave 1-D problem over a convex feasible
// region, solved by golden-section (100 iterations) around a bisection (100 iterations) for the boundary of the
// feasible region. Integrals (8)/(10) use adaptive Gauss–Kronrod. Only <cmath> functions that Emscripten has
// are used (erfc, lgamma, expm1, log1p), so Bessel functions are summed by hand (docs/analysis/lmidp.md#gaussian-mechanism).
#include "analysis/lmidp.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <limits>
#include <numbers>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "privacy/functional_ldp.hpp"  // normal_cdf
#include "base/numeric.hpp"
#include "base/optimise.hpp"
#include "base/quadrature.hpp"
#include "base/special_functions.hpp"

namespace privsample {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kLn2 = std::numbers::ln2;
constexpr double kLog2e = std::numbers::log2e;
constexpr int kGoldenIterations = 100;     // docs/analysis/lmidp.md#numerics
constexpr int kBisectionIterations = 100;  // docs/analysis/lmidp.md#numerics
constexpr double kPriorSumTolerance = 1e-9;
// exp(x) underflows to 0 below about −745.13: a density term whose log is below −745 contributes nothing.
constexpr double kExpUnderflowLog = -745.0;
// The series of ln(1 + x) − x stops once a term is below 1e-18 of the sum: far under an ulp, and |x| <= 0.05 there,
// so the remaining terms fall by at least that factor each.
constexpr double kSeriesStop = 1e-18;

// ---- validation -----------------------------------------------------------------------------------------------

void require_probability(double p, const char* name) {
  if (!(p >= 0.0 && p <= 1.0)) {
    throw std::invalid_argument(std::string(name) + " = " + format_value(p) + ": must be a probability in [0, 1]");
  }
}

void require_mu(double mu_bits) {
  if (!(mu_bits >= 0.0) || !std::isfinite(mu_bits)) {
    throw std::invalid_argument("mu = " + format_value(mu_bits) + ": must be a finite number of bits >= 0");
  }
}

// ε may be +∞ where the limit is meaningful (δ curves are defined on [0, ∞]).
void require_epsilon(double epsilon, const char* name = "epsilon") {
  if (!(epsilon >= 0.0)) {
    throw std::invalid_argument(std::string(name) + " = " + format_value(epsilon) + ": must be a number >= 0");
  }
}

void require_finite_epsilon(double epsilon) {
  if (!(epsilon >= 0.0) || !std::isfinite(epsilon)) {
    throw std::invalid_argument("epsilon = " + format_value(epsilon) + ": must be a finite number >= 0");
  }
}

void require_positive_finite(double value, const char* name) {
  if (!(value > 0.0) || !std::isfinite(value)) {
    throw std::invalid_argument(std::string(name) + " = " + format_value(value) + ": must be a finite number > 0");
  }
}

// Messages name the parameters as the JS API does (research.d.ts): the mixture's points (xs here), the bound Δ
// (delta_bound), epsHint (eps_hint).
void require_dimension(std::size_t d) {
  if (d == 0) throw std::invalid_argument("d = 0: the dimension must be >= 1");
}

// ---- small numeric helpers ----------------------------------------------------------------------------------------

// log2(1 + 2^z) without overflow: z + log2(1 + 2^−z) for z > 0 (docs/analysis/lmidp.md#bac-capacity).
double log2_one_plus_exp2(double z) {
  if (z > 0.0) return z + std::log1p(std::exp2(-z)) * kLog2e;
  return std::log1p(std::exp2(z)) * kLog2e;
}

// log2(e)·∫_0^∞ w(ε)·δ(ε) dε for a privacy curve δ (docs/analysis/lmidp.md#theorem-1b, docs/analysis/lmidp.md#theorem-2b, docs/analysis/lmidp.md#numerics): [0, eps_hint] first (a pure mechanism's
// kink sits there), then unit-doubling panels until the weighted integrand is < 1e-14. A curve that does not decay
// by ε = 700 (beyond which e^ε overflows) makes the integral diverge: +∞.
double integrate_privacy_curve(const std::function<double(double)>& delta, double eps_hint,
                               const std::function<double(double)>& weight) {
  require_epsilon(eps_hint, "epsHint");
  if (!std::isfinite(eps_hint)) {
    throw std::invalid_argument("epsHint = " + format_value(eps_hint) + ": must be finite");
  }
  if (!delta) throw std::invalid_argument("delta: an empty function");
  const std::function<double(double)> integrand = [&](double eps) {
    const double d = delta(eps);
    if (!(d >= 0.0 && d <= 1.0)) {
      throw std::invalid_argument("delta(" + format_value(eps) + ") = " + format_value(d) +
                                  ": a privacy curve takes values in [0, 1]");
    }
    return d == 0.0 ? 0.0 : weight(eps) * d;
  };
  constexpr double kTail = 1e-14;
  constexpr double kTol = 1e-11;
  constexpr double kEpsCap = 700.0;
  double total = 0.0;
  double a = 0.0;
  if (eps_hint > 0.0) {
    total += adaptive_gauss_kronrod(integrand, 0.0, eps_hint, kTol);
    a = eps_hint;
  }
  double width = 0.5;
  while (true) {
    const double b = std::min(a + width, kEpsCap);
    const double piece = adaptive_gauss_kronrod(integrand, a, b, kTol);
    total += piece;
    if (integrand(b) < kTail && std::fabs(piece) <= kTail * std::max(1.0, total)) break;
    if (b >= kEpsCap) return kInf;  // δ does not decay: no MI bound follows (docs/analysis/lmidp.md#theorem-1b)
    a = b;
    width *= 2.0;
  }
  return kLog2e * total;
}

// Composite Simpson nodes/weights on [0, s_max] for the radial integrals; the densities are smooth (for d = 1 the
// folded normal is smooth on [0, ∞) too), so 4000 panels give ~1e-12.
SimpsonRule radial_grid(std::size_t d, double rho, std::size_t panels = 4000) {
  return composite_simpson(std::sqrt(rho * rho + static_cast<double>(d)) + rho + 14.0, panels);
}

// Point KL (nats) of ||x|| = τ to the output of an input spread over spheres τ_j with weights w_j (σ = 1):
// i(τ) = τ²/2 − E_{s∼f_s(·;d,τ)} ln Σ_j w_j e^{−τ_j²/2} M_d(τ_j s)  (docs/analysis/lmidp.md#gaussian-mechanism).
double shell_point_kl(std::size_t d, double tau, const std::vector<double>& taus, const std::vector<double>& weights,
                      const SimpsonRule& g) {
  double expectation = 0.0;
  for (std::size_t n = 0; n < g.nodes.size(); ++n) {
    const double s = g.nodes[n];
    if (s == 0.0 && d > 1) continue;  // density 0
    const double log_f = log_noncentral_chi_density(d, tau, s);
    if (log_f < kExpUnderflowLog) continue;
    double max_term = -kInf;
    std::vector<double> terms(taus.size());
    for (std::size_t j = 0; j < taus.size(); ++j) {
      terms[j] = weights[j] > 0.0 ? std::log(weights[j]) - 0.5 * taus[j] * taus[j] + log_md(d, taus[j] * s) : -kInf;
      max_term = std::max(max_term, terms[j]);
    }
    double acc = 0.0;
    for (double t : terms) acc += std::exp(t - max_term);
    expectation += g.weights[n] * std::exp(log_f) * (max_term + std::log(acc));
  }
  return 0.5 * tau * tau - expectation;
}

// ---- Gaussian mixture (d = 1, discrete prior; docs/analysis/lmidp.md#gaussian-mechanism "CD-LMIDP and LIP for a discrete prior") ---------------

struct Mixture {
  std::vector<double> t;       // support points in σ units
  std::vector<double> log_pi;  // log prior masses (support only)
  std::vector<double> pi;
};

Mixture make_mixture(std::span<const double> xs, std::span<const double> prior, double sigma2) {
  if (xs.size() != prior.size()) {
    throw std::invalid_argument("prior has " + std::to_string(prior.size()) + " entries but points has " +
                                std::to_string(xs.size()));
  }
  if (xs.empty()) throw std::invalid_argument("points is empty: the prior needs at least one point");
  require_positive_finite(sigma2, "sigma2");
  CompensatedSum total;
  for (std::size_t i = 0; i < prior.size(); ++i) {
    if (!std::isfinite(prior[i]) || prior[i] < 0.0) {
      throw std::invalid_argument("prior[" + std::to_string(i) + "] = " + format_value(prior[i]) +
                                  ": probabilities must be finite and >= 0");
    }
    if (!std::isfinite(xs[i])) {
      throw std::invalid_argument("points[" + std::to_string(i) + "] = " + format_value(xs[i]) + ": must be finite");
    }
    total.add(prior[i]);
  }
  const double sum = total.value();
  if (!(std::fabs(sum - 1.0) <= kPriorSumTolerance)) {
    throw std::invalid_argument("prior sums to " + format_value(sum) +
                                ": a prior must be a probability distribution (sum 1)");
  }
  const double sigma = std::sqrt(sigma2);
  Mixture m;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    if (prior[i] == 0.0) continue;  // LIP ranges over the support only (docs/analysis/accountant.md#lip)
    m.t.push_back(xs[i] / sigma);
    m.pi.push_back(prior[i] / sum);
    m.log_pi.push_back(std::log(prior[i] / sum));
  }
  return m;
}

// L_i(u) = ln(p_mix(u)/φ(u − t_i)): a log-sum-exp of affine functions of u, hence convex (the reason the sets
// {L_i > ε} and {L_i < −ε} are a two-sided tail and an interval, whose masses are exact via Φ).
double log_ratio(const Mixture& m, std::size_t i, double u) {
  const double ti = m.t[i];
  double max_term = -kInf;
  for (std::size_t j = 0; j < m.t.size(); ++j) {
    const double tj = m.t[j];
    max_term = std::max(max_term, m.log_pi[j] + (tj - ti) * (u - 0.5 * (tj + ti)));
  }
  double acc = 0.0;
  for (std::size_t j = 0; j < m.t.size(); ++j) {
    const double tj = m.t[j];
    acc += std::exp(m.log_pi[j] + (tj - ti) * (u - 0.5 * (tj + ti)) - max_term);
  }
  return max_term + std::log(acc);
}

// L_i'(u) = posterior mean of (t_j − t_i): nondecreasing.
double log_ratio_slope(const Mixture& m, std::size_t i, double u) {
  const double ti = m.t[i];
  double max_term = -kInf;
  for (std::size_t j = 0; j < m.t.size(); ++j) {
    max_term = std::max(max_term, m.log_pi[j] + (m.t[j] - ti) * (u - 0.5 * (m.t[j] + ti)));
  }
  double num = 0.0;
  double den = 0.0;
  for (std::size_t j = 0; j < m.t.size(); ++j) {
    const double w = std::exp(m.log_pi[j] + (m.t[j] - ti) * (u - 0.5 * (m.t[j] + ti)) - max_term);
    num += w * (m.t[j] - ti);
    den += w;
  }
  return num / den;
}

// Mass of N(t, 1) on (a, b), computed from the nearer tails so that no 1 − (1 − tiny) cancellation occurs.
double normal_interval_mass(double a, double b, double t) {
  if (!(b > a)) return 0.0;
  if (a >= t) return normal_cdf(t - a) - normal_cdf(t - b);
  if (b <= t) return normal_cdf(b - t) - normal_cdf(a - t);
  return 1.0 - normal_cdf(a - t) - normal_cdf(t - b);
}

double mixture_interval_mass(const Mixture& m, double a, double b) {
  double total = 0.0;
  for (std::size_t j = 0; j < m.t.size(); ++j) total += m.pi[j] * normal_interval_mass(a, b, m.t[j]);
  return total;
}

// Point where L_i crosses level c between lo (L >= c side) and hi (L < c side), or vice versa.
double crossing(const Mixture& m, std::size_t i, double c, double lo, double hi) {
  const bool lo_above = log_ratio(m, i, lo) >= c;
  for (int it = 0; it < kBisectionIterations; ++it) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    ((log_ratio(m, i, mid) >= c) == lo_above ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

// max{H_{e^ε}(P_mix ‖ N_i), e^{−ε} H_{e^ε}(N_i ‖ P_mix)} for support point i (docs/analysis/accountant.md#lip eq. (4)).
double mixture_point_lip_delta(const Mixture& m, std::size_t i, double epsilon) {
  const auto [tmin, tmax] = std::minmax_element(m.t.begin(), m.t.end());
  // Beyond 40σ outside the support every Φ tail is < 1e-300, so the search range can be finite.
  const double lo = *tmin - 40.0;
  const double hi = *tmax + 40.0;
  // Minimiser of the convex L_i (bisection on its nondecreasing slope; an end if the slope keeps its sign).
  double umin;
  if (log_ratio_slope(m, i, lo) >= 0.0) {
    umin = lo;
  } else if (log_ratio_slope(m, i, hi) <= 0.0) {
    umin = hi;
  } else {
    double a = lo;
    double b = hi;
    for (int it = 0; it < kBisectionIterations; ++it) {
      const double mid = 0.5 * (a + b);
      if (mid <= a || mid >= b) break;
      (log_ratio_slope(m, i, mid) < 0.0 ? a : b) = mid;
    }
    umin = 0.5 * (a + b);
  }
  const double lmin = log_ratio(m, i, umin);
  const double alpha = std::exp(epsilon);
  // H_{e^ε}(P_mix ‖ N_i): the set {L_i > ε} = (−∞, a) ∪ (b, ∞).
  double h_marginal_over_point = 0.0;
  if (std::isfinite(alpha)) {
    const double a = log_ratio(m, i, lo) > epsilon ? crossing(m, i, epsilon, lo, umin) : -kInf;
    const double b = log_ratio(m, i, hi) > epsilon ? crossing(m, i, epsilon, umin, hi) : kInf;
    if (lmin > epsilon) {
      h_marginal_over_point = 0.0;  // impossible for ε >= 0 (min of a log density ratio is <= 0)
    } else {
      double p_mass = 0.0;
      for (std::size_t j = 0; j < m.t.size(); ++j) {
        p_mass += m.pi[j] * (normal_cdf(a - m.t[j]) + normal_cdf(m.t[j] - b));
      }
      const double q_mass = normal_cdf(a - m.t[i]) + normal_cdf(m.t[i] - b);
      h_marginal_over_point = std::max(0.0, p_mass - alpha * q_mass);
    }
  }
  // H_{e^ε}(N_i ‖ P_mix): the set {L_i < −ε}, an interval around the minimiser.
  double h_point_over_marginal = 0.0;
  if (lmin < -epsilon) {
    const double a = log_ratio(m, i, lo) < -epsilon ? -kInf : crossing(m, i, -epsilon, lo, umin);
    const double b = log_ratio(m, i, hi) < -epsilon ? kInf : crossing(m, i, -epsilon, umin, hi);
    const double q_mass = normal_interval_mass(a, b, m.t[i]);
    const double p_mass = mixture_interval_mass(m, a, b);
    h_point_over_marginal = std::max(0.0, q_mass - alpha * p_mass);
  }
  return std::max(h_marginal_over_point, std::exp(-epsilon) * h_point_over_marginal);
}

// ---- Thm 2(a) kernel (9) -------------------------------------------------------------------------------------

// δ^LIP_κ(ε) = max over KL(Ber(p1)‖Ber(p0)) <= κ of max{0, p0 − e^ε p1, e^{−ε} p1 − p0} (docs/analysis/lmidp.md#theorem-2a-corrected algorithm).
double lip_kernel(double kappa, double epsilon) {
  if (kappa == 0.0) return 0.0;
  if (kappa == kInf) return 1.0;
  const double alpha = std::exp(epsilon);
  const auto kl_ok = [&](double p1, double p0) { return bernoulli_kl_bits(p1, p0) <= kappa; };
  // Branch A: max p0 − e^ε p1, p0 >= p1 as large as the KL budget allows.
  const auto p0_hi = [&](double p1) {
    if (p1 >= 1.0) return 1.0;
    return largest_feasible(kBisectionIterations, [&](double p0) { return kl_ok(p1, p0); }, p1, 1.0);
  };
  double branch_a = 0.0;
  if (std::isfinite(alpha)) {
    branch_a = golden_section_max(kGoldenIterations, [&](double p1) { return p0_hi(p1) - alpha * p1; }, 0.0, 1.0);
  } else {
    branch_a = p0_hi(0.0);  // ε = ∞: only p1 = 0 counts, δ → 1 − 2^{−κ}
  }
  // Branch B: max e^{−ε} p1 − p0, p1 >= p0 as large as the budget allows.
  const auto p1_hi = [&](double p0) {
    if (p0 <= 0.0) return 0.0;
    return largest_feasible(kBisectionIterations, [&](double p1) { return kl_ok(p1, p0); }, p0, 1.0);
  };
  const double inv_alpha = std::exp(-epsilon);
  const double branch_b = golden_section_max(kGoldenIterations, [&](double p0) { return inv_alpha * p1_hi(p0) - p0; }, 0.0, 1.0);
  return std::clamp(std::max(branch_a, branch_b), 0.0, 1.0);
}

// r·φ(x) with φ(x) = ln(1 + x) − x and 1 + x = r/b: the series for small |x| (no cancellation), otherwise
// r·ln(r/b) − r·x (ln(r/b) directly, because 1 + x rounds to 0 when r ≪ b).
double scaled_log1p_minus_x(double r, double b, double x) {
  if (r == 0.0) return 0.0;  // 0·ln 0 = 0
  if (std::fabs(x) > 0.05) return r * std::log(r / b) - r * x;
  double term = x;
  double sum = 0.0;
  for (int n = 2; n < 40; ++n) {
    term *= -x;
    sum += term / n;  // Σ_{n>=2} (−1)^{n+1} x^n / n
    if (std::fabs(term) < kSeriesStop * std::fabs(sum)) break;
  }
  return r * sum;
}

// KL(Ber(a) ‖ Ber(b)) in nats for 0 < b < 1, written as d²/(b(1 − b)) + a·φ(d/b) + (1 − a)·φ(−d/(1 − b)) with
// d = a − b: the first-order terms of a·ln(a/b) + (1 − a)·ln((1 − a)/(1 − b)) cancel exactly, so the result keeps
// full relative accuracy when a ≈ b (the regime of the BAC near e0 + e1 = 1).
double bernoulli_kl_nats_close(double a, double b) {
  const double d = a - b;
  return d * d / (b * (1.0 - b)) + scaled_log1p_minus_x(a, b, d / b) +
         scaled_log1p_minus_x(1.0 - a, 1.0 - b, -d / (1.0 - b));
}

// C_BAC by maximising the concave I(π) = (1 − π) KL(Ber(e0) ‖ Ber(m)) + π KL(Ber(1 − e1) ‖ Ber(m)),
// m = (1 − π) e0 + π (1 − e1), over the input prior (docs/analysis/lmidp.md#bac-capacity; used near e0 + e1 = 1, where (7) cancels). The KL
// form keeps relative accuracy ~1e-10 even when C ~ 1e-12; H_b(m) − (1 − π)H_b(e0) − πH_b(e1) would lose ~1e-4.
double bac_capacity_by_search(double e0, double e1) {
  const double a1 = 1.0 - e1;
  const auto mutual_information = [&](double pi) {
    const double m = (1.0 - pi) * e0 + pi * a1;
    if (m <= 0.0 || m >= 1.0) return 0.0;  // both rows are the same point mass
    return ((1.0 - pi) * bernoulli_kl_nats_close(e0, m) + pi * bernoulli_kl_nats_close(a1, m)) * kLog2e;
  };
  return std::max(0.0, golden_section_max(kGoldenIterations, mutual_information, 0.0, 1.0));
}

}  // namespace

// ---- information primitives -------------------------------------------------------------------------------------

double binary_entropy_bits(double p) {
  require_probability(p, "p");
  // −p log2 p − (1 − p) log2(1 − p), with log1p so that H_b stays accurate near 0 and 1 (docs/analysis/lmidp.md#numerics).
  const double a = p > 0.0 ? -p * std::log2(p) : 0.0;
  const double b = p < 1.0 ? -(1.0 - p) * std::log1p(-p) * kLog2e : 0.0;
  return a + b;
}

double bernoulli_kl_bits(double p1, double p0) {
  require_probability(p1, "p1");
  require_probability(p0, "p0");
  // p1 log(p1/p0) + (1 − p1) log((1 − p1)/(1 − p0)) with 0·log(0/·) = 0 and a·log(a/0) = +∞ (docs/analysis/lmidp.md#information-quantities).
  const auto term = [](double a, double b) {
    if (a == 0.0) return 0.0;
    if (b == 0.0) return kInf;
    return a * std::log2(a / b);
  };
  return std::max(0.0, term(p1, p0) + term(1.0 - p1, 1.0 - p0));
}

double bac_capacity_bits(double e0, double e1) {
  require_probability(e0, "e0");
  require_probability(e1, "e1");
  const double gap = 1.0 - e0 - e1;
  // (7) is invariant under the paper's three symmetries, so no case analysis (docs/analysis/lmidp.md#bac-capacity). It cancels
  // catastrophically near e0 + e1 = 1 (its terms are O(1/gap), C is O(gap²): relative error ~1e-16/gap³), where
  // the concave maximisation over the prior takes over. The switch is at |gap| = 1e-3 (docs/analysis/lmidp.md#bac-capacity) (error ~1e-7 there);
  // switching at 1e-2 keeps (7) to ~1e-10, and the KL-form search is accurate at any gap.
  constexpr double kSearchBelowGap = 1e-2;
  if (std::fabs(gap) < kSearchBelowGap) return bac_capacity_by_search(e0, e1);
  const double h0 = binary_entropy_bits(e0);
  const double h1 = binary_entropy_bits(e1);
  const double z = (h0 - h1) / gap;
  const double c = e0 / gap * h1 - (1.0 - e1) / gap * h0 + log2_one_plus_exp2(z);
  return std::clamp(c, 0.0, 1.0);
}

// ---- Theorem 1 --------------------------------------------------------------------------------------------------

double ldp_delta_from_capacity(double mu_bits, double epsilon) {
  require_mu(mu_bits);
  require_epsilon(epsilon);
  if (mu_bits == 0.0) return 0.0;
  if (mu_bits >= 1.0) return 1.0;  // p0 = 0, p1 = 1 has C = 1: no LDP guarantee (docs/analysis/lmidp.md#theorem-1a property 2)
  if (!std::isfinite(epsilon)) return ldp_delta_floor_from_capacity(mu_bits);
  const double alpha = std::exp(epsilon);
  if (!std::isfinite(alpha)) return ldp_delta_floor_from_capacity(mu_bits);
  // Both branches of (6) are equal by C(p0, 1 − p1) = C(p1, 1 − p0); maximise p1 − e^ε p0 over the convex
  // feasible set: p1_hi(p0) is concave, so the 1-D problem is concave (docs/analysis/lmidp.md#theorem-1a algorithm).
  const auto p1_hi = [&](double p0) {
    return largest_feasible(kBisectionIterations, [&](double p1) { return bac_capacity_bits(p0, 1.0 - p1) <= mu_bits; }, p0, 1.0);
  };
  const double best = golden_section_max(kGoldenIterations, [&](double p0) { return p1_hi(p0) - alpha * p0; }, 0.0, 1.0);
  return std::clamp(best, 0.0, 1.0);
}

double ldp_delta_floor_from_capacity(double mu_bits) {
  require_mu(mu_bits);
  if (mu_bits == 0.0) return 0.0;
  if (mu_bits >= 1.0) return 1.0;
  // Root of H_b(p)/p = −log2(2^μ − 1) (docs/analysis/lmidp.md#theorem-1a property 3); log2(expm1(μ ln 2)) is stable for small μ (docs/analysis/lmidp.md#numerics).
  const double target = -std::log2(std::expm1(mu_bits * kLn2));
  // H_b(p)/p decreases from +∞ to 0 on (0, 1]: the feasible side is H_b(p)/p >= target.
  return largest_feasible(kBisectionIterations, [&](double p) { return p == 0.0 || binary_entropy_bits(p) / p >= target; }, 0.0, 1.0);
}

double capacity_bound_from_ldp_curve(const std::function<double(double)>& delta, double eps_hint) {
  // (8): log2(e)·∫ (1 + e^{−ε}) δ(ε) dε (docs/analysis/lmidp.md#theorem-1b).
  return integrate_privacy_curve(delta, eps_hint, [](double eps) { return 1.0 + std::exp(-eps); });
}

double capacity_bound_from_pure_ldp(double epsilon) {
  require_epsilon(epsilon);
  if (!std::isfinite(epsilon)) return kInf;
  // (8) on the tight profile of ε-LDP, binary randomized response (docs/analysis/lmidp.md#theorem-1b corollary).
  return kLog2e * epsilon * std::tanh(0.5 * epsilon);
}

// ---- Theorem 2 --------------------------------------------------------------------------------------------------

double lip_delta_from_mutual_information_as_printed(double mu_bits, double epsilon) {
  require_mu(mu_bits);
  require_epsilon(epsilon);
  // (9) exactly as printed: the paper treats the average KL μ as a per-input bound, which is false (docs/analysis/lmidp.md#theorem-2a-corrected).
  return lip_kernel(mu_bits, epsilon);
}

double lip_delta_from_mutual_information(double mu_bits, double p_min, double epsilon) {
  require_mu(mu_bits);
  if (!(p_min > 0.0 && p_min <= 1.0)) {
    throw std::invalid_argument("pMin = " + format_value(p_min) +
                                ": must be the smallest positive prior mass, in (0, 1]");
  }
  require_epsilon(epsilon);
  // I = Σ_x P(x) κ_x with κ_x >= 0, so κ_x <= μ / p_min for every x in the support; the paper's proof then
  // applies per input with this pointwise budget (docs/analysis/lmidp.md#theorem-2a-corrected, corrected statement 2).
  return lip_kernel(mu_bits / p_min, epsilon);
}

double mutual_information_bound_from_lip_curve(const std::function<double(double)>& delta, double eps_hint) {
  // (10): log2(e)·∫ (e^ε + e^{−ε}) δ_LIP(ε) dε (docs/analysis/lmidp.md#theorem-2b).
  return integrate_privacy_curve(delta, eps_hint, [](double eps) { return 2.0 * std::cosh(eps); });
}

// ---- k-ary randomized response ------------------------------------------------------------------------------------

double krr_capacity_bits(std::size_t k, double epsilon) {
  if (k < 2) throw std::invalid_argument("k = " + std::to_string(k) + ": k-RR needs k >= 2 categories");
  require_epsilon(epsilon);
  const double km1 = static_cast<double>(k - 1);
  const double kd = static_cast<double>(k);
  if (!std::isfinite(epsilon)) return std::log2(kd);
  // Uniform prior is optimal (symmetry, docs/analysis/accountant.md#k-rr-closed-forms); capacity = KL(row ‖ uniform) = p log2(pk) + (1 − p) log2(qk)
  // with pk = 1 + (k − 1)u and qk = 1 − u, u = (e^ε − 1)/(e^ε + k − 1), via log1p for small ε.
  const double e = std::exp(-epsilon);
  const double p = 1.0 / (1.0 + km1 * e);             // e^ε/(e^ε + k − 1) without overflow
  const double u = -std::expm1(-epsilon) / (1.0 + km1 * e);  // (e^ε − 1)/(e^ε + k − 1)
  const double rest = 1.0 - p;
  const double c = p * std::log1p(km1 * u) + (rest > 0.0 ? rest * std::log1p(-u) : 0.0);
  return std::max(0.0, c * kLog2e);
}

double krr_ldp_delta(std::size_t k, double epsilon, double eps_prime) {
  if (k < 2) throw std::invalid_argument("k = " + std::to_string(k) + ": k-RR needs k >= 2 categories");
  require_finite_epsilon(epsilon);
  require_epsilon(eps_prime, "eps_prime");
  if (eps_prime >= epsilon) return 0.0;
  // (e^ε − e^ε')/(e^ε + k − 1) = (1 − e^{ε'−ε})/(1 + (k − 1)e^{−ε}) (docs/analysis/accountant.md#k-rr-closed-forms).
  return -std::expm1(eps_prime - epsilon) / (1.0 + static_cast<double>(k - 1) * std::exp(-epsilon));
}

// ---- Gaussian mechanism -------------------------------------------------------------------------------------------

double gaussian_ldp_delta(double epsilon, double l2_sensitivity, double sigma) {
  require_epsilon(epsilon);
  if (!(l2_sensitivity >= 0.0) || !std::isfinite(l2_sensitivity)) {
    throw std::invalid_argument("l2_sensitivity = " + format_value(l2_sensitivity) + ": must be a finite number >= 0");
  }
  require_positive_finite(sigma, "sigma");
  if (l2_sensitivity == 0.0 || !std::isfinite(epsilon)) return 0.0;
  // Balle–Wang: Φ(D/2σ − εσ/D) − e^ε Φ(−D/2σ − εσ/D) (docs/analysis/lmidp.md#gaussian-mechanism); the second term in log space so that e^ε
  // does not overflow while Φ underflows.
  const double a = l2_sensitivity / (2.0 * sigma);
  const double b = epsilon * sigma / l2_sensitivity;
  const double first = normal_cdf(a - b);
  const double z = (a + b) / std::numbers::sqrt2;  // Φ(−a−b) = ½ erfc(z)
  double log_second;
  if (z < 25.0) {
    log_second = epsilon + std::log(0.5 * std::erfc(z));
  } else {
    // log erfc(z) = −z² − ln(z√π) + ln(1 − 1/(2z²) + 3/(4z⁴) − 15/(8z⁶)) for large z.
    const double z2 = z * z;
    log_second = epsilon - z2 - std::log(z * std::sqrt(std::numbers::pi)) +
                 std::log1p(-0.5 / z2 + 0.75 / (z2 * z2) - 1.875 / (z2 * z2 * z2)) - kLn2;
  }
  return std::clamp(first - std::exp(log_second), 0.0, 1.0);
}

double gaussian_ball_ldp_delta(double epsilon, std::size_t d, double delta_bound, double sigma2) {
  require_dimension(d);
  require_positive_finite(delta_bound, "bound");
  require_positive_finite(sigma2, "sigma2");
  return gaussian_ldp_delta(epsilon, 2.0 * std::sqrt(static_cast<double>(d)) * delta_bound, std::sqrt(sigma2));
}

double gaussian_capacity_average_power(std::size_t d, double delta_bound, double sigma2) {
  require_dimension(d);
  require_positive_finite(delta_bound, "bound");
  require_positive_finite(sigma2, "sigma2");
  // Thm 3: (d/2)·log2(1 + Δ²/σ²) (docs/analysis/lmidp.md#theorem-3-gaussian).
  return 0.5 * static_cast<double>(d) * std::log1p(delta_bound * delta_bound / sigma2) * kLog2e;
}

double gaussian_capacity_peak(std::size_t d, double delta_bound, double sigma2) {
  require_dimension(d);
  require_positive_finite(delta_bound, "bound");
  require_positive_finite(sigma2, "sigma2");
  // Amplitude-constrained vector AWGN channel, radius r = √d·Δ, in σ units ρ = r/σ (docs/analysis/lmidp.md#gaussian-mechanism).
  const double rho = std::sqrt(static_cast<double>(d)) * delta_bound / std::sqrt(sigma2);
  const SimpsonRule g = radial_grid(d, rho);
  // Single sphere: I = ρ² − E ln M_d(ρ s) nats.
  double expectation = 0.0;
  for (std::size_t n = 0; n < g.nodes.size(); ++n) {
    const double s = g.nodes[n];
    if (s == 0.0 && d > 1) continue;
    const double log_f = log_noncentral_chi_density(d, rho, s);
    if (log_f < kExpUnderflowLog) continue;
    expectation += g.weights[n] * std::exp(log_f) * log_md(d, rho * s);
  }
  const double single = rho * rho - expectation;  // nats
  // KKT check: the single sphere is optimal iff i(τ) <= I on [0, ρ]. It holds for small ρ (d = 1: ρ <~ 1.665).
  const std::vector<double> one_tau{rho};
  const std::vector<double> one_weight{1.0};
  constexpr int kChecks = 8;
  // i(τ) is computed by quadrature to about 1e-9 relative: a check point above I by more than that (and 1e-12 nats
  // absolute, for I near 0) is a real violation, not the quadrature's error.
  constexpr double kKktRelative = 1e-9;
  constexpr double kKktAbsolute = 1e-12;
  bool optimal = true;
  for (int c = 0; c < kChecks && optimal; ++c) {
    const double tau = rho * static_cast<double>(c) / kChecks;
    if (shell_point_kl(d, tau, one_tau, one_weight, g) > single * (1.0 + kKktRelative) + kKktAbsolute) optimal = false;
  }
  if (optimal) return std::max(0.0, single * kLog2e);
  // Otherwise Blahut–Arimoto over a grid of shells τ_j in [0, ρ] (docs/analysis/lmidp.md#gaussian-mechanism). The quadrature weights of each
  // point's radial density and ln(e^{−τ_j²/2} M_d(τ_j s_n)) do not change between iterations, so they are
  // tabulated once; an iteration then costs O(J·N). The certified upper bound max_j i(τ_j) is returned once the
  // gap to the lower bound Σ w_j i(τ_j) is small.
  constexpr std::size_t kShells = 32;
  const SimpsonRule ba_grid = radial_grid(d, rho, 1000);  // coarser than the single-sphere grid: ~1e-9 is plenty here
  const std::size_t nodes = ba_grid.nodes.size();
  std::vector<double> taus(kShells);
  for (std::size_t j = 0; j < kShells; ++j) {
    taus[j] = rho * static_cast<double>(j) / static_cast<double>(kShells - 1);
  }
  std::vector<double> density(kShells * nodes, 0.0);  // quadrature weight × f_s(s_n; d, τ_i)
  std::vector<double> log_kernel(kShells * nodes);    // −τ_j²/2 + ln M_d(τ_j s_n)
  for (std::size_t j = 0; j < kShells; ++j) {
    for (std::size_t n = 0; n < nodes; ++n) {
      const double s = ba_grid.nodes[n];
      log_kernel[j * nodes + n] = -0.5 * taus[j] * taus[j] + log_md(d, taus[j] * s);
      if (s == 0.0 && d > 1) continue;
      const double log_f = log_noncentral_chi_density(d, taus[j], s);
      if (log_f > kExpUnderflowLog) density[j * nodes + n] = ba_grid.weights[n] * std::exp(log_f);
    }
  }
  std::vector<double> weights(kShells, 1.0 / static_cast<double>(kShells));
  std::vector<double> log_output(nodes);
  std::vector<double> kl(kShells);
  double upper = kInf;
  // BA's lower bound converges within ~1000 iterations, the upper bound slowly (gap ~1e-4 relative after 3000
  // iterations near ρ = 2, d = 1); the upper bound is returned so that the leakage is never understated. It stops
  // early once the gap is within 1e-6 of the capacity (or of 1e-3 nats, for a capacity near 0): the quadrature's
  // own accuracy is not much better.
  constexpr double kBlahutArimotoGap = 1e-6;
  constexpr double kBlahutArimotoGapFloor = 1e-3;
  for (int it = 0; it < 3000; ++it) {
    for (std::size_t n = 0; n < nodes; ++n) {
      double max_term = -kInf;
      for (std::size_t j = 0; j < kShells; ++j) {
        if (weights[j] > 0.0) max_term = std::max(max_term, std::log(weights[j]) + log_kernel[j * nodes + n]);
      }
      double acc = 0.0;
      for (std::size_t j = 0; j < kShells; ++j) {
        if (weights[j] > 0.0) acc += weights[j] * std::exp(log_kernel[j * nodes + n] - max_term);
      }
      log_output[n] = max_term + std::log(acc);
    }
    double lower = 0.0;
    upper = -kInf;
    for (std::size_t j = 0; j < kShells; ++j) {
      double point_expectation = 0.0;
      for (std::size_t n = 0; n < nodes; ++n) point_expectation += density[j * nodes + n] * log_output[n];
      kl[j] = 0.5 * taus[j] * taus[j] - point_expectation;
      lower += weights[j] * kl[j];
      upper = std::max(upper, kl[j]);
    }
    if (upper - lower <= kBlahutArimotoGap * std::max(kBlahutArimotoGapFloor, upper)) break;
    double z = 0.0;
    for (std::size_t j = 0; j < kShells; ++j) {
      weights[j] *= std::exp(kl[j] - upper);
      z += weights[j];
    }
    for (double& w : weights) w /= z;
  }
  return std::max(0.0, upper * kLog2e);
}

double gaussian_sigma2_for_capacity(double mu_bits, std::size_t d, double delta_bound) {
  require_positive_finite(mu_bits, "mu");
  require_dimension(d);
  require_positive_finite(delta_bound, "bound");
  // The average-power closed form σ² = Δ²/(2^{2μ/d} − 1) (docs/analysis/lmidp.md#theorem-3-gaussian) bounds the peak capacity from above, so its
  // σ² is an upper bracket; halve until the peak capacity exceeds μ, then bisect in log σ² (capacity decreases).
  const double avg = delta_bound * delta_bound / std::expm1(2.0 * mu_bits / static_cast<double>(d) * kLn2);
  double hi = avg;
  double lo = avg;
  for (int it = 0; it < 200 && gaussian_capacity_peak(d, delta_bound, lo) < mu_bits; ++it) lo *= 0.5;
  double log_lo = std::log(lo);
  double log_hi = std::log(hi);
  for (int it = 0; it < 80; ++it) {
    const double mid = 0.5 * (log_lo + log_hi);
    (gaussian_capacity_peak(d, delta_bound, std::exp(mid)) >= mu_bits ? log_lo : log_hi) = mid;
  }
  return std::exp(0.5 * (log_lo + log_hi));
}

double gaussian_mixture_mutual_information(std::span<const double> xs, std::span<const double> prior,
                                           double sigma2) {
  const Mixture m = make_mixture(xs, prior, sigma2);
  // I = Σ_i π_i KL(N(t_i, 1) ‖ mix) with KL_i = −½ − E_{z∼N(0,1)} ln Σ_j π_j e^{−(t_i + z − t_j)²/2} (σ units);
  // composite Simpson on z in [−12, 12] (docs/analysis/lmidp.md#gaussian-mechanism).
  constexpr std::size_t kPanels = 4000;
  constexpr double kZ = 12.0;
  const double h = 2.0 * kZ / static_cast<double>(kPanels);
  CompensatedSum total;
  for (std::size_t i = 0; i < m.t.size(); ++i) {
    double expectation = 0.0;
    for (std::size_t n = 0; n <= kPanels; ++n) {
      const double z = -kZ + h * static_cast<double>(n);
      const double c = (n == 0 || n == kPanels) ? 1.0 : (n % 2 == 1 ? 4.0 : 2.0);
      const double u = m.t[i] + z;
      double max_term = -kInf;
      for (std::size_t j = 0; j < m.t.size(); ++j) {
        max_term = std::max(max_term, m.log_pi[j] - 0.5 * (u - m.t[j]) * (u - m.t[j]));
      }
      double acc = 0.0;
      for (std::size_t j = 0; j < m.t.size(); ++j) {
        acc += std::exp(m.log_pi[j] - 0.5 * (u - m.t[j]) * (u - m.t[j]) - max_term);
      }
      const double phi = std::exp(-0.5 * z * z) / std::sqrt(2.0 * std::numbers::pi);
      expectation += c * h / 3.0 * phi * (max_term + std::log(acc));
    }
    total.add(m.pi[i] * (-0.5 - expectation));
  }
  return std::max(0.0, total.value() * kLog2e);
}

double gaussian_mixture_lip_delta(std::span<const double> xs, std::span<const double> prior, double sigma2,
                                  double epsilon) {
  require_epsilon(epsilon);
  const Mixture m = make_mixture(xs, prior, sigma2);
  // δ_LIP(ε) = max over support points of (4); the log-likelihood ratio is convex in y, so the optimal sets are
  // tails / an interval whose masses are exact sums of Φ (docs/analysis/lmidp.md#gaussian-mechanism, docs/analysis/accountant.md#lip).
  double worst = 0.0;
  for (std::size_t i = 0; i < m.t.size(); ++i) worst = std::max(worst, mixture_point_lip_delta(m, i, epsilon));
  return std::min(worst, 1.0);
}

}  // namespace privsample
