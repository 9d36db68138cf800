// Golden tests of the LMIDP ↔ LDP/LIP conversions against docs/analysis/lmidp.md: the verified tables of the BAC,
// Theorems 1(a), 2(a), the Gaussian mechanism, k-RR (docs/analysis/accountant.md#k-rr-closed-forms) and the figure
// setups of docs/experiments.md#ngo-et-al. Table values to the digits printed; figure curves to relative 1e-4, Fig. 4 to 1e-3.
// The Fig. 3 test is the executable proof that the paper's Thm 2(a) is wrong (docs/analysis/lmidp.md#theorem-2a-corrected).
#include "analysis/lmidp.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <functional>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

using namespace privsample;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kLog2e = 1.4426950408889634;

std::string full(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// Half a unit in the last printed digit of a decimal literal such as "0.0528927" or "9.05e-7".
double printed_half_unit(const std::string& text) {
  const auto e_pos = text.find_first_of("eE");
  const std::string mantissa = text.substr(0, e_pos);
  const int exponent = e_pos == std::string::npos ? 0 : std::stoi(text.substr(e_pos + 1));
  const auto dot = mantissa.find('.');
  const int decimals = dot == std::string::npos ? 0 : static_cast<int>(mantissa.size() - dot - 1);
  return 0.5 * std::pow(10.0, exponent - decimals);
}

// "actual rounds to the printed value": |actual − printed| <= half a unit of the last printed digit (+ 1e-12 rel
// slack for the binary representation of the literal).
bool matches_printed(double actual, const std::string& text) {
  const double expected = std::stod(text);
  return std::fabs(actual - expected) <= printed_half_unit(text) * (1.0 + 1e-9) + 1e-12 * std::fabs(expected);
}

#define CHECK_PRINTED(actual, text)                                             \
  do {                                                                          \
    const double lmidp_value_ = (actual);                                       \
    INFO(#actual << " = " << full(lmidp_value_) << ", spec prints " << (text)); \
    CHECK(matches_printed(lmidp_value_, (text)));                               \
  } while (false)

#define CHECK_REL(actual, expected, rel)                                                                     \
  do {                                                                                                       \
    const double lmidp_value_ = (actual);                                                                    \
    const double lmidp_expected_ = (expected);                                                               \
    INFO(#actual << " = " << full(lmidp_value_) << ", expected " << full(lmidp_expected_) << " (rel " << (rel) \
                 << ")");                                                                                    \
    CHECK(std::fabs(lmidp_value_ - lmidp_expected_) <= (rel) * std::fabs(lmidp_expected_));                 \
  } while (false)

// ---- independent references (written from the paper's formulas, not from the implementation) ----------------

// I(π) of the BAC in long double, maximised by golden-section over π (docs/analysis/lmidp.md#bac-capacity: I is concave in π).
long double hb_long(long double p) {
  long double h = 0.0L;
  if (p > 0.0L) h -= p * std::log2(p);
  if (p < 1.0L) h -= (1.0L - p) * std::log2(1.0L - p);
  return h;
}

double bac_brute_force(double e0, double e1) {
  const long double a0 = e0;
  const long double a1 = e1;
  const auto info = [&](long double pi) {
    return hb_long((1.0L - pi) * a0 + pi * (1.0L - a1)) - (1.0L - pi) * hb_long(a0) - pi * hb_long(a1);
  };
  long double lo = 0.0L;
  long double hi = 1.0L;
  const long double r = 0.6180339887498948482L;
  for (int it = 0; it < 200; ++it) {
    const long double c = hi - r * (hi - lo);
    const long double d = lo + r * (hi - lo);
    (info(c) >= info(d) ? hi : lo) = (info(c) >= info(d) ? d : c);
  }
  return static_cast<double>(info(0.5L * (lo + hi)));
}

// H_b^{-1} on [0, 1/2] by bisection.
double hb_inverse(double h) {
  double lo = 0.0;
  double hi = 0.5;
  for (int it = 0; it < 200; ++it) {
    const double mid = 0.5 * (lo + hi);
    (binary_entropy_bits(mid) < h ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

// The Fig. 3/4 prior of docs/experiments.md#ngo-et-al: x_i = −1 + 0.1 i, P(x_i) ∝ e^{−2 x_i²}, i = 0..20.
struct Fig3Prior {
  std::vector<double> xs;
  std::vector<double> prior;
};

Fig3Prior fig3_prior() {
  Fig3Prior f;
  double total = 0.0;
  for (int i = 0; i <= 20; ++i) {
    const double x = -1.0 + 0.1 * i;
    f.xs.push_back(x);
    f.prior.push_back(std::exp(-2.0 * x * x));
    total += f.prior.back();
  }
  for (double& p : f.prior) p /= total;
  return f;
}

// σ² with I(X; X + N(0, σ²)) = μ, by bisection in log σ² (I decreases in σ²). Memoised: several tests need it.
double fig3_sigma2(const Fig3Prior& f, double mu) {
  static std::vector<std::pair<double, double>> cache;
  for (const auto& [m, s2] : cache) {
    if (m == mu) return s2;
  }
  double lo = std::log(0.01);
  double hi = std::log(1000.0);
  for (int it = 0; it < 60; ++it) {
    const double mid = 0.5 * (lo + hi);
    (gaussian_mixture_mutual_information(f.xs, f.prior, std::exp(mid)) >= mu ? lo : hi) = mid;
  }
  cache.emplace_back(mu, std::exp(0.5 * (lo + hi)));
  return cache.back().second;
}

// Optimal LIP δ of a finite channel W (rows = inputs) on the support of π: max over x of (4), discrete hockey-stick.
double finite_lip_delta(const std::vector<std::vector<double>>& w, const std::vector<double>& pi, double epsilon) {
  const std::size_t m = w.front().size();
  std::vector<double> py(m, 0.0);
  for (std::size_t x = 0; x < w.size(); ++x) {
    for (std::size_t y = 0; y < m; ++y) py[y] += pi[x] * w[x][y];
  }
  const double alpha = std::exp(epsilon);
  double worst = 0.0;
  for (std::size_t x = 0; x < w.size(); ++x) {
    if (pi[x] == 0.0) continue;
    double h1 = 0.0;
    double h2 = 0.0;
    for (std::size_t y = 0; y < m; ++y) {
      h1 += std::max(0.0, py[y] - alpha * w[x][y]);
      h2 += std::max(0.0, w[x][y] - alpha * py[y]);
    }
    worst = std::max({worst, h1, h2 / alpha});
  }
  return worst;
}

}  // namespace

// ---- docs/analysis/lmidp.md#information-quantities, #bac-capacity ----------------------------------------------

TEST_CASE("lmidp: binary entropy and Bernoulli KL match the reference values", "[lmidp]") {
  CHECK_PRINTED(binary_entropy_bits(0.11), "0.499915958164528");
  CHECK_PRINTED(binary_entropy_bits(0.01), "0.080793135895911");
  CHECK_PRINTED(bernoulli_kl_bits(0.3, 0.1), "0.221689694647051");
  CHECK(binary_entropy_bits(0.0) == 0.0);
  CHECK(binary_entropy_bits(1.0) == 0.0);
  CHECK(binary_entropy_bits(0.5) == Approx(1.0).epsilon(1e-15));
  // Conventions 0·log(0/·) = 0 and a·log(a/0) = +∞ (docs/analysis/lmidp.md#information-quantities).
  CHECK(bernoulli_kl_bits(0.0, 0.3) == Approx(-std::log2(0.7)).epsilon(1e-14));
  CHECK(bernoulli_kl_bits(0.5, 0.0) == kInf);
  CHECK(bernoulli_kl_bits(0.5, 1.0) == kInf);
  CHECK(bernoulli_kl_bits(0.37, 0.37) == 0.0);
  // The paper's printed form log((1−p1)/(1−p0)) + p1 log(p1(1−p0)/(p0(1−p1))) agrees with the implemented one.
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0.01, 0.99);
  for (int i = 0; i < 200; ++i) {
    const double p1 = u(rng);
    const double p0 = u(rng);
    const double paper = std::log2((1 - p1) / (1 - p0)) + p1 * std::log2(p1 * (1 - p0) / (p0 * (1 - p1)));
    CHECK(bernoulli_kl_bits(p1, p0) == Approx(paper).epsilon(1e-10).margin(1e-14));
  }
}

TEST_CASE("lmidp: BAC capacity (7) matches the reference table and special cases", "[lmidp]") {
  CHECK_PRINTED(bac_capacity_bits(0.1, 0.3), "0.29667180288050");
  CHECK_PRINTED(bac_capacity_bits(0.2, 0.2), "0.278071905112638");
  CHECK_PRINTED(bac_capacity_bits(0.05, 0.4), "0.283769156261435");
  CHECK_PRINTED(bac_capacity_bits(0.9, 0.3), "0.046992636235348");
  CHECK_PRINTED(bac_capacity_bits(0.0, 0.5), "0.321928094887362");
  CHECK_PRINTED(bac_capacity_bits(0.11, 0.11), "0.500084041835472");
  // BSC: C(p, p) = 1 − H_b(p). Z-channel: C(0, q) = log2(1 + (1 − q) q^{q/(1−q)}).
  for (double p : {0.0, 0.01, 0.1, 0.25, 0.4, 0.6, 0.9, 1.0}) {
    CHECK(bac_capacity_bits(p, p) == Approx(1.0 - binary_entropy_bits(p)).epsilon(1e-12).margin(1e-15));
  }
  for (double q : {0.05, 0.1, 0.3, 0.5, 0.7, 0.95}) {
    const double z = std::log2(1.0 + (1.0 - q) * std::pow(q, q / (1.0 - q)));
    CHECK(bac_capacity_bits(0.0, q) == Approx(z).epsilon(1e-12));
  }
  CHECK(bac_capacity_bits(0.0, 0.0) == Approx(1.0).epsilon(1e-15));
  CHECK(bac_capacity_bits(0.3, 0.7) == Approx(0.0).margin(1e-15).epsilon(0));  // identical rows
  // The three symmetries of the paper leave C unchanged, and (7) agrees with brute force on random pairs (docs/analysis/lmidp.md#bac-capacity).
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  double worst = 0.0;
  for (int i = 0; i < 300; ++i) {
    const double e0 = u(rng);
    const double e1 = u(rng);
    const double c = bac_capacity_bits(e0, e1);
    CHECK(bac_capacity_bits(e1, e0) == Approx(c).epsilon(1e-9).margin(1e-14));
    CHECK(bac_capacity_bits(1.0 - e1, 1.0 - e0) == Approx(c).epsilon(1e-9).margin(1e-13));
    CHECK(bac_capacity_bits(1.0 - e0, 1.0 - e1) == Approx(c).epsilon(1e-9).margin(1e-13));
    worst = std::max(worst, std::fabs(c - bac_brute_force(e0, e1)));
  }
  INFO("max |C(7) − brute force| over 300 random pairs = " << full(worst));
  CHECK(worst < 1e-12);
}

TEST_CASE("lmidp: BAC capacity has no catastrophic cancellation near e0 + e1 = 1", "[lmidp]") {
  // docs/analysis/lmidp.md#bac-capacity: (7) loses 6% at 1 − e0 − e1 = 1e-5 and goes negative at 1e-6. Compare with a long-double brute
  // force on both sides of the 1e-3 switch to the search.
  for (double gap : {2e-2, 1.0001e-2, 0.9999e-2, 2e-3, 1e-3, 1e-4, 1e-5, 1e-6, -1e-5, -1e-3}) {
    for (double e0 : {1e-30, 0.05, 0.3, 0.5}) {
      const double e1 = 1.0 - e0 - gap;
      if (e1 > 1.0) continue;
      const double c = bac_capacity_bits(e0, e1);
      const double ref = bac_brute_force(e0, e1);
      INFO("e0 = " << e0 << ", 1 − e0 − e1 = " << gap << ": C = " << full(c) << ", brute force " << full(ref));
      CHECK(c > 0.0);
      CHECK(std::fabs(c - ref) <= 1e-6 * ref);
    }
  }
  // BSC at p = 1/2 − t: 1 − H_b = (1/(2 ln 2)) Σ_n (2t)^{2n}/(n(2n − 1)), no cancellation in the series.
  for (double t : {5e-4, 5e-5, 5e-7}) {
    const double x = 4.0 * t * t;
    const double series = (x + x * x / 6.0 + x * x * x / 15.0) / (2.0 * std::log(2.0));
    CHECK_REL(bac_capacity_bits(0.5 - t, 0.5 - t), series, 1e-6);
  }
}

// ---- Theorem 1(a), docs/analysis/lmidp.md#theorem-1a ------------------------------------------------------------

TEST_CASE("lmidp: Thm 1(a) delta and p-bar reproduce the reference table", "[lmidp]") {
  struct Row {
    double mu;
    const char* pbar;
    std::vector<const char*> deltas;  // at ε = 0, 0.25, 0.5, 1, 1.5, 2, 2.5, 5 (as far as printed)
  };
  const std::vector<double> eps{0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 2.5, 5.0};
  const std::vector<Row> rows{
      {0.1, "0.1775033472", {"0.367961", "0.299115", "0.251289", "0.201483", "0.183371", "0.178285", "0.177535", "0.177503"}},
      {0.01, "0.0187298028", {"0.117605", "0.0528927", "0.0338657", "0.0227504", "0.0197254", "0.018885", "0.0187387", "0.0187298"}},
      {0.5, "0.6964556290", {"0.779944", "0.754195", "0.732946", "0.706481", "0.697672", "0.69649", "0.696456", "0.696456"}},
      {0.9, "0.9686829506", {"0.974026", "0.971278", "0.969626", "0.968717", "0.968683"}},
  };
  for (const Row& row : rows) {
    INFO("mu = " << row.mu);
    CHECK_PRINTED(ldp_delta_floor_from_capacity(row.mu), row.pbar);
    for (std::size_t i = 0; i < row.deltas.size(); ++i) {
      INFO("epsilon = " << eps[i]);
      CHECK_PRINTED(ldp_delta_from_capacity(row.mu, eps[i]), row.deltas[i]);
    }
  }
}

TEST_CASE("lmidp: Thm 1(a) curve properties (monotone, floor p-bar, BSC at 0, mu >= 1)", "[lmidp]") {
  for (double mu : {1e-4, 0.01, 0.1, 0.3, 0.5, 0.9, 0.99}) {
    INFO("mu = " << mu);
    const double pbar = ldp_delta_floor_from_capacity(mu);
    CHECK(pbar > 0.0);
    CHECK(pbar < 1.0);
    // p̄ is the largest p1 of a Z-channel with capacity μ (docs/analysis/lmidp.md#theorem-1a property 3).
    CHECK(bac_capacity_bits(0.0, 1.0 - pbar) == Approx(mu).epsilon(1e-9));
    // At ε = 0 the optimum is a BSC: 1 − 2 H_b^{-1}(1 − μ) (property 4).
    CHECK(ldp_delta_from_capacity(mu, 0.0) == Approx(1.0 - 2.0 * hb_inverse(1.0 - mu)).epsilon(1e-7));
    double previous = 1.0;
    for (double eps = 0.0; eps <= 8.0; eps += 0.25) {
      const double d = ldp_delta_from_capacity(mu, eps);
      INFO("epsilon = " << eps << ", delta = " << full(d));
      CHECK(d <= previous + 1e-12);        // non-increasing in ε
      CHECK(d >= pbar * (1.0 - 1e-9));     // never below the asymptote
      previous = d;
    }
    CHECK(ldp_delta_from_capacity(mu, kInf) == pbar);
    CHECK(ldp_delta_from_capacity(mu, 30.0) == Approx(pbar).epsilon(1e-9));
  }
  // Non-decreasing in μ; μ >= 1 gives no LDP guarantee; μ = 0 is perfect privacy.
  for (double eps : {0.0, 0.7, 3.0}) {
    double previous = 0.0;
    for (double mu : {0.0, 0.001, 0.01, 0.05, 0.2, 0.6, 0.95, 1.0, 2.0}) {
      const double d = ldp_delta_from_capacity(mu, eps);
      CHECK(d >= previous - 1e-12);
      previous = d;
    }
    CHECK(ldp_delta_from_capacity(1.0, eps) == 1.0);
    CHECK(ldp_delta_from_capacity(0.0, eps) == 0.0);
  }
}

TEST_CASE("lmidp: Thm 1(a) is tight: the reference maximisers are feasible and attain delta", "[lmidp]") {
  // M*(X) ~ Ber(p1*) on A, Ber(p0*) off A has CI-LMIDP C_BAC(p0*, 1 − p1*) = μ and LDP δ = p1* − e^ε p0* (docs/analysis/lmidp.md#theorem-1a).
  struct Point {
    double mu;
    double eps;
    double p0;
    double p1;
  };
  const std::vector<Point> points{{0.1, 0.0, 0.316019, 0.683981},  {0.1, 0.5, 0.092994, 0.404611},
                                  {0.1, 1.0, 0.021688, 0.260438},  {0.1, 2.0, 0.000527, 0.182176},
                                  {0.01, 0.0, 0.441198, 0.558802}, {0.01, 0.5, 0.026647, 0.077799},
                                  {0.01, 1.0, 0.003828, 0.033157}, {0.01, 2.0, 0.000094, 0.019582}};
  for (const Point& pt : points) {
    INFO("mu = " << pt.mu << ", epsilon = " << pt.eps);
    // Rounding the maximiser to 6 decimals moves C and δ by O(1e-6).
    CHECK(bac_capacity_bits(pt.p0, 1.0 - pt.p1) == Approx(pt.mu).margin(2e-5).epsilon(0));
    const double attained = std::max(pt.p1 - std::exp(pt.eps) * pt.p0, (1.0 - pt.p0) - std::exp(pt.eps) * (1.0 - pt.p1));
    CHECK(ldp_delta_from_capacity(pt.mu, pt.eps) == Approx(attained).margin(5e-6).epsilon(0));
  }
}

// ---- Theorem 1(b), docs/analysis/lmidp.md#theorem-1b --------------------------------------------------------------

TEST_CASE("lmidp: Thm 1(b) on the k-RR curve, pure LDP, Laplace and Gaussian closed forms", "[lmidp]") {
  struct Krr {
    std::size_t k;
    double eps;
    const char* value;
  };
  for (const Krr& c : {Krr{2, 1.0, "0.666694"}, Krr{4, 1.0, "0.433514"}, Krr{10, 2.0, "1.124831"},
                       Krr{10, 0.5, "0.043945"}}) {
    INFO("k = " << c.k << ", epsilon = " << c.eps);
    const auto curve = [&](double e) { return krr_ldp_delta(c.k, c.eps, e); };
    const double mu = capacity_bound_from_ldp_curve(curve, c.eps);
    CHECK_PRINTED(mu, c.value);
    const double e = std::exp(c.eps);
    CHECK_REL(mu, kLog2e * c.eps * (e - 1.0) / (e + static_cast<double>(c.k) - 1.0), 1e-9);
    CHECK(capacity_bound_from_ldp_curve(curve) == Approx(mu).epsilon(1e-8));  // without the kink hint too
  }
  // Pure ε-LDP: log2(e)·ε·tanh(ε/2) = (8) on the binary-RR profile.
  for (double eps : {0.1, 0.5, 1.0, 2.0, 5.0}) {
    const auto rr = [&](double e) { return krr_ldp_delta(2, eps, e); };
    CHECK_REL(capacity_bound_from_pure_ldp(eps), capacity_bound_from_ldp_curve(rr, eps), 1e-9);
    CHECK_REL(capacity_bound_from_pure_ldp(eps), kLog2e * eps * std::tanh(eps / 2.0), 1e-14);
  }
  CHECK(capacity_bound_from_pure_ldp(0.0) == 0.0);
  CHECK(capacity_bound_from_pure_ldp(kInf) == kInf);
  // Laplace, ε0 = Δ1/b: δ(ε) = 1 − e^{(ε − ε0)/2} on [0, ε0] gives log2(e)(ε0 + e^{−ε0} − 1) (docs/analysis/lmidp.md#theorem-1b).
  for (double eps0 : {0.5, 1.0, 3.0}) {
    const auto laplace = [&](double e) { return e < eps0 ? -std::expm1((e - eps0) / 2.0) : 0.0; };
    CHECK_REL(capacity_bound_from_ldp_curve(laplace, eps0), kLog2e * (eps0 + std::exp(-eps0) - 1.0), 1e-9);
  }
  // Gaussian on the ball (D = 2√d Δ): 2dΔ² log2(e)/σ² (Fig. 2 curve (i)); verified by quadrature to 8 digits (docs/analysis/lmidp.md#theorem-1b).
  for (std::size_t d : {std::size_t{1}, std::size_t{10}}) {
    for (double sigma2 : {10.0, 71.635899, 200.0}) {
      const double sens = 2.0 * std::sqrt(static_cast<double>(d));
      const double mu =
          capacity_bound_from_ldp_curve([&](double e) { return gaussian_ldp_delta(e, sens, std::sqrt(sigma2)); });
      INFO("d = " << d << ", sigma2 = " << sigma2);
      CHECK_REL(mu, 2.0 * static_cast<double>(d) * kLog2e / sigma2, 1e-8);
      if (sigma2 == 200.0) CHECK_PRINTED(mu, d == 1 ? "0.0144270" : "0.144270");
    }
  }
  // A curve that does not decay gives no MI bound (docs/analysis/lmidp.md#theorem-1b): +∞.
  CHECK(capacity_bound_from_ldp_curve([](double) { return 0.01; }) == kInf);
}

TEST_CASE("lmidp: Thm 1(a) at eps' = eps with mu = the k-RR capacity (docs/analysis/accountant.md, k-RR closed forms)", "[lmidp]") {
  CHECK_PRINTED(ldp_delta_from_capacity(krr_capacity_bits(2, 1.0), 1.0), "0.301519");
  CHECK_PRINTED(ldp_delta_from_capacity(krr_capacity_bits(4, 1.0), 1.0), "0.317290");
  CHECK_PRINTED(ldp_delta_from_capacity(krr_capacity_bits(10, 2.0), 2.0), "0.775582");
  // The actual k-RR δ at ε' = ε is 0: the MI → LDP conversion is lossy, but it must bound the true curve.
  for (std::size_t k : {std::size_t{2}, std::size_t{4}, std::size_t{10}}) {
    for (double eps : {0.5, 1.0, 2.0}) {
      const double mu = krr_capacity_bits(k, eps);
      for (double ep = 0.0; ep <= 2.5; ep += 0.25) {
        // <= up to rounding: at ε' = 0 the bound is attained by 2-RR (a BSC), so equality is expected there.
        CHECK(krr_ldp_delta(k, eps, ep) <= ldp_delta_from_capacity(mu, ep) + 1e-12);
      }
    }
  }
}

// ---- k-RR closed forms, docs/analysis/accountant.md#k-rr-closed-forms -------------------------------------------------

TEST_CASE("lmidp: k-RR capacity and LDP curve closed forms", "[lmidp]") {
  CHECK_PRINTED(krr_capacity_bits(2, 1.0), "0.1600584620");
  CHECK_PRINTED(krr_capacity_bits(4, 1.0), "0.1702277240");
  CHECK_PRINTED(krr_capacity_bits(10, 2.0), "0.5881541816");
  CHECK_PRINTED(krr_capacity_bits(10, 0.5), "0.0210046674");
  // Against log2 k + p log2 p + (k − 1) q log2 q and, for k = 2, the BSC.
  for (std::size_t k : {std::size_t{2}, std::size_t{3}, std::size_t{16}, std::size_t{1000}}) {
    for (double eps : {0.01, 0.3, 1.0, 4.0, 12.0}) {
      const double kd = static_cast<double>(k);
      const double p = std::exp(eps) / (std::exp(eps) + kd - 1.0);
      const double q = 1.0 / (std::exp(eps) + kd - 1.0);
      const double direct = std::log2(kd) + p * std::log2(p) + (kd - 1.0) * q * std::log2(q);
      INFO("k = " << k << ", epsilon = " << eps);
      CHECK(krr_capacity_bits(k, eps) == Approx(direct).epsilon(1e-9).margin(1e-12));
      for (double ep : {0.0, 0.5 * eps, eps, 2.0 * eps}) {
        CHECK(krr_ldp_delta(k, eps, ep) ==
              Approx(std::max(0.0, (std::exp(eps) - std::exp(ep)) / (std::exp(eps) + kd - 1.0))).epsilon(1e-12).margin(1e-15));
      }
    }
  }
  CHECK(krr_capacity_bits(2, 1.0) == Approx(1.0 - binary_entropy_bits(1.0 / (1.0 + std::exp(1.0)))).epsilon(1e-12));
  CHECK(krr_capacity_bits(5, 0.0) == 0.0);
  CHECK(krr_capacity_bits(8, kInf) == Approx(3.0).epsilon(1e-15));
  // Large ε must not overflow: p → 1, the curve at 0 → 1.
  CHECK(krr_ldp_delta(2, 800.0, 0.0) == Approx(1.0).epsilon(1e-15));
  CHECK(krr_capacity_bits(4, 800.0) == Approx(2.0).epsilon(1e-12));
}

// ---- Gaussian mechanism and Thm 3, docs/analysis/lmidp.md#gaussian-mechanism ----------------------------------------

TEST_CASE("lmidp: Balle-Wang Gaussian delta test values", "[lmidp]") {
  CHECK_PRINTED(gaussian_ldp_delta(1.0, 2.0, 1.0), "0.509861660054670");
  CHECK_PRINTED(gaussian_ldp_delta(0.0, 2.0 * std::sqrt(10.0), std::sqrt(71.635899)), "0.291315845387653");
  double previous = 1.0;
  for (double eps = 0.0; eps <= 60.0; eps += 0.5) {
    const double d = gaussian_ldp_delta(eps, 2.0, 0.5);
    CHECK(std::isfinite(d));
    CHECK(d <= previous);
    CHECK(d >= 0.0);
    previous = d;
  }
  CHECK(gaussian_ldp_delta(1.0, 0.0, 1.0) == 0.0);
}

TEST_CASE("lmidp: the paper's Gaussian mechanism (5) on the ball of radius sqrt(d)*Delta", "[lmidp]") {
  CHECK_PRINTED(gaussian_ball_ldp_delta(1.0, 1, 1.0, 1.0), "0.509861660054670");
  CHECK_PRINTED(gaussian_ball_ldp_delta(0.0, 10, 1.0, 71.635899), "0.291315845387653");
  for (const double eps : {0.0, 0.5, 2.0}) {
    CHECK(gaussian_ball_ldp_delta(eps, 3, 0.5, 2.0) == gaussian_ldp_delta(eps, 2.0 * std::sqrt(3.0) * 0.5, std::sqrt(2.0)));
  }
  CHECK_THROWS_AS(gaussian_ball_ldp_delta(1.0, 0, 1.0, 1.0), std::invalid_argument);
  CHECK_THROWS_AS(gaussian_ball_ldp_delta(1.0, 1, 0.0, 1.0), std::invalid_argument);
  CHECK_THROWS_AS(gaussian_ball_ldp_delta(1.0, 1, 1.0, -1.0), std::invalid_argument);
  CHECK_THROWS_AS(gaussian_ball_ldp_delta(-1.0, 1, 1.0, 1.0), std::invalid_argument);
}

TEST_CASE("lmidp: peak-constrained Gaussian CI-LMIDP matches the reference table; Thm 3 bounds it", "[lmidp]") {
  struct Row {
    double sigma2;
    const char* d1;
    const char* d10;
  };
  for (const Row& r : {Row{1, "0.485944", "4.97452"}, Row{2, "0.29048", "2.92053"}, Row{5, "0.131416", "1.31493"},
                       Row{10, "0.0687433", "0.687497"}, Row{20, "0.035194", "0.351945"},
                       Row{50, "0.0142846", "0.142846"}, Row{100, "0.00717765", "0.0717765"},
                       Row{150, "0.00479302", "0.0479302"}, Row{200, "0.00359775", "0.0359775"}}) {
    INFO("sigma2 = " << r.sigma2);
    const double c1 = gaussian_capacity_peak(1, 1.0, r.sigma2);
    const double c10 = gaussian_capacity_peak(10, 1.0, r.sigma2);
    CHECK_PRINTED(c1, r.d1);
    CHECK_PRINTED(c10, r.d10);
    CHECK(c1 <= gaussian_capacity_average_power(1, 1.0, r.sigma2));
    CHECK(c10 <= gaussian_capacity_average_power(10, 1.0, r.sigma2));
  }
  CHECK_PRINTED(gaussian_capacity_peak(1, 1.0, 1.0 / 0.49), "0.285773855900");  // ρ = 0.7
  CHECK(gaussian_capacity_average_power(1, 1.0, 1.0) == Approx(0.5).epsilon(1e-15));
  // Low SNR: peak and average-power capacity coincide to 1e-8 (docs/analysis/lmidp.md#theorem-3-gaussian).
  CHECK(gaussian_capacity_peak(10, 1.0, 71.6359) == Approx(0.1).margin(1e-7).epsilon(0));
  CHECK(gaussian_capacity_average_power(10, 1.0, 71.6359) == Approx(0.1).margin(1e-7).epsilon(0));
}

// ---- Fig. 1, docs/experiments.md#ngo-figs-1-and-2 -------------------------------------------------------------------

TEST_CASE("lmidp: Fig. 1 calibration and Gaussian LDP curve below the Thm 1(a) bound", "[lmidp]") {
  const double s01 = gaussian_sigma2_for_capacity(0.1, 10, 1.0);
  const double s001 = gaussian_sigma2_for_capacity(0.01, 10, 1.0);
  CHECK_PRINTED(s01, "71.635899");
  CHECK_PRINTED(s001, "720.847636");
  CHECK(gaussian_capacity_peak(10, 1.0, s01) == Approx(0.1).epsilon(1e-9));
  // Average-power closed form Δ²/(2^{2μ/d} − 1).
  CHECK_PRINTED(1.0 / std::expm1(2.0 * 0.1 / 10.0 * std::log(2.0)), "71.6359073");
  CHECK_PRINTED(1.0 / std::expm1(2.0 * 0.01 / 10.0 * std::log(2.0)), "720.8476360");
  CHECK(gaussian_capacity_average_power(10, 1.0, 71.6359073) == Approx(0.1).epsilon(1e-8));
  CHECK(s01 < 71.6359073);  // peak capacity <= average-power capacity, so less noise is needed

  const double sens = 2.0 * std::sqrt(10.0);
  const std::vector<double> eps{0.0, 0.5, 1.0, 1.5, 2.0, 2.5};
  const std::vector<double> mu01{0.291316, 0.138917, 0.0492297, 0.0124657, 0.00219179, 0.000262199};
  for (std::size_t i = 0; i < eps.size(); ++i) {
    INFO("mu = 0.1, epsilon = " << eps[i]);
    CHECK_REL(gaussian_ldp_delta(eps[i], sens, std::sqrt(s01)), mu01[i], 1e-4);
  }
  CHECK_REL(gaussian_ldp_delta(0.0, sens, std::sqrt(s001)), 0.0937595, 1e-4);
  CHECK_REL(gaussian_ldp_delta(0.5, sens, std::sqrt(s001)), 0.0018277, 1e-4);
  CHECK_REL(gaussian_ldp_delta(1.0, sens, std::sqrt(s001)), 9.05e-7, 1e-2);  // printed to 3 digits
  // Thm 1(a) is a valid bound: the μ-calibrated Gaussian stays below δ^LDP_μ(ε).
  for (double e = 0.0; e <= 2.5 + 1e-9; e += 0.1) {
    INFO("epsilon = " << e);
    CHECK(gaussian_ldp_delta(e, sens, std::sqrt(s01)) < ldp_delta_from_capacity(0.1, e));
    CHECK(gaussian_ldp_delta(e, sens, std::sqrt(s001)) < ldp_delta_from_capacity(0.01, e));
  }
}

// ---- Fig. 3 and the Thm 2(a) counterexample, docs/experiments.md#ngo-fig-3 ------------------------------------------

TEST_CASE("lmidp: Thm 2(a) kernel (9) as printed matches the reference table", "[lmidp]") {
  const std::vector<double> eps{0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 2.5, 5.0};
  const std::vector<const char*> k01{"0.185444", "0.118947", "0.0902862", "0.0715413",
                                     "0.0675398", "0.0669914", "0.0669672", "0.066967"};
  const std::vector<const char*> k001{"0.0588478", "0.0160992", "0.0102195", "0.00751239",
                                      "0.00698817", "0.00691158", "0.00690754", "0.0069075"};
  for (std::size_t i = 0; i < eps.size(); ++i) {
    INFO("epsilon = " << eps[i]);
    CHECK_PRINTED(lip_delta_from_mutual_information_as_printed(0.1, eps[i]), k01[i]);
    CHECK_PRINTED(lip_delta_from_mutual_information_as_printed(0.01, eps[i]), k001[i]);
  }
  // Floor and limit 1 − 2^{−μ} (paper's remark), to 10 digits (docs/analysis/lmidp.md#theorem-2a-corrected).
  CHECK_PRINTED(lip_delta_from_mutual_information_as_printed(0.1, kInf), "0.0669670085");
  CHECK_PRINTED(lip_delta_from_mutual_information_as_printed(0.01, kInf), "0.0069075046");
  for (double e = 0.0; e <= 6.0; e += 0.5) {
    CHECK(lip_delta_from_mutual_information_as_printed(0.1, e) >= -std::expm1(-0.1 * std::log(2.0)) * (1 - 1e-9));
  }
  // The corrected bound is the kernel at the pointwise budget μ / p_min; p_min = 1 reduces to the printed form.
  for (double e : {0.0, 0.7, 2.0}) {
    CHECK(lip_delta_from_mutual_information(0.1, 1.0, e) == lip_delta_from_mutual_information_as_printed(0.1, e));
    CHECK(lip_delta_from_mutual_information(0.1, 0.25, e) == lip_delta_from_mutual_information_as_printed(0.4, e));
  }
}

TEST_CASE("lmidp: Fig. 3 setup: 21-point prior and sigma2 calibration", "[lmidp]") {
  const Fig3Prior f = fig3_prior();
  CHECK_PRINTED(f.prior.front(), "0.011195");
  CHECK_PRINTED(f.prior.back(), "0.011195");
  CHECK_PRINTED(f.prior[10], "0.082718");
  double var = 0.0;
  for (std::size_t i = 0; i < f.xs.size(); ++i) var += f.prior[i] * f.xs[i] * f.xs[i];
  CHECK_PRINTED(var, "0.2022347");
  CHECK_PRINTED(fig3_sigma2(f, 0.1), "1.359991");
  CHECK_PRINTED(fig3_sigma2(f, 0.01), "14.487266");
}

TEST_CASE("lmidp: Fig. 3 Gaussian LIP curve matches the reference table", "[lmidp]") {
  const Fig3Prior f = fig3_prior();
  const double s01 = fig3_sigma2(f, 0.1);
  const double s001 = fig3_sigma2(f, 0.01);
  const std::vector<double> eps{0.0, 0.5, 1.0, 1.5, 2.0, 2.5};
  const std::vector<double> v01{0.321948, 0.186951, 0.0956317, 0.0433821, 0.0175781, 0.00640311};
  const std::vector<double> v001{0.104188, 0.00473426, 2.77146e-5, 2.41311e-8, 3.86745e-12, 1.36733e-16};
  for (std::size_t i = 0; i < eps.size(); ++i) {
    INFO("epsilon = " << eps[i]);
    CHECK_REL(gaussian_mixture_lip_delta(f.xs, f.prior, s01, eps[i]), v01[i], 1e-4);
    CHECK_REL(gaussian_mixture_lip_delta(f.xs, f.prior, s001, eps[i]), v001[i], 1e-4);
  }
}

TEST_CASE("lmidp: COUNTEREXAMPLE: the paper's Thm 2(a) fails on its own Fig. 3 Gaussian; the corrected bound holds",
          "[lmidp]") {
  // docs/analysis/lmidp.md#theorem-2a-corrected: a mechanism with I(X; M(X)) = μ is claimed to be (ε, δ^LIP_μ(ε))-LIP. The Fig. 3 Gaussian, calibrated
  // to I = μ exactly, has a LARGER optimal LIP δ than that for small ε, so the printed theorem is false. If these
  // CHECKs ever fail, either the Gaussian LIP curve or the kernel (9) is broken, not the counterexample.
  const Fig3Prior f = fig3_prior();
  const double p_min = f.prior.front();
  struct Case {
    double mu;
    std::vector<double> violating_eps;
    double crossing;  // docs/analysis/lmidp.md#theorem-2a-corrected: the Gaussian exceeds (9) for ε below this
  };
  for (const Case& c : {Case{0.1, {0.0, 0.5, 1.0}, 1.215}, Case{0.01, {0.0, 0.2}, 0.378}}) {
    const double sigma2 = fig3_sigma2(f, c.mu);
    REQUIRE(gaussian_mixture_mutual_information(f.xs, f.prior, sigma2) == Approx(c.mu).epsilon(1e-7));
    const auto actual = [&](double e) { return gaussian_mixture_lip_delta(f.xs, f.prior, sigma2, e); };
    for (double e : c.violating_eps) {
      const double gauss = actual(e);
      const double printed = lip_delta_from_mutual_information_as_printed(c.mu, e);
      INFO("mu = " << c.mu << ", epsilon = " << e << ": the Gaussian with I = mu has optimal LIP delta "
                   << full(gauss) << ", but the paper's Thm 2(a) claims delta <= " << full(printed)
                   << " -- the paper's bound must be VIOLATED here (docs/analysis/lmidp.md, docs/errata.md)");
      CHECK(gauss > printed);
    }
    // The reference pair at ε = 0 (docs/experiments.md#ngo-fig-3) (0.32195 vs 0.18544 for μ = 0.1; 0.10419 vs 0.05885 for μ = 0.01).
    if (c.mu == 0.1) {
      CHECK_PRINTED(actual(0.0), "0.32195");
      CHECK_PRINTED(lip_delta_from_mutual_information_as_printed(0.1, 0.0), "0.18544");
      CHECK_PRINTED(actual(0.5), "0.18695");
      CHECK_PRINTED(lip_delta_from_mutual_information_as_printed(0.1, 0.5), "0.09029");
    } else {
      CHECK_PRINTED(actual(0.0), "0.10419");
      CHECK_PRINTED(lip_delta_from_mutual_information_as_printed(0.01, 0.0), "0.05885");
    }
    // Where the violation ends: the root of Gaussian − (9), by bisection; to 3 decimals (docs/analysis/lmidp.md#theorem-2a-corrected).
    double lo = 0.0;
    double hi = 3.0;
    for (int it = 0; it < 50; ++it) {
      const double mid = 0.5 * (lo + hi);
      (actual(mid) > lip_delta_from_mutual_information_as_printed(c.mu, mid) ? lo : hi) = mid;
    }
    INFO("mu = " << c.mu << ": the Gaussian exceeds the printed Thm 2(a) for epsilon < " << full(lo));
    CHECK(std::fabs(lo - c.crossing) <= 5e-4 + 1e-9);
    // The corrected Thm 2(a) with p_min = P(±1) bounds the Gaussian at every ε of a grid.
    for (double e = 0.0; e <= 5.0 + 1e-9; e += 0.1) {
      const double gauss = actual(e);
      const double corrected = lip_delta_from_mutual_information(c.mu, p_min, e);
      INFO("mu = " << c.mu << ", epsilon = " << e << ": Gaussian " << full(gauss) << " vs corrected bound "
                   << full(corrected) << " -- the corrected Thm 2(a) must hold");
      CHECK(gauss <= corrected);
    }
  }
}

TEST_CASE("lmidp: analytic counterexample to Thm 2(a): the identity on a bit with P(1) = 0.01", "[lmidp]") {
  // I = H_b(0.01) = 0.0808 <= 0.1 bits, yet x = 1, E = {0} forces δ >= 0.99 for every ε (docs/analysis/lmidp.md#theorem-2a-corrected).
  const std::vector<std::vector<double>> identity{{1.0, 0.0}, {0.0, 1.0}};
  const std::vector<double> prior{0.99, 0.01};
  CHECK(binary_entropy_bits(0.01) < 0.1);
  for (double e : {0.0, 1.0, 2.5, 10.0}) {
    const double actual = finite_lip_delta(identity, prior, e);
    INFO("epsilon = " << e << ": identity LIP delta " << full(actual));
    CHECK(actual >= 0.99 - 1e-12);
    CHECK(lip_delta_from_mutual_information_as_printed(0.1, e) < 0.19);                      // the false claim
    CHECK(lip_delta_from_mutual_information(0.1, 0.01, e) >= actual);                        // corrected: holds
    CHECK(lip_delta_from_mutual_information(binary_entropy_bits(0.01), 0.01, e) >= actual);  // even with μ = I
  }
  CHECK_PRINTED(lip_delta_from_mutual_information_as_printed(0.1, 0.0), "0.185");
  CHECK_PRINTED(lip_delta_from_mutual_information_as_printed(0.1, 1.0), "0.0715");
  CHECK_PRINTED(lip_delta_from_mutual_information_as_printed(0.1, 2.5), "0.0670");
  // The same channel as a nearly noiseless Gaussian mixture: I → H_b(0.01), LIP δ → 0.99.
  const std::vector<double> xs{0.0, 1.0};
  CHECK(gaussian_mixture_mutual_information(xs, prior, 1e-3) == Approx(binary_entropy_bits(0.01)).epsilon(1e-6));
  CHECK(gaussian_mixture_lip_delta(xs, prior, 1e-3, 1.0) == Approx(0.99).epsilon(1e-6));
}

// ---- Fig. 4, docs/experiments.md#ngo-fig-4 ---------------------------------------------------------------------------

TEST_CASE("lmidp: Fig. 4 Thm 2(b) bound on the Fig. 3 Gaussian", "[lmidp]") {
  const Fig3Prior f = fig3_prior();
  struct Row {
    double sigma2;
    double bound;
    double mi;
  };
  for (const Row& r : {Row{1.0, 1.94982, 0.132851}, Row{10.0, 0.084711, 0.0144426}, Row{100.0, 0.00754351, 0.00145734},
                       Row{200.0, 0.00372097, 0.000729039}}) {
    INFO("sigma2 = " << r.sigma2);
    const double mi = gaussian_mixture_mutual_information(f.xs, f.prior, r.sigma2);
    const double bound = mutual_information_bound_from_lip_curve(
        [&](double e) { return gaussian_mixture_lip_delta(f.xs, f.prior, r.sigma2, e); });
    CHECK_REL(mi, r.mi, 1e-4);
    CHECK_REL(bound, r.bound, 1e-3);
    CHECK(bound >= mi);  // Thm 2(b) is valid
  }
  // Pure ε0-LIP with the RR-type curve: log2(e)(e^{2ε0} − 1 − 2ε0)/(2(1 + e^{ε0})) (docs/analysis/lmidp.md#theorem-2b).
  for (double eps0 : {0.2, 1.0, 3.0}) {
    const auto curve = [&](double e) { return krr_ldp_delta(2, eps0, e); };
    const double expected = kLog2e * (std::exp(2 * eps0) - 1 - 2 * eps0) / (2 * (1 + std::exp(eps0)));
    CHECK_REL(mutual_information_bound_from_lip_curve(curve, eps0), expected, 1e-9);
  }
  // δ = o(e^{−ε}) is required; δ = e^{−ε}/2 is not integrable against e^ε: +∞.
  CHECK(mutual_information_bound_from_lip_curve([](double e) { return 0.5 * std::exp(-e); }) == kInf);
}

// ---- validation ------------------------------------------------------------------------------------------------------

TEST_CASE("lmidp: bad inputs throw std::invalid_argument naming the parameter", "[lmidp]") {
  using Catch::Matchers::Contains;
  const std::vector<double> xs{0.0, 1.0};
  const std::vector<double> good{0.5, 0.5};
  const std::vector<double> bad_sum{0.5, 0.6};
  const std::vector<double> negative{1.5, -0.5};
  const std::vector<double> three{0.2, 0.3, 0.5};
  CHECK_THROWS_AS(ldp_delta_from_capacity(-1.0, 1.0), std::invalid_argument);
  CHECK_THROWS_WITH(ldp_delta_from_capacity(-1.0, 1.0), Contains("mu = -1"));
  CHECK_THROWS_WITH(ldp_delta_from_capacity(kNaN, 1.0), Contains("mu = NaN"));
  CHECK_THROWS_WITH(ldp_delta_from_capacity(0.1, kNaN), Contains("epsilon = NaN"));
  CHECK_THROWS_WITH(ldp_delta_from_capacity(0.1, -0.5), Contains("epsilon = -0.5"));
  CHECK_THROWS_WITH(ldp_delta_floor_from_capacity(-1.0), Contains("mu = -1"));
  CHECK_THROWS_WITH(lip_delta_from_mutual_information_as_printed(-1.0, 0.0), Contains("mu = -1"));
  CHECK_THROWS_WITH(lip_delta_from_mutual_information_as_printed(0.1, kNaN), Contains("epsilon = NaN"));
  CHECK_THROWS_WITH(lip_delta_from_mutual_information(0.1, 0.0, 1.0), Contains("pMin = 0"));
  CHECK_THROWS_WITH(lip_delta_from_mutual_information(0.1, 1.5, 1.0), Contains("pMin = 1.5"));
  CHECK_THROWS_WITH(lip_delta_from_mutual_information(0.1, kNaN, 1.0), Contains("pMin = NaN"));
  CHECK_THROWS_WITH(lip_delta_from_mutual_information(-0.1, 0.5, 1.0), Contains("mu = -0.1"));
  CHECK_THROWS_WITH(binary_entropy_bits(1.5), Contains("p = 1.5"));
  CHECK_THROWS_WITH(bernoulli_kl_bits(kNaN, 0.5), Contains("p1 = NaN"));
  CHECK_THROWS_WITH(bernoulli_kl_bits(0.5, -0.1), Contains("p0 = -0.1"));
  CHECK_THROWS_WITH(bac_capacity_bits(-0.1, 0.5), Contains("e0 = -0.1"));
  CHECK_THROWS_WITH(bac_capacity_bits(0.1, 2.0), Contains("e1 = 2"));
  CHECK_THROWS_WITH(capacity_bound_from_pure_ldp(kNaN), Contains("epsilon = NaN"));
  CHECK_THROWS_WITH(capacity_bound_from_ldp_curve([](double) { return 0.0; }, -1.0), Contains("epsHint = -1"));
  CHECK_THROWS_WITH(capacity_bound_from_ldp_curve([](double) { return kNaN; }), Contains("delta("));
  CHECK_THROWS_WITH(mutual_information_bound_from_lip_curve([](double) { return 2.0; }), Contains("delta("));
  CHECK_THROWS_WITH(krr_capacity_bits(1, 1.0), Contains("k = 1"));
  CHECK_THROWS_WITH(krr_capacity_bits(3, kNaN), Contains("epsilon = NaN"));
  CHECK_THROWS_WITH(krr_ldp_delta(3, kInf, 1.0), Contains("epsilon = Infinity"));
  CHECK_THROWS_WITH(krr_ldp_delta(3, 1.0, kNaN), Contains("eps_prime = NaN"));
  CHECK_THROWS_WITH(gaussian_ldp_delta(kNaN, 1.0, 1.0), Contains("epsilon = NaN"));
  CHECK_THROWS_WITH(gaussian_ldp_delta(1.0, -1.0, 1.0), Contains("l2_sensitivity = -1"));
  CHECK_THROWS_WITH(gaussian_ldp_delta(1.0, 1.0, 0.0), Contains("sigma = 0"));
  CHECK_THROWS_WITH(gaussian_capacity_average_power(0, 1.0, 1.0), Contains("d = 0"));
  CHECK_THROWS_WITH(gaussian_capacity_average_power(1, 1.0, 0.0), Contains("sigma2 = 0"));
  CHECK_THROWS_WITH(gaussian_capacity_peak(1, 1.0, -2.0), Contains("sigma2 = -2"));
  CHECK_THROWS_WITH(gaussian_capacity_peak(0, 1.0, 1.0), Contains("d = 0"));
  CHECK_THROWS_WITH(gaussian_capacity_peak(1, 0.0, 1.0), Contains("bound = 0") && !Contains("delta_bound"));
  CHECK_THROWS_WITH(gaussian_sigma2_for_capacity(-1.0, 10, 1.0), Contains("mu = -1"));
  CHECK_THROWS_WITH(gaussian_sigma2_for_capacity(0.1, 0, 1.0), Contains("d = 0"));
  CHECK_THROWS_WITH(gaussian_mixture_mutual_information(xs, good, 0.0), Contains("sigma2 = 0"));
  CHECK_THROWS_WITH(gaussian_mixture_mutual_information(xs, good, -1.0), Contains("sigma2 = -1"));
  CHECK_THROWS_WITH(gaussian_mixture_mutual_information(xs, bad_sum, 1.0), Contains("prior sums to 1.1"));
  CHECK_THROWS_WITH(gaussian_mixture_mutual_information(xs, negative, 1.0), Contains("prior[1] = -0.5"));
  CHECK_THROWS_WITH(gaussian_mixture_mutual_information(xs, three, 1.0),
                    Contains("prior has 3 entries but points has 2"));
  CHECK_THROWS_WITH(gaussian_mixture_lip_delta(xs, bad_sum, 1.0, 0.5), Contains("prior sums to 1.1"));
  CHECK_THROWS_WITH(gaussian_mixture_lip_delta(xs, good, 1.0, kNaN), Contains("epsilon = NaN"));
  CHECK_THROWS_WITH(gaussian_mixture_lip_delta(xs, three, 1.0, 0.5), Contains("points has 2"));
}
