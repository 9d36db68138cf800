#include "privacy/functional_ldp.hpp"
#include "base/errors.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "base/numeric.hpp"

namespace privsample {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
// e^β Φ(b) as a plain product only while both factors are normal doubles: e^β is finite up to β ≈ 709.78, so 700
// leaves room; Φ(b) stays above the smallest normal double (2.2e-308) for b >= −37 (Φ(−37) ≈ 6e-300).
constexpr double kPlainExpBelow = 700.0;
constexpr double kPlainNormalCdfFrom = -37.0;
// The β grid of the Gaussian weight's search and of its check points is log-spaced from min(1e-3, μ·1e-4) up: for
// small μ the minimiser β* lies near 0, and a start that shrinks with μ keeps grid points below it.
constexpr double kLogGridStart = 1e-3;
constexpr double kLogGridStartPerMu = 1e-4;
// The golden-section search stops when its bracket is within 1e-14 of (1 + β): a few dozen ulps, below which the
// objective's own rounding decides the comparisons.
constexpr double kGoldenBracket = 1e-14;

void check_beta(double beta) {
  if (std::isnan(beta) || beta < 0.0) {
    throw_invalid({"beta = ", beta, ": must be a number >= 0"});
  }
}

void check_T(double T) {
  if (!std::isfinite(T) || T < 1.0) {
    throw_invalid({"T = ", T, ": must be a finite number >= 1"});
  }
}

// ---- μ-GDP ----------------------------------------------------------------------------------------------
// With a = β/μ − μ/2 and b = −β/μ − μ/2:
//   δ_μ(β)     = Φ(−a) − e^β Φ(b)
//   1 − δ_μ(β) = Φ(a) + e^β Φ(b)              (both terms positive: no cancellation)
// e^β Φ(b) is a huge factor times a tiny one: a plain product while both are normal doubles, else
// exp(β + log Φ(b)) (docs/numerics.md#gaussian-profile).
double gaussian_tail_term(double mu, double beta) {
  const double b = -beta / mu - mu / 2.0;
  if (beta <= kPlainExpBelow && b >= kPlainNormalCdfFrom) return std::exp(beta) * normal_cdf(b);
  return std::exp(beta + log_normal_cdf(b));
}

double gaussian_profile(double mu, double beta) {
  if (beta == kInfinity) return 0.0;
  return std::clamp(normal_cdf(mu / 2.0 - beta / mu) - gaussian_tail_term(mu, beta), 0.0, 1.0);
}

double gaussian_profile_complement(double mu, double beta) {
  if (beta == kInfinity) return 1.0;
  return std::min(1.0, normal_cdf(beta / mu - mu / 2.0) + gaussian_tail_term(mu, beta));
}

// The objective at β, written with u = e^{−β} only (never overflows), in two forms that are equal in exact
// arithmetic but accurate in different regimes:
//   h(β) = (e^β − 1 + T·δ(β))/(e^β + T − 1) = (1 − u + T(Φ(−a)u − Φ(b)))/(1 + (T−1)u)   (relative, when small)
//   w(β) = (1 − δ(β))/(e^β + T − 1)         = (Φ(a)u + Φ(b))/(1 + (T−1)u)            (relative, when small)
// h = 1 − T·w. w is the mass the global sampler gives every category; λ_T = min h = 1 − T·max w.
struct Objective {
  double beta;
  double h;
  double w;
};

Objective gaussian_objective(double mu, double T, double beta) {
  const double u = std::exp(-beta);
  const double a = beta / mu - mu / 2.0;
  const double b = -beta / mu - mu / 2.0;
  const double denominator = 1.0 + (T - 1.0) * u;
  const double tail = normal_cdf(b);
  const double h = (-std::expm1(-beta) + T * std::max(0.0, normal_cdf(-a) * u - tail)) / denominator;
  const double w = (normal_cdf(a) * u + tail) / denominator;
  return {beta, h, w};
}

// Is `x` a smaller objective than `y`? Compared on h where λ is small and on w where λ is close to 1, so the
// comparison keeps relative precision in both regimes: when λ ≈ 1, h rounds to 1 and cannot tell candidates
// apart while w still can; when λ ≈ 0, w ≈ 1/T hides changes of h below 1e-16/T. (log w would lose ~|log w|
// ulps, i.e. 1e-15 in λ at T = 1e7.)
bool better(const Objective& x, const Objective& y) {
  if (x.h < 0.5 || y.h < 0.5) return x.h < y.h;
  return x.w > y.w;
}

LinearWeight gaussian_linear_weight(double mu, double T) {
  // Beyond β_max the objective increases: dh/dβ > 0 iff d/dβ log w < 0, and d/dβ log w =
  // e^βΦ(b)/(1−δ) − e^β/(e^β+T−1) < 0 iff Φ(b)(e^β + T − 1) < 1 − δ(β). For β >= μ²/2 + 5μ, 1 − δ >= Φ(a) >= 1/2
  // and, by Φ(−x) <= φ(x)/x, e^βΦ(b) <= e^{−(β−μ²/2)²/(2μ²)}/(√(2π)|b|) <= e^{−12.5}; for
  // β >= μ·sqrt(2 log 4T), b² >= 2 log 4T and (T−1)Φ(b) <= 1/(4√(2π)|b|) < 1/4. So the minimiser lies in
  // [0, β_max]; the +5 leaves room for the bracket.
  const double beta_max =
      std::max({50.0, mu * mu / 2.0 + 5.0 * mu + 5.0, mu * std::sqrt(2.0 * std::log(4.0 * T)) + 5.0});

  // Grid: uniform on [0, β_max] plus log-spaced from min(1e-3, μ·1e-4) (small μ puts β* near 0).
  constexpr int kUniform = 400;
  constexpr int kLogSpaced = 200;
  std::vector<double> grid;
  grid.reserve(kUniform + kLogSpaced + 1);
  for (int i = 0; i <= kUniform; ++i) grid.push_back(beta_max * i / kUniform);
  const double log_lo = std::log(std::min(kLogGridStart, mu * kLogGridStartPerMu));
  const double log_hi = std::log(beta_max);
  for (int i = 0; i < kLogSpaced; ++i) grid.push_back(std::exp(log_lo + (log_hi - log_lo) * i / (kLogSpaced - 1)));
  std::sort(grid.begin(), grid.end());
  grid.erase(std::unique(grid.begin(), grid.end()), grid.end());

  std::size_t best_index = 0;
  Objective best = gaussian_objective(mu, T, grid[0]);  // grid[0] = 0: the endpoint is always a candidate
  for (std::size_t i = 1; i < grid.size(); ++i) {
    const Objective candidate = gaussian_objective(mu, T, grid[i]);
    if (better(candidate, best)) {
      best = candidate;
      best_index = i;
    }
  }

  // Golden-section refinement on the bracket of the best grid point's neighbours (the minimiser may be the
  // endpoint β = 0, e.g. for T = 2; the bracket then starts at 0 and the search converges to it).
  double lo = grid[best_index == 0 ? 0 : best_index - 1];
  double hi = grid[best_index + 1 < grid.size() ? best_index + 1 : best_index];
  const double inverse_phi = (std::sqrt(5.0) - 1.0) / 2.0;
  Objective x1 = gaussian_objective(mu, T, hi - inverse_phi * (hi - lo));
  Objective x2 = gaussian_objective(mu, T, lo + inverse_phi * (hi - lo));
  for (int iteration = 0; iteration < 200 && hi - lo > kGoldenBracket * (1.0 + hi); ++iteration) {
    if (!better(x2, x1)) {  // the minimum is in [lo, x2]
      hi = x2.beta;
      x2 = x1;
      x1 = gaussian_objective(mu, T, hi - inverse_phi * (hi - lo));
    } else {
      lo = x1.beta;
      x1 = x2;
      x2 = gaussian_objective(mu, T, lo + inverse_phi * (hi - lo));
    }
  }
  for (const Objective& candidate : {x1, x2}) {
    if (better(candidate, best)) best = candidate;
  }
  return {best.h, best.w, best.beta};
}

}  // namespace

Guarantee validated_ldp_guarantee(const Guarantee& g) {
  switch (g.notion) {
    case PrivacyNotion::pure_ldp: return {PrivacyNotion::pure_ldp, validated_epsilon(g.epsilon)};
    case PrivacyNotion::approximate_ldp:
      return {PrivacyNotion::approximate_ldp, validated_epsilon(g.epsilon), validated_delta(g.delta)};
    case PrivacyNotion::gaussian_ldp: return {PrivacyNotion::gaussian_ldp, 0.0, 0.0, validated_mu(g.mu)};
    case PrivacyNotion::record_dp: break;
  }
  throw_invalid({"notion = ", notion_name(g.notion), ": a linear sampler needs 'pure-ldp', 'approx-ldp' or 'gaussian-ldp'"});
}

Guarantee effective_ldp_guarantee(const Guarantee& g) {
  Guarantee out = g;
  out.epsilon = effective_epsilon(g.epsilon);
  out.mu = std::min(g.mu, kMaxEffectiveMu);
  return out;
}

namespace {
// erfc(t/√2) with the rounding of t/√2 corrected: in the tails erfc amplifies a relative argument error by
// ~2z², so the plain erfc(t·(1/√2)) would be off by ~1e-13 at t = 30. With z = fl(t/√2) and dz the exact
// remainder (1/√2 split into a double and its low part, the product's error by two_product),
// erfc(z + dz) = erfc(z) − (2/√π)e^{−z²}dz to second order.
double erfc_of_scaled(double t) noexcept {
  constexpr double kInvSqrt2 = 0.7071067811865476;         // 1/√2 rounded
  constexpr double kInvSqrt2Low = -4.833646656726457e-17;  // 1/√2 − kInvSqrt2
  constexpr double kTwoOverSqrtPi = 1.1283791670955126;
  const double z = t * kInvSqrt2;
  if (!std::isfinite(z)) return std::erfc(z);
  const double dz = two_product(t, kInvSqrt2).lo + t * kInvSqrt2Low;
  return std::erfc(z) - kTwoOverSqrtPi * std::exp(-z * z) * dz;
}
}  // namespace

double normal_cdf(double x) noexcept { return 0.5 * erfc_of_scaled(-x); }

double log_normal_cdf(double x) noexcept {
  if (std::isnan(x)) return x;
  if (x >= 0.0) return std::log1p(-0.5 * erfc_of_scaled(x));
  if (x >= -37.0) return std::log(0.5 * erfc_of_scaled(-x));  // erfc still a normal double here
  if (x == -kInfinity) return -kInfinity;
  // Φ(x) = φ(x)/|x| · (1 − 1/x² + 3/x⁴ − 15/x⁶ + …); at |x| >= 37 eight terms leave a relative error < 1e-19.
  const double inv2 = 1.0 / (x * x);
  double term = 1.0;
  double series = 1.0;
  for (int n = 1; n <= 8; ++n) {
    term *= -(2.0 * n - 1.0) * inv2;
    series += term;
  }
  const double square = x * x;
  const double square_error = two_product(x, x).lo;  // x² = square + square_error exactly
  return -0.5 * square - 0.5 * square_error - std::log(-x) - 0.5 * std::log(2.0 * std::numbers::pi) +
         std::log(series);
}

namespace {
// δ_g(β) and 1 − δ_g(β) validate alike and split alike: `mixed` gets the validated pure or (ε,δ) guarantee (pure is
// δ = 0), `gaussian` gets μ. validated_ldp_guarantee returns no other notion.
template <class Mixed, class Gaussian>
double by_ldp_notion(const Guarantee& g_in, double beta, Mixed mixed, Gaussian gaussian) {
  const Guarantee g = validated_ldp_guarantee(g_in);
  check_beta(beta);
  if (g.notion == PrivacyNotion::gaussian_ldp) return gaussian(g.mu, beta);
  return mixed(g);
}
}  // namespace

double privacy_profile(const Guarantee& g_in, double beta) {
  return by_ldp_notion(g_in, beta, [beta](const Guarantee& g) {
    if (beta >= g.epsilon) return g.delta;
    // (e^ε − e^β)/(e^ε + 1) = −expm1(β − ε)/(1 + e^{−ε}); (ε,δ) is δ + (1−δ)× that.
    const double pure = -std::expm1(beta - g.epsilon) / (1.0 + std::exp(-g.epsilon));
    return std::clamp(g.delta + (1.0 - g.delta) * pure, 0.0, 1.0);
  }, gaussian_profile);
}

double privacy_profile_complement(const Guarantee& g_in, double beta) {
  return by_ldp_notion(g_in, beta, [beta](const Guarantee& g) {
    if (beta >= g.epsilon) return 1.0 - g.delta;
    // 1 − δ_g(β) = (1−δ)(e^β + 1)/(e^ε + 1) = (1−δ)(e^{β−ε} + e^{−ε})/(1 + e^{−ε}).
    const double shrink = std::exp(-g.epsilon);
    return std::clamp((1.0 - g.delta) * (std::exp(beta - g.epsilon) + shrink) / (1.0 + shrink), 0.0, 1.0);
  }, gaussian_profile_complement);
}

LinearWeight solve_linear_weight(const Guarantee& g_in, double T) {
  const Guarantee g = validated_ldp_guarantee(g_in);
  check_T(T);
  if (g.notion == PrivacyNotion::gaussian_ldp) return gaussian_linear_weight(g.mu, T);
  // pure and (ε,δ) (pure is δ = 0). On β <= ε the objective is 1 − T(1−δ)(e^β+1)/((e^ε+1)(e^β+T−1)), whose
  // β-dependence (e^β+1)/(e^β+T−1) increases iff T > 2; on β >= ε it is (e^β − 1 + Tδ)/(e^β + T − 1), which
  // increases. So the infimum is at β = ε for T >= 2 and at β = 0 for T < 2.
  const double shrink = std::exp(-g.epsilon);  // e^{−ε}; underflows harmlessly to 0 for ε > 745
  const double delta = g.delta;
  if (T >= 2.0) {
    const double denominator = 1.0 + (T - 1.0) * shrink;  // (e^ε + T − 1)e^{−ε}
    return {(-std::expm1(-g.epsilon) + T * delta * shrink) / denominator, (1.0 - delta) * shrink / denominator,
            g.epsilon};
  }
  const double denominator = 1.0 + shrink;  // (e^ε + 1)e^{−ε}
  return {(-std::expm1(-g.epsilon) + 2.0 * delta * shrink) / denominator,
          2.0 * (1.0 - delta) * shrink / (denominator * T), 0.0};
}

double linear_weight(const Guarantee& g, double T) { return solve_linear_weight(g, T).lambda; }

std::vector<double> gaussian_check_points(double mu, double T, double beta_star) {
  const double beta_max =
      std::max({50.0, mu * mu / 2.0 + 5.0 * mu + 5.0, mu * std::sqrt(2.0 * std::log(4.0 * T)) + 5.0});
  std::vector<double> betas{0.0, beta_star};
  // Either side of the solved β*, at relative steps far above its rounding (1e-9) and at the grid's scale (1e-6).
  constexpr double kNear = 1e-9;
  constexpr double kFar = 1e-6;
  for (const double step : {-kFar, -kNear, kNear, kFar}) betas.push_back(std::max(0.0, beta_star * (1.0 + step)));
  const double log_lo = std::log(std::min(kLogGridStart, mu * kLogGridStartPerMu));
  for (int i = 0; i <= 64; ++i) betas.push_back(std::exp(log_lo + (std::log(beta_max) - log_lo) * i / 64.0));
  return betas;
}

LinearWeight running_linear_weight(const Guarantee& g_in, double T) {
  const Guarantee g = effective_ldp_guarantee(validated_ldp_guarantee(g_in));
  LinearWeight weight = solve_linear_weight(g, T);
  if (g.notion != PrivacyNotion::gaussian_ldp) return weight;
  weight.lambda -= kGaussianWeightSlack;
  weight.floor += kGaussianWeightSlack / T;  // kept without cancellation (λ may be within 1e-300 of 1)
  const double solved = weight.lambda;
  // The worst pair of the mixture at weight λ against the profile: H(β) = max(0, λ + f(1 − e^β)) <= δ_μ(β),
  // i.e. λ <= (e^β − 1 + T·δ(β))/(e^β + T − 1) — the objective whose infimum λ_T is; checked where it matters.
  const double mu = g.mu;
  for (const double beta : gaussian_check_points(mu, T, weight.beta)) {
    const double f = (1.0 - weight.lambda) / T;
    const double excess = weight.lambda + f * -std::expm1(beta) - privacy_profile(g, beta);
    if (excess > 0.0) {
      // λ <= objective(β), rounded down by the slack once more.
      const Objective at = gaussian_objective(mu, T, beta);
      weight.lambda = std::min(weight.lambda, at.h - kGaussianWeightSlack);
    }
  }
  if (weight.lambda < solved || weight.lambda < 0.0) {
    weight.lambda = std::max(0.0, weight.lambda);  // λ = 0: the public base alone, private for every μ
    weight.floor = (1.0 - weight.lambda) / T;
  }
  return weight;
}

double hockey_stick_divergence(std::span<const double> p, std::span<const double> q, double beta) {
  if (p.size() != q.size()) {
    throw_invalid({"p has ", p.size(), " entries but q has ", q.size(), ": they must have the same length"});
  }
  check_beta(beta);
  const double growth = std::exp(beta);
  CompensatedSum total;
  for (std::size_t x = 0; x < p.size(); ++x) {
    for (const auto& [value, name] : {std::pair{p[x], "p"}, std::pair{q[x], "q"}}) {
      if (!std::isfinite(value) || value < 0.0) {
        throw_invalid({name, "[", x, "] = ", value, ": masses must be finite and >= 0"});
      }
    }
    if (q[x] == 0.0) {
      total.add(p[x]);
    } else {
      total.add(std::max(0.0, p[x] - growth * q[x]));
    }
  }
  return total.value();
}

LinearRiskConstants linear_risk_constants(double c1, double c2, double lambda) {
  if (!(std::isfinite(c1) && std::isfinite(c2) && c1 >= 0.0 && c1 < 1.0 && c2 > 1.0)) {
    throw_invalid({"c1 = ", c1, ", c2 = ", c2, ": need finite 0 <= c1 < 1 < c2"});
  }
  if (!(lambda >= 0.0 && lambda <= 1.0)) {
    throw_invalid({"lambda = ", lambda, ": must be in [0, 1]"});
  }
  // Rounding must not push r1 above 1 or r2 below 1 (both are exactly 1 at λ = 1 when c1 > 0).
  const double r1 = c1 == 0.0 ? 0.0 : std::min(1.0, c1 / (1.0 - (1.0 - c1) * lambda));
  const double r2 = std::max(1.0, c2 / ((c2 - 1.0) * lambda + 1.0));
  return {r1, r2};
}

}  // namespace privsample
