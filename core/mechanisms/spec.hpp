#pragma once
// How a mechanism describes itself: the options a user can state (one table of every option's name, kind and
// meaning), and a mechanism's spec — its public name, its space, how its privacy notion is chosen from the options,
// the options it requires and allows with their defaults, and a one-line summary. Every mechanism declares its spec
// (`static constexpr MechanismSpec spec`, and `cells_spec` where it also runs on grid cells) beside its code; the
// registry (registry.hpp) gathers them from the one type list (list.hpp).
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
  std::optional<double> categories;
  std::optional<std::vector<double>> prior;
  std::optional<std::vector<double>> reference;
  std::optional<std::string> outside_neighbourhood;  // 'local': "clip" (default) or "projection"
};

// The field of MechanismOptions an option name stands for, or nullptr when the name is not an option of that kind:
// the one place where option names meet the struct (the registry's checks and the bindings' setters use it).
[[nodiscard]] std::optional<double> MechanismOptions::*number_field(std::string_view key) noexcept;
[[nodiscard]] std::optional<std::vector<double>> MechanismOptions::*array_field(std::string_view key) noexcept;
[[nodiscard]] std::optional<std::string> MechanismOptions::*text_field(std::string_view key) noexcept;

enum class OptionKind { number, numbers, text };

struct OptionSpec {
  std::string_view name;
  OptionKind kind;
  std::string_view meaning;
  std::span<const std::string_view> values = {};  // a text option's accepted values (the registry lists them)
};

// Every option any mechanism takes, in the order error messages list them: constant data, which the registry's JSON
// is written from when the library is compiled (registry.cpp).
inline constexpr std::string_view kOutsideNeighbourhoodValues[] = {"clip", "projection"};

inline constexpr OptionSpec kOptionSpecs[] = {
    {"epsilon", OptionKind::number, "privacy budget ε >= 0 (pure ε-LDP, or with delta (ε,δ)-LDP)"},
    {"delta", OptionKind::number, "δ in [0, 1) of (ε,δ)-LDP (linear samplers only)"},
    {"mu", OptionKind::number, "μ > 0 of μ-Gaussian LDP (linear samplers only)"},
    {"gamma", OptionKind::number, "neighbourhood width γ >= 1 around the prior (local samplers)"},
    {"records", OptionKind::number, "public number n of the user's records (record-level mechanisms)"},
    {"c1", OptionKind::number, "lower density bound c1 of the class, relative to the reference (default 0)"},
    {"c2", OptionKind::number, "upper density bound c2 of the class, relative to the reference"},
    {"categories", OptionKind::number, "number k >= 2 of the items a frequency oracle reports on"},
    {"prior", OptionKind::numbers, "public prior the local samplers centre on (counts or probabilities)"},
    {"reference", OptionKind::numbers, "public reference measure (counts or probabilities)"},
    {"outsideNeighbourhood", OptionKind::text,
     "'local' in the trivial regime e^ε >= γ², inputs outside N_γ(P0): 'clip' into the box (default) or "
     "'projection' onto N_γ(P0) (the paper's sampler)", kOutsideNeighbourhoodValues},
};
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
  // For people choosing a mechanism (the demo's picker and sentences): its name in a sentence ("the minimax
  // sampler"; the registry gives the mechanism's name when empty) and one line in plain words of what it does (the
  // summary when empty).
  std::string_view label = {};
  std::string_view plain = {};
};

// Option lists that MechanismSpec entries point into (constant data: no code runs to build one).
inline constexpr std::string_view kReferenceOption[] = {"reference"};
inline constexpr std::string_view kPriorGammaOptions[] = {"prior", "gamma"};
inline constexpr std::string_view kOutsideNeighbourhoodOption[] = {"outsideNeighbourhood"};
inline constexpr std::string_view kRecordsOption[] = {"records"};
inline constexpr std::string_view kDensityClassOptions[] = {"reference", "c2"};
inline constexpr std::string_view kC1Option[] = {"c1"};
inline constexpr OptionDefault kC1Zero[] = {{"c1", 0.0}};
inline constexpr std::string_view kCategoriesOption[] = {"categories"};

// The default of an optional number option of spec (std::logic_error if it has none: a registry defect).
[[nodiscard]] double option_default(const MechanismSpec& spec, std::string_view option);

// Checks that every option needed is given and every option given is used (a typo never silently changes the
// mechanism), and returns the privacy notion the options state, validated. Throws std::invalid_argument naming
// the option (as options.<name>) and the mechanism.
[[nodiscard]] Guarantee checked_options(const MechanismSpec& spec, const MechanismOptions& options);

// The LDP notion options state on their own, by the ldp_from_options rule (epsilon → pure ε-LDP; epsilon + delta →
// (ε,δ)-LDP; mu → μ-Gaussian LDP), validated; `user` names the caller in messages. Any other option is refused.
[[nodiscard]] Guarantee ldp_notion_of(const MechanismOptions& options, std::string_view user);

// What a user holding a single item x releases (all n records on x for the record-level mechanisms), for an exact
// simulation of many such users in O(k) (analysis/simulate.hpp): the item itself with probability spike[x], else a
// category drawn from the measure floor + theta[x]·lift, whose vectors are the same for every x; so that
// Σfloor + theta[x]·Σlift + spike[x] = 1. (lift and theta are empty where every point mass lands on the floor.)
struct PointMassLaw {
  std::vector<double> floor;
  std::vector<double> lift;
  std::vector<double> theta;
  std::vector<double> spike;
};

// A linear mechanism's map from the user's distribution to its output: q = λ·P + offset, with the assumption under
// which it holds (an analyst inverts it: analysis/estimate.hpp), and a caveat where users the mechanism is meant for
// fall outside that assumption without their counts being able to show it (empty otherwise).
struct AffineMap {
  double lambda = 0.0;
  std::vector<double> offset;
  std::string assumption;
  std::string caveat;
};

}  // namespace privsample
