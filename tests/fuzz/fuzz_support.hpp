#pragma once
// Turns fuzzer bytes into the values the targets need: doubles taken bit for bit (NaN, ±∞, subnormals, huge and
// tiny magnitudes all occur), small counts, and choices.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace privsample_fuzz {

class Bytes {
 public:
  Bytes(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  [[nodiscard]] bool empty() const { return offset_ >= size_; }
  std::uint8_t byte() { return offset_ < size_ ? data_[offset_++] : 0; }
  double raw_double() {
    std::uint64_t bits = 0;
    for (int i = 0; i < 8; ++i) bits = (bits << 8) | byte();
    double out;
    std::memcpy(&out, &bits, sizeof out);
    return out;
  }
  // A nonnegative finite double, biased to the adversarial ones (subnormal, huge, zero, equal neighbours).
  double mass() {
    switch (byte() % 6) {
      case 0: return 0.0;
      case 1: return 5e-324 * (1 + byte());
      case 2: return 1e300 * (1 + byte());
      case 3: return static_cast<double>(byte());
      default: {
        const double v = std::fabs(raw_double());
        return std::isfinite(v) ? v : 1.0;
      }
    }
  }
  std::vector<double> histogram(std::size_t max_size) {
    const std::size_t k = 1 + byte() % max_size;
    std::vector<double> out(k);
    for (double& v : out) v = mass();
    return out;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t offset_ = 0;
};

}  // namespace privsample_fuzz
