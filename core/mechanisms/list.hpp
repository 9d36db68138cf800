#pragma once
// The one list of mechanisms. The variant (Mechanism), both factories, the registry exported to JavaScript and every
// dispatch by capability are derived from it: adding a mechanism is its folder and one line here
// (docs/adding-a-mechanism.md). The mechanisms that also run on grid cells are those whose type declares a cells_spec.
#include <concepts>
#include <cstddef>
#include <span>
#include <type_traits>
#include <variant>
#include <vector>

#include "mechanisms/ds-roo/ds_roo.hpp"
#include "mechanisms/laplace-projection/laplace_projection.hpp"
#include "mechanisms/linear/linear.hpp"
#include "mechanisms/local-linear/local_linear.hpp"
#include "mechanisms/local/local.hpp"
#include "mechanisms/minimax/minimax.hpp"
#include "mechanisms/mollifier/mollifier.hpp"
#include "mechanisms/roo/roo.hpp"

namespace privsample {

template <class... Mechanisms>
struct MechanismList {};

// What every mechanism in the list provides (docs/adding-a-mechanism.md): its spec and a validating factory, its
// guarantee, its output pmf for an input, releases under the draw policy, and its worst case for k categories (which may
// throw std::domain_error where there is no closed form). A mechanism that also runs on grid cells adds a cells_spec and
// make_on_cells; the optional capabilities (release, affine_map, point_mass_caveat, categories, keep_weight_for,
// mixture_weight, on_cells, exact_distribution) are found by the dispatch in mechanism.cpp when present.
template <class T>
concept DescribedMechanism = requires(const T& m, const MechanismOptions& o, std::span<const double> input,
                                      std::size_t k, NamedDivergence f) {
  { T::spec } -> std::convertible_to<const MechanismSpec&>;
  { T::make(o) } -> std::same_as<T>;
  { m.guarantee() } -> std::convertible_to<Guarantee>;
  { m.distribution(input) } -> std::same_as<std::vector<double>>;
  { m.prepare(input, k) } -> std::same_as<IndexDraw>;
  { m.worst_case_risk(f, k) } -> std::same_as<double>;
};

template <class T>
concept RunsOnCellsToo = requires(const MechanismOptions& o) {
  { T::cells_spec } -> std::convertible_to<const MechanismSpec&>;
  { T::make_on_cells(o) } -> std::same_as<T>;
};

// In the order the documentation lists them.
using FiniteMechanisms = MechanismList<MinimaxSampler, LinearSampler, MollifierSampler, LocalClipSampler,
                                       LocalLinearSampler, RooSampler, DsRooSampler, LaplaceProjectionSampler>;

template <class T>
concept RunsOnCells = requires { T::cells_spec; };

namespace detail {
template <class... Ts>
constexpr bool all_described(MechanismList<Ts...>) {
  return (DescribedMechanism<Ts> && ...) && ((!RunsOnCells<Ts> || RunsOnCellsToo<Ts>) && ...);
}
}  // namespace detail
static_assert(detail::all_described(FiniteMechanisms{}),
              "a mechanism of the list lacks what docs/adding-a-mechanism.md asks of it");

namespace detail {
template <class List, class Kept = MechanismList<>>
struct OnCellsOf;
template <class... Kept>
struct OnCellsOf<MechanismList<>, MechanismList<Kept...>> {
  using type = MechanismList<Kept...>;
};
template <class T, class... Rest, class... Kept>
struct OnCellsOf<MechanismList<T, Rest...>, MechanismList<Kept...>> {
  using type = typename OnCellsOf<MechanismList<Rest...>,
                                  std::conditional_t<RunsOnCells<T>, MechanismList<Kept..., T>, MechanismList<Kept...>>>::type;
};
template <class List>
struct VariantOf;
template <class... Ts>
struct VariantOf<MechanismList<Ts...>> {
  using type = std::variant<Ts...>;
};
}  // namespace detail

// The mechanisms that run on grid cells, in the same order.
using ContinuousMechanisms = detail::OnCellsOf<FiniteMechanisms>::type;

// One mechanism of any kind, on categories or on cells (a mechanism's on_cells() says which).
using Mechanism = detail::VariantOf<FiniteMechanisms>::type;

}  // namespace privsample
