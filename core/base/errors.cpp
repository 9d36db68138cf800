#include "base/errors.hpp"

#include "base/numeric.hpp"

namespace privsample {

void MessagePiece::append_to(std::string& out) const {
  switch (kind_) {
    case Kind::text:
      out.append(text_);
      return;
    case Kind::value:
      out.append(format_value(value_));
      return;
    case Kind::integer:
    case Kind::negative: {
      char digits[20];
      std::size_t n = 0;
      std::uint64_t rest = integer_;
      do {
        digits[n++] = static_cast<char>('0' + rest % 10);
        rest /= 10;
      } while (rest != 0);
      if (kind_ == Kind::negative) out.push_back('-');
      while (n > 0) out.push_back(digits[--n]);
      return;
    }
  }
}

std::string message(std::initializer_list<MessagePiece> pieces) {
  std::string out;
  for (const MessagePiece& piece : pieces) piece.append_to(out);
  return out;
}

void throw_invalid(std::initializer_list<MessagePiece> pieces) { throw std::invalid_argument(message(pieces)); }
void throw_shape(std::initializer_list<MessagePiece> pieces) { throw ShapeError(message(pieces)); }
void throw_domain(std::initializer_list<MessagePiece> pieces) { throw std::domain_error(message(pieces)); }

}  // namespace privsample
