#include "base/numeric.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstdlib>

namespace privsample {

double compensated_total(std::span<const double> values) noexcept {
  CompensatedSum total;
  for (const double v : values) total.add(v);
  return total.value();
}

#if defined(PRIVSAMPLE_DEFER_NUMBER_FORMATTING)
// The WebAssembly modules leave number formatting to JavaScript, whose Number → String is exactly the shortest
// round-trip form produced below; that keeps printf, strtod and long-double arithmetic, and their bytes, out of the
// module. The value travels inside the message as ESC + 16 hex digits of its bits; the JS wrapper formats it when it
// raises the error (bindings/js/common.mjs).
std::string format_value(double value) {
  const std::uint64_t bits = bits_of(value);
  std::string out(17, '\x1b');
  static constexpr char kHex[] = "0123456789abcdef";
  for (int i = 0; i < 16; ++i) out[static_cast<std::size_t>(16 - i)] = kHex[(bits >> (4 * i)) & 0xF];
  return out;
}
#else
std::string format_value(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  if (value == 0.0) return "0";
  // The shortest representation that round-trips, in JavaScript's style: fixed notation for
  // 1e-7 <= |value| < 1e21 (the range in which ECMAScript's Number::toString writes no exponent), otherwise "1.5e-9"
  // (no leading zeros or '+' padding in the exponent).
  constexpr double kFixedNotationFrom = 1e-7;
  constexpr double kFixedNotationBelow = 1e21;
  char text[64];
  int precision = 1;
  for (; precision < 17; ++precision) {
    std::snprintf(text, sizeof text, "%.*e", precision - 1, value);
    if (std::strtod(text, nullptr) == value) break;
  }
  const int exponent = static_cast<int>(std::floor(std::log10(std::fabs(value))));
  if (std::fabs(value) >= kFixedNotationFrom && std::fabs(value) < kFixedNotationBelow) {
    std::snprintf(text, sizeof text, "%.*f", std::max(0, precision - 1 - exponent), value);
    return text;
  }
  std::snprintf(text, sizeof text, "%.*e", precision - 1, value);
  std::string out = text;
  const std::size_t e = out.find('e');
  std::string mantissa = out.substr(0, e);
  const int written_exponent = std::atoi(out.c_str() + e + 1);
  return mantissa + "e" + (written_exponent < 0 ? "-" : "+") + std::to_string(std::abs(written_exponent));
}

#endif

}  // namespace privsample
