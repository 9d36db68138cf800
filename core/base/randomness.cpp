#include "base/randomness.hpp"
#include "base/errors.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

#include "base/numeric.hpp"

namespace privsample {

void system_entropy(std::span<std::uint8_t> out) {
  constexpr std::size_t kMaxPerCall = 256;  // getentropy's limit
  for (std::size_t offset = 0; offset < out.size(); offset += kMaxPerCall) {
    const std::size_t length = std::min(kMaxPerCall, out.size() - offset);
    if (getentropy(out.data() + offset, length) != 0) {
      throw std::runtime_error(std::string("system CSPRNG unavailable: getentropy failed: ") + std::strerror(errno));
    }
  }
}

SecureRandom::SecureRandom(EntropySource source) : source_(std::move(source)) {
  if (!source_) throw std::invalid_argument("SecureRandom: the entropy source is empty");
}

std::span<std::uint64_t> RandomBits::lend(std::size_t /*most*/) { return {}; }

std::span<std::uint64_t> SecureRandom::lend(std::size_t most) {
  if (most == 0) return {};
  if (next_ == kBlockWords) refill();
  const std::size_t count = std::min(most, kBlockWords - next_);
  const std::span<std::uint64_t> lent(block_.data() + next_, count);
  next_ += count;  // the borrower clears them as it reads them
  return lent;
}

void SecureRandom::refill() {
  if (block_.empty()) block_ = std::vector<std::uint64_t>(kBlockWords);
  source_(std::span<std::uint8_t>(reinterpret_cast<std::uint8_t*>(block_.data()), kBlockBytes));
  // A working CSPRNG returns a block of zero bytes with probability below 2^-32768; a stubbed or broken one
  // often does, and drawing from it would make every release predictable (or loop forever in a rejection sampler).
  if (std::all_of(block_.begin(), block_.end(), [](std::uint64_t word) { return word == 0; })) {
    throw std::runtime_error(
        "the platform CSPRNG returned an all-zero block of 65536 bytes: the randomness source is broken");
  }
  next_ = 0;
}

std::uint64_t SecureRandom::next_u64() {
  if (next_ == kBlockWords) refill();
  const std::uint64_t word = block_[next_];
  block_[next_++] = 0;  // a used word is not kept in memory
  return word;
}

namespace {
std::uint64_t splitmix64(std::uint64_t& state) noexcept {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
constexpr std::uint64_t rotl(std::uint64_t x, int k) noexcept { return (x << k) | (x >> (64 - k)); }
}  // namespace

SeededRandom::SeededRandom(std::uint64_t seed) noexcept {
  for (auto& word : state_) word = splitmix64(seed);
}

std::uint64_t SeededRandom::next_u64() noexcept {
  const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
  const std::uint64_t t = state_[1] << 17;
  state_[2] ^= state_[0];
  state_[3] ^= state_[1];
  state_[1] ^= state_[2];
  state_[0] ^= state_[3];
  state_[2] ^= t;
  state_[3] = rotl(state_[3], 45);
  return result;
}

std::uint64_t validated_seed(double seed, std::string_view name) {
  constexpr double kLargestSeed = 9007199254740991.0;  // 2^53 − 1, the largest exact JS integer
  if (!std::isfinite(seed) || seed != std::floor(seed) || seed < 0.0 || seed > kLargestSeed) {
    throw_invalid({name, " = ", seed, ": must be an integer in [0, 9007199254740991]"});
  }
  return static_cast<std::uint64_t>(seed);
}

double uniform01(RandomBits& bits) { return static_cast<double>(bits.next_u64() >> 11) * 0x1.0p-53; }

std::uint64_t uniform_below(RandomBits& bits, std::uint64_t n) {
  if (n == 0) throw std::invalid_argument("uniform_below: n = 0: the range is empty");
  return uniform_below(bits.next_u64(), n, bits);
}

// Not inlined: one copy for every inlined uniform_below.
[[gnu::noinline]] std::uint64_t uniform_below_rejected(RandomBits& bits, std::uint64_t n, std::uint64_t word) {
  // The word's product with n has a low half below n: it may fall in the short last block, 2^64 mod n long.
  const std::uint64_t threshold = (0 - n) % n;
  __uint128_t product = static_cast<__uint128_t>(word) * n;
  while (static_cast<std::uint64_t>(product) < threshold) product = static_cast<__uint128_t>(bits.next_u64()) * n;
  return static_cast<std::uint64_t>(product >> 64);
}

bool bernoulli(RandomBits& bits, double probability) {
  // Compare a uniform real U = 0.u1u2… with probability = 0.p1p2…, 64 bits at a time (FixedCostCoin); no word is
  // read when the outcome is certain.
  if (!(probability > 0.0)) return false;  // also NaN
  if (probability >= 1.0) return true;
  return FixedCostCoin(probability).toss(bits);
}

// Scaling by 2^64 and removing the integer part are exact in binary floating point, so the comparison of a word with
// first_, and then of further words with the rest's next 64 bits, is exact. Not inlined: one copy for its callers.
[[gnu::noinline]] FixedCostCoin::FixedCostCoin(double probability) noexcept {
  // The same operations for every probability, with no branch on it (DS-ROO's obscuring probability is a function of
  // the data): the expansion of p itself when 0 < p < 1, read from its bit pattern (for p >= 0 the patterns order as
  // the values; a negative p or a NaN compares as a huge pattern), else of 0; then all ones when certain.
  // So: certain (p >= 1) → first_ all ones, rest_ 0; p = 0, negative or NaN → 0 and 0, never true.
  constexpr std::uint64_t kOneBits = 0x3FF0'0000'0000'0000ULL;  // the double 1
  certain_ = probability >= 1.0;
  std::uint64_t bits = bits_of(probability);
  bits &= std::uint64_t{0} - static_cast<std::uint64_t>(bits - 1 < kOneBits - 1);  // 0 < p < 1, else +0
  const double scaled = double_of(bits) * 0x1.0p64;  // exact; below 2^64
  const double chunk = std::floor(scaled);
  first_ = static_cast<std::uint64_t>(chunk) | (std::uint64_t{0} - static_cast<std::uint64_t>(certain_));
  rest_ = scaled - chunk;
}

[[gnu::noinline]] bool FixedCostCoin::settle(RandomBits& bits) const {
  // The word equals the first 64 bits: bernoulli()'s comparison goes on with the rest of the expansion.
  if (certain_) return true;
  double rest = rest_;
  while (rest != 0.0) {
    rest *= 0x1.0p64;
    const double chunk_value = std::floor(rest);
    rest -= chunk_value;
    const auto chunk = static_cast<std::uint64_t>(chunk_value);
    const std::uint64_t word = bits.next_u64();
    if (word != chunk) return word < chunk;
  }
  return false;
}

// Not inlined: one copy for its callers (a loop of many tosses keeps a FixedCostCoin instead).
[[gnu::noinline]] bool bernoulli_fixed_cost(RandomBits& bits, double probability) {
  return FixedCostCoin(probability).toss(bits);
}

DiscreteSampler::DiscreteSampler(std::span<const double> weights) {
  if (weights.empty()) throw std::invalid_argument("weights is empty: need at least one category");
  double largest = 0.0;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (!std::isfinite(weights[i]) || weights[i] < 0.0) {
      throw_invalid({"weights[", i, "] = ", weights[i], ": weights must be finite and >= 0"});
    }
    largest = std::max(largest, weights[i]);
  }
  if (largest == 0.0) throw std::invalid_argument("weights is all zeros: at least one must be positive");
  acceptance_.resize(weights.size());
  std::transform(weights.begin(), weights.end(), acceptance_.begin(), [largest](double w) { return w / largest; });
}

std::size_t DiscreteSampler::draw(RandomBits& bits) const {
  while (true) {
    const auto index = static_cast<std::size_t>(uniform_below(bits, acceptance_.size()));
    if (bernoulli(bits, acceptance_[index])) return index;
  }
}

}  // namespace privsample
