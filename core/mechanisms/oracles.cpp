#include "mechanisms/oracles.hpp"

#include <array>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <variant>

#include "base/errors.hpp"
#include "mechanisms/registry.hpp"

namespace privsample {
namespace {

template <class T>
Oracle make_one(const MechanismOptions& o) {
  return Oracle(std::in_place_type<T>, T::make(o));
}

// A table of one factory per type (as mechanism.cpp does for the samplers).
template <class... Ts>
Oracle made(MechanismList<Ts...>, const MechanismSpec& spec, const MechanismOptions& o) {
  using Maker = Oracle (*)(const MechanismOptions&);
  static constexpr std::array<std::string_view, sizeof...(Ts)> kNames{Ts::spec.name...};
  static constexpr std::array<Maker, sizeof...(Ts)> kMakers{&make_one<Ts>...};
  for (std::size_t i = 0; i < kNames.size(); ++i) {
    if (kNames[i] == spec.name) return kMakers[i](o);
  }
  throw std::logic_error(message({"oracle '", spec.name, "' is in the registry but not in the list"}));
}

template <class T>
constexpr bool kBits = std::decay_t<T>::report_format == ReportFormat::bits;

}  // namespace

Oracle make_oracle(std::string_view name, const MechanismOptions& options) {
  return made(FrequencyOracles{}, oracle_spec(name), options);
}

std::string_view oracle_name(const Oracle& oracle) {
  return std::visit([](const auto& o) { return std::decay_t<decltype(o)>::spec.name; }, oracle);
}

Guarantee guarantee(const Oracle& oracle) {
  return std::visit([](const auto& o) { return o.guarantee(); }, oracle);
}

std::size_t categories(const Oracle& oracle) {
  return std::visit([](const auto& o) { return o.categories(); }, oracle);
}

ReportFormat report_format(const Oracle& oracle) {
  return std::visit([](const auto& o) { return std::decay_t<decltype(o)>::report_format; }, oracle);
}

CountsKind counts_kind(const Oracle& oracle) {
  return std::visit([](const auto& o) { return std::decay_t<decltype(o)>::counts_kind; }, oracle);
}

SupportLaw support_law(const Oracle& oracle) {
  return std::visit([](const auto& o) { return o.support_law(); }, oracle);
}

ReportLevels report_levels(const Oracle& oracle) {
  return std::visit([](const auto& o) { return o.levels(); }, oracle);
}

std::size_t report_bytes(const Oracle& oracle) {
  return std::visit(
      [](const auto& o) -> std::size_t {
        if constexpr (kBits<decltype(o)>) return o.report_bytes();
        return 0;
      },
      oracle);
}

std::uint64_t report_values(const Oracle& oracle) {
  return std::visit(
      [](const auto& o) -> std::uint64_t {
        if constexpr (kBits<decltype(o)>) {
          return 0;
        } else {
          return o.report_values();
        }
      },
      oracle);
}

std::size_t counts_length(const Oracle& oracle) {
  return counts_kind(oracle) == CountsKind::per_category ? categories(oracle)
                                                          : static_cast<std::size_t>(report_values(oracle));
}

OracleParameter oracle_parameter(const Oracle& oracle, std::size_t index) {
  return std::visit(
      [&](const auto& o) -> OracleParameter {
        if constexpr (requires { o.parameters(); }) {
          const auto p = o.parameters();
          if (index < p.size()) return p[index];
        }
        return {};
      },
      oracle);
}

std::uint64_t support_steps(const Oracle& oracle) {
  return std::visit(
      [](const auto& o) -> std::uint64_t {
        using T = std::decay_t<decltype(o)>;
        if constexpr (T::counts_kind == CountsKind::per_report) {
          return 1;
        } else if constexpr (requires { o.support_steps(); }) {
          return o.support_steps();
        } else {
          return o.categories();
        }
      },
      oracle);
}

std::uint64_t encode_report(const Oracle& oracle, std::size_t item, RandomBits& bits,
                            std::vector<std::uint8_t>& bytes) {
  return std::visit(
      [&](const auto& o) -> std::uint64_t {
        if constexpr (kBits<decltype(o)>) {
          if (bytes.size() != o.report_bytes()) bytes = std::vector<std::uint8_t>(o.report_bytes());
          o.report(item, bits, bytes);
          return 0;
        } else {
          return o.report(item, bits);
        }
      },
      oracle);
}

}  // namespace privsample
