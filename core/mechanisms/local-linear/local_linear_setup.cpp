// The local linear sampler's weight, rounded toward privacy, and its output box: computed once per sampler, so built
// for size in the client module.
#include <algorithm>
#include <cmath>
#include <vector>

#include "base/errors.hpp"
#include "base/numeric.hpp"
#include "mechanisms/local-linear/local_linear.hpp"

namespace privsample {
namespace {

LinearWeight running_weight(const Guarantee& g, double T) { return running_linear_weight(g, T); }

}  // namespace

namespace {

// A sum of doubles kept exactly (Shewchuk's expansion: every addition is a TwoSum, whose parts stay non-overlapping
// and ordered by magnitude), so the sign of the total is exact. Valid while no part under- or overflows.
class ExactTotal {
 public:
  void add(double x) {
    for (double& part : parts_) {
      const TwoDoubles t = two_sum(x, part);
      part = t.lo;
      x = t.hi;
    }
    parts_.push_back(x);
  }
  void add_product(double a, double b) {
    const TwoDoubles p = two_product(a, b);
    add(p.hi);
    add(p.lo);
  }
  [[nodiscard]] bool positive() const {
    for (auto part = parts_.rbegin(); part != parts_.rend(); ++part) {
      if (*part != 0.0) return *part > 0.0;  // the largest non-zero part decides
    }
    return false;
  }

 private:
  std::vector<double> parts_;
};

// The hockey-stick divergence the local linear mixture λ·P̂ + (1−λ)·P0 (P̂ anywhere in N_γ(P0)) may reach at a factor
// e^β, against `allowed` = allowed.hi + allowed.lo, decided exactly for the doubles given (growth <= e^β: a smaller
// factor only overstates the divergence). Worst pair: for a set A of prior mass a, P̂(A) <= min(γa, 1 − (1−a)/γ) and
// P̂'(A) >= max(a/γ, 1 − γ(1−a)), so Q(A|P) − e^β·Q(A|P') is piecewise linear in a, rising (if at all) up to
// a = 1/(γ+1) and falling after it (slope (1 − e^β)·low); its largest value is (high − e^β·low)/(γ+1) with
// high = λγ + 1 − λ = 1 + λ(γ−1) and low = λ/γ + 1 − λ = 1 − λ(γ−1)/γ, the ends of the output box q/p0. At β = ε with
// allowed = 0 this is the pure ratio high/low <= e^ε. Multiplied by γ(γ+1) > 0 the test reads
//     γ + γ·λ(γ−1) − e^β·(γ − λ(γ−1)) > γ(γ+1)·allowed,
// every product split exactly (γ−1 and λ(γ−1) as TwoSum/TwoProduct parts) and summed exactly.
bool local_mixture_exceeds(double lambda, double gamma, double growth, TwoDoubles allowed) {
  const TwoDoubles spread = two_sum(gamma, -1.0);  // γ − 1
  const TwoDoubles t1 = two_product(lambda, spread.hi);
  const TwoDoubles t2 = two_product(lambda, spread.lo);
  const double t[] = {t1.hi, t1.lo, t2.hi, t2.lo};  // λ(γ−1) exactly
  // γ − λ(γ−1) >= 1, and the other terms are below 2^100 (γ <= 1e12, allowed <= 1): a product beyond 2^1000 is
  // the largest term by far, negative, so the divergence is below anything allowed (and the products would overflow).
  if (!(growth * (gamma - t1.hi) <= 0x1p1000)) return false;
  ExactTotal total;
  total.add(gamma);
  for (const double part : t) total.add_product(gamma, part);
  total.add_product(-growth, gamma);
  for (const double part : t) total.add_product(growth, part);
  const TwoDoubles square = two_product(gamma, gamma);  // γ(γ+1) = γ² + γ
  for (const double scale : {square.hi, square.lo, gamma}) {
    total.add_product(-scale, allowed.hi);
    total.add_product(-scale, allowed.lo);
  }
  return total.positive();
}

// The rounding margin the (ε,δ) and GDP checks keep below the allowed divergence: distribution() rounds each value
// (a product, a sum, the box's ends: within 4 ulps), which over the set A where q_P > e^β·q_P' adds at most 8.1 ulps of
// q_P(A) <= 1 to the divergence of its doubles; the projection P̂ and the prior sum to 1 within 1e-13
// (clip_normalise.hpp), which moves the worst set's bound by at most λ·1e-13 + 1e-13/γ. 2^-43 ≈ 1.14e-13 covers both.
// It lowers λ by about 2^-43·γ(γ+1)/((γ−1)(γ+e^ε)) (2e-13 at γ = 2, ε = 0.1; 1e-10 at γ = 1.001), nothing a user
// could measure.
constexpr double kLocalRoundingMargin = 0x1p-43;

}  // namespace

// λ_loc = λ*_{1/γ, γ, g} = λ_{γ+1}(g)/(1 − 1/γ), then rounded toward privacy: the closed form (or the GDP solve) times
// γ/(γ−1) can land a few ulps above the real bound, which the output box amplifies by 1/low (ε ≈ 53, γ = 1e12: low is
// 1e-11). So λ is lowered by steps that double from one ulp until the worst pair passes exactly: for pure ε
// high <= e^ε·low; for (ε,δ) the worst pair's hockey-stick <= δ − kLocalRoundingMargin; for μ-GDP the same at every
// β of gaussian_check_points against δ_μ(β) − kLocalRoundingMargin (δ_μ computed in doubles: the GDP weight's slack
// kGaussianWeightSlack = 1e-12 below the solved λ leaves that much divergence to spare, far above both).
double local_linear_weight(const Guarantee& g_in, double gamma) {
  const Guarantee g = effective_ldp_guarantee(validated_ldp_guarantee(g_in));
  const LinearWeight weight = running_weight(g, gamma + 1.0);
  const double start = std::clamp(gamma / (gamma - 1.0) * weight.lambda, 0.0, 1.0);
  const auto exceeds = [&](double lambda) {
    switch (g.notion) {
      case PrivacyNotion::pure_ldp:
        return local_mixture_exceeds(lambda, gamma, exp_toward_zero(g.epsilon), {0.0, 0.0});
      case PrivacyNotion::approximate_ldp:
        return local_mixture_exceeds(lambda, gamma, exp_toward_zero(g.epsilon), {g.delta, -kLocalRoundingMargin});
      default:
        break;
    }
    for (const double beta : gaussian_check_points(g.mu, gamma + 1.0, weight.beta)) {
      const TwoDoubles allowed{privacy_profile(g, beta), -kLocalRoundingMargin};
      if (local_mixture_exceeds(lambda, gamma, exp_toward_zero(beta), allowed)) return true;
    }
    return false;
  };
  double lambda = start;
  double step = std::nextafter(lambda, 2.0) - lambda;
  while (lambda > 0.0 && exceeds(lambda)) {
    lambda = std::max(0.0, lambda - step);
    step *= 2.0;
  }
  // A weight below 2^-462 would move no output double (λ·p̂ far below an ulp of (1 − λ)·p0, and 1 − λ rounding to 1):
  // 0, toward privacy, keeps local_mixture's products normal. (None arises from the closed forms as they round today —
  // λ is 0 below ε ≈ 1e-16 and at least ~2^-90 above — so this states local_mixture's precondition, not a case.)
  return lambda < 0x1p-462 ? 0.0 : lambda;
}

PrivacyBox local_linear_box(const Guarantee& g, std::span<const double> prior, double gamma, double lambda,
                            UnderflowRule rule) {
  const double complement = 1.0 - lambda;
  PrivacyBox box = privacy_box(prior, lambda / gamma + complement, lambda * gamma + complement, g, "prior", rule);
  // The projection's box [P0/γ, γ·P0] has the lower floors (1/γ <= λ/γ + 1 − λ), and the release computes with them:
  // they too must be at least kSmallestBoxFloor (w/γ >= 2^-960 exactly when w >= 2^-960·γ, a product without rounding).
  const double least = kSmallestBoxFloor * gamma;
  for (std::size_t x = 0; x < prior.size(); ++x) {
    if (prior[x] == 0.0 || prior[x] >= least) continue;
    if (rule == UnderflowRule::never_output) {
      box.lo[x] = box.hi[x] = 0.0;
      continue;
    }
    throw_invalid({"prior[", x, "] = ", prior[x], " (as a share of the total): at gamma = ", gamma,
                   " the neighbourhood's floor for it, ", prior[x], " / ", gamma, ", is below 2^-960 (1.0e-289), too "
                   "small for exact and constant-time arithmetic; entries of prior must be at least ", least,
                   " of the total at this gamma (or use a smaller gamma)"});
  }
  return box;
}

double local_linear_risk(const FDivergence& f, double gamma, double lambda) {
  if (lambda >= 1.0) return 0.0;  // trivial regime: Q(P) = P on N_γ(P0)
  const LinearRiskConstants r = linear_risk_constants(1.0 / gamma, gamma, lambda);
  return chord_risk(f, r.r1, r.r2);  // r1 = 1/(γ − (γ−1)λ), r2 = γ/((γ−1)λ + 1)
}

}  // namespace privsample
