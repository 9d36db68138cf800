#pragma once
// Randomness is injected. SecureRandom (the default everywhere) reads the platform CSPRNG in buffered
// blocks; SeededRandom is a deterministic generator for tests and reproducible figures and is NOT secure.
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace privsample {

class RandomBits {
 public:
  virtual ~RandomBits() = default;
  virtual std::uint64_t next_u64() = 0;
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

 private:
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
// std::invalid_argument ("seed = 1.5: must be an integer in [0, 9007199254740991]").
[[nodiscard]] std::uint64_t validated_seed(double seed);

// Uniform on {0, 1/2^53, …, 1 − 1/2^53}.
[[nodiscard]] double uniform01(RandomBits& bits);

// Uniform on {0, …, n−1} without modulo bias (Lemire's multiply-and-reject). Requires n >= 1.
[[nodiscard]] std::uint64_t uniform_below(RandomBits& bits, std::uint64_t n);

// true with probability exactly `probability` (any double in [0,1]), by comparing lazily drawn bits
// of a uniform real with the binary expansion of `probability`. Two bits are used on average.
[[nodiscard]] bool bernoulli(RandomBits& bits, double probability);

// bernoulli() that reads one word even when the outcome is certain (probability 0 or 1), so the number of words a
// coin consumes does not reveal whether its probability was extreme (the draw policy, draw.hpp).
[[nodiscard]] bool bernoulli_fixed_cost(RandomBits& bits, double probability);

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
