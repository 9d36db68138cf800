#include "mechanisms/spec.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

#include "base/errors.hpp"
#include "mechanisms/neighbourhood.hpp"
#include "mechanisms/records.hpp"
#include "model/histogram.hpp"
#include "privacy/functional_ldp.hpp"

namespace privsample {
namespace {

bool given(const MechanismOptions& o, std::string_view key) {
  if (const auto field = number_field(key)) return (o.*field).has_value();
  if (const auto field = array_field(key)) return (o.*field).has_value();
  if (const auto field = text_field(key)) return (o.*field).has_value();
  return false;
}

bool listed(std::span<const std::string_view> keys, std::string_view key) {
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

// Whether the mechanism's notion reads option `key` (given these options): epsilon, or by the ldp_from_options rule
// mu alone, or epsilon and delta.
bool notion_reads(const MechanismSpec& spec, const MechanismOptions& o, std::string_view key) {
  if (spec.notion != NotionRule::ldp_from_options) return key == "epsilon";
  if (o.mu) return key == "mu";
  return key == "epsilon" || key == "delta";
}

// The options' numbers named as the user gave them ("options.epsilon = -1: …"), before a mechanism's own checks, which
// name its parameters ("epsilon = -1: …" for a C++ caller of its constructor).
void check_option_values(const MechanismOptions& o) {
  if (o.epsilon) validated_epsilon(*o.epsilon, "options.epsilon");
  if (o.delta) validated_delta(*o.delta, "options.delta");
  if (o.mu) validated_mu(*o.mu, "options.mu");
  if (o.gamma) validated_gamma(*o.gamma, "options.gamma");
  if (o.records) (void)validated_count(*o.records, "options.records", 1, kMaxRecords);
}

}  // namespace

std::span<const OptionSpec> option_specs() { return kOptionSpecs; }

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
  for (const auto& option : kOptionSpecs) {
    const bool notion_option = option.name == "epsilon" || option.name == "delta" || option.name == "mu";
    if (!notion_option && given(o, option.name)) {
      throw_invalid({"option '", option.name, "' is not supported by '", name, "' (supported: epsilon, delta, mu)"});
    }
  }
  check_option_values(o);
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
  for (const auto& option : kOptionSpecs) {
    if (given(o, option.name) && !notion_reads(spec, o, option.name) && !listed(spec.required, option.name) &&
        !listed(spec.optional, option.name)) {
      std::string supported = spec.notion == NotionRule::ldp_from_options ? "epsilon, delta, mu" : "epsilon";
      for (const auto key : spec.required) (supported += ", ") += key;
      for (const auto key : spec.optional) (supported += ", ") += key;
      throw_invalid({"option '", option.name, "' is not supported by '", mechanism, "' (supported: ", supported, ")"});
    }
  }
  check_option_values(o);
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

std::optional<double> MechanismOptions::*number_field(std::string_view key) noexcept {
  if (key == "epsilon") return &MechanismOptions::epsilon;
  if (key == "delta") return &MechanismOptions::delta;
  if (key == "mu") return &MechanismOptions::mu;
  if (key == "gamma") return &MechanismOptions::gamma;
  if (key == "records") return &MechanismOptions::records;
  if (key == "c1") return &MechanismOptions::c1;
  if (key == "c2") return &MechanismOptions::c2;
  if (key == "categories") return &MechanismOptions::categories;
  return nullptr;
}

std::optional<std::vector<double>> MechanismOptions::*array_field(std::string_view key) noexcept {
  if (key == "prior") return &MechanismOptions::prior;
  if (key == "reference") return &MechanismOptions::reference;
  return nullptr;
}

std::optional<std::string> MechanismOptions::*text_field(std::string_view key) noexcept {
  if (key == "outsideNeighbourhood") return &MechanismOptions::outside_neighbourhood;
  return nullptr;
}

}  // namespace privsample
