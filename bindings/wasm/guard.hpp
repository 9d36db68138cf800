#pragma once
// How C++ errors reach JavaScript without leaking: a JS exception must never unwind through WebAssembly frames
// (Emscripten would skip the C++ catch's cleanup and the shadow-stack restore, so every error leaked stack and heap
// until the module hung). A guarded call catches, records the error in the module's one slot, and returns a
// sentinel (NaN for the C functions of client.cpp, `undefined` for the research module's Embind functions); the JS
// wrapper sees the sentinel and reads the slot (ps_error_kind / ps_error_message) to throw a
// RangeError/TypeError/Error there, after the C++ side has fully unwound.
#include <string>
#include <utility>

namespace privsample::bindings {

enum class ErrorKind { none = 0, range = 1, type = 2, other = 3 };

struct PendingError {
  ErrorKind kind = ErrorKind::none;
  std::string message;
  // A message that needs no allocation (out of memory: copying any message could fail then); used instead of
  // `message` when set.
  const char* fixed = nullptr;
  [[nodiscard]] const char* text() const noexcept { return fixed != nullptr ? fixed : message.c_str(); }
};

// The module's error slot (one per WebAssembly instance; JS is single-threaded per instance).
PendingError& pending_error();

// Classifies the exception being handled (call only inside a catch block) and records it in the slot. Never
// allocates for an out-of-memory error, and records one when copying another error's message runs out of memory:
// a throw from here would reach std::terminate and leave the module unusable.
void record_current_exception() noexcept;

#if defined(PRIVSAMPLE_EXCEPTION_RESERVE)
// The research module (Emscripten's JavaScript exceptions; abi.cpp): takes back the heap reserve that a failed
// operator new released for its bad_alloc's throw and catch, when the reserve was spent and memory allows.
void restore_exception_reserve() noexcept;
#endif

// Runs body() and returns its result as a Result, or records the exception and returns the sentinel. Never throws.
// The catch is a single catch (...) per call site: the classification lives once in record_current_exception().
template <class Result, class Body>
Result guarded_or(Result sentinel, Body&& body) noexcept {
  try {
    return body();
  } catch (...) {
    record_current_exception();
  }
#if defined(PRIVSAMPLE_EXCEPTION_RESERVE)
  restore_exception_reserve();  // after the catch: the exception's memory is free again
#endif
  return sentinel;
}

// The C functions' form: body()'s number, or NaN after an error.
template <class Body>
double guarded_number(Body&& body) noexcept {
  return guarded_or<double>(__builtin_nan(""), std::forward<Body>(body));
}

}  // namespace privsample::bindings
