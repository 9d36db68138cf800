#pragma once
// The factory of a named mechanism from a type list, shared by the finite one (mechanism.cpp) and the one on grid
// cells (cells.cpp): a table of one function per type. (A fold over optional<Mechanism> assignments instantiated every
// alternative's copy and move, several KB of the client module.)
#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

#include "base/errors.hpp"
#include "mechanisms/list.hpp"
#include "mechanisms/spec.hpp"

namespace privsample {

// Entry<T> gives T's name in its space (T::spec.name or T::cells_spec.name) and `static Mechanism make(options)`.
template <template <class> class Entry, class... Ts>
Mechanism made(MechanismList<Ts...>, const MechanismSpec& spec, const MechanismOptions& o) {
  using Maker = Mechanism (*)(const MechanismOptions&);
  static constexpr std::array<std::string_view, sizeof...(Ts)> kNames{Entry<Ts>::name...};
  static constexpr std::array<Maker, sizeof...(Ts)> kMakers{&Entry<Ts>::make...};
  for (std::size_t i = 0; i < kNames.size(); ++i) {
    if (kNames[i] == spec.name) return kMakers[i](o);
  }
  throw std::logic_error(message({"mechanism '", spec.name, "' is in the registry but not in the list"}));
}

}  // namespace privsample
