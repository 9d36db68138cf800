#include "mechanisms/mechanism.hpp"

#include <array>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "base/errors.hpp"
#include "base/release_table.hpp"
#include "mechanisms/factory.hpp"
#include "model/histogram.hpp"

namespace privsample {
namespace {

// A finite mechanism of the list: its name and its factory (factory.hpp).
template <class T>
struct Finite {
  static constexpr std::string_view name = T::spec.name;
  static Mechanism make(const MechanismOptions& o) { return Mechanism(std::in_place_type<T>, T::make(o)); }
};

// An optional capability: call(m) where the mechanism has it (call's return type names the member, so that a
// mechanism without it drops out), else std::nullopt.
template <class R, class Call>
std::optional<R> if_capable(const Mechanism& mechanism, Call&& call) {
  return std::visit(
      [&](const auto& m) -> std::optional<R> {
        if constexpr (std::is_invocable_v<Call&, decltype(m)>) {
          return call(m);
        } else {
          return std::nullopt;
        }
      },
      mechanism);
}

}  // namespace

std::vector<std::string> finite_mechanism_names() { return mechanism_names(MechanismSpace::finite); }

Mechanism make_finite_mechanism(std::string_view name, const MechanismOptions& options) {
  return made<Finite>(FiniteMechanisms{}, mechanism_spec(name, MechanismSpace::finite), options);
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
  const std::optional<double> r =
      if_capable<double>(mechanism, [&](const auto& m) -> decltype(m.normaliser(input)) {
        return m.normaliser(input);
      });
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
  return if_capable<double>(mechanism,
                            [&](const auto& m) -> decltype(m.mixture_weight(k)) { return m.mixture_weight(k); });
}

std::optional<AffineMap> affine_map(const Mechanism& mechanism, std::size_t k) {
  check_category_count(k, "k");
  return if_capable<AffineMap>(mechanism, [&](const auto& m) -> decltype(m.affine_map(k)) { return m.affine_map(k); });
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

std::string risk_class(const Mechanism& mechanism) {
  return std::visit(
      [&](const auto& m) -> std::string {
        if constexpr (requires { m.risk_class(); }) {
          return m.risk_class();
        } else {
          if constexpr (requires { m.on_cells(); }) {
            if (m.on_cells() != nullptr) {
              return "every user's density in the sampler's class {c1*h <= p <= c2*h} (its reference h and options "
                     "c1, c2): the radius is the worst case over that class";
            }
          }
          return "every user's input: the radius is the worst case over every input the mechanism takes";
        }
      },
      mechanism);
}

bool has_exact_distribution(const Mechanism& mechanism) {
  return std::visit([](const auto& m) { return exact_distribution_v<std::decay_t<decltype(m)>>; }, mechanism);
}

std::optional<PointMassLaw> point_mass_law(const Mechanism& mechanism, std::size_t k) {
  return if_capable<PointMassLaw>(mechanism,
                                  [&](const auto& m) -> decltype(m.point_mass_law(k)) { return m.point_mass_law(k); });
}

std::optional<std::vector<double>> point_mass_counts(const Mechanism& mechanism, std::span<const double> items,
                                                     RandomBits& bits) {
  return if_capable<std::vector<double>>(mechanism, [&](const auto& m) -> decltype(m.point_mass_counts(items, bits)) {
    return m.point_mass_counts(items, bits);
  });
}

IndexDraw prepare(const Mechanism& mechanism, std::span<const double> input, std::size_t draws) {
  return std::visit([&](const auto& m) { return m.prepare(input, draws); }, mechanism);
}

std::size_t SingleReleases::sample(const Mechanism& mechanism, std::span<const double> input, RandomBits& bits) {
  // The data part into target_ where the mechanism has a plan on categories (made for k once); else false.
  const bool planned = std::visit(
      [&](const auto& m) -> bool {
        if constexpr (requires { m.release_plan(input.size()); }) {
          if (m.on_cells()) return false;
          const std::size_t k = input.size();
          if (!plan_ || target_.size() != k) {
            check_category_count(k, "hist");  // before k sizes anything
            plan_.reset();
            target_ = std::vector<double>(k);
            units_ = std::vector<std::uint64_t>(k);
            plan_.emplace(m.release_plan(k));  // left empty if it throws
          }
          m.release_target_into(input, *plan_, target_);
          return true;
        } else {
          return false;
        }
      },
      mechanism);
  if (!planned) return prepare(mechanism, input)(bits);
  quantize_units(target_, plan_->box, units_);
  return draw_release_once(*plan_, units_, bits);
}

std::optional<Release> released_law(const Mechanism& mechanism, std::span<const double> input) {
  return if_capable<Release>(mechanism, [&](const auto& m) -> decltype(m.release(input)) { return m.release(input); });
}

std::optional<std::vector<double>> released_probabilities(const Mechanism& mechanism, std::span<const double> input) {
  if (std::optional<Release> law = released_law(mechanism, input)) return law->probabilities();
  if (!has_exact_distribution(mechanism)) return std::nullopt;
  return distribution(mechanism, input);
}

std::vector<std::uint32_t> sample_many(const Mechanism& mechanism, std::span<const double> input, std::size_t n,
                                       RandomBits& bits) {
  std::vector<std::uint32_t> draws(n);
  sample_many_into(mechanism, input, draws, bits);
  return draws;
}

void sample_many_into(const Mechanism& mechanism, std::span<const double> input, std::span<std::uint32_t> out,
                      RandomBits& bits) {
  // One draw is prepared as for many (prepare(…, 1) is the one-release path, whose draw reads its words differently),
  // so that the first m draws of a seeded call for n are the draws of the call for m, m = 1 included.
  const std::size_t draws = out.size() == 1 ? 2 : out.size();
  prepare(mechanism, input, draws).many(bits, out);
}

}  // namespace privsample
