#include "mechanisms/registry.hpp"
#include "base/errors.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "privacy/functional_ldp.hpp"

namespace privsample {
namespace {

constexpr std::array<OptionSpec, 9> kOptions{{
    {"epsilon", OptionKind::number, "privacy budget ε >= 0 (pure ε-LDP, or with delta (ε,δ)-LDP)"},
    {"delta", OptionKind::number, "δ in [0, 1) of (ε,δ)-LDP (linear samplers only)"},
    {"mu", OptionKind::number, "μ > 0 of μ-Gaussian LDP (linear samplers only)"},
    {"gamma", OptionKind::number, "neighbourhood width γ >= 1 around the prior (local samplers)"},
    {"records", OptionKind::number, "public number n of the user's records (record-level mechanisms)"},
    {"c1", OptionKind::number, "lower density bound c1 of the class, relative to the reference (default 0)"},
    {"c2", OptionKind::number, "upper density bound c2 of the class, relative to the reference"},
    {"prior", OptionKind::numbers, "public prior the local samplers centre on (counts or probabilities)"},
    {"reference", OptionKind::numbers, "public reference measure (counts or probabilities)"},
}};

// Constant data only (no code runs to build it): the option lists the registry entries point into.
constexpr std::string_view kReference[] = {"reference"};
constexpr std::string_view kPriorGamma[] = {"prior", "gamma"};
constexpr std::string_view kRecords[] = {"records"};
constexpr std::string_view kClass[] = {"reference", "c2"};
constexpr std::string_view kC1[] = {"c1"};
constexpr OptionDefault kC1Zero[] = {{"c1", 0.0}};

constexpr std::array<MechanismSpec, 12> kRegistry{{
    {"minimax", MechanismSpace::finite, NotionRule::pure_epsilon, {}, {}, {},
     "minimax-optimal clip sampler Q*_{k,ε} (Park et al. Thm 3.1)"},
    {"linear", MechanismSpace::finite, NotionRule::ldp_from_options, {}, {}, {},
     "linear sampler: k-RR on one draw (pure), or the optimal functional-LDP mixture ((ε,δ) or μ-GDP)"},
    {"mollifier", MechanismSpace::finite, NotionRule::pure_epsilon, {}, kReference, {},
     "Husain et al.'s relative-mollifier baseline around a reference (uniform by default)"},
    {"local", MechanismSpace::finite, NotionRule::pure_epsilon, kPriorGamma, {}, {},
     "locally minimax clip sampler around a prior (Ghoukasian et al. Thm 5.1)"},
    {"local-linear", MechanismSpace::finite, NotionRule::ldp_from_options, kPriorGamma, {}, {},
     "locally minimax linear sampler around a prior (Ghoukasian et al. Thm 4.1)"},
    {"roo", MechanismSpace::finite, NotionRule::record_level, kRecords, {}, {},
     "Reveal-or-Obscure on a user's n records"},
    {"ds-roo", MechanismSpace::finite, NotionRule::record_level, kRecords, {}, {},
     "data-specific Reveal-or-Obscure (with the top-index fix)"},
    {"laplace-projection", MechanismSpace::finite, NotionRule::record_level, kRecords, {}, {},
     "baseline: Laplace noise on the counts, projected to the simplex, then one draw"},
    {"minimax", MechanismSpace::continuous, NotionRule::pure_epsilon, kClass, kC1, kC1Zero,
     "minimax clip sampler Q*_{c1,c2,h,ε} on a grid (Park et al. Thm 3.3)"},
    {"linear", MechanismSpace::continuous, NotionRule::ldp_from_options, kClass, kC1, kC1Zero,
     "optimal linear sampler on a grid (Ghoukasian et al. Thms 3.4–3.6)"},
    {"local", MechanismSpace::continuous, NotionRule::pure_epsilon, kPriorGamma, {}, {},
     "locally minimax clip sampler on a grid (Ghoukasian et al. Thm 5.1)"},
    {"local-linear", MechanismSpace::continuous, NotionRule::ldp_from_options, kPriorGamma, {}, {},
     "locally minimax linear sampler on a grid (Ghoukasian et al. Thm 4.1)"},
}};

const std::array<MechanismSpec, 12>& registry() { return kRegistry; }

bool given(const MechanismOptions& o, std::string_view key) {
  if (const auto field = number_field(key)) return (o.*field).has_value();
  if (const auto field = array_field(key)) return (o.*field).has_value();
  return false;
}

std::string joined(std::span<const std::string_view> keys) {
  std::string out;
  for (const auto key : keys) out += (out.empty() ? "" : ", ") + std::string(key);
  return out;
}

std::string_view space_name(MechanismSpace space) { return space == MechanismSpace::finite ? "finite" : "continuous"; }

std::string_view notion_name(NotionRule rule) {
  switch (rule) {
    case NotionRule::pure_epsilon: return "pure-ldp";
    case NotionRule::ldp_from_options: return "ldp-from-options";
    case NotionRule::record_level: return "record-dp";
  }
  return "";
}

// The options a mechanism's notion reads, in the order messages list them.
std::vector<std::string_view> notion_options(const MechanismSpec& spec, const MechanismOptions& o) {
  if (spec.notion != NotionRule::ldp_from_options) return {"epsilon"};
  if (o.mu) return {"mu"};
  return {"epsilon", "delta"};
}

void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  for (const char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  out += '"';
}

void append_json_list(std::string& out, std::span<const std::string_view> items) {
  out += '[';
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += ',';
    append_json_string(out, items[i]);
  }
  out += ']';
}

}  // namespace

std::span<const OptionSpec> option_specs() { return kOptions; }

std::span<const MechanismSpec> mechanism_registry() { return registry(); }

std::vector<std::string> mechanism_names(MechanismSpace space) {
  std::vector<std::string> names;
  for (const auto& spec : registry()) {
    if (spec.space == space) names.emplace_back(spec.name);
  }
  return names;
}

const MechanismSpec& mechanism_spec(std::string_view name, MechanismSpace space) {
  for (const auto& spec : registry()) {
    if (spec.space == space && spec.name == name) return spec;
  }
  std::string names;
  for (const auto& known : mechanism_names(space)) names += (names.empty() ? "'" : ", '") + known + "'";
  throw_invalid({"mechanism = '", name, "': unknown ", space == MechanismSpace::continuous ? "continuous " : "",
                 "mechanism; use one of ", names});
}

double option_default(const MechanismSpec& spec, std::string_view option) {
  for (const auto& d : spec.defaults) {
    if (d.name == option) return d.value;
  }
  throw std::logic_error("the registry gives '" + std::string(spec.name) + "' no default for option '" +
                         std::string(option) + "'");
}

namespace {
void check_ldp_notion_options(const MechanismOptions& o, std::string_view user) {
  if (o.mu && (o.epsilon || o.delta)) {
    throw_invalid({"options.mu (Gaussian LDP) cannot be combined with epsilon or delta for '", user,
                   "': give either mu, or epsilon (with optional delta)"});
  }
  if (!o.mu && !o.epsilon) {
    throw_invalid({"options.epsilon is required for '", user, "' (or options.mu for Gaussian LDP)"});
  }
}

Guarantee validated_ldp_notion(const MechanismOptions& o) {
  if (o.mu) return validated_ldp_guarantee({PrivacyNotion::gaussian_ldp, 0.0, 0.0, *o.mu, 0.0});
  if (o.delta) return validated_ldp_guarantee({PrivacyNotion::approximate_ldp, *o.epsilon, *o.delta, 0.0, 0.0});
  return validated_ldp_guarantee({PrivacyNotion::pure_ldp, *o.epsilon, 0.0, 0.0, 0.0});
}
}  // namespace

Guarantee ldp_notion_of(const MechanismOptions& o, std::string_view user) {
  const std::string_view name = user;
  check_ldp_notion_options(o, name);
  for (const auto& option : kOptions) {
    const bool notion_option = option.name == "epsilon" || option.name == "delta" || option.name == "mu";
    if (!notion_option && given(o, option.name)) {
      throw_invalid({"option '", option.name, "' is not supported by '", name, "' (supported: epsilon, delta, mu)"});
    }
  }
  return validated_ldp_notion(o);
}

Guarantee checked_options(const MechanismSpec& spec, const MechanismOptions& o) {
  const std::string_view mechanism = spec.name;
  if (spec.notion == NotionRule::ldp_from_options) {
    check_ldp_notion_options(o, mechanism);
  } else if (!o.epsilon) {
    throw_invalid({"options.epsilon is required for '", mechanism, "'"});
  }
  for (const auto key : spec.required) {
    if (!given(o, key)) throw_invalid({"options.", key, " is required for '", mechanism, "'"});
  }
  std::vector<std::string_view> used = notion_options(spec, o);
  used.insert(used.end(), spec.required.begin(), spec.required.end());
  used.insert(used.end(), spec.optional.begin(), spec.optional.end());
  for (const auto& option : kOptions) {
    if (given(o, option.name) && std::find(used.begin(), used.end(), option.name) == used.end()) {
      std::vector<std::string_view> supported =
          spec.notion == NotionRule::ldp_from_options ? std::vector<std::string_view>{"epsilon", "delta", "mu"}
                                                      : std::vector<std::string_view>{"epsilon"};
      supported.insert(supported.end(), spec.required.begin(), spec.required.end());
      supported.insert(supported.end(), spec.optional.begin(), spec.optional.end());
      throw_invalid({"option '", option.name, "' is not supported by '", mechanism, "' (supported: ", joined(supported),
                     ")"});
    }
  }
  switch (spec.notion) {
    case NotionRule::ldp_from_options:
      return validated_ldp_notion(o);
    case NotionRule::pure_epsilon:
      return {PrivacyNotion::pure_ldp, *o.epsilon, 0.0, 0.0, 0.0};
    case NotionRule::record_level:
      return {PrivacyNotion::record_dp, *o.epsilon, 0.0, 0.0, *o.records};
  }
  return {};
}

std::string registry_json() {
  std::string out = "{\"options\":[";
  for (std::size_t i = 0; i < kOptions.size(); ++i) {
    if (i) out += ',';
    out += "{\"name\":";
    append_json_string(out, kOptions[i].name);
    out += ",\"kind\":";
    append_json_string(out, kOptions[i].kind == OptionKind::number ? "number" : "numbers");
    out += ",\"meaning\":";
    append_json_string(out, kOptions[i].meaning);
    out += '}';
  }
  out += "],\"mechanisms\":[";
  bool first = true;
  for (const auto& spec : registry()) {
    if (!first) out += ',';
    first = false;
    out += "{\"name\":";
    append_json_string(out, spec.name);
    out += ",\"space\":";
    append_json_string(out, space_name(spec.space));
    out += ",\"notion\":";
    append_json_string(out, notion_name(spec.notion));
    std::vector<std::string_view> required{spec.notion == NotionRule::ldp_from_options ? "notion" : "epsilon"};
    required.insert(required.end(), spec.required.begin(), spec.required.end());
    out += ",\"required\":";
    append_json_list(out, required);
    out += ",\"optional\":";
    append_json_list(out, spec.optional);
    out += ",\"defaults\":{";
    for (std::size_t i = 0; i < spec.defaults.size(); ++i) {
      if (i) out += ',';
      append_json_string(out, spec.defaults[i].name);
      // Defaults are integers (c1 = 0): written without printf, which the client module does not link.
      const auto whole = static_cast<long long>(spec.defaults[i].value);
      if (static_cast<double>(whole) != spec.defaults[i].value) throw std::logic_error("registry default is not an integer");
      out += ':' + std::to_string(whole);
    }
    out += "},\"summary\":";
    append_json_string(out, spec.summary);
    out += '}';
  }
  out += "]}";
  return out;
}

std::optional<double> MechanismOptions::*number_field(std::string_view key) noexcept {
  if (key == "epsilon") return &MechanismOptions::epsilon;
  if (key == "delta") return &MechanismOptions::delta;
  if (key == "mu") return &MechanismOptions::mu;
  if (key == "gamma") return &MechanismOptions::gamma;
  if (key == "records") return &MechanismOptions::records;
  if (key == "c1") return &MechanismOptions::c1;
  if (key == "c2") return &MechanismOptions::c2;
  return nullptr;
}

std::optional<std::vector<double>> MechanismOptions::*array_field(std::string_view key) noexcept {
  if (key == "prior") return &MechanismOptions::prior;
  if (key == "reference") return &MechanismOptions::reference;
  return nullptr;
}

}  // namespace privsample
