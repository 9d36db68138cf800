#include "mechanisms/mechanism.hpp"

#include <array>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "base/errors.hpp"

namespace privsample {
namespace {

template <class T>
Mechanism make_one(const MechanismOptions& o) {
  return Mechanism(std::in_place_type<T>, T::make(o));
}

// The factory of the named mechanism: a table of one function per type (a fold over optional<Mechanism> assignments
// instantiated every alternative's copy and move, several KB of the client module).
template <class... Ts>
Mechanism made(MechanismList<Ts...>, const MechanismSpec& spec, const MechanismOptions& o) {
  using Maker = Mechanism (*)(const MechanismOptions&);
  static constexpr std::array<std::string_view, sizeof...(Ts)> kNames{Ts::spec.name...};
  static constexpr std::array<Maker, sizeof...(Ts)> kMakers{&make_one<Ts>...};
  for (std::size_t i = 0; i < kNames.size(); ++i) {
    if (kNames[i] == spec.name) return kMakers[i](o);
  }
  throw std::logic_error("mechanism '" + std::string(spec.name) + "' is in the registry but not in the list");
}

}  // namespace

std::vector<std::string> finite_mechanism_names() { return mechanism_names(MechanismSpace::finite); }

Mechanism make_finite_mechanism(std::string_view name, const MechanismOptions& options) {
  return made(FiniteMechanisms{}, mechanism_spec(name, MechanismSpace::finite), options);
}

std::string_view mechanism_name(const Mechanism& mechanism) {
  return std::visit([](const auto& m) { return std::decay_t<decltype(m)>::spec.name; }, mechanism);
}

bool on_cells(const Mechanism& mechanism) {
  return std::visit(
      [](const auto& m) {
        if constexpr (requires { m.on_cells(); }) {
          return m.on_cells() != nullptr;
        } else {
          return false;
        }
      },
      mechanism);
}

std::optional<std::size_t> fixed_categories(const Mechanism& mechanism) {
  return std::visit(
      [](const auto& m) -> std::optional<std::size_t> {
        if constexpr (requires { m.on_cells(); }) {
          if (m.on_cells()) return m.on_cells()->cells();
        }
        if constexpr (requires { m.categories(); }) {
          return m.categories();
        } else {
          return std::nullopt;
        }
      },
      mechanism);
}

void keep_for_categories(Mechanism& mechanism, std::size_t k) {
  std::visit(
      [&](auto& m) {
        if constexpr (requires { m.keep_weight_for(k); }) m.keep_weight_for(k);
      },
      mechanism);
}

std::vector<double> distribution(const Mechanism& mechanism, std::span<const double> input) {
  return std::visit([&](const auto& m) { return m.distribution(input); }, mechanism);
}

void distribution_into(const Mechanism& mechanism, std::span<const double> input, std::span<double> out) {
  std::visit(
      [&](const auto& m) {
        if constexpr (requires { m.distribution_into(input, out); }) {
          m.distribution_into(input, out);
        } else {
          copy_into(m.distribution(input), out);
        }
      },
      mechanism);
}

std::optional<double> normaliser(const Mechanism& mechanism, std::span<const double> input) {
  const std::optional<double> r = std::visit(
      [&](const auto& m) -> std::optional<double> {
        if constexpr (requires { m.normaliser(input); }) {
          return m.normaliser(input);
        } else {
          return std::nullopt;
        }
      },
      mechanism);
  // Without a normaliser the input is still checked, with the mechanism's own checks and messages: a bad one throws
  // rather than getting "none".
  if (!r) (void)distribution(mechanism, input);
  return r;
}

Guarantee guarantee(const Mechanism& mechanism) {
  return std::visit([](const auto& m) { return m.guarantee(); }, mechanism);
}

double worst_case_risk(const Mechanism& mechanism, NamedDivergence f, std::size_t k) {
  return std::visit([&](const auto& m) { return m.worst_case_risk(f, k); }, mechanism);
}

std::optional<double> mixture_weight(const Mechanism& mechanism, std::size_t k) {
  return std::visit(
      [&](const auto& m) -> std::optional<double> {
        if constexpr (requires { m.mixture_weight(k); }) {
          return m.mixture_weight(k);
        } else {
          return std::nullopt;
        }
      },
      mechanism);
}

std::optional<AffineMap> affine_map(const Mechanism& mechanism, std::size_t k) {
  check_category_count(k, "k");
  return std::visit(
      [&](const auto& m) -> std::optional<AffineMap> {
        if constexpr (requires { m.affine_map(k); }) {
          return m.affine_map(k);
        } else {
          return std::nullopt;
        }
      },
      mechanism);
}

std::optional<std::string> point_mass_caveat(const Mechanism& mechanism) {
  return std::visit(
      [&](const auto& m) -> std::optional<std::string> {
        if constexpr (requires { m.point_mass_caveat(); }) {
          return m.point_mass_caveat();
        } else {
          return std::nullopt;
        }
      },
      mechanism);
}

bool has_exact_distribution(const Mechanism& mechanism) {
  return std::visit(
      [](const auto& m) {
        using T = std::decay_t<decltype(m)>;
        if constexpr (requires { T::exact_distribution; }) {
          return T::exact_distribution;
        } else {
          return true;
        }
      },
      mechanism);
}

std::optional<PointMassLaw> point_mass_law(const Mechanism& mechanism, std::size_t k) {
  return std::visit(
      [&](const auto& m) -> std::optional<PointMassLaw> {
        if constexpr (requires { m.point_mass_law(k); }) {
          return m.point_mass_law(k);
        } else {
          return std::nullopt;
        }
      },
      mechanism);
}

std::optional<std::vector<double>> point_mass_counts(const Mechanism& mechanism, std::span<const double> items,
                                                     RandomBits& bits) {
  return std::visit(
      [&](const auto& m) -> std::optional<std::vector<double>> {
        if constexpr (requires { m.point_mass_counts(items, bits); }) {
          return m.point_mass_counts(items, bits);
        } else {
          return std::nullopt;
        }
      },
      mechanism);
}

IndexDraw prepare(const Mechanism& mechanism, std::span<const double> input, std::size_t draws) {
  return std::visit([&](const auto& m) { return m.prepare(input, draws); }, mechanism);
}

std::optional<Release> released_law(const Mechanism& mechanism, std::span<const double> input) {
  return std::visit(
      [&](const auto& m) -> std::optional<Release> {
        if constexpr (requires { m.release(input); }) {
          return m.release(input);
        } else {
          return std::nullopt;
        }
      },
      mechanism);
}

std::optional<std::vector<double>> released_probabilities(const Mechanism& mechanism, std::span<const double> input) {
  if (std::optional<Release> law = released_law(mechanism, input)) return law->probabilities();
  if (!has_exact_distribution(mechanism)) return std::nullopt;
  return distribution(mechanism, input);
}

std::vector<std::uint32_t> sample_many(const Mechanism& mechanism, std::span<const double> input, std::size_t n,
                                       RandomBits& bits) {
  std::vector<std::uint32_t> draws(n);
  const IndexDraw draw_one = prepare(mechanism, input, n);
  for (auto& draw : draws) draw = static_cast<std::uint32_t>(draw_one(bits));
  return draws;
}

}  // namespace privsample
