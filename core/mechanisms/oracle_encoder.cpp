#include "mechanisms/oracle_encoder.hpp"

#include <cmath>
#include <new>
#include <type_traits>
#include <utility>
#include <variant>

#include "base/errors.hpp"

namespace privsample {
namespace {

// validated_item's rule, without building its message: the caller asks for the message only when this fails.
bool is_item(double x, std::size_t k) noexcept { return x >= 0.0 && x < static_cast<double>(k) && x == std::floor(x); }

}  // namespace

template <class Bits>
BasicOracleEncoder<Bits>::BasicOracleEncoder(Oracle oracle, Bits& bits) : oracle_(std::move(oracle)), bits_(&bits) {
  std::visit(
      [this](const auto& o) {
        k_ = o.categories();
        if constexpr (std::decay_t<decltype(o)>::report_format == ReportFormat::bits) width_ = 2 * o.report_bytes();
      },
      oracle_);
}

template <class Bits>
double BasicOracleEncoder<Bits>::encode(double item) {
  if (!is_item(item, k_)) (void)validated_item(item, k_);  // throws, naming the item
  double report = 0.0;
  draw(std::span(&item, 1), &report);
  return report;
}

template <class Bits>
void BasicOracleEncoder<Bits>::encode_many(std::span<const double> items, std::span<double> reports) {
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (!is_item(items[i], k_)) {
      throw_invalid({"items[", i, "] = ", items[i], ": must be an integer in [0, ", k_ - 1, "]"});  // validated_item's
    }
  }
  draw(items, reports.data());
}

template <class Bits>
void BasicOracleEncoder<Bits>::draw(std::span<const double> items, double* out) {
  // width_·n + 1 characters, counted where size_t cannot wrap (it has 32 bits in WebAssembly: at k = 10^7 a batch of
  // 1,718 reports wrapped to a 32 KB buffer, which the loop below then overran): more than a vector can hold is out of
  // memory, as the caller is told for any allocation that fails.
  if (width_ != 0 && items.size() > (text_.max_size() - 1) / width_) throw std::bad_alloc();
  // Every character but the closing NUL is written below (a new buffer is zeros: the NUL is there).
  if (text_.size() != width_ * items.size() + 1) text_ = std::vector<char>(width_ * items.size() + 1);
  Bits& bits = *bits_;
  std::visit(
      [&](const auto& o) {
        if constexpr (std::decay_t<decltype(o)>::report_format == ReportFormat::bits) {
          if (bytes_.size() != o.report_bytes()) bytes_ = std::vector<std::uint8_t>(o.report_bytes());
          char* hex = text_.data();
          for (const double item : items) {
            o.report(static_cast<std::size_t>(item), bits, bytes_);
            write_hex(bytes_, hex);
            hex += width_;
          }
        } else {
          for (const double item : items) *out++ = static_cast<double>(o.report(static_cast<std::size_t>(item), bits));
        }
      },
      oracle_);
}

template class BasicOracleEncoder<RandomBits>;
template class BasicOracleEncoder<SecureRandom>;

}  // namespace privsample
