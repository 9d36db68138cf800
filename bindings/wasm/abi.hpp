#pragma once
// The plain-C boundary every privsample WebAssembly module shares (client, ledger, research): what the JS wrapper
// stages between calls (UTF-8 text and two arrays of doubles; bindings/js/abi.mjs writes them) and the module's one
// error slot (guard.hpp). The exports over them — ps_stage, ps_error_* — are in abi.cpp.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace privsample::bindings {

struct Staging {
  std::string text;                          // a mechanism, option, divergence or ledger name, or ledger lines
  std::array<std::vector<double>, 2> arrays;  // an option's values; divergence's p and q; a ledger's numbers
};

// The module's staging area (one per WebAssembly instance; JS is single-threaded per instance).
Staging& staging();

// The first `length` bytes of the staged text.
[[nodiscard]] std::string_view staged_text(double length);

// `buffer` holding `size` values (contents unspecified: the wrapper or the core writes them next), without
// vector::resize. These files are built at -Oz and linked first, so their copy of vector<double>::resize, which
// value-initialises one double per call, would be the one the whole module links, and every hot resize in the core
// would pay for it (most of a k-RR sample() at large k in the client module).
template <class T>
T* sized(std::vector<T>& buffer, std::size_t size) {
  if (buffer.size() != size) buffer = std::vector<T>(size);
  return buffer.data();
}

// A heap address as the number JS holds.
template <class T>
double address_of(const T* pointer) {
  return static_cast<double>(reinterpret_cast<std::uintptr_t>(pointer));
}

}  // namespace privsample::bindings
