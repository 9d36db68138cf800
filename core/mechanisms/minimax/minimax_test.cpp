// Park–Asoodeh–Lee finite-space samplers: Q*_{k,ε} (MinimaxSampler) and Q† (LinearSampler).
// Reference values: core/mechanisms/minimax/README.md, core/mechanisms/linear/README.md, docs/experiments.md#park-et-al and the
// global columns of core/mechanisms/local/README.md#reference-values.
#include "privsample.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "model/divergence.hpp"
#include "model/histogram.hpp"
#include "base/numeric.hpp"
#include "privacy/privacy.hpp"
#include "golden.hpp"
#include "test_support.hpp"

using namespace privsample;
using namespace privsample_test;

namespace {

struct DivergenceUnderTest {
  std::string name;
  FDivergence f;
  std::optional<NamedDivergence> named;

  [[nodiscard]] double of(std::span<const double> p, std::span<const double> q) const {
    return named ? divergence(*named, p, q) : divergence(f, p, q);
  }
  [[nodiscard]] double minimax_risk(std::size_t k, double epsilon) const {
    return named ? finite_minimax_risk(*named, k, epsilon) : finite_minimax_risk(f, k, epsilon);
  }
};

std::vector<DivergenceUnderTest> divergences_under_test() {
  return {{"kl", f_divergence(NamedDivergence::kl), NamedDivergence::kl},
          {"tv", f_divergence(NamedDivergence::tv), NamedDivergence::tv},
          {"hellinger", f_divergence(NamedDivergence::hellinger), NamedDivergence::hellinger},
          {"chi2", f_divergence(NamedDivergence::chi2), NamedDivergence::chi2},
          {"jensen-shannon (custom)", jensen_shannon(), std::nullopt},
          {"le cam (custom)", le_cam(), std::nullopt},
          {"x log x - x + 1 (custom)", shifted_kl(), std::nullopt}};
}

// (e^ε + k − 1)/e^ε, the right end of the bracket of r_P, at the effective ε.
double right_end(std::size_t k, double epsilon) {
  return 1.0 + static_cast<double>(k - 1) * std::exp(-effective_epsilon(epsilon));
}

// The k-RR / Q† formula ((e^ε−1)P(x) + 1)/(e^ε + k − 1), written with e^{−ε} in long double.
long double k_rr(double p, std::size_t k, double epsilon) {
  const long double shrink = std::exp(-static_cast<long double>(effective_epsilon(epsilon)));
  return ((1.0L - shrink) * p + shrink) / (1.0L + static_cast<long double>(k - 1) * shrink);
}

double relative_gap(double got, long double want) {
  if (want == 0.0L) return std::fabs(got);
  return static_cast<double>(std::fabs((static_cast<long double>(got) - want) / want));
}

// |got − want| in units of (1e-12·want + 1e-14): <= 1 means "equal to 1e-12 relative, or to 1e-14 absolute"
// (Σq = 1 is only reachable to ~k ulp of 1, so an entry much smaller than 1 has a larger relative error).
double scaled_gap(double got, long double want) {
  return static_cast<double>(std::fabs(static_cast<long double>(got) - want) / (1e-12L * want + 1e-14L));
}

// A random point of the box [ℓ, u]^k ∩ simplex: ℓ + (u − ℓ)·(θD + (1−θ)/k) for a pmf D (the image of Q†).
std::vector<double> random_box_point(std::size_t k, const FiniteBox& box, std::mt19937_64& rng, bool on_edge) {
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  std::vector<double> d(k);
  if (on_edge) {
    std::fill(d.begin(), d.end(), 0.0);
    d[std::uniform_int_distribution<std::size_t>(0, k - 1)(rng)] = 1.0;
  } else {
    for (double& v : d) v = -std::log(1.0 - u01(rng));
  }
  const double total = compensated_total(d);
  const double theta = on_edge ? 1.0 : u01(rng);
  std::vector<double> p(k);
  const double width = box.ceiling - box.floor;
  for (std::size_t x = 0; x < k; ++x) {
    p[x] = box.floor + width * (theta * d[x] / total + (1.0 - theta) / static_cast<double>(k));
  }
  return p;
}

struct Pool {
  double largest = 0.0;
  double smallest = kInf;
  void add(const std::vector<double>& q) {
    for (double v : q) {
      largest = std::max(largest, v);
      smallest = std::min(smallest, v);
    }
  }
};

// Pure ε-LDP over all inputs seen: max over inputs and x of q / min over inputs and x of q <= e^ε.
void check_ratio(const Pool& pool, double epsilon) {
  const double eps = effective_epsilon(epsilon);
  INFO("largest q " << pool.largest << ", smallest q " << pool.smallest << ", effective epsilon " << eps);
  CHECK(pool.smallest > 0.0);
  CHECK(std::log(pool.largest) - std::log(pool.smallest) <= eps + 1e-12);
  if (eps < 709.0) CHECK(pool.largest <= std::exp(eps) * pool.smallest * (1.0 + 1e-12));
}

}  // namespace

// ---- golden values --------------------------------------------------------------------------------------------

TEST_CASE("minimax: golden Q* test vectors (q and r_P), tests/golden/minimax.json", "[minimax][vectors]") {
  const auto golden = read_golden("minimax.json")["qstar"];
  const double tolerance = golden["tolerance"].get<double>() + 1e-12;
  REQUIRE(golden["vectors"].size() == 7);
  for (const auto& v : golden["vectors"]) {
    const auto p = v["p"].get<std::vector<double>>();
    const auto want = v["q"].get<std::vector<double>>();
    const double epsilon = v["epsilon"].get<double>();
    INFO("P = " << Catch::Detail::stringify(p) << ", epsilon = " << epsilon);
    const MinimaxSampler sampler(epsilon);
    const ClipNormalised solved = sampler.solve(p);
    REQUIRE(solved.q.size() == want.size());
    for (std::size_t x = 0; x < want.size(); ++x) CHECK(solved.q[x] == Approx(want[x]).margin(tolerance).epsilon(0));
    CHECK(sampler.normaliser(p) == Approx(v["r"].get<double>()).margin(tolerance).epsilon(0));
    CHECK(sampler.distribution(p) == solved.q);
    CHECK(std::fabs(compensated_total(solved.q) - 1.0) <= 1e-12);
  }
  SECTION("uniform P with epsilon = 0 is still Q* = P") {
    const std::vector<double> p(4, 0.25);
    CHECK(MinimaxSampler(0.0).distribution(p) == std::vector<double>(4, 0.25));
  }
}

TEST_CASE("minimax: solve() reports r_P = 1/scale between 1 and (e^eps+k-1)/e^eps, point masses included",
          "[minimax][vectors]") {
  // A root of Σ max(s·P, ℓ) = 1 always exists in the finite space (F(∞) = u + (k−1)ℓ = 1 even for a point
  // mass; docs/solvers/clip-normalise.md#case-b-sparse-support: never for the finite uniform box), so solve() is Case A
  // and its scale is the smallest root, s = 1/r_P with r_P = (e^ε+k−1)/e^ε for a point mass (core/mechanisms/minimax/README.md#reference-values: 2.471518).
  for (double eps : {0.5, 1.0, 2.0}) {
    for (std::size_t k : {std::size_t{2}, std::size_t{5}, std::size_t{10}}) {
      for (const auto& p : {point_mass(k, 0), point_mass(k, k - 1), uniform(k)}) {
        INFO("epsilon = " << eps << ", k = " << k << ", P = " << Catch::Detail::stringify(p));
        const ClipNormalised solved = MinimaxSampler(eps).solve(p);
        CHECK(solved.kind == ClipCase::root);
        const double r = 1.0 / solved.scale;
        CHECK(r >= 1.0 - 1e-12);
        CHECK(r <= right_end(k, eps) * (1.0 + 1e-12));
        CHECK(r == Approx(MinimaxSampler(eps).normaliser(p)).epsilon(1e-12));
      }
    }
  }
  const ClipNormalised spec = MinimaxSampler(1.0).solve(std::vector<double>{1, 0, 0, 0, 0});
  CHECK(spec.kind == ClipCase::root);
  CHECK(1.0 / spec.scale == Approx(2.471518).margin(half_unit(6)).epsilon(0));
}

TEST_CASE("minimax: the point mass of core/mechanisms/minimax/README.md attains the risk (D_KL, D_TV, H^2)", "[minimax][vectors]") {
  const MinimaxSampler sampler(1.0);
  const std::vector<double> p{1, 0, 0, 0, 0};
  const std::vector<double> q = sampler.distribution(p);
  CHECK(divergence(NamedDivergence::kl, p, q) == Approx(0.904832).margin(half_unit(6)).epsilon(0));
  CHECK(divergence(NamedDivergence::tv, p, q) == Approx(0.595390).margin(half_unit(6)).epsilon(0));
  CHECK(divergence(NamedDivergence::hellinger, p, q) == Approx(0.363911).margin(half_unit(6)).epsilon(0));
  CHECK(sampler.worst_case_risk(NamedDivergence::kl, 5) == Approx(0.904832).margin(half_unit(6)).epsilon(0));
  CHECK(sampler.worst_case_risk(NamedDivergence::tv, 5) == Approx(0.595390).margin(half_unit(6)).epsilon(0));
  CHECK(sampler.worst_case_risk(NamedDivergence::hellinger, 5) == Approx(0.363911).margin(half_unit(6)).epsilon(0));
  for (auto f : {NamedDivergence::kl, NamedDivergence::tv, NamedDivergence::hellinger, NamedDivergence::chi2}) {
    INFO(divergence_name(f));
    CHECK(divergence(f, p, q) == Approx(sampler.worst_case_risk(f, 5)).epsilon(1e-12));
  }
}

TEST_CASE("minimax: Fig 2 table, k = 5, P = (.3,.25,.2,.15,.1), tests/golden/minimax.json", "[minimax][vectors]") {
  const auto figure = read_golden("minimax.json")["figure2"];
  const auto p = figure["p"].get<std::vector<double>>();
  REQUIRE(figure["rows"].size() == 3);
  for (const auto& row : figure["rows"]) {
    const double epsilon = row["epsilon"].get<double>();
    INFO("epsilon = " << epsilon);
    const MinimaxSampler sampler(epsilon);
    const std::vector<double> q = sampler.distribution(p);
    const auto want = row["q"].get<std::vector<double>>();
    for (std::size_t x = 0; x < 5; ++x) CHECK(q[x] == Approx(want[x]).margin(row["q_tolerance"].get<double>() + 1e-12).epsilon(0));
    CHECK(sampler.normaliser(p) == Approx(row["r"].get<double>()).margin(figure["r_tolerance"].get<double>() + 1e-12).epsilon(0));
  }
  // Q* flattens toward uniform as ε → 0
  const std::vector<double> flat = MinimaxSampler(0.1).distribution(p);
  const std::vector<double> sharp = MinimaxSampler(1.0).distribution(p);
  CHECK(*std::max_element(flat.begin(), flat.end()) < *std::max_element(sharp.begin(), sharp.end()));
}

TEST_CASE("minimax: proposed worst-case risks to the printed 4 digits, tests/golden/minimax.json",
          "[minimax][vectors][risk]") {
  const RiskTable risks = read_risk_table("minimax.json", "risks");
  const std::vector<double>& eps = risks.epsilons;
  const double tolerance = risks.tolerance;
  REQUIRE(risks.rows.size() == 13);
  for (const RiskRow& row : risks.rows) {
    for (std::size_t i = 0; i < eps.size(); ++i) {
      INFO("k = " << row.k << ", f = " << divergence_name(row.f) << ", epsilon = " << eps[i]);
      CHECK(finite_minimax_risk(row.f, row.k, eps[i]) == Approx(row.values[i]).margin(tolerance).epsilon(0));
      // the generic chord formula (Thm 3.1) agrees with the closed forms
      CHECK(finite_minimax_risk(f_divergence(row.f), row.k, eps[i]) ==
            Approx(finite_minimax_risk(row.f, row.k, eps[i])).epsilon(1e-10));
      CHECK(MinimaxSampler(eps[i]).worst_case_risk(row.f, row.k) == finite_minimax_risk(row.f, row.k, eps[i]));
      CHECK(LinearSampler(eps[i]).worst_case_risk(row.f, row.k) ==
            Approx(finite_minimax_risk(row.f, row.k, eps[i])).epsilon(1e-12));
    }
  }
}

TEST_CASE("minimax: Q-dagger (k-RR) vector, tests/golden/minimax.json", "[minimax][vectors][linear]") {
  const auto krr = read_golden("minimax.json")["krr"];
  const auto p = krr["p"].get<std::vector<double>>();
  const auto want = krr["q"].get<std::vector<double>>();
  const std::vector<double> q = LinearSampler(krr["epsilon"].get<double>()).distribution(p);
  REQUIRE(q.size() == 5);
  for (std::size_t x = 0; x < 5; ++x) CHECK(q[x] == Approx(want[x]).margin(krr["tolerance"].get<double>() + 1e-12).epsilon(0));
  // Prop 3.4 on this P: Q* is at least as close as Q† for every f
  const std::vector<double> star = MinimaxSampler(1.0).distribution(p);
  for (auto f : {NamedDivergence::kl, NamedDivergence::tv, NamedDivergence::hellinger, NamedDivergence::chi2}) {
    INFO(divergence_name(f));
    CHECK(divergence(f, p, star) <= divergence(f, p, q));
  }
}

TEST_CASE("minimax: global Park clip and global linear columns of core/mechanisms/local/README.md's vectors (k = 4, eps = 1)",
          "[minimax][vectors]") {
  const MinimaxSampler clip(1.0);
  const LinearSampler linear(1.0);
  struct Row {
    std::vector<double> p;
    std::vector<double> clip_q;
    double clip_r;  // 0: not printed
    std::vector<double> linear_q;
  };
  const std::vector<Row> rows{
      {{0.7, 0.1, 0.1, 0.1}, {0.475367, 0.174878, 0.174878, 0.174878}, 1.472547, {0.385220, 0.204927, 0.204927, 0.204927}},
      {{0, 0, 0, 1}, {0.174878, 0.174878, 0.174878, 0.475367}, 0.0, {0.174878, 0.174878, 0.174878, 0.475367}},
      {{0.4, 0.3, 0.2, 0.1}, {0.366721, 0.275041, 0.183361, 0.174878}, 1.090747, {}},
  };
  for (const auto& row : rows) {
    INFO("P = " << Catch::Detail::stringify(row.p));
    const std::vector<double> q = clip.distribution(row.p);
    for (std::size_t x = 0; x < 4; ++x) CHECK(q[x] == Approx(row.clip_q[x]).margin(half_unit(6)).epsilon(0));
    if (row.clip_r > 0.0) CHECK(clip.normaliser(row.p) == Approx(row.clip_r).margin(half_unit(6)).epsilon(0));
    if (!row.linear_q.empty()) {
      const std::vector<double> lq = linear.distribution(row.p);
      for (std::size_t x = 0; x < 4; ++x) CHECK(lq[x] == Approx(row.linear_q[x]).margin(half_unit(6)).epsilon(0));
    }
  }
  // the linear weight of this column: γ = (e − 1)/(e + 3) = 0.300489
  const std::vector<double> at_zero = linear.distribution(std::vector<double>{0, 1, 0, 0});
  CHECK(at_zero[1] - at_zero[0] == Approx(0.300489).margin(half_unit(6)).epsilon(0));
}

TEST_CASE("minimax: finite_minimax_box", "[minimax]") {
  for (std::size_t k : {std::size_t{1}, std::size_t{2}, std::size_t{5}, std::size_t{1000}, std::size_t{1000000}}) {
    for (double eps : epsilon_grid()) {
      INFO("k = " << k << ", epsilon = " << eps);
      const FiniteBox box = finite_minimax_box(k, eps);
      CHECK(within_ratio(box.ceiling, box.floor, effective_epsilon(eps)));  // u <= e^ε·ℓ for the doubles
      const long double shrink = std::exp(-static_cast<long double>(effective_epsilon(eps)));
      const long double denominator = 1.0L + static_cast<long double>(k - 1) * shrink;
      CHECK(relative_gap(box.floor, shrink / denominator) <= 1e-14);   // 1/(e^ε+k−1)
      CHECK(relative_gap(box.ceiling, 1.0L / denominator) <= 1e-14);  // e^ε/(e^ε+k−1)
      CHECK(box.floor > 0.0);
      CHECK(box.floor <= box.ceiling);
      CHECK(box.ceiling <= 1.0);
      // the box holds a pmf: kℓ <= 1 <= ku, and u = 1 − (k−1)ℓ
      CHECK(static_cast<double>(k) * box.floor <= 1.0 + 1e-15);
      CHECK(box.ceiling + static_cast<double>(k - 1) * box.floor == Approx(1.0).epsilon(1e-15));
    }
  }
  CHECK(finite_minimax_box(7, 1000.0).floor == finite_minimax_box(7, 700.0).floor);
  CHECK(finite_minimax_box(7, 0.0).floor == finite_minimax_box(7, 0.0).ceiling);
}

// ---- edge cases -----------------------------------------------------------------------------------------------

TEST_CASE("minimax: k = 1 gives q = {1}, epsilon = 0 gives the uniform pmf", "[minimax][edge]") {
  for (double eps : epsilon_grid()) {
    INFO("epsilon = " << eps);
    const MinimaxSampler sampler(eps);
    for (double count : {1.0, 1e-300, 1e300, 5e-324, 42.0}) {
      CHECK(sampler.distribution(std::vector<double>{count}) == std::vector<double>{1.0});
      CHECK(LinearSampler(eps).distribution(std::vector<double>{count}) == std::vector<double>{1.0});
    }
    CHECK(sampler.normaliser(std::vector<double>{3.0}) == 1.0);  // the bracket [1, (e^ε+k−1)/e^ε] is {1}
    CHECK(sampler.worst_case_risk(NamedDivergence::kl, 1) == 0.0);
    CHECK(sampler.worst_case_risk(NamedDivergence::chi2, 1) == 0.0);
    CHECK(finite_minimax_risk(jensen_shannon(), 1, eps) == Approx(0.0).margin(1e-15).epsilon(0));
  }
  std::mt19937_64 rng(11);
  for (std::size_t k : {std::size_t{2}, std::size_t{3}, std::size_t{10}, std::size_t{1000}}) {
    const MinimaxSampler star(0.0);
    const LinearSampler dagger(0.0);
    for (const auto& h : structured_histograms(k, rng)) {
      INFO("k = " << k << ", " << h.label);
      for (const auto& q : {star.distribution(h.counts), dagger.distribution(h.counts)}) {
        double worst = 0.0;
        for (double v : q) worst = std::max(worst, relative_gap(v, 1.0L / static_cast<long double>(k)));
        CHECK(worst <= 1e-15);
      }
    }
    // ε → 0: R = (1/k) f(k) + (1 − 1/k) f(0); KL: log k, TV: 1 − 1/k, χ²: k − 1
    CHECK(finite_minimax_risk(NamedDivergence::kl, k, 0.0) == Approx(std::log(static_cast<double>(k))).epsilon(1e-14));
    CHECK(finite_minimax_risk(NamedDivergence::tv, k, 0.0) == Approx(1.0 - 1.0 / static_cast<double>(k)).epsilon(1e-14));
    CHECK(finite_minimax_risk(NamedDivergence::chi2, k, 0.0) == Approx(static_cast<double>(k - 1)).epsilon(1e-14));
  }
}

TEST_CASE("minimax: epsilon above 640 runs at 640 (no overflow, positive floor)", "[minimax][edge]") {
  const std::vector<double> p{0.5, 0.3, 0.2, 0, 0};
  const MinimaxSampler at640(640.0);
  const MinimaxSampler at1000(1000.0);
  CHECK(at1000.distribution(p) == at640.distribution(p));
  CHECK(LinearSampler(1000.0).distribution(p) == LinearSampler(640.0).distribution(p));
  const std::vector<double> q = at1000.distribution(p);
  CHECK(q[3] > 0.0);
  CHECK(q[3] == finite_minimax_box(5, 640.0).floor);
  CHECK(std::isnormal(q[3]));
  for (std::size_t x = 0; x < 3; ++x) CHECK(q[x] == Approx(p[x]).epsilon(1e-15));
  CHECK(at1000.epsilon() == 1000.0);  // the stated parameter is kept
  CHECK(at1000.guarantee().epsilon == 1000.0);
  CHECK(at1000.guarantee().notion == PrivacyNotion::pure_ldp);
  for (auto f : {NamedDivergence::kl, NamedDivergence::tv, NamedDivergence::hellinger, NamedDivergence::chi2}) {
    const double r = finite_minimax_risk(f, 5, 1000.0);
    CHECK(std::isfinite(r));
    CHECK(r >= 0.0);
    CHECK(r == finite_minimax_risk(f, 5, 640.0));
    CHECK(r <= 1e-270);
  }
}

// ---- properties -----------------------------------------------------------------------------------------------

TEST_CASE("minimax: properties over >= 10,000 random and adversarial histograms", "[minimax][property]") {
  const std::vector<std::size_t> ks{1, 2, 3, 4, 5, 7, 10, 16, 50, 100, 1000};
  constexpr std::size_t kPerCombination = 150;
  const auto fs = divergences_under_test();
  std::mt19937_64 rng(20240601);
  std::size_t histograms = 0;

  for (double eps : epsilon_grid()) {
    const MinimaxSampler star(eps);
    const LinearSampler dagger(eps);
    for (std::size_t k : ks) {
      const FiniteBox box = finite_minimax_box(k, eps);
      std::vector<double> risk;
      for (const auto& f : fs) risk.push_back(f.minimax_risk(k, eps));
      std::vector<Histogram> inputs = structured_histograms(k, rng);
      for (int shape = 0; inputs.size() < kPerCombination; ++shape) inputs.push_back(random_histogram(k, rng, shape));
      Pool star_pool;
      Pool dagger_pool;
      for (const auto& h : inputs) {
        INFO("epsilon = " << eps << ", k = " << k << ", input: " << h.label
                            << (k <= 5 ? ", counts " + Catch::Detail::stringify(h.counts) : std::string()));
        ++histograms;
        const std::vector<double> p = normalized_pmf(h.counts);
        const ClipNormalised solved = star.solve(h.counts);
        const std::vector<double>& q = solved.q;
        const std::vector<double> qd = dagger.distribution(h.counts);
        REQUIRE(q.size() == k);
        REQUIRE(qd.size() == k);

        // Σq = 1 and ℓ <= q <= u exactly (hence q > 0 and the ratio bound)
        CHECK(std::fabs(compensated_total(q) - 1.0) <= 1e-12);
        CHECK(std::fabs(compensated_total(qd) - 1.0) <= 1e-12);
        std::size_t outside = 0;
        for (std::size_t x = 0; x < k; ++x) {
          outside += !(q[x] > 0.0 && q[x] >= box.floor && q[x] <= box.ceiling);
          outside += !(qd[x] > 0.0 && qd[x] >= box.floor && qd[x] <= box.ceiling);
        }
        CHECK(outside == 0);
        star_pool.add(q);
        dagger_pool.add(qd);

        // Q* against the exact water-filling algorithm (core/mechanisms/minimax/README.md#exact-solver); Q† against the k-RR formula
        const std::vector<long double> reference = water_filling(p, eps);
        double worst_star = 0.0;
        double worst_dagger = 0.0;
        for (std::size_t x = 0; x < k; ++x) {
          worst_star = std::max(worst_star, scaled_gap(q[x], reference[x]));
          worst_dagger = std::max(worst_dagger, relative_gap(qd[x], k_rr(p[x], k, eps)));
        }
        CHECK(worst_star <= 1.0);
        CHECK(worst_dagger <= 1e-13);

        // q = max(P/r_P, ℓ) with r_P in [1, (e^ε+k−1)/e^ε]
        if (eps > 0.0 && k >= 2) {
          const double r = star.normaliser(h.counts);
          CHECK(r >= 1.0 - 1e-12);
          CHECK(r <= right_end(k, eps) * (1.0 + 1e-12));
          double worst_form = 0.0;
          std::size_t worst_x = 0;
          for (std::size_t x = 0; x < k; ++x) {
            const double gap =
                scaled_gap(q[x], std::max(static_cast<long double>(p[x]) / r, static_cast<long double>(box.floor)));
            if (gap > worst_form) {
              worst_form = gap;
              worst_x = x;
            }
          }
          INFO("r = " << r << "; at x = " << worst_x << ": P = " << p[worst_x] << ", q = " << q[worst_x]
                      << ", P/r = " << p[worst_x] / r << ", floor = " << box.floor << ", ceiling = " << box.ceiling);
          CHECK(worst_form <= 1.0);
        }

        // D_f(P‖Q*) <= R (Thm 3.1), D_f(P‖Q*) <= D_f(P‖Q†) (Prop 3.4), D_f(P‖Q*) <= D_f(P‖Q) for a random Q
        // of the box (Q* is the f-projection). Slack: 1e-12 relative plus 1e-15 absolute for the rounding of
        // a divergence that is mathematically 0 (P inside the box, or ε >= 700).
        const std::vector<double> other = random_box_point(k, box, rng, false);
        for (std::size_t i = 0; i < fs.size(); ++i) {
          INFO("f = " << fs[i].name << ", R = " << risk[i]);
          const double d_star = fs[i].of(p, q);
          const double d_dagger = fs[i].of(p, qd);
          const double d_other = fs[i].of(p, other);
          CHECK(d_star >= -1e-15);
          CHECK(d_star <= risk[i] * (1.0 + 1e-12) + 1e-15);
          CHECK(d_dagger <= risk[i] * (1.0 + 1e-12) + 1e-15);
          CHECK(d_star <= d_dagger * (1.0 + 1e-12) + 1e-15);
          CHECK(d_star <= d_other * (1.0 + 1e-12) + 1e-15);
        }
      }
      INFO("epsilon = " << eps << ", k = " << k << " (ratio over " << inputs.size() << " inputs)");
      check_ratio(star_pool, eps);
      check_ratio(dagger_pool, eps);
    }
  }
  CHECK(histograms >= 10000);
}

TEST_CASE("minimax: Q*(P) = P when P already lies in the box", "[minimax][property]") {
  std::mt19937_64 rng(7);
  const std::vector<std::size_t> ks{2, 3, 5, 10, 64, 1000};
  for (double eps : epsilon_grid()) {
    if (eps == 0.0) continue;  // the box is the single point uniform(k): covered by the edge-case test
    const MinimaxSampler sampler(eps);
    for (std::size_t k : ks) {
      const FiniteBox box = finite_minimax_box(k, eps);
      for (int i = 0; i < 40; ++i) {
        const bool on_edge = i % 4 == 0;  // k-RR outputs: one atom at u, the rest exactly at ℓ
        const std::vector<double> hist = random_box_point(k, box, rng, on_edge);
        INFO("epsilon = " << eps << ", k = " << k << (on_edge ? ", on the edge of the box" : ", inside the box"));
        const std::vector<double> p = normalized_pmf(hist);
        const std::vector<double> q = sampler.distribution(hist);
        double worst = 0.0;
        for (std::size_t x = 0; x < k; ++x) worst = std::max(worst, std::fabs(q[x] - p[x]));
        CHECK(worst <= 1e-15);
        CHECK(sampler.normaliser(hist) == Approx(1.0).margin(1e-14).epsilon(0));
        CHECK(divergence(NamedDivergence::kl, p, q) <= 1e-15);
      }
    }
  }
}

TEST_CASE("minimax: a point mass maps to k-RR and attains the worst-case risk", "[minimax][property]") {
  const auto fs = divergences_under_test();
  for (double eps : epsilon_grid()) {
    const MinimaxSampler sampler(eps);
    for (std::size_t k : {std::size_t{2}, std::size_t{3}, std::size_t{5}, std::size_t{10}, std::size_t{1000},
                          std::size_t{100000}}) {
      const FiniteBox box = finite_minimax_box(k, eps);
      for (std::size_t x : {std::size_t{0}, k / 2, k - 1}) {
        INFO("epsilon = " << eps << ", k = " << k << ", point mass at " << x);
        const std::vector<double> p = point_mass(k, x);
        const std::vector<double> q = sampler.distribution(p);
        // k-RR: e^ε/(e^ε+k−1) at x, 1/(e^ε+k−1) elsewhere; Q† of a point mass is the same pmf
        CHECK(relative_gap(q[x], k_rr(1.0, k, eps)) <= 1e-14);
        double floor_gap = 0.0;
        for (std::size_t y = 0; y < k; ++y) {
          if (y != x) floor_gap = std::max(floor_gap, scaled_gap(q[y], static_cast<long double>(box.floor)));
        }
        CHECK(floor_gap <= 1.0);
        const std::vector<double> qd = LinearSampler(eps).distribution(p);
        double gap = 0.0;
        for (std::size_t y = 0; y < k; ++y) gap = std::max(gap, scaled_gap(qd[y], static_cast<long double>(q[y])));
        CHECK(gap <= 1.0);
        if (eps > 0.0) CHECK(sampler.normaliser(p) == Approx(right_end(k, eps)).epsilon(1e-12));
        for (const auto& f : fs) {
          INFO("f = " << f.name);
          CHECK(f.of(p, q) == Approx(f.minimax_risk(k, eps)).epsilon(1e-9).margin(1e-12));
        }
      }
    }
  }
}

// ---- large k --------------------------------------------------------------------------------------------------

namespace {

// Everything that characterises Q* for one large input, without an O(k log k) reference: ℓ <= q <= u,
// Σq = 1, q = max(P/r, ℓ) with r in its bracket (which together determine Q* uniquely).
void check_large_output(const MinimaxSampler& sampler, const std::vector<double>& hist, double eps,
                        Pool& pool) {
  const std::size_t k = hist.size();
  const FiniteBox box = finite_minimax_box(k, eps);
  const std::vector<double> p = normalized_pmf(hist);
  const ClipNormalised solved = sampler.solve(hist);
  const std::vector<double>& q = solved.q;
  REQUIRE(q.size() == k);
  CHECK(std::fabs(compensated_total(q) - 1.0) <= 1e-12);
  std::size_t outside = 0;
  for (double v : q) outside += !(v > 0.0 && v >= box.floor && v <= box.ceiling);
  CHECK(outside == 0);
  pool.add(q);
  if (eps > 0.0) {
    const double r = sampler.normaliser(hist);
    CHECK(r >= 1.0 - 1e-12);
    CHECK(r <= right_end(k, eps) * (1.0 + 1e-12));
    double worst = 0.0;
    for (std::size_t x = 0; x < k; ++x) {
      worst = std::max(worst, scaled_gap(q[x], std::max(static_cast<long double>(p[x]) / r,
                                                        static_cast<long double>(box.floor))));
    }
    CHECK(worst <= 1.0);
  } else {
    for (double v : q) outside += v != box.floor;
    CHECK(outside == 0);
  }
}

}  // namespace

TEST_CASE("minimax: k = 10^6 with random, sparse, point-mass and in-box inputs", "[minimax][large]") {
  constexpr std::size_t k = 1'000'000;
  std::mt19937_64 rng(1000000);
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  std::uniform_int_distribution<std::size_t> any(0, k - 1);
  std::vector<double> random(k);
  for (double& v : random) v = u01(rng);
  std::vector<double> sparse(k, 0.0);
  for (int i = 0; i < 100; ++i) sparse[any(rng)] = std::floor(1.0 + 1000.0 * u01(rng));
  std::vector<double> zipf(k);
  for (std::size_t x = 0; x < k; ++x) zipf[x] = 1.0 / std::pow(static_cast<double>(x + 1), 1.1);
  const std::size_t atom = any(rng);
  const std::vector<double> point = point_mass(k, atom, 7.0);

  for (double eps : epsilon_grid()) {
    INFO("epsilon = " << eps);
    const MinimaxSampler sampler(eps);
    const FiniteBox box = finite_minimax_box(k, eps);
    const double r_kl = finite_minimax_risk(NamedDivergence::kl, k, eps);
    const double r_tv = finite_minimax_risk(NamedDivergence::tv, k, eps);
    Pool pool;
    for (const std::vector<double>* hist : {&std::as_const(random), &std::as_const(sparse), &std::as_const(zipf), &point}) {
      INFO((hist == &random ? "random" : hist == &sparse ? "sparse" : hist == &zipf ? "zipf" : "point mass"));
      check_large_output(sampler, *hist, eps, pool);
    }
    // a point mass: k-RR
    const std::vector<double> q_point = sampler.distribution(point);
    CHECK(relative_gap(q_point[atom], k_rr(1.0, k, eps)) <= 1e-13);
    CHECK(divergence(NamedDivergence::kl, point, q_point) == Approx(r_kl).epsilon(1e-9).margin(1e-12));
    CHECK(divergence(NamedDivergence::tv, point, q_point) == Approx(r_tv).epsilon(1e-9).margin(1e-12));
    // sparse: D_f <= R and <= D_f(P‖Q†)
    const std::vector<double> q_sparse = sampler.distribution(sparse);
    const std::vector<double> qd_sparse = LinearSampler(eps).distribution(sparse);
    for (auto f : {NamedDivergence::kl, NamedDivergence::tv}) {
      INFO(divergence_name(f));
      const double d_star = divergence(f, sparse, q_sparse);
      CHECK(d_star <= finite_minimax_risk(f, k, eps) * (1.0 + 1e-12) + 1e-15);
      CHECK(d_star <= divergence(f, sparse, qd_sparse) * (1.0 + 1e-12) + 1e-15);
    }
    // in the box: Q*(P) = P
    if (eps > 0.0) {
      const std::vector<double> inside = random_box_point(k, box, rng, false);
      const std::vector<double> p = normalized_pmf(inside);
      const std::vector<double> q = sampler.distribution(inside);
      double worst = 0.0;
      for (std::size_t x = 0; x < k; ++x) worst = std::max(worst, std::fabs(q[x] - p[x]));
      CHECK(worst <= 1e-15);
    }
    check_ratio(pool, eps);
  }
  SECTION("water-filling reference at k = 10^6") {
    for (double eps : {0.1, 1.0, 10.0}) {
      INFO("epsilon = " << eps);
      const std::vector<double> p = normalized_pmf(random);
      const std::vector<double> q = MinimaxSampler(eps).distribution(random);
      const std::vector<long double> reference = water_filling(p, eps);
      double worst = 0.0;
      for (std::size_t x = 0; x < k; ++x) worst = std::max(worst, scaled_gap(q[x], reference[x]));
      CHECK(worst <= 1.0);
    }
  }
}

TEST_CASE("minimax: k = 10^7 (kMaxCategories) with sparse and random inputs", "[minimax][large]") {
  constexpr std::size_t k = kMaxCategories;
  std::mt19937_64 rng(10000000);
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  std::uniform_int_distribution<std::size_t> any(0, k - 1);
  Pool pool;
  {
    std::vector<double> sparse(k, 0.0);
    for (int i = 0; i < 100; ++i) sparse[any(rng)] = std::floor(1.0 + 1000.0 * u01(rng));
    sparse[k - 1] = 5000.0;
    check_large_output(MinimaxSampler(1.0), sparse, 1.0, pool);
  }
  {
    std::vector<double> random(k);
    for (double& v : random) v = u01(rng);
    check_large_output(MinimaxSampler(1.0), random, 1.0, pool);
  }
  check_ratio(pool, 1.0);
  {
    Pool extreme;
    const std::vector<double> point = point_mass(k, 12345);
    check_large_output(MinimaxSampler(1000.0), point, 1000.0, extreme);
    const std::vector<double> q = MinimaxSampler(1000.0).distribution(point);
    CHECK(relative_gap(q[12345], k_rr(1.0, k, 1000.0)) <= 1e-14);
    CHECK(q[0] == finite_minimax_box(k, 700.0).floor);
    check_ratio(extreme, 1000.0);
  }
}

TEST_CASE("minimax: masses far below the floor at every sampled pivot position (k = 2048)", "[minimax][edge]") {
  // Valid counts: 1e-320 at every third atom, 1 elsewhere. After normalising, the tiny atoms have breakpoints
  // ℓ/p = u/p = +∞ in double; they are exactly the atoms a strided pivot sample looks at first.
  std::vector<double> hist(2048, 1.0);
  for (std::size_t x = 0; x < hist.size(); x += 3) hist[x] = 1e-320;
  for (double eps : {0.1, 1.0, 10.0}) {
    INFO("epsilon = " << eps);
    const MinimaxSampler sampler(eps);
    const std::vector<double> q = sampler.distribution(hist);
    const FiniteBox box = finite_minimax_box(hist.size(), eps);
    const std::vector<long double> reference = water_filling(normalized_pmf(hist), eps);
    double worst = 0.0;
    std::size_t outside = 0;
    for (std::size_t x = 0; x < q.size(); ++x) {
      worst = std::max(worst, scaled_gap(q[x], reference[x]));
      outside += !(q[x] >= box.floor && q[x] <= box.ceiling);
    }
    CHECK(worst <= 1.0);
    CHECK(outside == 0);
    CHECK(std::fabs(compensated_total(q) - 1.0) <= 1e-12);
  }
}

TEST_CASE("minimax: distribution() and distribution_into give the bits of clip_normalise(normalized_pmf(hist))",
          "[minimax][distribution_into]") {
  // distribution() solves in its output buffer, without the normalised copy it solved before: the same p and the same
  // solve, so the same q and release to the last bit, for random and adversarial histograms.
  std::mt19937_64 rng(20261127);
  for (const std::size_t k : {1, 2, 3, 7, 100, 128, 129, 1000, 5000}) {
    for (int shape = 0; shape < 8; ++shape) {
      const std::vector<double> hist = shaped_histogram(rng, k, shape);
      const std::vector<double> p = normalized_pmf(hist);
      for (const double epsilon : {0.0, 0.1, 1.0, 5.0, 20.0}) {
        INFO("k = " << k << ", shape " << shape << ", eps = " << epsilon);
        const MinimaxSampler sampler(epsilon);
        const FiniteBox box = finite_minimax_box(k, epsilon);
        const UniformBox uniform{k, box.floor, box.ceiling};
        const std::vector<double> before = clip_normalise(p, uniform).q;
        const std::vector<double> now = sampler.distribution(hist);
        std::vector<double> into(k, -1.0);
        sampler.distribution_into(hist, into);
        REQUIRE(std::equal(now.begin(), now.end(), before.begin(), before.end(),
                           [](double a, double b) { return bits_of(a) == bits_of(b); }));
        REQUIRE(std::equal(into.begin(), into.end(), before.begin(), before.end(),
                           [](double a, double b) { return bits_of(a) == bits_of(b); }));
        // the release: the fixed schedule's q, solved in place, gives the same units
        const std::vector<double> fixed = clip_normalise(p, uniform, RootSchedule::fixed).q;
        auto plan = std::make_shared<const ReleasePlan>(uniform_clip_release_plan(k, box.floor, epsilon));
        const Release expected(plan, clip_data_target(*plan, fixed));
        REQUIRE(sampler.release(hist).units() == expected.units());
      }
    }
  }
}

TEST_CASE("minimax and k-RR: distribution_into checks the output's length and the histogram", "[minimax][distribution_into]") {
  const std::vector<double> hist{1.0, 2.0, 3.0};
  std::vector<double> short_out(2);
  for (const Mechanism& m : {make_finite_mechanism("minimax", MechanismOptions{.epsilon = 1.0}),
                             make_finite_mechanism("linear", MechanismOptions{.epsilon = 1.0}),
                             make_finite_mechanism("roo", MechanismOptions{.epsilon = 1.0, .records = 6})}) {
    CHECK_THROWS_WITH(distribution_into(m, hist, short_out), Catch::Contains("the output has 2 entries"));
    std::vector<double> out(3);
    const std::vector<double> bad{1.0, -2.0, 3.0};
    CHECK_THROWS_WITH(distribution_into(m, bad, out), Catch::Contains("hist[1] = -2"));
    distribution_into(m, hist, out);
    CHECK(out == distribution(m, hist));
  }
}

TEST_CASE("minimax: distribution_into, which normalises in the solver's first pass, gives the bits of normalising "
          "first and then solving, for random and adversarial histograms, k = 1 to 10^6, in place too",
          "[minimax][distribution_into]") {
  std::mt19937_64 rng(20261128);
  std::vector<std::size_t> sizes;
  for (std::size_t k = 1; k <= 9; ++k) sizes.push_back(k);
  for (const std::size_t k : {31, 32, 33, 34, 35, 127, 128, 129, 130, 131, 1000, 4097, 65'538, 100'003, 1'000'000}) {
    sizes.push_back(k);
  }
  std::size_t compared = 0;
  for (const std::size_t k : sizes) {
    for (int shape = 0; shape < kHistogramShapes; ++shape) {
      if (k >= 100'000 && shape % 3 != 0) continue;  // the largest sizes: a third of the shapes (time)
      const std::vector<double> hist = shaped_histogram(rng, k, shape);
      for (const double epsilon : {0.0, 0.1, 1.0, 5.0, 20.0}) {
        INFO("k = " << k << ", shape " << shape << ", eps = " << epsilon);
        const MinimaxSampler sampler(epsilon);
        const FiniteBox box = finite_minimax_box(k, epsilon);
        // The path distribution_into took before: normalise into the output, then solve there.
        std::vector<double> before(k, -1.0);
        normalized_pmf_into(hist, before);
        (void)clip_normalise_into(before, UniformBox{k, box.floor, box.ceiling}, before);
        std::vector<double> now(k, -1.0);
        sampler.distribution_into(hist, now);
        REQUIRE(std::equal(now.begin(), now.end(), before.begin(), before.end(),
                           [](double a, double b) { return bits_of(a) == bits_of(b); }));
        std::vector<double> in_place = hist;  // the output is the histogram itself
        sampler.distribution_into(in_place, in_place);
        REQUIRE(std::equal(in_place.begin(), in_place.end(), before.begin(), before.end(),
                           [](double a, double b) { return bits_of(a) == bits_of(b); }));
        ++compared;
      }
    }
  }
  CHECK(compared > 1000);
}
