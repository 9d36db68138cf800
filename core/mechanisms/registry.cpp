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

constexpr std::string_view space_name(MechanismSpace space) {
  return space == MechanismSpace::finite ? "finite" : "continuous";
}

constexpr std::string_view rule_name(NotionRule rule) {
  switch (rule) {
    case NotionRule::pure_epsilon: return "pure-ldp";
    case NotionRule::ldp_from_options: return "ldp-from-options";
    case NotionRule::record_level: return "record-dp";
  }
  return "";
}

// Where the registry's JSON is written: counts its characters when `out` is null, stores them otherwise (the two
// passes of the compile-time build below).
struct JsonSink {
  char* out = nullptr;
  std::size_t size = 0;

  constexpr JsonSink& operator<<(char c) {
    if (out) out[size] = c;
    ++size;
    return *this;
  }
  constexpr JsonSink& operator<<(std::string_view s) {
    for (const char c : s) *this << c;
    return *this;
  }
  constexpr void string(std::string_view s) {
    *this << '"';
    for (const char c : s) {
      if (c == '"' || c == '\\') *this << '\\';
      *this << c;
    }
    *this << '"';
  }
  // ["first", items...]; `first` is the notion's own option, or empty for none.
  constexpr void list(std::string_view first, std::span<const std::string_view> items) {
    *this << '[';
    if (!first.empty()) string(first);
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (i || !first.empty()) *this << ',';
      string(items[i]);
    }
    *this << ']';
  }
  // A default is an integer (c1 = 0); one that is not stops the compilation (a registry defect).
  constexpr void integer(double value) {
    const auto whole = static_cast<long long>(value);
    if (static_cast<double>(whole) != value) throw std::logic_error("registry default is not an integer");
    if (whole < 0) *this << '-';
    char digits[20]{};
    int n = 0;
    const auto magnitude = static_cast<unsigned long long>(whole);
    for (unsigned long long u = whole < 0 ? 0ULL - magnitude : magnitude; n == 0 || u; u /= 10) {
      digits[n++] = static_cast<char>('0' + u % 10);
    }
    while (n) *this << digits[--n];
  }
};

constexpr void write_registry(JsonSink& out) {
  out << "{\"options\":[";
  for (std::size_t i = 0; i < std::size(kOptionSpecs); ++i) {
    const OptionSpec& option = kOptionSpecs[i];
    if (i) out << ',';
    out << "{\"name\":";
    out.string(option.name);
    out << ",\"kind\":";
    out.string(option.kind == OptionKind::number ? "number" : option.kind == OptionKind::numbers ? "numbers" : "text");
    out << ",\"meaning\":";
    out.string(option.meaning);
    if (!option.values.empty()) {
      out << ",\"values\":";
      out.list({}, option.values);
    }
    out << '}';
  }
  out << "],\"mechanisms\":[";
  for (std::size_t m = 0; m < kRegistry.size(); ++m) {
    const MechanismSpec& spec = kRegistry[m];
    if (m) out << ',';
    out << "{\"name\":";
    out.string(spec.name);
    out << ",\"space\":";
    out.string(space_name(spec.space));
    out << ",\"notion\":";
    out.string(rule_name(spec.notion));
    out << ",\"required\":";
    out.list(spec.notion == NotionRule::ldp_from_options ? "notion" : "epsilon", spec.required);
    out << ",\"optional\":";
    out.list({}, spec.optional);
    out << ",\"defaults\":{";
    for (std::size_t i = 0; i < spec.defaults.size(); ++i) {
      if (i) out << ',';
      out.string(spec.defaults[i].name);
      out << ':';
      out.integer(spec.defaults[i].value);
    }
    out << "},\"summary\":";
    out.string(spec.summary);
    out << ",\"label\":";
    out.string(spec.label.empty() ? spec.name : spec.label);
    out << ",\"plain\":";
    out.string(spec.plain.empty() ? spec.summary : spec.plain);
    out << (kExactDistribution[m] ? ",\"exactDistribution\":true}" : ",\"exactDistribution\":false}");
  }
  // Oracles: pure ε-LDP with their required options and no defaults (their other fields are a sampler's).
  out << "],\"oracles\":[";
  for (std::size_t i = 0; i < kOracles.size(); ++i) {
    const OracleEntry& oracle = kOracles[i];
    if (i) out << ',';
    out << "{\"name\":";
    out.string(oracle.spec.name);
    out << ",\"notion\":";
    out.string(rule_name(oracle.spec.notion));
    out << ",\"required\":";
    out.list("epsilon", oracle.spec.required);
    out << ",\"optional\":";
    out.list({}, oracle.spec.optional);
    out << ",\"defaults\":{},\"summary\":";
    out.string(oracle.spec.summary);
    out << (oracle.report == ReportFormat::bits ? ",\"report\":\"hex\"" : ",\"report\":\"integer\"");
    out << (oracle.counts == CountsKind::per_category ? ",\"counts\":\"per-category\"}"
                                                      : ",\"counts\":\"per-report\"}");
  }
  out << "]}";
}

// The registry's JSON as one constant, NUL-terminated: written by the compiler from the mechanisms' specs above, so
// a module carries the text rather than the code that would write it.
constexpr std::size_t kJsonSize = [] {
  JsonSink counter;
  write_registry(counter);
  return counter.size;
}();
constexpr auto kJson = [] {
  std::array<char, kJsonSize + 1> text{};
  JsonSink sink{text.data()};
  write_registry(sink);
  return text;
}();

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
  for (const auto& known : kRegistry) {
    if (known.space == space) ((names += names.empty() ? "'" : ", '") += known.name) += '\'';
  }
  throw_invalid({"mechanism = '", name, "': unknown ", space == MechanismSpace::continuous ? "continuous " : "",
                 "mechanism; use one of ", names});
}

std::span<const MechanismSpec> oracle_registry() { return kOracleSpecs; }

const MechanismSpec& oracle_spec(std::string_view name) {
  for (const auto& spec : kOracleSpecs) {
    if (spec.name == name) return spec;
  }
  std::string names;
  for (const auto& known : kOracleSpecs) ((names += names.empty() ? "'" : ", '") += known.name) += '\'';
  throw_invalid({"oracle = '", name, "': unknown frequency oracle; use one of ", names});
}

std::string_view registry_json() { return {kJson.data(), kJsonSize}; }

}  // namespace privsample
