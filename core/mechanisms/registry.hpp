#pragma once
// The single source of the mechanisms' public names and option rules, for every entry point that chooses a
// mechanism at run time (the JS bindings, the demo's pickers, the .d.ts check). The factories
// (mechanism.hpp for histograms, continuous_mechanism.hpp for grids) read their rules from here, and the
// WebAssembly modules export the table as JSON (registry_json), so no rule is written a second time in JS.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "privacy/privacy.hpp"

namespace privsample {

// Options as a user states them; which ones a mechanism needs is checked against its MechanismSpec.
struct MechanismOptions {
  std::optional<double> epsilon;
  std::optional<double> delta;
  std::optional<double> mu;
  std::optional<double> gamma;
  std::optional<double> records;
  std::optional<double> c1;
  std::optional<double> c2;
  std::optional<std::vector<double>> prior;
  std::optional<std::vector<double>> reference;
};

// The field of MechanismOptions an option name stands for, or nullptr when the name is not an option of that kind:
// the one place where option names meet the struct (the registry's checks and the bindings' setters use it).
[[nodiscard]] std::optional<double> MechanismOptions::*number_field(std::string_view key) noexcept;
[[nodiscard]] std::optional<std::vector<double>> MechanismOptions::*array_field(std::string_view key) noexcept;

enum class OptionKind { number, numbers };

struct OptionSpec {
  std::string_view name;
  OptionKind kind;
  std::string_view meaning;
};

// Every option any mechanism takes, in the order error messages list them.
[[nodiscard]] std::span<const OptionSpec> option_specs();

enum class MechanismSpace { finite, continuous };

// How a mechanism's privacy notion is chosen from its options.
enum class NotionRule {
  pure_epsilon,   // options.epsilon: pure ε-LDP
  ldp_from_options,  // epsilon → pure ε-LDP; epsilon + delta → (ε,δ)-LDP; mu → μ-Gaussian LDP
  record_level,   // epsilon with the public number of records: record-level ε-DP
};

struct OptionDefault {
  std::string_view name;
  double value;
};

struct MechanismSpec {
  std::string_view name;
  MechanismSpace space;
  NotionRule notion;
  std::span<const std::string_view> required;  // besides the notion's own options (epsilon / delta / mu)
  std::span<const std::string_view> optional;
  std::span<const OptionDefault> defaults;     // the value of an optional number option the caller leaves out
  std::string_view summary;
};

// The default of an optional number option of spec (std::logic_error if it has none: a registry defect).
[[nodiscard]] double option_default(const MechanismSpec& spec, std::string_view option);

// All mechanisms, finite then continuous, in the order the documentation lists them.
[[nodiscard]] std::span<const MechanismSpec> mechanism_registry();
[[nodiscard]] std::vector<std::string> mechanism_names(MechanismSpace space);

// The spec of `name` in `space`; throws std::invalid_argument naming the unknown mechanism and the known ones.
[[nodiscard]] const MechanismSpec& mechanism_spec(std::string_view name, MechanismSpace space);

// Checks that every option needed is given and every option given is used (a typo never silently changes the
// mechanism), and returns the privacy notion the options state, validated. Throws std::invalid_argument naming
// the option (as options.<name>) and the mechanism.
[[nodiscard]] Guarantee checked_options(const MechanismSpec& spec, const MechanismOptions& options);

// The LDP notion options state on their own, by the ldp_from_options rule (epsilon → pure ε-LDP; epsilon + delta →
// (ε,δ)-LDP; mu → μ-Gaussian LDP), validated; `user` names the caller in messages. Any other option is refused.
[[nodiscard]] Guarantee ldp_notion_of(const MechanismOptions& options, std::string_view user);

// The registry as JSON: {"options": [{"name", "kind", "meaning"}], "mechanisms": [{"name", "space", "notion",
// "required", "optional", "defaults": {name: value}, "summary"}]}; "required" lists the notion's options too ("epsilon", or for
// ldp_from_options the pseudo-option "notion": epsilon [+ delta] or mu).
[[nodiscard]] std::string registry_json();

}  // namespace privsample
