// The staging area and the error slot of abi.hpp / guard.hpp, and their exports: linked into every module.
#include "abi.hpp"

#include <emscripten/emscripten.h>

#include <new>
#include <stdexcept>

#include "guard.hpp"
#include "base/errors.hpp"

namespace privsample::bindings {

PendingError& pending_error() {
  static PendingError slot;
  return slot;
}

void record_current_exception() noexcept {
  PendingError& slot = pending_error();
  try {
    throw;
  } catch (const ShapeError& e) {
    slot = {ErrorKind::type, e.what()};
  } catch (const std::invalid_argument& e) {
    slot = {ErrorKind::range, e.what()};
  } catch (const std::domain_error& e) {
    slot = {ErrorKind::range, e.what()};
  } catch (const std::bad_alloc&) {
    slot = {ErrorKind::range, "out of memory: the input is too large for this WebAssembly module"};
  } catch (const std::exception& e) {
    slot = {ErrorKind::other, e.what()};
  } catch (...) {
    slot = {ErrorKind::other, "unknown error in the privsample core"};
  }
}

Staging& staging() {
  static Staging s;
  return s;
}

std::string_view staged_text(double length) {
  return std::string_view(staging().text).substr(0, static_cast<std::size_t>(length));
}

}  // namespace privsample::bindings

using namespace privsample::bindings;

extern "C" {

// The address of a text buffer of `length` bytes the wrapper writes a name into.
EMSCRIPTEN_KEEPALIVE double ps_text(double length) {
  return guarded_number([&] {
    staging().text.resize(static_cast<std::size_t>(length));
    return address_of(staging().text.data());
  });
}

// The address of array slot 0 or 1, resized to `length` doubles (their values are checked by the core).
EMSCRIPTEN_KEEPALIVE double ps_array(double slot, double length) {
  return guarded_number([&] {
    return address_of(sized(staging().arrays.at(static_cast<std::size_t>(slot)), static_cast<std::size_t>(length)));
  });
}

// 0 when nothing is pending, else 1 RangeError, 2 TypeError, 3 Error; the message is UTF-8, NUL-terminated.
EMSCRIPTEN_KEEPALIVE double ps_error_kind() { return static_cast<double>(pending_error().kind); }
EMSCRIPTEN_KEEPALIVE const char* ps_error_message() { return pending_error().message.c_str(); }
EMSCRIPTEN_KEEPALIVE void ps_error_clear() { pending_error() = {}; }

}  // extern "C"
