#pragma once
// The registry: every mechanism's spec, gathered from the one type list (list.hpp), for every entry point that
// chooses a mechanism at run time (the JS bindings, the demo's picker, labels and colours, the generated .d.ts option
// types). The WebAssembly modules export it as JSON (registry_json), so no rule is written a second time in JS.
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mechanisms/spec.hpp"

namespace privsample {

// All mechanisms, finite then continuous, in the order of the type lists.
[[nodiscard]] std::span<const MechanismSpec> mechanism_registry();
[[nodiscard]] std::vector<std::string> mechanism_names(MechanismSpace space);

// The spec of `name` in `space`; throws std::invalid_argument naming the unknown mechanism and the known ones.
[[nodiscard]] const MechanismSpec& mechanism_spec(std::string_view name, MechanismSpace space);

// The frequency oracles' specs (list.hpp's second list), in its order, and the spec of `name` (std::invalid_argument
// naming the unknown oracle and the known ones).
[[nodiscard]] std::span<const MechanismSpec> oracle_registry();
[[nodiscard]] const MechanismSpec& oracle_spec(std::string_view name);

// The registry as JSON: {"options": [{"name", "kind", "meaning"}], "mechanisms": [{"name", "space", "notion",
// "required", "optional", "defaults": {name: value}, "summary", "label", "plain"}], "oracles": [{"name", "notion",
// "required", "optional", "defaults", "summary", "report", "counts"}]}; "required" lists the notion's options too
// ("epsilon", or for ldp_from_options the pseudo-option "notion": epsilon [+ delta] or mu). An oracle's "report" is
// "hex" (a bitset as hex text) or "integer"; its "counts" are "per-category" (k support counts) or "per-report" (one
// per report value). Constant text, written when the library is compiled, followed by a NUL.
[[nodiscard]] std::string_view registry_json();

}  // namespace privsample
