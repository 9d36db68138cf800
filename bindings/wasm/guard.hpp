#pragma once
// How C++ errors reach JavaScript without leaking: a JS exception must never unwind through WebAssembly frames
// (Emscripten 3.1.6 would skip the C++ catch's cleanup and the shadow-stack restore, so every error leaked stack
// and heap until the module hung). guarded() catches, records the error in the module's one slot, and returns
// `undefined`; the JS wrapper sees `undefined` and calls takeError() to throw a RangeError/TypeError/Error there.
#include <emscripten/val.h>

#include <new>
#include <stdexcept>
#include <string>

namespace privsample::bindings {

enum class ErrorKind { none = 0, range = 1, type = 2, other = 3 };

struct PendingError {
  ErrorKind kind = ErrorKind::none;
  std::string message;
};

// The module's error slot (one per WebAssembly instance; JS is single-threaded per instance).
PendingError& pending_error();

// Classifies the exception being handled (call only inside a catch block) and records it in the slot.
void record_current_exception() noexcept;

// Runs body() and returns its val, or records the exception and returns undefined. Never throws. The catch is a
// single catch (...) per call site: the classification lives once in record_current_exception().
template <class Body>
emscripten::val guarded(Body&& body) noexcept {
  try {
    return body();
  } catch (...) {
    record_current_exception();
  }
  return emscripten::val::undefined();
}

// The same for calls that return a number: NaN signals the recorded error.
template <class Body>
double guarded_number(Body&& body) noexcept {
  try {
    return body();
  } catch (...) {
    record_current_exception();
  }
  return __builtin_nan("");
}

// {kind: 'RangeError' | 'TypeError' | 'Error', message} and clears the slot, or null when nothing is pending.
emscripten::val take_error();

}  // namespace privsample::bindings
