#pragma once
// The one list of mechanisms. The variant (Mechanism), both factories, the registry exported to JavaScript and every
// dispatch by capability are derived from it: adding a mechanism is its folder and one line here
// (docs/adding-a-mechanism.md). The mechanisms that also run on grid cells are those whose type declares a cells_spec.
// The frequency oracles release reports, not categories, so they are a second list in this file (FrequencyOracles);
// the registry's "oracles" section, the oracle variant (Oracle) and its dispatch (oracles.hpp) derive from it.
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <variant>
#include <vector>

#include "base/randomness.hpp"
#include "mechanisms/ds-roo/ds_roo.hpp"
#include "mechanisms/hadamard/hadamard.hpp"
#include "mechanisms/laplace-projection/laplace_projection.hpp"
#include "mechanisms/linear/linear.hpp"
#include "mechanisms/local-linear/local_linear.hpp"
#include "mechanisms/local/local.hpp"
#include "mechanisms/minimax/minimax.hpp"
#include "mechanisms/mollifier/mollifier.hpp"
#include "mechanisms/olh/olh.hpp"
#include "mechanisms/oracle.hpp"
#include "mechanisms/oue/oue.hpp"
#include "mechanisms/roo/roo.hpp"
#include "mechanisms/subset-selection/subset_selection.hpp"

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

// Whether T's distribution() is the exact law its releases draw from (an optional trait, true when absent; false for
// laplace-projection, whose distribution() is a Monte-Carlo estimate). The dispatch (has_exact_distribution) and the
// registry's "exactDistribution" both read it here.
template <class T>
inline constexpr bool exact_distribution_v = [] {
  if constexpr (requires { T::exact_distribution; }) {
    return T::exact_distribution;
  } else {
    return true;
  }
}();

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

// What every frequency oracle provides (docs/adding-a-mechanism.md#a-frequency-oracle): its spec (epsilon and
// categories; pure ε-LDP), a validating factory, its guarantee and k, how its reports travel and are counted, an
// encoder whose random words do not depend on the item (a bitset into bytes, or one integer), the support relation
// and the exact report probability, the two levels of its law (for the privacy audit) and p*, q* of its support
// counts (for the estimator and its closed-form variance; oracle.hpp).
template <class T>
concept DescribedOracle = requires(const T& o, const MechanismOptions& options, std::size_t item, RandomBits& bits) {
  { T::spec } -> std::convertible_to<const MechanismSpec&>;
  { T::report_format } -> std::convertible_to<ReportFormat>;
  { T::counts_kind } -> std::convertible_to<CountsKind>;
  { T::make(options) } -> std::same_as<T>;
  { o.guarantee() } -> std::convertible_to<Guarantee>;
  { o.categories() } -> std::same_as<std::size_t>;
  { o.levels() } -> std::same_as<ReportLevels>;
  { o.support_law() } -> std::same_as<SupportLaw>;
} && (requires(const T& o, std::size_t item, RandomBits& bits, std::span<std::uint8_t> out,
               std::span<const std::uint8_t> report) {
  requires T::report_format == ReportFormat::bits;
  { o.report_bytes() } -> std::same_as<std::size_t>;
  o.report(item, bits, out);
  { T::supports(report, item) } -> std::same_as<bool>;
  { o.report_probability(report, item) } -> std::same_as<long double>;
} || requires(const T& o, std::size_t item, RandomBits& bits, std::uint64_t report) {
  requires T::report_format == ReportFormat::integer;
  { o.report_values() } -> std::same_as<std::uint64_t>;
  { o.report(item, bits) } -> std::same_as<std::uint64_t>;
  { o.supports(report, item) } -> std::same_as<bool>;
  { o.report_probability(report, item) } -> std::same_as<long double>;
});

// In the order the documentation lists them.
using FrequencyOracles = MechanismList<OueOracle, OlhOracle, HadamardOracle, SubsetSelectionOracle>;

namespace detail {
template <class... Ts>
constexpr bool all_oracles(MechanismList<Ts...>) {
  return (DescribedOracle<Ts> && ...);
}
}  // namespace detail
static_assert(detail::all_oracles(FrequencyOracles{}),
              "a frequency oracle of the list lacks what docs/adding-a-mechanism.md asks of it");

// One frequency oracle.
using Oracle = detail::VariantOf<FrequencyOracles>::type;

}  // namespace privsample
