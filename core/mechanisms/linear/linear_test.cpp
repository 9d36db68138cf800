// The linear samplers (Park's pure one, k-RR, the global functional-LDP one of Ghoukasian et al. Thm 3.5).
// Reference values: core/mechanisms/linear/README.md, docs/experiments.md#ghoukasian-et-al.
#include "privsample.hpp"

#include <catch2/catch.hpp>

#include "mechanisms/functional_ldp_test_support.hpp"

using namespace privsample;
using namespace privsample::functional_ldp_test;

// ---- privacy profiles and λ_T(g) -------------------------------------------------------------------------

TEST_CASE("functional-LDP: trivial regime clamps lambda to 1 and the risk to 0", "[functional_ldp]") {
  const std::vector<double> inside = {0.3, 0.2, 0.25, 0.15, 0.05, 0.05};  // ratios to kPrior6 within [1/2, 2]
  SECTION("pure, e^eps >= gamma^2") {
    const LocalLinearSampler s(pure(2.0 * std::log(3.0) + 1e-9), kPrior6, 3.0);
    CHECK(s.lambda() == 1.0);
    CHECK(s.worst_case_risk(NamedDivergence::kl, 6) == 0.0);
    const LocalLinearSampler edge(pure(1.5), kPrior6, 2.0);  // e^1.5 = 4.48 > 4
    CHECK(edge.lambda() == 1.0);
    const std::vector<double> q = edge.distribution(inside);
    for (std::size_t x = 0; x < q.size(); ++x) CHECK(q[x] == Approx(inside[x]).epsilon(1e-14));
    CHECK(edge.worst_case_risk(NamedDivergence::chi2, 6) == 0.0);
  }
  SECTION("(eps,delta), delta above (gamma^2 - e^eps)/(gamma(gamma+1))") {
    const double gamma = 2.0;
    const double threshold = (gamma * gamma - std::exp(1.0)) / (gamma * (gamma + 1.0));
    CHECK(gamma / (gamma - 1.0) * linear_weight(approx(1.0, threshold + 0.01), gamma + 1.0) > 1.0);
    const LocalLinearSampler s(approx(1.0, threshold + 0.01), kPrior6, gamma);
    CHECK(s.lambda() == 1.0);
    CHECK(s.worst_case_risk(NamedDivergence::tv, 6) == 0.0);
    const LocalLinearSampler below(approx(1.0, threshold - 0.01), kPrior6, gamma);
    CHECK(below.lambda() < 1.0);
    CHECK(below.worst_case_risk(NamedDivergence::tv, 6) > 0.0);
  }
  SECTION("Gaussian, mu = 1.5 and gamma = 2 (spec 4.6: the unclamped weight is 1.0633)") {
    check_printed(2.0 * linear_weight(gauss(1.5), 3.0), 1.0633, 4);
    const LocalLinearSampler s(gauss(1.5), kPrior6, 2.0);
    CHECK(s.lambda() == 1.0);
    CHECK(s.worst_case_risk(NamedDivergence::hellinger, 6) == 0.0);
    const std::vector<double> q = s.distribution(inside);
    for (std::size_t x = 0; x < q.size(); ++x) CHECK(q[x] == Approx(inside[x]).epsilon(1e-14));
  }
  SECTION("global finite is never trivial") {
    for (const Guarantee& g : {pure(5.0), approx(3.0, 0.5), gauss(5.0)}) {
      const LinearSampler s(g);
      CHECK(s.lambda(3) < 1.0);
      CHECK(s.worst_case_risk(NamedDivergence::tv, 3) > 0.0);
    }
    CHECK(LinearSampler(pure(1.0)).worst_case_risk(NamedDivergence::kl, 1) == 0.0);  // k = 1
  }
}

TEST_CASE("functional-LDP: GDP worst-case risks, Figs 7-9 (docs/experiments.md)", "[functional_ldp]") {
  struct Row {
    std::size_t k;
    double nu, lambda_global, lambda_local, kl_g, kl_l, tv_g, tv_l, hel_g, hel_l;
  };
  const Row rows[] = {
      {10, 0.1, 0.018449, 0.038239, 2.148971, 0.750715, 0.883396, 0.577056, 0.658527, 0.183457},
      {10, 0.5, 0.109548, 0.205968, 1.616498, 0.480431, 0.801407, 0.476419, 0.554362, 0.123403},
      {10, 1, 0.254444, 0.432140, 1.111699, 0.245039, 0.671001, 0.340716, 0.426415, 0.064991},
      {10, 2, 0.568829, 0.846187, 0.491111, 0.022175, 0.388054, 0.092288, 0.217730, 0.005778},
      {20, 0.1, 0.011095, 0.020755, 2.804451, 1.621389, 0.939460, 0.783396, 0.753951, 0.378830},
      {20, 0.5, 0.072417, 0.123241, 2.130343, 1.151904, 0.881203, 0.701407, 0.655331, 0.294140},
      {20, 1, 0.187919, 0.286249, 1.476117, 0.715345, 0.771477, 0.571001, 0.521959, 0.196813},
      {20, 2, 0.492993, 0.639932, 0.657118, 0.211578, 0.481657, 0.288054, 0.280039, 0.060883},
      {100, 0.1, 0.002988, 0.005453, 4.346048, 3.508409, 0.987042, 0.954765, 0.886167, 0.703116},
      {100, 0.5, 0.023469, 0.039785, 3.404161, 2.690261, 0.966765, 0.921806, 0.817696, 0.623946},
      {100, 1, 0.078213, 0.119429, 2.436910, 1.869814, 0.912569, 0.845348, 0.704313, 0.505183},
      {100, 2, 0.314238, 0.397120, 1.136015, 0.807162, 0.678904, 0.578765, 0.433347, 0.263503},
  };
  for (const Row& row : rows) {
    INFO("k = " << row.k << ", nu = " << row.nu);
    const LinearSampler global(gauss(row.nu));
    const LocalLinearSampler local(gauss(row.nu), uniform(row.k), static_cast<double>(row.k) / 2.0 - 1.0);
    check_printed(global.lambda(row.k), row.lambda_global, 6);
    check_printed(local.lambda(), row.lambda_local, 6);
    check_printed(global.worst_case_risk(NamedDivergence::kl, row.k), row.kl_g, 6);
    check_printed(local.worst_case_risk(NamedDivergence::kl, row.k), row.kl_l, 6);
    check_printed(global.worst_case_risk(NamedDivergence::tv, row.k), row.tv_g, 6);
    check_printed(local.worst_case_risk(NamedDivergence::tv, row.k), row.tv_l, 6);
    check_printed(global.worst_case_risk(NamedDivergence::hellinger, row.k), row.hel_g, 6);
    check_printed(local.worst_case_risk(NamedDivergence::hellinger, row.k), row.hel_l, 6);
  }
}

TEST_CASE("functional-LDP: pure worst-case risks, Figs 3, 5, 6 (docs/experiments.md) via the linear samplers",
          "[functional_ldp]") {
  struct Row {
    std::size_t k;
    double eps, kl_g, kl_l, tv_g, tv_l, hel_g, hel_l;
  };
  const Row rows[] = {
      {10, 0.1, 2.213047, 0.772593, 0.890633, 0.583519, 0.669293, 0.187987},
      {10, 0.5, 1.865440, 0.553768, 0.845172, 0.508125, 0.606518, 0.140451},
      {10, 1, 1.461150, 0.327171, 0.768031, 0.395390, 0.518368, 0.085987},
      {10, 2, 0.796614, 0.054992, 0.549147, 0.151214, 0.328544, 0.014530},
      {20, 0.1, 2.900977, 1.678242, 0.945031, 0.790633, 0.765544, 0.387829},
      {20, 0.5, 2.527653, 1.370634, 0.920154, 0.745172, 0.717429, 0.335992},
      {20, 1, 2.078154, 1.016345, 0.874839, 0.668031, 0.646219, 0.265950},
      {20, 2, 1.272949, 0.451808, 0.719995, 0.449147, 0.470845, 0.128662},
      {100, 0.1, 4.506221, 3.640249, 0.988960, 0.957943, 0.894928, 0.713124},
      {100, 0.5, 4.111636, 3.259038, 0.983619, 0.947448, 0.872012, 0.682291},
      {100, 1, 3.622207, 2.789936, 0.973276, 0.927441, 0.836526, 0.635391},
      {100, 2, 2.667103, 1.896400, 0.930547, 0.848963, 0.736460, 0.509817},
  };
  for (const Row& row : rows) {
    INFO("k = " << row.k << ", eps = " << row.eps);
    const double gamma = static_cast<double>(row.k) / 2.0 - 1.0;
    const LinearSampler global(pure(row.eps));
    const LocalLinearSampler local(pure(row.eps), uniform(row.k), gamma);
    const LocalClipSampler clip(row.eps, uniform(row.k), gamma);
    const NamedDivergence fs[] = {NamedDivergence::kl, NamedDivergence::tv, NamedDivergence::hellinger};
    const double global_values[] = {row.kl_g, row.tv_g, row.hel_g};
    const double local_values[] = {row.kl_l, row.tv_l, row.hel_l};
    for (int i = 0; i < 3; ++i) {
      check_printed(global.worst_case_risk(fs[i], row.k), global_values[i], 6);
      check_printed(local.worst_case_risk(fs[i], row.k), local_values[i], 6);
      // the pure local linear risk equals the local clip risk; the global linear risk equals Park's
      CHECK(local.worst_case_risk(fs[i], row.k) == Approx(clip.worst_case_risk(fs[i], row.k)).epsilon(1e-12));
      CHECK(global.worst_case_risk(fs[i], row.k) == Approx(finite_minimax_risk(fs[i], row.k, row.eps)).epsilon(1e-12));
    }
  }
}

TEST_CASE("functional-LDP: privacy of the global linear sampler over adversarial pairs", "[functional_ldp][privacy]") {
  std::size_t pairs = 0;
  for (std::size_t k : {2, 3, 7}) {
    const std::vector<std::vector<double>> inputs = adversarial_inputs(uniform(k), 0.0, 11 + k);
    for (const Guarantee& g : {pure(0.1), pure(1.0), pure(4.0), approx(0.5, 0.05), approx(1.5, 0.2), approx(0.0, 0.3),
                               gauss(0.3), gauss(1.0), gauss(2.5)}) {
      INFO("k = " << k << ", notion " << notion_name(g.notion) << " eps " << g.epsilon << " delta " << g.delta << " mu "
                  << g.mu);
      const LinearSampler s(g);
      const PrivacyReport report = check_privacy(s, g, inputs);
      pairs += report.pairs;
      if (g.notion == PrivacyNotion::pure_ldp) CHECK(report.worst_ratio == Approx(std::exp(g.epsilon)).epsilon(1e-12));
      // tight: two point masses attain the profile at the minimiser β* (so the check above can fail)
      const LinearWeight w = solve_linear_weight(g, static_cast<double>(k));
      const double attained =
          hockey_stick_divergence(s.distribution(point_mass(k, 0)), s.distribution(point_mass(k, k - 1)), w.beta);
      CHECK(attained == Approx(privacy_profile(g, w.beta)).margin(1e-10).epsilon(0));
    }
  }
  CHECK(pairs > 10000);
}

TEST_CASE("functional-LDP: sample() draws from distribution()", "[functional_ldp]") {
  SeededRandom bits(12345);
  const LocalLinearSampler local(gauss(1.0), kPrior6, 3.0);
  const LinearSampler global(approx(1.0, 0.05));
  const std::vector<double> p = {0, 0, 5, 0, 0, 1};
  for (int which = 0; which < 2; ++which) {
    const std::vector<double> q = which == 0 ? local.distribution(p) : global.distribution(p);
    std::vector<double> counts(6, 0.0);
    const int n = 40000;
    for (int i = 0; i < n; ++i) counts[which == 0 ? local.sample(p, bits) : global.sample(p, bits)] += 1.0;
    for (std::size_t x = 0; x < 6; ++x) {
      const double sd = std::sqrt(n * q[x] * (1.0 - q[x]));
      CHECK(std::fabs(counts[x] - n * q[x]) <= 5.0 * sd + 1.0);
    }
  }
}

TEST_CASE("linear (eps, delta): the hockey-stick of point masses is <= delta in extended precision", "[functional-ldp]") {
  // The audit found 1.00000000025e-6 > 1e-6 at eps = 20, delta = 1e-6: lambda is now rounded toward delta. Checked for
  // distribution()'s values and for the released law (coin lambda, else uniform), over a grid of eps (to the 700 cap),
  // delta (down to 1e-15) and k, with e^eps in x87 extended precision (the sampler rounds it down in doubles).
  std::size_t checked = 0;
  for (const double epsilon : {0.01, 0.1, 1.0, 5.0, 20.0, 50.0, 300.0, 700.0}) {
    for (const double delta : {1e-15, 1e-12, 1e-9, 1e-6, 1e-3, 0.1, 0.5}) {
      for (const std::size_t k : {std::size_t{2}, std::size_t{3}, std::size_t{10}, std::size_t{1000}, std::size_t{100000}}) {
        const LinearSampler s({PrivacyNotion::approximate_ldp, epsilon, delta, 0.0, 0.0});
        std::vector<double> a(k, 0.0), b(k, 0.0);
        a[0] = 1.0;
        b[k - 1] = 1.0;
        const std::vector<double> qa = s.distribution(a);
        const std::vector<double> qb = s.distribution(b);
        const long double growth = std::exp(static_cast<long double>(epsilon));
        long double hockey = 0.0L;
        for (std::size_t y = 0; y < k; ++y) hockey += std::max(0.0L, static_cast<long double>(qa[y]) - growth * qb[y]);
        const long double l = s.lambda(k);
        const long double released = std::max(0.0L, l + (1.0L - l) * (1.0L - growth) / static_cast<long double>(k));
        INFO("eps = " << epsilon << " delta = " << delta << " k = " << k << " hockey-stick " << static_cast<double>(hockey)
                      << " released " << static_cast<double>(released));
        CHECK(hockey <= static_cast<long double>(delta));
        CHECK(released <= static_cast<long double>(delta));
        ++checked;
      }
    }
  }
  CHECK(checked == 280);
}

