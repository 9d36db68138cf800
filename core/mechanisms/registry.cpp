#include "mechanisms/registry.hpp"

#include <array>
#include <stdexcept>

#include "base/errors.hpp"
#include "mechanisms/list.hpp"

namespace privsample {
namespace {

// Every mechanism's spec, from the type lists, finite then continuous: constant data, built at compile time.
template <class... Finite, class... Continuous>
constexpr auto registry_of(MechanismList<Finite...>, MechanismList<Continuous...>) {
  return std::array<MechanismSpec, sizeof...(Finite) + sizeof...(Continuous)>{Finite::spec..., Continuous::cells_spec...};
}

constexpr auto kRegistry = registry_of(FiniteMechanisms{}, ContinuousMechanisms{});

// Each entry's exact_distribution_v (list.hpp), in kRegistry's order.
template <class... Finite, class... Continuous>
constexpr auto exact_distributions_of(MechanismList<Finite...>, MechanismList<Continuous...>) {
  return std::array<bool, sizeof...(Finite) + sizeof...(Continuous)>{exact_distribution_v<Finite>...,
                                                                      exact_distribution_v<Continuous>...};
}

constexpr auto kExactDistribution = exact_distributions_of(FiniteMechanisms{}, ContinuousMechanisms{});

struct OracleEntry {
  MechanismSpec spec;
  ReportFormat report;
  CountsKind counts;
};

template <class... Oracles>
constexpr auto oracles_of(MechanismList<Oracles...>) {
  return std::array<OracleEntry, sizeof...(Oracles)>{OracleEntry{Oracles::spec, Oracles::report_format,
                                                                 Oracles::counts_kind}...};
}

constexpr auto kOracles = oracles_of(FrequencyOracles{});
constexpr auto kOracleSpecs = [] {
  std::array<MechanismSpec, kOracles.size()> out{};
  for (std::size_t i = 0; i < kOracles.size(); ++i) out[i] = kOracles[i].spec;
  return out;
}();

std::string_view space_name(MechanismSpace space) { return space == MechanismSpace::finite ? "finite" : "continuous"; }

std::string_view rule_name(NotionRule rule) {
  switch (rule) {
    case NotionRule::pure_epsilon: return "pure-ldp";
    case NotionRule::ldp_from_options: return "ldp-from-options";
    case NotionRule::record_level: return "record-dp";
  }
  return "";
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

std::span<const MechanismSpec> mechanism_registry() { return kRegistry; }

std::vector<std::string> mechanism_names(MechanismSpace space) {
  std::vector<std::string> names;
  for (const auto& spec : kRegistry) {
    if (spec.space == space) names.emplace_back(spec.name);
  }
  return names;
}

const MechanismSpec& mechanism_spec(std::string_view name, MechanismSpace space) {
  for (const auto& spec : kRegistry) {
    if (spec.space == space && spec.name == name) return spec;
  }
  std::string names;
  for (const auto& known : mechanism_names(space)) names += (names.empty() ? "'" : ", '") + known + "'";
  throw_invalid({"mechanism = '", name, "': unknown ", space == MechanismSpace::continuous ? "continuous " : "",
                 "mechanism; use one of ", names});
}

std::span<const MechanismSpec> oracle_registry() { return kOracleSpecs; }

const MechanismSpec& oracle_spec(std::string_view name) {
  for (const auto& spec : kOracleSpecs) {
    if (spec.name == name) return spec;
  }
  std::string names;
  for (const auto& known : kOracleSpecs) names += (names.empty() ? "'" : ", '") + std::string(known.name) + "'";
  throw_invalid({"oracle = '", name, "': unknown frequency oracle; use one of ", names});
}

std::string registry_json() {
  const std::span<const OptionSpec> kOptions = option_specs();
  std::string out = "{\"options\":[";
  for (std::size_t i = 0; i < kOptions.size(); ++i) {
    if (i) out += ',';
    out += "{\"name\":";
    append_json_string(out, kOptions[i].name);
    out += ",\"kind\":";
    append_json_string(out, kOptions[i].kind == OptionKind::number    ? "number"
                            : kOptions[i].kind == OptionKind::numbers ? "numbers"
                                                                      : "text");
    out += ",\"meaning\":";
    append_json_string(out, kOptions[i].meaning);
    if (!kOptions[i].values.empty()) {
      out += ",\"values\":[";
      for (std::size_t v = 0; v < kOptions[i].values.size(); ++v) {
        if (v) out += ',';
        append_json_string(out, kOptions[i].values[v]);
      }
      out += ']';
    }
    out += '}';
  }
  out += "],\"mechanisms\":[";
  for (std::size_t m = 0; m < kRegistry.size(); ++m) {
    const MechanismSpec& spec = kRegistry[m];
    if (m) out += ',';
    out += "{\"name\":";
    append_json_string(out, spec.name);
    out += ",\"space\":";
    append_json_string(out, space_name(spec.space));
    out += ",\"notion\":";
    append_json_string(out, rule_name(spec.notion));
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
    out += ",\"label\":";
    append_json_string(out, spec.label.empty() ? spec.name : spec.label);
    out += ",\"plain\":";
    append_json_string(out, spec.plain.empty() ? spec.summary : spec.plain);
    out += kExactDistribution[m] ? ",\"exactDistribution\":true}" : ",\"exactDistribution\":false}";
  }
  // Oracles: pure ε-LDP with their required options and no defaults (their other fields are a sampler's).
  out += "],\"oracles\":[";
  for (std::size_t i = 0; i < kOracles.size(); ++i) {
    const OracleEntry& oracle = kOracles[i];
    if (i) out += ',';
    out += "{\"name\":";
    append_json_string(out, oracle.spec.name);
    out += ",\"notion\":";
    append_json_string(out, rule_name(oracle.spec.notion));
    std::vector<std::string_view> required{"epsilon"};
    required.insert(required.end(), oracle.spec.required.begin(), oracle.spec.required.end());
    out += ",\"required\":";
    append_json_list(out, required);
    out += ",\"optional\":";
    append_json_list(out, oracle.spec.optional);
    out += ",\"defaults\":{},\"summary\":";
    append_json_string(out, oracle.spec.summary);
    out += oracle.report == ReportFormat::bits ? ",\"report\":\"hex\"" : ",\"report\":\"integer\"";
    out += oracle.counts == CountsKind::per_category ? ",\"counts\":\"per-category\"}" : ",\"counts\":\"per-report\"}";
  }
  out += "]}";
  return out;
}
}  // namespace privsample
