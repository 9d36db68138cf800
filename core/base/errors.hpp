#pragma once
// The two kinds of bad input the API distinguishes (docs/design.md#errors): a bad value (std::invalid_argument, a
// RangeError in JS) and a wrong shape — arrays whose lengths do not fit together, such as a prior of 3 entries
// for a histogram of 4 (ShapeError, still a std::invalid_argument for C++ callers, a TypeError in JS).
//
// Messages are built out of line: a throwing site lists its pieces — text, integers (written as std::to_string
// writes them) and values (format_value) — and one function per exception type joins them and throws. The site
// then holds no std::string temporaries (nor their clean-up on unwinding) and no number formatting, which is most
// of a validation function's code in the WebAssembly client.
//   throw_invalid({name, "[", i, "] = ", v, ": counts must be finite and >= 0"});
#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>

namespace privsample {

class ShapeError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// One piece of a message: a text, an integer or a value (a double, written by format_value).
class MessagePiece {
 public:
  MessagePiece(std::string_view text) noexcept : text_(text) {}  // NOLINT: implicit by design
  MessagePiece(const char* text) noexcept : text_(text) {}       // NOLINT
  MessagePiece(const std::string& text) noexcept : text_(text) {}  // NOLINT
  template <std::integral T>
    requires(!std::same_as<T, bool> && !std::same_as<T, char>)
  MessagePiece(T n) noexcept  // NOLINT
      : kind_(n < 0 ? Kind::negative : Kind::integer),
        integer_(n < 0 ? 0 - static_cast<std::uint64_t>(n) : static_cast<std::uint64_t>(n)) {}
  MessagePiece(double value) noexcept : kind_(Kind::value), value_(value) {}  // NOLINT
  MessagePiece(char) = delete;  // a character is text: pass a string_view

  void append_to(std::string& out) const;

 private:
  enum class Kind : unsigned char { text, integer, negative, value };
  Kind kind_ = Kind::text;
  std::string_view text_;
  std::uint64_t integer_ = 0;
  double value_ = 0.0;
};

// The pieces joined into one string.
[[nodiscard]] std::string message(std::initializer_list<MessagePiece> pieces);

// throw std::invalid_argument / ShapeError / std::domain_error with message(pieces).
[[noreturn]] void throw_invalid(std::initializer_list<MessagePiece> pieces);
[[noreturn]] void throw_shape(std::initializer_list<MessagePiece> pieces);
[[noreturn]] void throw_domain(std::initializer_list<MessagePiece> pieces);

}  // namespace privsample
