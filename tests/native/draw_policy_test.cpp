// The draw policy (draw.hpp): for every finite mechanism, the random words a release consumes have a law that does
// not depend on the input, and the released frequencies still match distribution().
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "privsample.hpp"
#include "base/draw.hpp"
#include "mechanisms/mechanism.hpp"
#include "base/randomness.hpp"
#include "oracle_support.hpp"
#include "test_support.hpp"

using namespace privsample;
using namespace privsample_test;

namespace {

struct Named {
  std::string name;
  MechanismOptions options;
  bool records = false;  // inputs are counts of `records` records
};

std::vector<Named> registry_at(double epsilon, std::size_t k) {
  const std::vector<double> prior = [&] {
    std::vector<double> p(k);
    for (std::size_t x = 0; x < k; ++x) p[x] = 1.0 + static_cast<double>(x % 7);  // public, non-uniform
    double total = 0.0;
    for (double v : p) total += v;
    for (double& v : p) v /= total;
    return p;
  }();
  const double records = static_cast<double>(10 * k);
  std::vector<Named> out;
  auto add = [&](std::string name, auto&& fill, bool is_records = false) {
    MechanismOptions o;
    o.epsilon = epsilon;
    fill(o);
    out.push_back({std::move(name), o, is_records});
  };
  add("minimax", [](MechanismOptions&) {});
  add("linear", [](MechanismOptions&) {});
  add("linear", [](MechanismOptions& o) { o.delta = 1e-6; });
  add("mollifier", [](MechanismOptions&) {});
  add("mollifier", [&](MechanismOptions& o) { o.reference = prior; });
  add("local", [&](MechanismOptions& o) {
    o.prior = prior;
    o.gamma = 4.0;
  });
  add("local-linear", [&](MechanismOptions& o) {
    o.prior = prior;
    o.gamma = 4.0;
  });
  add("roo", [&](MechanismOptions& o) { o.records = records; }, true);
  add("ds-roo", [&](MechanismOptions& o) { o.records = records; }, true);
  add("laplace-projection", [&](MechanismOptions& o) { o.records = records; }, true);
  {
    MechanismOptions o;
    o.mu = epsilon;
    out.push_back({"linear", o, false});
  }
  return out;
}

// Point mass, uniform, sparse, random: as probabilities, or as counts of `records` records.
std::vector<std::vector<double>> inputs(std::size_t k, double records, std::mt19937_64& rng) {
  const double total = records > 0 ? records : 1.0;
  std::vector<std::vector<double>> out;
  std::vector<double> point(k, 0.0);
  point[k / 2] = total;
  out.push_back(point);
  std::vector<double> flat(k, 0.0);
  if (records > 0) {
    const auto n = static_cast<std::uint64_t>(records);
    for (std::size_t x = 0; x < k; ++x) flat[x] = static_cast<double>(n / k + (x < n % k ? 1 : 0));
  } else {
    for (double& v : flat) v = 1.0 / static_cast<double>(k);
  }
  out.push_back(flat);
  std::vector<double> sparse(k, 0.0);
  sparse[0] = std::floor(0.7 * total);
  sparse[k - 1] = total - sparse[0];
  out.push_back(sparse);
  std::vector<double> random(k, 0.0);
  if (records > 0) {
    std::uniform_int_distribution<std::size_t> letter(0, k - 1);
    for (std::uint64_t r = 0; r < static_cast<std::uint64_t>(records); ++r) random[letter(rng)] += 1.0;
  } else {
    std::gamma_distribution<double> g(0.5);
    for (double& v : random) v = g(rng) + 1e-300;
  }
  out.push_back(random);
  return out;
}

struct WordStats {
  double mean = 0.0;
  double variance = 0.0;
};

WordStats words_per_draw(const IndexDraw& draw, std::size_t draws, std::uint64_t seed) {
  WordCounter bits(seed);
  double sum = 0.0;
  double sum_sq = 0.0;
  for (std::size_t i = 0; i < draws; ++i) {
    const std::uint64_t before = bits.words();
    (void)draw(bits);
    const auto w = static_cast<double>(bits.words() - before);
    sum += w;
    sum_sq += w * w;
  }
  const double n = static_cast<double>(draws);
  const double mean = sum / n;
  return {mean, std::max(0.0, sum_sq / n - mean * mean)};
}

}  // namespace

TEST_CASE("draw policy: the words a release consumes have the same law for every input", "[draw][timing]") {
  std::mt19937_64 rng(20261124);
  for (const std::size_t k : {std::size_t{2}, std::size_t{10}, std::size_t{10000}}) {
    for (const double epsilon : {0.1, 1.0, 5.0, 20.0}) {
      for (const Named& named : registry_at(epsilon, k)) {
        if (named.options.delta && epsilon > 5.0) continue;  // (ε,δ) λ search is covered at ε <= 5
        const Mechanism m = make_finite_mechanism(named.name, named.options);
        const double records = named.records ? *named.options.records : 0.0;
        // Enough draws that 6 standard errors are a few percent of the mean for cheap draws; fewer where one draw
        // already takes ~k proposals (minimax at k = 10^4, ε = 20).
        const std::size_t draws = k >= 10000 && epsilon >= 5.0 ? 300 : (k >= 10000 ? 2000 : 20000);
        std::vector<WordStats> stats;
        for (const auto& input : inputs(k, records, rng)) {
          if (named.name == "laplace-projection" && k >= 10000) continue;  // O(k log k) per draw; k <= 10 below
          stats.push_back(words_per_draw(prepare(m, input), draws, 7 + stats.size()));
        }
        for (std::size_t i = 1; i < stats.size(); ++i) {
          INFO(named.name << " k = " << k << " eps = " << epsilon << " input " << i << ": mean words " << stats[i].mean
                          << " vs " << stats[0].mean << " for the point mass");
          const double se = std::sqrt((stats[i].variance + stats[0].variance) / static_cast<double>(draws));
          CHECK(std::fabs(stats[i].mean - stats[0].mean) <= 6.0 * se + 1e-12);
        }
      }
    }
  }
}

TEST_CASE("draw policy: the old uniform-proposal draw would fail the test above", "[draw][timing]") {
  // The property is not vacuous: DiscreteSampler (accept q_x / max q) takes ~k·max q proposals, which for a
  // point mass at k = 10^4, ε = 5 is ~146 and for the uniform input 1.
  MechanismOptions o;
  o.epsilon = 5.0;
  const Mechanism m = make_finite_mechanism("minimax", o);
  std::vector<double> point(10000, 0.0);
  point[3] = 1.0;
  const std::vector<double> flat(10000, 1.0);
  const auto old_draw = [&](const std::vector<double>& h) {
    const DiscreteSampler s(distribution(m, h));
    return IndexDraw([s](RandomBits& bits) { return s.draw(bits); });
  };
  const WordStats a = words_per_draw(old_draw(point), 2000, 1);
  const WordStats b = words_per_draw(old_draw(flat), 2000, 2);
  CHECK(a.mean > 20.0 * b.mean);
  const WordStats c = words_per_draw(prepare(m, point), 2000, 1);
  const WordStats d = words_per_draw(prepare(m, flat), 2000, 2);
  CHECK(std::fabs(c.mean - d.mean) <= 6.0 * std::sqrt((c.variance + d.variance) / 2000.0));
}

TEST_CASE("draw policy: a release reads a few words whatever ε and k are", "[draw][timing]") {
  // A release is one coin, then one word for the data part or the public base's words: no proposals that grow with
  // e^ε (an envelope draw took Σ ceiling ~ min(k, e^ε) proposals: ~148 per draw at k = 10^4, ε = 5). The record
  // mechanisms draw both of their candidates: a coin, a uniform letter and a uniform record.
  std::mt19937_64 rng(5);
  for (const std::size_t k : {std::size_t{10}, std::size_t{10000}}) {
    for (const double epsilon : {1.0, 5.0, 10.0, 50.0}) {
      for (const Named& named : registry_at(epsilon, k)) {
        if (named.name == "laplace-projection") continue;  // fresh noise per release: O(k) words by design
        const Mechanism m = make_finite_mechanism(named.name, named.options);
        const double records = named.records ? *named.options.records : 0.0;
        for (const auto& input : inputs(k, records, rng)) {
          const WordStats single = words_per_draw(prepare(m, input), 2000, 3);
          const WordStats many = words_per_draw(prepare(m, input, 2000), 2000, 4);
          INFO(named.name << " k = " << k << " eps = " << epsilon << ": " << single.mean << " and " << many.mean
                          << " words per release");
          CHECK(single.mean <= 4.0);
          CHECK(many.mean <= 4.0);
        }
      }
    }
  }
}

TEST_CASE("draw policy: DS-ROO finds q_m with the same work for every minimum count m", "[draw][timing]") {
  // The words test above cannot see DS-ROO's q lookup (it takes no random words). The lookup reads every checkpoint and
  // re-runs exactly stride − 1 steps of the pass from the one at or below m, whatever m is (docs/draw-policy.md): here
  // every call of the step is counted, for every m of several plans, and the values are the sampler's table.
  struct Case {
    double epsilon;
    std::size_t records;
    std::size_t k;
  };
  std::size_t partial_last_block = 0;
  std::size_t past_the_end = 0;
  for (const Case c : {Case{0.001, 100000, 10}, Case{0.05, 2000, 3}, Case{1.0, 997, 7}, Case{0.01, 99999, 1000},
                       Case{3.0, 60, 4}, Case{0.2, 100, 10}, Case{0.001, 1000000, 2}}) {
    const detail::DsRooPlan plan = detail::dsroo_plan(c.epsilon, c.records, c.k);
    REQUIRE_FALSE(plan.constant);
    const DsRooSampler sampler(c.epsilon, static_cast<double>(c.records));
    const std::vector<double> table = sampler.obscure_table(c.k);
    const std::uint64_t M = c.records / c.k;
    INFO("eps " << c.epsilon << " n " << c.records << " k " << c.k << ": J = " << plan.last << ", stride "
                << plan.stride << ", M = " << M);
    std::size_t unequal = 0;
    for (std::uint64_t m = 0; m <= M; ++m) {
      std::uint64_t steps = 0;
      const double q = detail::dsroo_lookup(plan, m, [&](std::uint64_t j, double previous) {
        ++steps;
        return detail::dsroo_step(plan, j, previous);
      });
      if (steps != plan.stride - 1) ++unequal;
      if (q != table[m]) FAIL_CHECK("m = " << m << ": lookup " << q << ", table " << table[m]);
    }
    CHECK(unequal == 0);
    partial_last_block += (plan.last + 1) % plan.stride != 0 ? 1 : 0;
    past_the_end += plan.last < M ? 1 : 0;
  }
  // The cases the old lookup got wrong, where it ran fewer steps: m in the last, partial block, or past the pass's
  // end (m > J, where q_m = 0).
  CHECK(partial_last_block >= 3);
  CHECK(past_the_end >= 3);
}

TEST_CASE("draw policy: the cumulative table draws in proportion to its weights", "[draw]") {
  const std::vector<double> w{5, 0, 1, 1e-3, 3, 0.5, 0, 10};
  double total = 0.0;
  for (double v : w) total += v;
  std::vector<double> probs;
  for (double v : w) probs.push_back(v / total);
  const CumulativeTable table(w);
  SeededRandom bits(11);
  constexpr std::size_t n = 1000000;
  std::vector<std::size_t> counts(w.size(), 0);
  for (std::size_t i = 0; i < n; ++i) ++counts[table.draw(bits)];
  CHECK(counts[1] == 0);
  CHECK(counts[6] == 0);
  CHECK(chi_square_survival(chi_square_statistic(counts, probs, n), 5) > kGoodnessOfFitLevel);
  CHECK_THROWS_AS(CumulativeTable(std::vector<double>{}), std::invalid_argument);
  CHECK_THROWS_AS(CumulativeTable(std::vector<double>{1.0, kNaN}), std::invalid_argument);
}

TEST_CASE("draw policy: 10^6 released samples of every mechanism match distribution()", "[draw][sampling]") {
  std::mt19937_64 rng(99);
  for (const double epsilon : {0.5, 3.0}) {
    for (const Named& named : registry_at(epsilon, 10)) {
      if (named.name == "laplace-projection") continue;  // distribution() is a Monte-Carlo estimate there
      const Mechanism m = make_finite_mechanism(named.name, named.options);
      const auto all = inputs(10, named.records ? *named.options.records : 0.0, rng);
      const std::vector<double>& input = all[3];
      SeededRandom bits(static_cast<std::uint64_t>(epsilon * 100) + named.name.size());
      constexpr std::size_t n = 1000000;
      std::vector<std::size_t> counts(10, 0);
      for (const std::uint32_t x : sample_many(m, input, n, bits)) ++counts.at(x);
      const std::vector<double> q = distribution(m, input);
      INFO(named.name << " at eps = " << epsilon);
      CHECK(chi_square_survival(chi_square_statistic(counts, q, n), 9) > kGoodnessOfFitLevel);
    }
  }
}

// Pearson's χ² p-value of released counts against q, the categories whose expected count is below 5 pooled into
// one (their total is still checked); categories with q = 0 must stay empty.
double pooled_fit(const std::vector<std::size_t>& counts, const std::vector<double>& q, std::size_t n) {
  double statistic = 0.0;
  double pooled_expected = 0.0;
  double pooled_observed = 0.0;
  int bins = 0;
  for (std::size_t x = 0; x < q.size(); ++x) {
    const double expected = q[x] * static_cast<double>(n);
    if (q[x] <= 0.0) {
      if (counts[x] != 0) return 0.0;
    } else if (expected < 5.0) {
      pooled_expected += expected;
      pooled_observed += static_cast<double>(counts[x]);
    } else {
      const double d = static_cast<double>(counts[x]) - expected;
      statistic += d * d / expected;
      ++bins;
    }
  }
  if (pooled_expected > 0.0) {
    const double d = pooled_observed - pooled_expected;
    statistic += d * d / std::max(pooled_expected, 1.0);
    ++bins;
  }
  return bins < 2 ? 1.0 : chi_square_survival(statistic, bins - 1);
}

TEST_CASE("draw policy: released samples follow distribution() for every mechanism and input", "[draw][sampling]") {
  // A release is prepare(hist)(bits): for the clip samplers the fixed schedule's q (RootSchedule::fixed) drawn from
  // the box top, for the others their own draws; distribution() is the adaptive search's q. sample_many draws from
  // distribution() (the test above), so this is the test of what a page actually releases.
  std::mt19937_64 rng(20261126);
  for (const std::size_t k : {std::size_t{2}, std::size_t{10}, std::size_t{100}}) {
    for (const double epsilon : {0.5, 3.0}) {
      for (const Named& named : registry_at(epsilon, k)) {
        if (named.name == "laplace-projection") continue;  // distribution() is a Monte-Carlo estimate there
        const Mechanism m = make_finite_mechanism(named.name, named.options);
        const double records = named.records ? *named.options.records : 0.0;
        std::vector<std::vector<double>> all = inputs(k, records, rng);
        if (!named.records) {
          // −0 counts (Math.round(-0.2) in JS) and a subnormal mass next to ordinary ones
          std::vector<double> odd = all.back();
          for (std::size_t x = 1; x < k; x += 2) odd[x] = -0.0;
          odd[0] = 1e-310;
          all.push_back(odd);
        }
        std::size_t which = 0;
        for (const auto& input : all) {
          INFO(named.name << " k = " << k << " eps = " << epsilon << " input " << which++);
          const IndexDraw release = prepare(m, input);
          const std::vector<double> q = distribution(m, input);
          SeededRandom bits(1000 * k + which);
          constexpr std::size_t n = 40000;
          std::vector<std::size_t> counts(k, 0);
          for (std::size_t t = 0; t < n; ++t) ++counts.at(release(bits));
          CHECK(pooled_fit(counts, q, n) > kGoodnessOfFitLevel);
        }
      }
    }
  }
}

TEST_CASE("draw policy: sample_point releases points whose cells follow distribution(), with the same words for every density",
          "[draw][continuous]") {
  constexpr std::size_t kCells = 12;
  const Grid1D grid{-2.0, 4.0, kCells};
  const Grid2D grid2{0.0, 1.0, 3, 0.0, 2.0, 4};  // 12 cells too
  std::vector<double> reference(kCells);
  for (std::size_t i = 0; i < kCells; ++i) reference[i] = 1.0 + static_cast<double>(i % 3);  // h, any scale
  // In the class [c1·h, c2·h] of the linear sampler (c1 = 0.25, c2 = 3), and far from h.
  std::vector<double> tilted(kCells);
  std::vector<double> near_reference(kCells);
  double tilted_total = 0.0;
  double reference_total = 0.0;
  for (std::size_t i = 0; i < kCells; ++i) reference_total += reference[i];
  for (std::size_t i = 0; i < kCells; ++i) {
    tilted[i] = reference[i] * (i < kCells / 2 ? 0.3 : 1.6);
    tilted_total += tilted[i];
  }
  for (std::size_t i = 0; i < kCells; ++i) {
    tilted[i] /= tilted_total;
    near_reference[i] = reference[i] / reference_total;
  }
  std::vector<std::pair<std::string, MechanismOptions>> mechanisms;
  const auto add = [&](std::string name, auto&& fill) {
    MechanismOptions o;
    o.epsilon = 2.0;
    fill(o);
    mechanisms.emplace_back(std::move(name), o);
  };
  add("minimax", [&](MechanismOptions& o) { o.reference = near_reference; o.c2 = 3.0; });
  add("linear", [&](MechanismOptions& o) { o.reference = near_reference; o.c1 = 0.25; o.c2 = 3.0; });
  add("local", [&](MechanismOptions& o) { o.prior = reference; o.gamma = 4.0; });
  add("local-linear", [&](MechanismOptions& o) { o.prior = reference; o.gamma = 4.0; });
  for (const auto& [name, options] : mechanisms) {
    INFO(name);
    const Mechanism m = make_continuous_mechanism(name, options);
    const std::vector<double> q = distribution(m, tilted);
    constexpr std::size_t n = 200000;
    std::vector<std::size_t> counts(kCells, 0);
    std::vector<std::size_t> counts2(kCells, 0);
    SeededRandom bits(7);
    std::size_t outside = 0;
    for (std::size_t t = 0; t < n; ++t) {
      const double x = sample_point(m, grid, tilted, bits);
      outside += x >= grid.lo && x <= grid.hi ? 0 : 1;
      ++counts[cell_index(grid, x)];
      const Point2D xy = sample_point(m, grid2, tilted, bits);
      ++counts2[cell_index(grid2, xy[0], xy[1])];
    }
    CHECK(outside == 0);
    CHECK(chi_square_survival(chi_square_statistic(counts, q, n), kCells - 1) > kGoodnessOfFitLevel);
    CHECK(chi_square_survival(chi_square_statistic(counts2, q, n), kCells - 1) > kGoodnessOfFitLevel);
    // The words a release takes: the same law for a density far from h and one equal to it.
    std::array<WordStats, 2> stats;
    for (std::size_t which = 0; which < 2; ++which) {
      WordCounter counting(11 + which);
      double sum = 0.0;
      double sum_sq = 0.0;
      constexpr std::size_t draws = 20000;
      for (std::size_t t = 0; t < draws; ++t) {
        const std::uint64_t before = counting.words();
        (void)sample_point(m, grid, which == 0 ? tilted : near_reference, counting);
        const auto w = static_cast<double>(counting.words() - before);
        sum += w;
        sum_sq += w * w;
      }
      stats[which] = {sum / draws, sum_sq / draws - (sum / draws) * (sum / draws)};
    }
    CHECK(std::fabs(stats[0].mean - stats[1].mean) <= 6.0 * std::sqrt((stats[0].variance + stats[1].variance) / 20000.0));
    CHECK_THROWS_WITH(sample_point(m, Grid1D{0.0, 1.0, 5}, tilted, bits), Catch::Contains("density has 12 cells but the grid has 5"));
    CHECK_THROWS_WITH(sample_point(m, Grid1D{1.0, 0.0, kCells}, tilted, bits), Catch::Contains("grid.lo"));
  }
}

TEST_CASE("randomness: a source that returns an all-zero block is refused", "[randomness]") {
  SecureRandom broken([](std::span<std::uint8_t> out) { std::fill(out.begin(), out.end(), std::uint8_t{0}); });
  CHECK_THROWS_WITH(broken.next_u64(), Catch::Contains("all-zero"));
}

namespace {

// Seeded words in which, one time in four, a word is replaced by one of `spikes`: values that send a draw down its
// rare paths (a coin's word equal to the first 64 bits of its probability, a uniform_below word that is rejected),
// which plain random words reach with probability ~2^-64. Deterministic for a seed.
class SpikyBits final : public RandomBits {
 public:
  SpikyBits(std::uint64_t seed, std::vector<std::uint64_t> spikes)
      : words_(seed), choice_(seed + 1), spikes_(std::move(spikes)) {}
  std::uint64_t next_u64() override {
    ++count_;
    const std::uint64_t pick = choice_.next_u64();
    const std::uint64_t word = words_.next_u64();
    if ((pick & 3) != 0 || spikes_.empty()) return word;
    return spikes_[(pick >> 2) % spikes_.size()];
  }
  [[nodiscard]] std::uint64_t count() const { return count_; }

 private:
  SeededRandom words_;
  SeededRandom choice_;
  std::vector<std::uint64_t> spikes_;
  std::uint64_t count_ = 0;
};

// A SecureRandom whose blocks are SpikyBits' words: a source that lends its words (BufferedBits), unlike SpikyBits.
SecureRandom spiky_secure(std::uint64_t seed, std::vector<std::uint64_t> spikes) {
  auto words = std::make_shared<SpikyBits>(seed, std::move(spikes));
  return SecureRandom([words](std::span<std::uint8_t> out) {
    for (std::size_t at = 0; at + 8 <= out.size(); at += 8) {
      const std::uint64_t word = words->next_u64();
      std::memcpy(out.data() + at, &word, 8);
    }
  });
}

}  // namespace

TEST_CASE("draw policy: sample_many makes the draws of one call each, from the same words, and reads no word ahead",
          "[draw][sampling]") {
  // However sample_many runs its draws (a loop of its own may read words from the source's buffer in runs), its
  // indices must be those of prepare(m, input, n) called n times on the same words, and the source must be left where
  // those calls leave it (a caller that goes on drawing from it, e.g. simulate, sees the same sequence).
  std::mt19937_64 rng(32);
  std::size_t checked = 0;
  for (const std::size_t k : {std::size_t{2}, std::size_t{10}, std::size_t{1000}}) {
    for (const double epsilon : {0.1, 1.0, 5.0, 10.0, 50.0}) {
      for (const Named& named : registry_at(epsilon, k)) {
        if (named.name == "laplace-projection" && k > 10) continue;  // fresh noise per draw: O(k) words each
        const Mechanism m = make_finite_mechanism(named.name, named.options);
        const double records = named.records ? *named.options.records : 0.0;
        for (const auto& input : inputs(k, records, rng)) {
          std::vector<std::uint64_t> spikes = {0, ~std::uint64_t{0}, 1};
          if (const std::optional<Release> law = released_law(m, input)) {
            // the coin's first 64 bits and their neighbours: ties that read the rest of its expansion
            const double scaled = std::ldexp(law->plan().share, 64);
            const std::uint64_t first = scaled < 0x1p64 ? static_cast<std::uint64_t>(std::floor(scaled)) : ~0ULL;
            for (const std::uint64_t w : {first, first - 1, first + 1}) spikes.push_back(w);
          }
          const std::uint64_t seed = 1000 + checked;
          INFO(named.name << " k = " << k << " eps = " << epsilon);
          const IndexDraw draw = prepare(m, input, 5000);
          const auto singles = [&](RandomBits& bits, std::size_t n) {
            std::vector<std::uint32_t> out(n);
            for (auto& index : out) index = static_cast<std::uint32_t>(draw(bits));
            return out;
          };
          {  // a source that lends none of its words: every word through next_u64()
            SpikyBits many_bits(seed, spikes);
            SpikyBits single_bits(seed, spikes);
            CHECK(sample_many(m, input, 700, many_bits) == singles(single_bits, 700));
            CHECK(many_bits.count() == single_bits.count());
            CHECK(many_bits.next_u64() == single_bits.next_u64());
          }
          {  // the CSPRNG's reader, which lends its block's words: 5000 draws cross a block of 8192 words
            SecureRandom many_bits = spiky_secure(seed, spikes);
            SecureRandom single_bits = spiky_secure(seed, spikes);
            CHECK(sample_many(m, input, 5000, many_bits) == singles(single_bits, 5000));
            for (int i = 0; i < 3; ++i) CHECK(many_bits.next_u64() == single_bits.next_u64());
          }
          ++checked;
        }
      }
    }
  }
  CHECK(checked > 300);
}
