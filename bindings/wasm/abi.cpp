// The staging area and the error slot of abi.hpp / guard.hpp, and their exports: linked into every module.
#include "abi.hpp"

#include <emscripten/emscripten.h>

#include <cstdlib>
#include <new>
#include <stdexcept>
#include <utility>

#include "guard.hpp"
#include "base/errors.hpp"

namespace privsample::bindings {

PendingError& pending_error() {
  static PendingError slot;
  return slot;
}

namespace {

// What a caller can do when the module's heap (at most 2 GiB) is full. A fixed text: nothing is left to copy it into.
constexpr char kOutOfMemory[] = "out of memory: dispose() the samplers and oracles not in use, or use a smaller k or n";

// Records `message` (copied), or out of memory when it is null or its copy cannot be allocated.
void record(PendingError& slot, ErrorKind kind, const char* message) noexcept {
  try {
    if (message != nullptr) {
      slot = {kind, message};
      return;
    }
  } catch (...) {
    // the copy ran out of memory: recorded as such below
  }
  slot = {ErrorKind::range, {}, kOutOfMemory};
}

}  // namespace

void record_current_exception() noexcept {
  PendingError& slot = pending_error();
  try {
    throw;
  } catch (const ShapeError& e) {
    record(slot, ErrorKind::type, e.what());
  } catch (const std::invalid_argument& e) {
    record(slot, ErrorKind::range, e.what());
  } catch (const std::domain_error& e) {
    record(slot, ErrorKind::range, e.what());
  } catch (const std::bad_alloc&) {
    record(slot, ErrorKind::range, nullptr);
  } catch (const std::length_error&) {  // a container asked for more than it can hold: out of memory too
    record(slot, ErrorKind::range, nullptr);
  } catch (const std::exception& e) {
    record(slot, ErrorKind::other, e.what());
  } catch (...) {
    record(slot, ErrorKind::other, "unknown error in the privsample core");
  }
}

#if defined(PRIVSAMPLE_EXCEPTION_RESERVE)
// The research module throws C++ exceptions the Emscripten way (-fexceptions): each throw and each catch takes its
// bookkeeping from malloc in JavaScript, unchecked, so a bad_alloc thrown on a full heap had its bookkeeping written
// over address 0 and the next catch read a broken type (a trap: the module aborted). Operator new, when the heap
// cannot serve it, first releases this reserve and then throws, so that the throw and the catches find memory;
// guarded_or takes the reserve back once the error is recorded. (The client module uses WebAssembly exceptions:
// libc++abi allocates a thrown object from an emergency pool when malloc fails.)
namespace {

constexpr std::size_t kExceptionReserveBytes = 64 * 1024;

void*& exception_reserve() {
  static void* block = nullptr;
  return block;
}

[[noreturn]] void release_reserve_and_throw() {
  std::free(std::exchange(exception_reserve(), nullptr));
  throw std::bad_alloc();
}

const bool reserve_installed = [] {
  restore_exception_reserve();
  std::set_new_handler(&release_reserve_and_throw);
  return true;
}();

}  // namespace

void restore_exception_reserve() noexcept {
  if (exception_reserve() == nullptr) exception_reserve() = std::malloc(kExceptionReserveBytes);
}
#endif

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

// The address of a staging buffer, resized for the wrapper to write into: slot 0 or 1, an array of `length` doubles
// (their values are checked by the core); slot 2, the text buffer of `length` bytes (a name, a key). One export for
// both, so that every module carries one error guard for them.
EMSCRIPTEN_KEEPALIVE double ps_stage(double slot, double length) {
  return guarded_number([&] {
    const auto size = static_cast<std::size_t>(length);
    if (slot == 2.0) {
      staging().text.resize(size);
      return address_of(staging().text.data());
    }
    return address_of(sized(staging().arrays.at(static_cast<std::size_t>(slot)), size));
  });
}

// 0 when nothing is pending, else 1 RangeError, 2 TypeError, 3 Error; the message is UTF-8, NUL-terminated.
EMSCRIPTEN_KEEPALIVE double ps_error_kind() { return static_cast<double>(pending_error().kind); }
EMSCRIPTEN_KEEPALIVE const char* ps_error_message() { return pending_error().text(); }
EMSCRIPTEN_KEEPALIVE void ps_error_clear() { pending_error() = {}; }

}  // extern "C"
