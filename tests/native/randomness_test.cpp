// Injected randomness: SeededRandom (xoshiro256** via splitmix64), SecureRandom (buffered CSPRNG), exact
// uniform integers, exact Bernoulli trials, DiscreteSampler, and the samplers' sample() against distribution().
// Goodness-of-fit tests use fixed seeds (deterministic) at the level kGoodnessOfFitLevel = 1e-6.
#include "base/randomness.hpp"

#include <algorithm>
#include <bit>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <set>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "privsample.hpp"
#include "mechanisms/mechanism.hpp"
#include "test_support.hpp"

using namespace privsample;
using namespace privsample_test;

namespace {

// Vigna's reference xoshiro256**, state filled by successive splitmix64 outputs.
class ReferenceXoshiro {
 public:
  explicit ReferenceXoshiro(std::uint64_t seed) {
    for (auto& word : s_) {
      seed += 0x9e3779b97f4a7c15ULL;
      std::uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      word = z ^ (z >> 31);
    }
  }
  std::uint64_t next() {
    const std::uint64_t result = std::rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = std::rotl(s_[3], 45);
    return result;
  }
  [[nodiscard]] std::uint64_t first_state_word() const { return s_[0]; }

 private:
  std::uint64_t s_[4]{};
};

void check_fit(const std::vector<std::size_t>& counts, const std::vector<double>& probs, std::size_t n) {
  int df = -1;
  for (double pr : probs) df += pr > 0.0;
  const double stat = chi_square_statistic(counts, probs, n);
  const double p_value = df > 0 ? chi_square_survival(stat, df) : 1.0;
  INFO("chi-square = " << stat << " on " << df << " degrees of freedom, p-value = " << p_value
                       << ", counts = " << Catch::Detail::stringify(counts));
  CHECK(p_value > kGoodnessOfFitLevel);
  for (std::size_t i = 0; i < probs.size(); ++i) {
    if (probs[i] == 0.0) CHECK(counts[i] == 0);
  }
}

}  // namespace

TEST_CASE("randomness: the chi-square helper itself", "[randomness]") {
  // P(χ²₂ > x) = e^{−x/2}; P(χ²₁ > 3.841459) = 0.05; P(χ²₄ > 9.487729) = 0.05; P(χ²₆ > 35.88) ≈ 4.8e-6
  CHECK(chi_square_survival(27.631021, 2) == Approx(1e-6).epsilon(1e-6));
  CHECK(chi_square_survival(3.841459, 1) == Approx(0.05).epsilon(1e-5));
  CHECK(chi_square_survival(9.487729, 4) == Approx(0.05).epsilon(1e-5));
  CHECK(chi_square_survival(11.070498, 5) == Approx(0.05).epsilon(1e-5));
  CHECK(chi_square_survival(0.0, 3) == Approx(1.0));
}

TEST_CASE("randomness: SeededRandom is xoshiro256** seeded through splitmix64, deterministic", "[randomness]") {
  // the reference's splitmix64 first output for seed 0 is the published 0xe220a8397b1dcdaf
  CHECK(ReferenceXoshiro(0).first_state_word() == 0xe220a8397b1dcdafULL);
  for (std::uint64_t seed : {0ULL, 1ULL, 42ULL, 0xdeadbeefULL, 9007199254740991ULL, ~0ULL}) {
    INFO("seed = " << seed);
    SeededRandom a(seed);
    SeededRandom b(seed);
    ReferenceXoshiro reference(seed);
    std::size_t mismatches = 0;
    std::size_t differ = 0;
    for (int i = 0; i < 10000; ++i) {
      const std::uint64_t x = a.next_u64();
      differ += x != b.next_u64();
      mismatches += x != reference.next();
    }
    CHECK(differ == 0);
    CHECK(mismatches == 0);
  }
  // different seeds give different streams
  SeededRandom one(1);
  SeededRandom two(2);
  std::size_t equal = 0;
  for (int i = 0; i < 1000; ++i) equal += one.next_u64() == two.next_u64();
  CHECK(equal == 0);
  // validated_seed: integers in [0, 2^53 − 1]
  CHECK(validated_seed(0.0) == 0);
  CHECK(validated_seed(9007199254740991.0) == 9007199254740991ULL);
  CHECK_THROWS_WITH(validated_seed(1.5), Catch::Contains("seed") && Catch::Contains("1.5"));
  CHECK_THROWS_AS(validated_seed(-1.0), std::invalid_argument);
  CHECK_THROWS_AS(validated_seed(9007199254740992.0), std::invalid_argument);
  CHECK_THROWS_AS(validated_seed(kNaN), std::invalid_argument);
  CHECK_THROWS_AS(validated_seed(kInf), std::invalid_argument);
}

TEST_CASE("randomness: uniform01 is on the 2^-53 grid of the unit interval", "[randomness]") {
  ScriptedBits zeros({}, 0);
  CHECK(uniform01(zeros) == 0.0);
  ScriptedBits ones({}, ~0ULL);
  CHECK(uniform01(ones) == 1.0 - 0x1.0p-53);
  SeededRandom bits(5);
  double sum = 0.0;
  std::size_t off_grid = 0;
  for (int i = 0; i < 100000; ++i) {
    const double u = uniform01(bits);
    off_grid += !(u >= 0.0 && u < 1.0 && std::ldexp(u, 53) == std::floor(std::ldexp(u, 53)));
    sum += u;
  }
  CHECK(off_grid == 0);
  CHECK(sum / 100000.0 == Approx(0.5).margin(5.0 * std::sqrt(1.0 / 12.0 / 100000.0)).epsilon(0));
}

TEST_CASE("randomness: the product by 32-bit halves (WebAssembly's) is the 128-bit product", "[randomness]") {
  SeededRandom bits(128);
  std::vector<std::uint64_t> values = {0, 1, 2, 0xffffffff, 0x100000000, ~std::uint64_t{0}, ~std::uint64_t{0} - 1,
                                       std::uint64_t{1} << 63, 0xffffffff00000000};
  for (int i = 0; i < 20000; ++i) values.push_back(bits.next_u64() >> (bits.next_u64() % 64));
  for (std::size_t i = 0; i + 1 < values.size(); ++i) {
    for (const std::uint64_t b : {values[i + 1], values[i % 9]}) {
      const std::uint64_t a = values[i];
      const __uint128_t product = static_cast<__uint128_t>(a) * b;
      std::uint64_t low = 0;
      const std::uint64_t high = multiply_high_by_halves(a, b, low);
      INFO(a << " * " << b);
      CHECK(high == static_cast<std::uint64_t>(product >> 64));
      CHECK(low == static_cast<std::uint64_t>(product));
    }
  }
}

TEST_CASE("randomness: uniform_below is unbiased", "[randomness]") {
  constexpr std::size_t n = 100000;
  SECTION("small ranges: n = 3 and n = 7") {
    for (std::uint64_t range : {3ULL, 7ULL}) {
      SeededRandom bits(1000 + range);
      std::vector<std::size_t> counts(range, 0);
      for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t v = uniform_below(bits, range);
        REQUIRE(v < range);
        ++counts[v];
      }
      check_fit(counts, std::vector<double>(range, 1.0 / static_cast<double>(range)), n);
    }
  }
  SECTION("huge ranges, where a modulo-biased draw would be off by a factor of 2") {
    // n = 3·2^62: x mod n puts probability 1/2 on [0, 2^62) instead of 1/3; n = 5·2^61 similarly
    for (const auto& [range, shift, bins] : {std::tuple{3ULL << 62, 62, 3}, std::tuple{5ULL << 61, 61, 5}}) {
      SeededRandom bits(range);
      std::vector<std::size_t> counts(bins, 0);
      for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t v = uniform_below(bits, range);
        REQUIRE(v < range);
        ++counts[v >> shift];
      }
      check_fit(counts, std::vector<double>(bins, 1.0 / bins), n);
    }
  }
  SECTION("n = 1 is always 0; the multiply-and-reject step rejects the short block") {
    SeededRandom bits(3);
    for (int i = 0; i < 1000; ++i) CHECK(uniform_below(bits, 1) == 0);
    // x = 0 lies in the rejected zone (low word 0 < 2^64 mod n) for every n that is not a power of 2
    ScriptedBits scripted({0ULL, ~0ULL}, ~0ULL);
    const std::uint64_t v = uniform_below(scripted, 3ULL << 62);
    CHECK(scripted.calls() == 2);
    CHECK(v < (3ULL << 62));
    ScriptedBits top({~0ULL});
    CHECK(uniform_below(top, 10) == 9);  // the largest word maps to the largest value
  }
}

TEST_CASE("randomness: bernoulli is exact at 0 and 1 and unbiased in between", "[randomness]") {
  SeededRandom bits(77);
  std::size_t wrong = 0;
  for (int i = 0; i < 100000; ++i) {
    wrong += bernoulli(bits, 0.0);
    wrong += !bernoulli(bits, 1.0);
  }
  CHECK(wrong == 0);
  for (double p : {0.5, 0.3, 1.0 / 3.0, 0.01, 0.999, 1e-3}) {
    INFO("p = " << p);
    SeededRandom draws(static_cast<std::uint64_t>(p * 1e9));
    constexpr double n = 100000.0;
    std::size_t hits = 0;
    for (int i = 0; i < 100000; ++i) hits += bernoulli(draws, p);
    CHECK(std::fabs(static_cast<double>(hits) - n * p) <= 5.0 * std::sqrt(n * p * (1.0 - p)));
  }
  SECTION("exact comparison with the binary expansion: U = 0 is below every p > 0, U → 1 above every p < 1") {
    for (double p : {1e-300, 5e-324, 0x1.0p-1074, 0.5, 1.0 - 0x1.0p-53}) {
      INFO("p = " << p);
      ScriptedBits zeros({}, 0ULL);
      CHECK(bernoulli(zeros, p));
      ScriptedBits ones({}, ~0ULL);
      CHECK_FALSE(bernoulli(ones, p));
    }
    SeededRandom rare(11);
    std::size_t hits = 0;
    for (int i = 0; i < 100000; ++i) hits += bernoulli(rare, 1e-300);
    CHECK(hits == 0);
  }
}

namespace {

// bernoulli() as it was written before FixedCostCoin: U = 0.u1u2… against p = 0.p1p2…, 64 bits at a time, for
// 0 < p < 1.
bool reference_bernoulli(RandomBits& bits, double p) {
  double rest = p;
  while (true) {
    rest *= 0x1.0p64;
    const double chunk_value = std::floor(rest);
    rest -= chunk_value;
    const auto chunk = static_cast<std::uint64_t>(chunk_value);
    const std::uint64_t word = bits.next_u64();
    if (word != chunk) return word < chunk;
    if (rest == 0.0) return false;
  }
}

}  // namespace

TEST_CASE("randomness: FixedCostCoin, bernoulli and bernoulli_fixed_cost compare words with p's expansion exactly",
          "[randomness]") {
  // Scripted words that tie with the first 64 bits of the probability (and with their neighbours) send both down
  // the comparison with the rest of the expansion; the outcome and the words read must agree every time.
  const double tiny = 0x1.8p-70;  // first 64 bits 0, the rest 0.75 · 2^-6 of a word
  for (const double p : {0.0, 1.0, 0.5, 1.0 / 3.0, 0.1, 1e-300, tiny, 1.0 - 0x1.0p-53, 2.0, -1.0, std::nan("")}) {
    INFO("p = " << p);
    const double scaled = std::ldexp(p, 64);
    const std::uint64_t first = scaled >= 0.0 && scaled < 0x1p64 ? static_cast<std::uint64_t>(std::floor(scaled)) : 0;
    const double rest = scaled >= 0.0 && scaled < 0x1p64 ? std::ldexp(scaled - std::floor(scaled), 64) : 0.0;
    const auto second = static_cast<std::uint64_t>(std::min(std::floor(rest), 0x1.fffffffffffffp63));
    const std::vector<std::uint64_t> ties = {first, first - 1, first + 1, second, second + 1, 0, ~std::uint64_t{0}};
    const FixedCostCoin coin(p);
    SeededRandom pick(5);
    if (p > 0.0 && p < 1.0) {
      ScriptedBits a(ties, 77);
      ScriptedBits b(ties, 77);
      CHECK(bernoulli(a, p) == reference_bernoulli(b, p));
      CHECK(a.calls() == b.calls());
    }
    for (int trial = 0; trial < 2000; ++trial) {
      std::vector<std::uint64_t> script(4);
      for (auto& word : script) word = ties[pick.next_u64() % ties.size()];
      ScriptedBits a(script, 12345);
      ScriptedBits b(script, 12345);
      // bernoulli_fixed_cost's rule: the comparison strictly between 0 and 1, else one word read and p >= 1
      const bool want = p > 0.0 && p < 1.0 ? reference_bernoulli(b, p) : (b.next_u64(), p >= 1.0);
      CHECK(coin.toss(a) == want);
      CHECK(a.calls() == b.calls());
      ScriptedBits c(script, 12345);
      CHECK(bernoulli_fixed_cost(c, p) == want);
      CHECK(c.calls() == b.calls());
    }
  }
}

TEST_CASE("randomness: BufferedBits gives the source's words in order, borrowed or not, and reads none ahead",
          "[randomness]") {
  // Two SecureRandoms on the same counting source (one read a word at a time), and two SeededRandoms (which lend no
  // words): the buffered reader must give the plain sequence across blocks, and leave its source where the plain one is.
  std::uint8_t start_a = 0;
  std::uint8_t start_b = 0;
  SecureRandom plain_secure([&](std::span<std::uint8_t> out) {
    for (auto& byte : out) byte = ++start_a;
  });
  SecureRandom lending([&](std::span<std::uint8_t> out) {
    for (auto& byte : out) byte = ++start_b;
  });
  SeededRandom plain_seeded(9);
  SeededRandom seeded(9);
  for (const auto& [plain, source] : {std::pair<RandomBits*, RandomBits*>{&plain_secure, &lending},
                                      std::pair<RandomBits*, RandomBits*>{&plain_seeded, &seeded}}) {
    BufferedBits buffered(*source);
    std::size_t read = 0;
    for (const std::size_t reserve : {0, 1, 300, 2, 8190, 7, 9000, 5}) {
      buffered.reserve(reserve);
      for (std::size_t i = 0; i < reserve + 3; ++i, ++read) {
        INFO("word " << read);
        CHECK(buffered.next_u64() == plain->next_u64());
      }
    }
    CHECK(source->next_u64() == plain->next_u64());
  }
  // Lent words are the block's own: a second borrower never sees them again.
  const std::span<std::uint64_t> first = lending.lend(4);
  REQUIRE(first.size() == 4);
  const std::vector<std::uint64_t> kept(first.begin(), first.end());
  for (const std::uint64_t word : kept) CHECK(word == plain_secure.next_u64());
  CHECK(lending.next_u64() == plain_secure.next_u64());
  CHECK(lending.lend(0).empty());
}

TEST_CASE("randomness: DiscreteSampler draws in proportion to the weights", "[randomness]") {
  const std::vector<double> weights{1, 2, 3, 4, 1e-300};
  const DiscreteSampler sampler(weights);
  SeededRandom bits(2024);
  constexpr std::size_t n = 100000;
  std::vector<std::size_t> counts(5, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t x = sampler.draw(bits);
    REQUIRE(x < 5);
    ++counts[x];
  }
  check_fit(counts, {0.1, 0.2, 0.3, 0.4, 0.0}, n);
  CHECK(counts[4] == 0);  // probability 1e-301: never seen
  SECTION("the 1e-300 atom is still accepted with positive probability") {
    // index draw on the largest word (Lemire: index 4 of 5), then a uniform real U = 0 < 1e-300
    ScriptedBits scripted({~0ULL}, 0ULL);
    CHECK(sampler.draw(scripted) == 4);
  }
  SECTION("equal tiny weights are uniform; zero weights never appear") {
    const DiscreteSampler tiny(std::vector<double>{1e-300, 0.0, 1e-300, 1e-300});
    SeededRandom more(9);
    std::vector<std::size_t> c(4, 0);
    for (std::size_t i = 0; i < 30000; ++i) ++c[tiny.draw(more)];
    check_fit(c, {1.0 / 3, 0.0, 1.0 / 3, 1.0 / 3}, 30000);
  }
  SECTION("invalid weights") {
    CHECK_THROWS_AS(DiscreteSampler(std::vector<double>{}), std::invalid_argument);
    CHECK_THROWS_AS(DiscreteSampler(std::vector<double>{0.0, 0.0}), std::invalid_argument);
    CHECK_THROWS_AS(DiscreteSampler(std::vector<double>{1.0, -1.0}), std::invalid_argument);
    CHECK_THROWS_AS(DiscreteSampler(std::vector<double>{1.0, kNaN}), std::invalid_argument);
    CHECK_THROWS_AS(DiscreteSampler(std::vector<double>{1.0, kInf}), std::invalid_argument);
  }
}

TEST_CASE("randomness: SecureRandom reads 65536-byte blocks from its entropy source", "[randomness]") {
  SECTION("the system CSPRNG gives non-constant, balanced output") {
    SecureRandom secure;
    std::set<std::uint64_t> seen;
    std::size_t ones = 0;
    constexpr int n = 10000;
    for (int i = 0; i < n; ++i) {
      const std::uint64_t x = secure.next_u64();
      seen.insert(x);
      ones += static_cast<std::size_t>(std::popcount(x));
    }
    CHECK(seen.size() == n);  // a 64-bit collision among 10^4 draws has probability ~3e-12
    // 640,000 fair bits: mean 320,000, sd 400
    CHECK(std::fabs(static_cast<double>(ones) - 320000.0) <= 6.0 * 400.0);
    std::vector<std::uint8_t> a(4096), b(4096);
    system_entropy(a);
    system_entropy(b);
    CHECK(a != b);
    CHECK(std::count(a.begin(), a.end(), 0) < 100);
  }
  SECTION("an injected source: 8192 words per fill, returned in order") {
    static_assert(SecureRandom::kBlockWords == 8192 && SecureRandom::kBlockBytes == 65536);
    std::size_t fills = 0;
    std::vector<std::size_t> sizes;
    SecureRandom counted([&](std::span<std::uint8_t> out) {
      sizes.push_back(out.size());
      for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<std::uint8_t>(i * 7 + fills * 13 + 1);
      ++fills;
    });
    CHECK(fills == 0);  // nothing is read before the first draw
    std::vector<std::uint64_t> words;
    for (int i = 0; i < 8192; ++i) words.push_back(counted.next_u64());
    CHECK(fills == 1);
    CHECK(counted.next_u64() != 0);
    CHECK(fills == 2);
    CHECK(sizes == std::vector<std::size_t>{65536, 65536});
    // the words are the block's bytes in memory order
    std::vector<std::uint8_t> block(65536);
    for (std::size_t i = 0; i < block.size(); ++i) block[i] = static_cast<std::uint8_t>(i * 7 + 1);
    std::vector<std::uint64_t> want(8192);
    std::memcpy(want.data(), block.data(), block.size());
    CHECK(words == want);
    for (int i = 0; i < 8191 + 8192; ++i) (void)counted.next_u64();
    CHECK(fills == 3);
  }
  SECTION("a failing source propagates its error") {
    SecureRandom failing([](std::span<std::uint8_t>) { throw std::runtime_error("no entropy"); });
    CHECK_THROWS_AS(failing.next_u64(), std::runtime_error);
  }
}

TEST_CASE("randomness: sample() draws from distribution()", "[randomness][minimax]") {
  constexpr std::size_t n = 100000;
  const std::vector<double> p{0.30, 0.25, 0.20, 0.15, 0.10};
  SECTION("MinimaxSampler") {
    for (double eps : {0.1, 1.0, 3.0}) {
      INFO("epsilon = " << eps);
      const MinimaxSampler sampler(eps);
      SeededRandom bits(static_cast<std::uint64_t>(eps * 1000));
      std::vector<std::size_t> counts(5, 0);
      for (std::size_t i = 0; i < n; ++i) ++counts.at(sampler.sample(p, bits));
      check_fit(counts, sampler.distribution(p), n);
    }
    // a sparse histogram over k = 50 at ε = 2
    std::vector<double> sparse(50, 0.0);
    sparse[3] = 5;
    sparse[17] = 2;
    sparse[49] = 1;
    const MinimaxSampler sampler(2.0);
    SeededRandom bits(50);
    std::vector<std::size_t> counts(50, 0);
    for (std::size_t i = 0; i < n; ++i) ++counts.at(sampler.sample(sparse, bits));
    check_fit(counts, sampler.distribution(sparse), n);
  }
  SECTION("LinearSampler and LocalClipSampler") {
    const LinearSampler linear(1.0);
    SeededRandom bits(8);
    std::vector<std::size_t> counts(5, 0);
    for (std::size_t i = 0; i < n; ++i) ++counts.at(linear.sample(p, bits));
    check_fit(counts, linear.distribution(p), n);
    const LocalClipSampler local(1.0, std::vector<double>{0.4, 0.3, 0.2, 0.1}, 3.0);
    const std::vector<double> one_hot{0, 0, 0, 1};  // Case B
    std::vector<std::size_t> local_counts(4, 0);
    for (std::size_t i = 0; i < n; ++i) ++local_counts.at(local.sample(one_hot, bits));
    check_fit(local_counts, local.distribution(one_hot), n);
  }
  SECTION("sample_many through the registry, reproducible from the seed") {
    MechanismOptions options;
    options.epsilon = 0.5;
    const Mechanism mechanism = make_finite_mechanism("minimax", options);
    SeededRandom a(123);
    SeededRandom b(123);
    const std::vector<std::uint32_t> draws = sample_many(mechanism, p, n, a);
    CHECK(draws == sample_many(mechanism, p, n, b));
    REQUIRE(draws.size() == n);
    std::vector<std::size_t> counts(5, 0);
    for (std::uint32_t x : draws) ++counts.at(x);
    check_fit(counts, distribution(mechanism, p), n);
  }
  SECTION("at epsilon = 700 a point mass is (almost) never obscured") {
    const MinimaxSampler sampler(700.0);
    SeededRandom bits(700);
    std::size_t other = 0;
    for (int i = 0; i < 10000; ++i) other += sampler.sample(std::vector<double>{0, 0, 1, 0}, bits) != 2;
    CHECK(other == 0);
  }
}
