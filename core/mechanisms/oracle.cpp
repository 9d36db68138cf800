#include "mechanisms/oracle.hpp"

#include <algorithm>
#include <cmath>

#include "base/errors.hpp"
#include "model/histogram.hpp"
#include "privacy/privacy.hpp"

namespace privsample {

std::size_t oracle_categories(const MechanismOptions& options) {
  return oracle_categories(options.categories.value_or(0.0));
}

std::size_t oracle_categories(double k) { return validated_count(k, "options.categories", 2, kMaxCategories); }

std::size_t validated_item(double item, std::size_t k, std::string_view name) {
  return validated_count(item, name, 0, k - 1);
}

double coin_epsilon(double epsilon) {
  const double margin = 1e-12 * epsilon + 1e-14;
  const double running = effective_epsilon(epsilon);
  return running > margin ? running - margin : 0.0;
}

std::uint64_t scaled_up(double x, int bits) {
  // x·(1 + 2^-50) <= 1 − 2^-41 for x <= 1 − 2^-40, so its product with 2^bits is below 2^64: the conversion is exact.
  return static_cast<std::uint64_t>(std::ceil(std::ldexp(x * (1.0 + 0x1.0p-50), bits)));
}

double support_variance(const SupportLaw& law, double frequency, double users) {
  const long double p = law.p;
  const long double q = law.q;
  const long double f = frequency;
  return static_cast<double>((f * p * (1.0L - p) + (1.0L - f) * q * (1.0L - q)) / (users * (p - q) * (p - q)));
}

void write_hex(std::span<const std::uint8_t> bytes, char* out) noexcept {
  constexpr char kDigits[] = "0123456789abcdef";
  for (const std::uint8_t byte : bytes) {
    *out++ = kDigits[byte >> 4];
    *out++ = kDigits[byte & 15];
  }
}

namespace {
int hex_digit(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
}  // namespace

void read_hex(std::string_view text, std::size_t k, std::span<std::uint8_t> out, std::size_t index) {
  const std::size_t bytes = bitset_bytes(k);
  const auto shown = [&] { return text.size() > 24 ? std::string(text.substr(0, 24)) + "…" : std::string(text); };
  if (text.size() != 2 * bytes) {
    throw_invalid({"reports[", index, "] = '", shown(), "': a report on ", k, " items is ", 2 * bytes,
                   " hex digits, not ", text.size()});
  }
  for (std::size_t i = 0; i < bytes; ++i) {
    const int high = hex_digit(text[2 * i]);
    const int low = hex_digit(text[2 * i + 1]);
    if (high < 0 || low < 0) {
      throw_invalid({"reports[", index, "] = '", shown(), "': character ", 2 * i + (high < 0 ? 0 : 1),
                     " is not a hex digit"});
    }
    out[i] = static_cast<std::uint8_t>(high * 16 + low);
  }
  const unsigned padding = static_cast<unsigned>(8 * bytes - k);
  if (padding > 0 && (out[bytes - 1] & ((1U << padding) - 1U)) != 0) {
    throw_invalid({"reports[", index, "] = '", shown(), "': the last ", static_cast<std::size_t>(padding),
                   " bits are past item ", k - 1, " and must be 0"});
  }
}

}  // namespace privsample
