#pragma once
// Randomness is injected. SecureRandom (the default everywhere) reads the platform CSPRNG in buffered
// blocks; SeededRandom is a deterministic generator for tests and reproducible figures and is NOT secure.
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string_view>
#include <vector>

namespace privsample {

class RandomBits {
 public:
  virtual ~RandomBits() = default;
  virtual std::uint64_t next_u64() = 0;
  // Up to `most` of the next words where the generator holds them in memory, handed to the caller, who takes them
  // as the next ones it draws (each in turn, before any other word of this generator) and clears each as it reads it;
  // empty (the default) where it does not. For a reader of many words (BufferedBits), at no virtual call per word.
  virtual std::span<std::uint64_t> lend(std::size_t most);
};

// Fills the buffer with cryptographically secure bytes or throws std::runtime_error.
using EntropySource = std::function<void(std::span<std::uint8_t>)>;

// getentropy(3): getrandom(2) natively; under WebAssembly the bindings inject crypto.getRandomValues
// on whole blocks instead (Emscripten's getentropy makes one JS call per byte).
void system_entropy(std::span<std::uint8_t> out);

class SecureRandom final : public RandomBits {
 public:
  // 64 KiB per call into the entropy source, the most crypto.getRandomValues fills at once: its cost per call is
  // most of its cost per byte for smaller blocks, and a word is drawn per coin or index of every release.
  static constexpr std::size_t kBlockWords = 8192;
  static constexpr std::size_t kBlockBytes = kBlockWords * sizeof(std::uint64_t);

  explicit SecureRandom(EntropySource source = system_entropy);
  std::uint64_t next_u64() override;
  std::span<std::uint64_t> lend(std::size_t most) override;  // words of the present block (a new one if it is used)

 private:
  void refill();  // the next block from the source

  EntropySource source_;
  std::vector<std::uint64_t> block_;  // made at the first draw, on the heap: a SecureRandom itself stays small
  std::size_t next_ = kBlockWords;
};

// xoshiro256** seeded through splitmix64. Reproducible across platforms; predictable, so never the default.
class SeededRandom final : public RandomBits {
 public:
  explicit SeededRandom(std::uint64_t seed) noexcept;
  std::uint64_t next_u64() noexcept override;

 private:
  std::array<std::uint64_t, 4> state_{};
};

// A seed given as a double (as JavaScript numbers arrive): an integer in [0, 2^53 − 1], else
// std::invalid_argument naming it as `name` ("options.seed = 1.5: must be an integer in [0, 9007199254740991]").
[[nodiscard]] std::uint64_t validated_seed(double seed, std::string_view name = "seed");

// The words of another generator read in runs, for a loop of many draws: a draw's fast path reads them with no
// virtual call (through a BufferedBits&: the class is final). reserve(n) is called between draws with a count the
// remaining draws will certainly consume, and borrows up to n words the source holds in memory (RandomBits::lend);
// past them, and for a source that lends none, words come from its next_u64(). So the source's sequence, and each
// draw's words, are exactly those of the same draws made on the source directly, and no word is read ahead of them.
class BufferedBits final : public RandomBits {
 public:
  explicit BufferedBits(RandomBits& source) noexcept : source_(source) {}

  // When the borrowed words are used up, borrows up to `words` more; `words` must not exceed what will be consumed.
  void reserve(std::size_t words) {
    if (next_ == lent_.size()) {
      lent_ = source_.lend(words);
      next_ = 0;
    }
  }
  std::uint64_t next_u64() override {
    if (next_ == lent_.size()) return source_.next_u64();
    const std::uint64_t word = lent_[next_];
    lent_[next_++] = 0;  // a used word is not kept in memory
    return word;
  }

 private:
  RandomBits& source_;
  std::span<std::uint64_t> lent_;
  std::size_t next_ = 0;
};

// Uniform on {0, 1/2^53, …, 1 − 1/2^53}.
[[nodiscard]] double uniform01(RandomBits& bits);

// Uniform on {0, …, n−1} without modulo bias (Lemire's multiply-and-reject). Requires n >= 1.
[[nodiscard]] std::uint64_t uniform_below(RandomBits& bits, std::uint64_t n);
// The rare rejection step of uniform_below, after the first word's product with n has a low half below n (it may
// fall in the short last block): further words from `bits` until one is accepted.
[[nodiscard]] std::uint64_t uniform_below_rejected(RandomBits& bits, std::uint64_t n, std::uint64_t word);
// The high half of the 128-bit product a·b, and its low half in `low`, from four products of 32-bit halves.
[[nodiscard]] inline std::uint64_t multiply_high_by_halves(std::uint64_t a, std::uint64_t b, std::uint64_t& low) {
  const std::uint64_t mask = 0xffffffff;
  const std::uint64_t p00 = (a & mask) * (b & mask);
  const std::uint64_t p01 = (a & mask) * (b >> 32);
  const std::uint64_t p10 = (a >> 32) * (b & mask);
  const std::uint64_t middle = (p00 >> 32) + (p01 & mask) + (p10 & mask);  // below 3·2^32: no overflow
  low = (middle << 32) | (p00 & mask);
  return (a >> 32) * (b >> 32) + (p01 >> 32) + (p10 >> 32) + (middle >> 32);
}

// The same product: WebAssembly has no wide multiply (clang calls __multi3 for __uint128_t), so by halves there.
[[nodiscard]] inline std::uint64_t multiply_high(std::uint64_t a, std::uint64_t b, std::uint64_t& low) {
#ifdef __wasm__
  return multiply_high_by_halves(a, b, low);
#else
  const __uint128_t product = static_cast<__uint128_t>(a) * b;
  low = static_cast<std::uint64_t>(product);
  return static_cast<std::uint64_t>(product >> 64);
#endif
}

// uniform_below with its first word given (n >= 1, unchecked): the same words and the same result.
[[nodiscard]] inline std::uint64_t uniform_below(std::uint64_t word, std::uint64_t n, RandomBits& bits) {
  std::uint64_t low = 0;
  const std::uint64_t high = multiply_high(word, n, low);
  return low >= n ? high : uniform_below_rejected(bits, n, word);
}

// true with probability exactly `probability` (any double in [0,1]), by comparing lazily drawn bits
// of a uniform real with the binary expansion of `probability`. Two bits are used on average.
[[nodiscard]] bool bernoulli(RandomBits& bits, double probability);

// bernoulli() that reads one word even when the outcome is certain (probability 0 or 1), so the number of words a
// coin consumes does not reveal whether its probability was extreme (the draw policy, draw.hpp).
[[nodiscard]] bool bernoulli_fixed_cost(RandomBits& bits, double probability);

// bernoulli_fixed_cost(bits, probability) for a probability fixed in advance, tossed many times: the same law and the
// same words, with the first 64 bits of its expansion compared inline (the rest, reached with probability 2^-64,
// out of line).
class FixedCostCoin {
 public:
  explicit FixedCostCoin(double probability) noexcept;
  template <class Bits>
  [[nodiscard]] bool toss(Bits& bits) const {
    // `|`, not `||`: no branch on the outcome, whose rate is the probability (for DS-ROO's obscuring coin, a function
    // of the data). The branch to settle() is taken with probability 2^-64, whatever the probability.
    const std::uint64_t word = bits.next_u64();
    return word != first_ ? ((word < first_) | certain_) : settle(bits);
  }

 private:
  [[nodiscard]] bool settle(RandomBits& bits) const;  // after a word equal to first_

  std::uint64_t first_ = 0;  // the expansion's first 64 bits (all ones when certain_)
  double rest_ = 0.0;        // the rest of the expansion, scaled to [0, 1)
  bool certain_ = false;     // probability >= 1
};

// Draws indices with probability exactly proportional to the given weights (up to one rounding of
// w_x / max w): a uniform index is accepted with probability w_x / max w. So the output probabilities
// are the weights' ratios to within 1e-15 relative, even for weights of 1e-300 — an inverse-CDF table
// would round small atoms away, and with them the privacy ratio. Expected trials per draw:
// k·max w / Σw (at most k·hi for a clip sampler).
class DiscreteSampler {
 public:
  // weights: finite, >= 0, not all zero; throws std::invalid_argument otherwise.
  explicit DiscreteSampler(std::span<const double> weights);
  [[nodiscard]] std::size_t draw(RandomBits& bits) const;

 private:
  std::vector<double> acceptance_;  // w_x / max w
};

}  // namespace privsample
