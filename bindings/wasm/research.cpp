// The research module: everything in the client module (client.cpp is linked in) plus continuous densities and
// samplers on grids, the MBDE baseline, the privacy accountant and the LMIDP conversions.
// Embind glue only: convert JS values, call the core, convert back; errors travel as in guard.hpp. Samplers come
// from the client functions (client.cpp) as heap addresses.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "client.hpp"
#include "guard.hpp"
#include "analysis/accountant.hpp"
#include "analysis/advise.hpp"
#include "base/errors.hpp"
#include "analysis/frequency_estimate.hpp"
#include "analysis/channel.hpp"
#include "privacy/privacy_box.hpp"
#include "analysis/collection_accounting.hpp"
#include "analysis/estimate.hpp"
#include "analysis/simulate.hpp"
#include "privsample.hpp"
#include "model/divergence.hpp"
#include "privacy/functional_ldp.hpp"
#include "model/histogram.hpp"
#include "analysis/lmidp.hpp"
#include "baselines/mbde.hpp"
#include "mechanisms/membership.hpp"
#include "mechanisms/mechanism.hpp"
#include "mechanisms/oracles.hpp"
#include "base/numeric.hpp"
#include "mechanisms/registry.hpp"

using emscripten::val;
using namespace privsample;
using namespace privsample::bindings;

namespace {

// ---- conversions between Embind values and the core's types -----------------------------------------------------

// Runs body() and returns its val, or records the exception (guard.hpp) and returns undefined. Never throws.
// Text arguments arrive as val and become std::string inside body(): Embind builds a std::string parameter before the
// call, outside the guard, where running out of memory would reach JavaScript as a bare exception.
template <class Body>
val guarded(Body&& body) noexcept {
  return guarded_or<val>(val::undefined(), std::forward<Body>(body));
}

std::vector<double> numbers(const val& array) { return emscripten::convertJSArrayToNumberVector<double>(array); }

val copy_out(const std::vector<double>& values) {
  return val(emscripten::typed_memory_view(values.size(), values.data())).call<val>("slice");
}

val guarantee_to_val(const Guarantee& g) {
  val out = val::object();
  out.set("notion", notion_name(g.notion));
  for (const auto& [name, value] : guarantee_fields(g)) out.set(name, value);
  return out;
}

// The wrapper has checked the JS types (numbers, numeric arrays, text); values are checked by the core.
MechanismOptions read_options(const val& options) {
  MechanismOptions out;
  const val keys = val::global("Object").call<val>("keys", options);
  const auto length = keys["length"].as<std::size_t>();
  for (std::size_t i = 0; i < length; ++i) {
    const auto key = keys[i].as<std::string>();
    const val v = options[key];
    if (v.isUndefined()) continue;
    if (v.isNumber()) set_option(out, key, v.as<double>());
    else if (v.isString()) set_option(out, key, v.as<std::string>());
    else set_option(out, key, numbers(v));
  }
  return out;
}

// The seed option of a call: undefined or null for the CSPRNG.
std::optional<double> seed_of(const val& seed) {
  if (seed.isUndefined() || seed.isNull()) return std::nullopt;
  return seed.as<double>();
}

// ---- results: each shape is a value_object declared once, in EMSCRIPTEN_BINDINGS below -------------------------
// A result leaves as to_js(result): Embind builds the JS object from the registered fields, in declaration order,
// every field present (null where there is none). Fields Embind carries as they are (double, bool, std::string) are
// plain member fields; the others go through to_js, the conversions value_object has no field type for:
//  - std::vector<double> -> a Float64Array copy (a vector field would need register_vector, which hands JS a C++
//    handle rather than an array; and a view into the heap goes stale when memory grows);
//  - std::optional<T> -> T, or null (Embind 3.1.6 has no std::optional);
//  - std::vector<T> of anything else -> a JS array of T;
//  - integers -> numbers (64-bit ones would otherwise need -sWASM_BIGINT).

template <class T> inline constexpr bool is_optional = false;
template <class T> inline constexpr bool is_optional<std::optional<T>> = true;
template <class T> inline constexpr bool is_vector = false;
template <class T> inline constexpr bool is_vector<std::vector<T>> = true;

//  A result registered below crosses as Embind's copy of it (new T(value)): an rvalue is moved there instead — at
//  k = 10^7 an estimate's columns are about 1 GB, which a copy would double past the module's 2 GiB.
template <class Arg>
val to_js(Arg&& value) {
  using V = std::remove_cvref_t<Arg>;
  if constexpr (std::is_same_v<V, std::vector<double>>) {
    return copy_out(value);
  } else if constexpr (is_optional<V>) {
    return value ? to_js(*std::forward<Arg>(value)) : val::null();
  } else if constexpr (is_vector<V>) {
    val out = val::array();
    for (const auto& item : value) out.call<void>("push", to_js(item));
    return out;
  } else if constexpr (std::is_integral_v<V> && !std::is_same_v<V, bool>) {
    return val(static_cast<double>(value));
  } else if constexpr (std::is_same_v<V, double> || std::is_same_v<V, bool> || std::is_same_v<V, std::string>) {
    return val(value);
  } else {
    return val(V(std::forward<Arg>(value)));  // a result registered below: moved from an rvalue, else copied
  }
}

// One result shape: Result<T>("T").field<Get>("jsName")…, Get a data member of T or a function of const T&.
template <class T>
class Result {
 public:
  explicit Result(const char* name) : object_(name) {}

  template <auto Get>
  Result& field(const char* name) {
    using V = std::remove_cvref_t<std::invoke_result_t<decltype(Get), const T&>>;
    if constexpr (std::is_member_object_pointer_v<decltype(Get)> &&
                  (std::is_same_v<V, double> || std::is_same_v<V, bool> || std::is_same_v<V, std::string>)) {
      object_.field(name, Get);
    } else {
      object_.field(name, &read<Get>, &never_read_back);
    }
    return *this;
  }

  // A field whose empty value means there is none (a curve without a prior, no caveat): null in JS.
  template <auto Get>
  Result& field_or_null(const char* name) {
    object_.field(name, &read_or_null<Get>, &never_read_back);
    return *this;
  }

 private:
  // Embind reads each field once from its own copy of the result (made by to_js), then destroys the copy: a member
  // that is itself a result is moved out of it rather than copied again (see to_js).
  template <auto Get>
  static val read(const T& result) {
    if constexpr (std::is_member_object_pointer_v<decltype(Get)>) {
      return to_js(std::move(const_cast<T&>(result).*Get));
    } else {
      return to_js(std::invoke(Get, result));
    }
  }
  template <auto Get>
  static val read_or_null(const T& result) {
    const auto& value = std::invoke(Get, result);
    return value.empty() ? val::null() : to_js(value);
  }
  // Results only leave: no binding takes one from JS, so Embind never calls this setter.
  static void never_read_back(T&, val) {}

  emscripten::value_object<T> object_;
};

// Shapes of the bindings' own (the core returns the parts separately).
struct ChannelLdp {
  double pure_epsilon = 0.0;
  std::vector<double> delta;
};
struct NamedShuffleBound : ShuffleBound {
  std::string method;  // the method asked for, which the core's bound does not carry
};
struct SimulationErrors {
  EstimationErrors released;
  std::optional<EstimationErrors> population;
  std::optional<EstimationErrors> point_masses;
};
SimulationErrors simulation_errors(const SimulationResult& r) {
  return {r.released_errors, r.population_errors, r.point_mass_errors};
}
double capacity_lower(const AccountantReport& r) { return r.capacity.lower; }
double capacity_upper(const AccountantReport& r) { return r.capacity.upper; }
const std::vector<double>& capacity_prior(const AccountantReport& r) { return r.capacity.prior; }

// inputs: an array of histograms, or null for the point masses of k categories.
val accountant_of(double sampler_address, val inputs, double k, val prior, val epsilons) {
  return guarded([&] {
    const Sampler& sampler = sampler_at(sampler_address);
    const Mechanism& m = sampler.mechanism();
    std::vector<std::vector<double>> rows;
    if (inputs.isNull() || inputs.isUndefined()) {
      rows = point_mass_inputs(m, validated_count(k, "k", 1, kMaxCategories));
    } else {
      const auto length = inputs["length"].as<std::size_t>();
      for (std::size_t i = 0; i < length; ++i) rows.push_back(numbers(inputs[i]));
    }
    const std::vector<double> grid = numbers(epsilons);
    std::optional<std::vector<double>> prior_values;
    if (!prior.isNull() && !prior.isUndefined()) prior_values = numbers(prior);
    const AccountantReport report = accountant_report(
        channel_matrix(m, rows),
        prior_values ? std::optional<std::span<const double>>(*prior_values) : std::nullopt, grid);
    return to_js(report);
  });
}

// The weight λ of a finite linear sampler (Q = λ·P + (1 − λ)·reference) as it runs for k categories:
// LinearSampler::lambda(k) ('linear' with delta or mu), LocalLinearSampler::lambda() ('local-linear');
// null for every other mechanism (Park's pure 'linear' included: its weight is a closed form of ε and k).
val mixture_weight_of(double sampler_address, double k) {
  return guarded([&] {
    const std::optional<double> lambda =
        mixture_weight(sampler_at(sampler_address).mechanism(), validated_count(k, "k", 0, kMaxCategories));
    return lambda ? val(*lambda) : val::null();
  });
}

// The law a release draws from (core: released_probabilities); null where distribution() is only an estimate.
val released_law_of(double sampler_address, val hist) {
  return guarded([&] {
    const std::optional<std::vector<double>> law =
        released_probabilities(sampler_at(sampler_address).mechanism(), numbers(hist));
    return law ? copy_out(*law) : val::null();
  });
}

// δ_g(β) of a notion (privacy_profile, functional_ldp.hpp): options {epsilon}, {epsilon, delta} or {mu}.
val privacy_profile_of(val options, double beta) {
  return guarded([&] { return val(privacy_profile(ldp_notion_of(read_options(options), "privacyProfile"), beta)); });
}

// The exact LDP of a channel given by its rows (output distributions; equal lengths, checked by the wrapper).
val channel_ldp_of(val rows, val epsilons) {
  return guarded([&] {
    const auto count = rows["length"].as<std::size_t>();
    std::vector<std::vector<double>> values;
    for (std::size_t i = 0; i < count; ++i) values.push_back(numbers(rows[i]));
    const std::size_t columns = values.empty() ? 0 : values[0].size();
    ChannelMatrix w(static_cast<Eigen::Index>(count), static_cast<Eigen::Index>(columns));
    for (std::size_t i = 0; i < count; ++i) {
      for (std::size_t j = 0; j < columns; ++j) w(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = values[i][j];
    }
    const ChannelMatrix channel = validated_channel(std::move(w));
    return to_js(ChannelLdp{pure_ldp_epsilon(channel), ldp_curve(channel, numbers(epsilons))});
  });
}

// The pure ε of a channel from each output's largest and smallest probability (accountant.hpp).
val channel_ldp_of_extremes(val largest, val smallest) {
  return guarded([&] { return val(pure_ldp_epsilon_of_extremes(numbers(largest), numbers(smallest))); });
}

// The log-width of the box around h that holds q (box_log_width, privacy_box.hpp).
val box_log_width_of(val q, val h) {
  return guarded([&] { return val(box_log_width(numbers(q), numbers(h))); });
}

// The conversions of the LMIDP paper, one number each (lmidp.hpp).
val ldp_delta_from_capacity_of(double mu, double epsilon) {
  return guarded([&] { return val(ldp_delta_from_capacity(mu, epsilon)); });
}
val ldp_delta_floor_of(double mu) { return guarded([&] { return val(ldp_delta_floor_from_capacity(mu)); }); }
val lip_delta_of(double mu, double p_min, double epsilon) {
  return guarded([&] { return val(lip_delta_from_mutual_information(mu, p_min, epsilon)); });
}
val lip_delta_as_printed_of(double mu, double epsilon) {
  return guarded([&] { return val(lip_delta_from_mutual_information_as_printed(mu, epsilon)); });
}
val gaussian_sigma2_of(double mu, double d, double bound) {
  return guarded([&] { return val(gaussian_sigma2_for_capacity(mu, validated_count(d, "d", 1, 1'000'000), bound)); });
}

val gaussian_ldp_delta_of(double epsilon, double d, double bound, double sigma2) {
  return guarded([&] {
    return val(gaussian_ball_ldp_delta(epsilon, validated_count(d, "d", 1, 1'000'000), bound, sigma2));
  });
}
val gaussian_capacity_peak_of(double d, double bound, double sigma2) {
  return guarded([&] { return val(gaussian_capacity_peak(validated_count(d, "d", 1, 1'000'000), bound, sigma2)); });
}
val gaussian_capacity_average_power_of(double d, double bound, double sigma2) {
  return guarded([&] {
    return val(gaussian_capacity_average_power(validated_count(d, "d", 1, 1'000'000), bound, sigma2));
  });
}
val gaussian_mixture_mi_of(val xs, val prior, double sigma2) {
  return guarded([&] {
    const std::vector<double> x = numbers(xs);
    const std::vector<double> p = numbers(prior);
    return val(gaussian_mixture_mutual_information(x, p, sigma2));
  });
}
val gaussian_mixture_lip_delta_of(val xs, val prior, double sigma2, double epsilon) {
  return guarded([&] {
    const std::vector<double> x = numbers(xs);
    const std::vector<double> p = numbers(prior);
    return val(gaussian_mixture_lip_delta(x, p, sigma2, epsilon));
  });
}
// Theorem 1(b) / 2(b) on a curve given as a JS function ε -> δ. The wrapper passes a function that never throws
// (it returns NaN instead, which the core rejects), so no JS exception unwinds through these frames (guard.hpp).
std::function<double(double)> curve_of(const val& delta) {
  return [delta](double epsilon) { return delta(epsilon).as<double>(); };
}
val capacity_bound_from_ldp_curve_of(val delta, double eps_hint) {
  return guarded([&] { return val(capacity_bound_from_ldp_curve(curve_of(delta), eps_hint)); });
}
val mi_bound_from_lip_curve_of(val delta, double eps_hint) {
  return guarded([&] { return val(mutual_information_bound_from_lip_curve(curve_of(delta), eps_hint)); });
}

// ---- Reveal-or-Obscure tables and the paper's formulas (reveal_or_obscure.hpp) ----------------------------------
std::size_t roo_records(double records) { return validated_count(records, "records", 1, kMaxRecords); }
std::size_t roo_k(double k) { return validated_count(k, "k", 1, kMaxCategories); }
val roo_obscure_probability_of(double epsilon, double records, double k) {
  return guarded([&] { return val(roo_obscure_probability(epsilon, roo_records(records), roo_k(k))); });
}
val dsroo_table_of(double epsilon, double records, double k) {
  return guarded([&] { return copy_out(dsroo_obscure_table(epsilon, roo_records(records), roo_k(k))); });
}
val dsroo_table_as_printed_of(double epsilon, double records, double k) {
  return guarded([&] { return copy_out(dsroo_obscure_table_as_printed(epsilon, roo_records(records), roo_k(k))); });
}
val dsroo_table_top_fix_only_of(double epsilon, double records, double k) {
  return guarded([&] { return copy_out(dsroo_obscure_table_top_fix_only(epsilon, roo_records(records), roo_k(k))); });
}
val dsroo_worst_pair_of(val table, double records, double k) {
  return guarded([&] {
    return to_js(dsroo_worst_log_ratio(numbers(table), roo_records(records), roo_k(k)));
  });
}
val roo_accuracy_of(double epsilon, double records, double k) {
  return guarded([&] { return to_js(roo_accuracy_bounds(epsilon, roo_records(records), roo_k(k))); });
}
val roo_sample_complexity_of(double k, double alpha, double epsilon) {
  return guarded([&] { return to_js(roo_sample_complexity(roo_k(k), alpha, epsilon)); });
}

// ---- continuous data on grids (continuous.hpp) ----------------------------------------------------------------
// The wrapper passes grids as plain objects ({dimension: 1, lo, hi, cells} or {dimension: 2, xLo, xHi, nx, yLo,
// yHi, ny}) with number fields, 2-D points as flat [x0, y0, x1, y1, …] arrays, and continuous-sampler options
// whose presence it has checked per mechanism; every value is checked here or by the core.

Grid1D grid1d_of(const val& g) {
  return Grid1D{g["lo"].as<double>(), g["hi"].as<double>(),
                validated_count(g["cells"].as<double>(), "grid.cells", 1, kMaxCategories)};
}

Grid2D grid2d_of(const val& g) {
  Grid2D out{g["xLo"].as<double>(), g["xHi"].as<double>(),
             validated_count(g["nx"].as<double>(), "grid.nx", 1, kMaxCategories), g["yLo"].as<double>(),
             g["yHi"].as<double>(), validated_count(g["ny"].as<double>(), "grid.ny", 1, kMaxCategories)};
  return out;
}

bool is_2d(const val& g) { return g["dimension"].as<double>() == 2.0; }

std::vector<Point2D> points_of(const val& flat) {
  const std::vector<double> xy = numbers(flat);
  std::vector<Point2D> out(xy.size() / 2);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = {xy[2 * i], xy[2 * i + 1]};
  return out;
}

val check_grid(val grid) {
  return guarded([&] {
    if (is_2d(grid)) {
      const Grid2D g = grid2d_of(grid);
      validate_grid(g);
      return val(static_cast<double>(cell_count(g)));
    }
    const Grid1D g = grid1d_of(grid);
    validate_grid(g);
    return val(static_cast<double>(g.cells));
  });
}

val gaussian_mixture_of(val grid, val means, val weights, double sigma) {
  return guarded([&] {
    const std::vector<double> w = numbers(weights);
    if (is_2d(grid)) return copy_out(gaussian_mixture(grid2d_of(grid), points_of(means), w, sigma));
    return copy_out(gaussian_mixture(grid1d_of(grid), numbers(means), w, sigma));
  });
}

val laplace_mixture_of(val grid, val means, val weights, double scale) {
  return guarded([&] {
    const std::vector<double> w = numbers(weights);
    if (is_2d(grid)) return copy_out(laplace_mixture(grid2d_of(grid), points_of(means), w, scale));
    return copy_out(laplace_mixture(grid1d_of(grid), numbers(means), w, scale));
  });
}

val gaussian_ring_of(val grid, double modes, double variance, double radius) {
  return guarded([&] {
    const std::size_t m = validated_count(modes, "modes", 1, 1'000'000);
    return copy_out(gaussian_ring(grid2d_of(grid), m, variance, radius));
  });
}

val kernel_density_of(val grid, val points, double bandwidth) {
  return guarded([&] {
    if (is_2d(grid)) return copy_out(kernel_density(grid2d_of(grid), points_of(points), bandwidth));
    return copy_out(kernel_density(grid1d_of(grid), numbers(points), bandwidth));
  });
}

val gaussian_mixture_envelope_of(val grid, double sigma, double radius) {
  return guarded([&] { return copy_out(gaussian_mixture_envelope(grid1d_of(grid), sigma, radius)); });
}

val gaussian_ring_envelope_of(val grid, double variance, double radius) {
  return guarded([&] { return copy_out(gaussian_ring_envelope(grid2d_of(grid), variance, radius)); });
}

// The papers' random mixtures from the SEEDED generator (set-up of reproducible figures, not secure).
val seeded_random_mixtures_of(double seed, double count, double poisson_mean, double max_components, double mean_range) {
  return guarded([&] {
    SeededRandom bits(validated_seed(seed, "options.seed"));
    return to_js(random_mixtures(bits, validated_count(count, "options.count", 0, 1'000'000), poisson_mean,
                                 validated_count(max_components, "options.maxComponents", 1, 1000), mean_range));
  });
}

// MBDE (the baseline): preset "reduced" (sized for a browser tab) or "paper" (the paper's, far slower); randomness from
// the CSPRNG unless a seed is given (reproducible experiments).
val mbde_of(val grid, val density, double epsilon, val preset_text, val seed) {
  return guarded([&] {
    const auto preset = preset_text.as<std::string>();
    if (preset != "reduced" && preset != "paper") {
      throw std::invalid_argument("options.preset = '" + preset + "': use 'reduced' or 'paper'");
    }
    const MbdeSettings settings = preset == "paper" ? MbdeSettings::paper() : MbdeSettings::reduced();
    const std::vector<double> d = numbers(density);
    const auto run = [&](RandomBits& bits) {
      return is_2d(grid) ? mbde(grid2d_of(grid), d, epsilon, settings, bits)
                         : mbde(grid1d_of(grid), d, epsilon, settings, bits);
    };
    return to_js(with_bits(seed_of(seed), run));
  });
}

// ---- the validated pmf of an input and where it sits in a class (histogram.hpp, membership.hpp) ---------------

val normalise_of(val hist) {
  return guarded([&] { return copy_out(normalized_pmf(numbers(hist), "hist")); });
}

val neighbourhood_membership_of(val hist, val prior, double gamma) {
  return guarded([&] { return to_js(neighbourhood_membership(numbers(hist), numbers(prior), gamma)); });
}

val density_class_membership_of(val density, val reference, double c1, double c2) {
  return guarded([&] {
    return to_js(class_membership(density_class(numbers(reference), c1, c2), numbers(density)));
  });
}

// Options as the wrapper converted them (numbers, numeric arrays); the rules are the registry's, in the core.
Mechanism continuous_mechanism(const val& name, const val& options) {
  return make_continuous_mechanism(name.as<std::string>(), read_options(options));
}

val continuous_guarantee_of(val name, val options) {
  return guarded([&] { return guarantee_to_val(guarantee(continuous_mechanism(name, options))); });
}

val continuous_distribution_of(val name, val options, val density) {
  return guarded([&] { return copy_out(distribution(continuous_mechanism(name, options), numbers(density))); });
}

val continuous_normaliser_of(val name, val options, val density) {
  return guarded([&] {
    const std::optional<double> r = normaliser(continuous_mechanism(name, options), numbers(density));
    return r ? val(*r) : val::null();
  });
}

val continuous_risk_of(val name, val options, val f) {
  return guarded([&] {
    const Mechanism m = continuous_mechanism(name, options);
    return val(worst_case_risk(m, parse_divergence(f.as<std::string>()), *fixed_categories(m)));
  });
}

// λ of the continuous linear samplers ('linear', 'local-linear'); null for the clip samplers.
val continuous_mixture_weight_of(val name, val options) {
  return guarded([&] {
    const Mechanism m = continuous_mechanism(name, options);
    const std::optional<double> lambda = mixture_weight(m, *fixed_categories(m));
    return lambda ? val(*lambda) : val::null();
  });
}

// One private point (core: sample_point), drawn with the CSPRNG.
val continuous_sample_point(val name, val options, val grid, val density) {
  return guarded([&] {
    const Mechanism m = continuous_mechanism(name, options);
    const std::vector<double> p = numbers(density);
    if (is_2d(grid)) {
      const Point2D xy = sample_point(m, grid2d_of(grid), p, secure_bits());
      val out = val::array();
      out.call<void>("push", xy[0]);
      out.call<void>("push", xy[1]);
      return out;
    }
    return val(sample_point(m, grid1d_of(grid), p, secure_bits()));
  });
}

// ---- the analyst's side: estimators, simulation of N users, accounting for the collection ----------------------

val estimate_of(double sampler_address, val counts, double alpha, val divergence, bool point_masses) {
  return guarded([&] {
    const Sampler& sampler = sampler_at(sampler_address);
    EstimateReport report = [&] {  // the counts' copy is released before the report crosses
      const std::vector<double> c = numbers(counts);
      return estimate(sampler.mechanism(), c, alpha, parse_divergence(divergence.as<std::string>()), point_masses);
    }();
    return to_js(std::move(report));
  });
}

// options: {model, users, concentration, alpha, divergence, pointMasses, seed, population} with types checked by the
// wrapper (concentration null when not given; population, for 'given' only, the user's options.population or null);
// population: the model's histogram, or for 'given' the users' histograms flattened row by row (k columns).
val simulate_of(double sampler_address, val population, double k, val options) {
  return guarded([&] {
    const Sampler& sampler = sampler_at(sampler_address);
    SimulationOptions o;
    const std::string model = options["model"].as<std::string>();
    if (model == "point-masses") o.model = PopulationModel::point_masses;
    else if (model == "dirichlet") o.model = PopulationModel::dirichlet;
    else if (model == "given") o.model = PopulationModel::given;
    else throw std::invalid_argument("options.model = '" + model + "': use 'point-masses', 'dirichlet' or 'given'");
    if (o.model != PopulationModel::given) {
      o.users = validated_count(options["users"].as<double>(), "options.users", 1, kMaxSimulatedUsers);
    }
    if (!options["concentration"].isNull()) o.concentration = options["concentration"].as<double>();
    o.alpha = options["alpha"].as<double>();
    o.divergence = parse_divergence(options["divergence"].as<std::string>());
    o.point_mass_inversion = options["pointMasses"].as<bool>();
    const std::vector<double> values = numbers(population);
    const auto run = [&](RandomBits& bits) {
      if (o.model == PopulationModel::given) {
        const std::vector<double> population =
            options["population"].isNull() ? std::vector<double>{} : numbers(options["population"]);
        return simulate_given(sampler.mechanism(), values, validated_count(k, "k", 1, kMaxCategories), o, bits,
                              population);
      }
      return simulate(sampler.mechanism(), values, o, bits);
    };

    return to_js(with_bits(seed_of(options["seed"]), run));
  });
}

// method: 'basic' | 'advanced' | 'optimal' | 'best' (the smallest ε of them, as the core decides).
val compose_of(double epsilon, double delta, double reports, double delta_prime, val method_text) {
  return guarded([&] {
    const auto method = method_text.as<std::string>();
    if (method == "basic") return to_js(basic_composition(epsilon, delta, reports));
    if (method == "advanced") return to_js(advanced_composition(epsilon, delta, reports, delta_prime));
    if (method == "optimal") return to_js(optimal_composition(epsilon, delta, reports, delta_prime));
    if (method == "best") return to_js(best_composition(epsilon, delta, reports, delta_prime));
    throw std::invalid_argument("options.method = '" + method + "': use 'basic', 'advanced', 'optimal' or 'best'");
  });
}

// has_precision: whether options.precision was given (else the core's default).
val shuffle_of(double epsilon0, double users, double delta, val method_text, bool has_precision, double precision) {
  return guarded([&] {
    const auto method = method_text.as<std::string>();
    ShuffleBound b;
    if (method == "numerical") {
      ShuffleNumericalOptions o;
      if (has_precision) o.precision = precision;
      b = shuffle_numerical(epsilon0, users, delta, o);
    } else if (has_precision) {
      throw std::invalid_argument("options.precision: only method 'numerical' takes a precision ('" + method +
                                  "' is a closed form)");
    } else if (method == "closed-form") {
      b = shuffle_closed_form(epsilon0, users, delta);
    } else if (method == "closed-form-printed") {
      b = shuffle_closed_form_printed(epsilon0, users, delta);
    } else {
      throw std::invalid_argument("options.method = '" + method +
                                  "': use 'numerical', 'closed-form' or 'closed-form-printed'");
    }
    return to_js(NamedShuffleBound{b, method});
  });
}

// ---- frequency oracles: counting and estimating, the advisor ----------------------------------------------------

Oracle oracle_named(const val& name, const val& options) {
  return make_oracle(name.as<std::string>(), read_options(options));
}

// reports: an array of hex strings (bitset reports) or a Float64Array of integers, as the wrapper checked them.
val frequency_counts_of(val name, val options, val reports) {
  return guarded([&] {
    const Oracle o = oracle_named(name, options);
    FrequencyCounts c;
    // No reports ([], an empty typed array, encodeMany([])'s) count as none, whatever the oracle's report format.
    const bool none = reports["length"].as<double>() == 0.0;
    if (report_format(o) == ReportFormat::bits && (reports.isArray() || none)) {
      const auto n = none ? std::size_t{0} : reports["length"].as<std::size_t>();
      std::vector<std::string> texts(n);
      for (std::size_t i = 0; i < n; ++i) texts[i] = reports[i].as<std::string>();
      const std::vector<std::string_view> views(texts.begin(), texts.end());
      c = frequency_counts(o, views);
    } else if (report_format(o) == ReportFormat::integer && !reports.isArray()) {
      c = frequency_counts(o, numbers(reports));
    } else {
      throw_shape({"reports: a '", name.as<std::string>(), "' report is ",
                   report_format(o) == ReportFormat::bits ? "hex text" : "a number"});
    }
    return to_js(c);
  });
}

val estimate_frequencies_of(val name, val options, val counts, val users, double alpha) {
  return guarded([&] {
    const Oracle o = oracle_named(name, options);
    const std::optional<double> n = users.isUndefined() || users.isNull() ? std::nullopt
                                                                          : std::optional<double>(users.as<double>());
    return to_js(estimate_frequencies(o, numbers(counts), n, alpha));
  });
}

val frequency_variance_of(val name, val options, double frequency, double users) {
  return guarded([&] { return val(frequency_variance(oracle_named(name, options), frequency, users)); });
}

val advise_of(double k, double epsilon, double users, val goal, val divergence) {
  return guarded([&] {
    return to_js(advise(k, epsilon, users, parse_advice_goal(goal.as<std::string>()), divergence.as<std::string>()));
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(privsample_research) {
  // The results' shapes (research.d.ts describes the same), one declaration each.
  Result<AccountantReport>("AccountantReport")
      .field<&AccountantReport::epsilons>("epsilons")
      .field<&AccountantReport::pure_ldp_epsilon>("pureLdpEpsilon")
      .field<&AccountantReport::ldp_curve>("ldpCurve")
      .field<&capacity_lower>("capacityLower")
      .field<&capacity_upper>("capacityUpper")
      .field<&capacity_prior>("capacityPrior")
      .field<&AccountantReport::capacity_bound_from_pure_ldp>("capacityBoundFromPureLdp")
      .field<&AccountantReport::capacity_bound_from_ldp_curve>("capacityBoundFromLdpCurve")
      .field<&AccountantReport::prior_entropy>("priorEntropy")
      .field<&AccountantReport::prior_min_mass>("priorMinMass")
      .field<&AccountantReport::mutual_information>("mutualInformation")
      .field<&AccountantReport::pure_lip_epsilon>("pureLipEpsilon")
      .field_or_null<&AccountantReport::lip_curve>("lipCurve")
      .field<&AccountantReport::mutual_information_bound_from_lip_curve>("mutualInformationBoundFromLipCurve");
  Result<ChannelLdp>("ChannelLdp").field<&ChannelLdp::pure_epsilon>("pureEpsilon").field<&ChannelLdp::delta>("delta");
  Result<DsRooWorstPair>("DsRooWorstPair")
      .field<&DsRooWorstPair::log_ratio>("logRatio")
      .field<&DsRooWorstPair::m>("m")
      .field<&DsRooWorstPair::m_tilde>("mTilde")
      .field<&DsRooWorstPair::count>("count")
      .field<&DsRooWorstPair::count_tilde>("countTilde");
  Result<RooAccuracyBounds>("RooAccuracyBounds")
      .field<&RooAccuracyBounds::roo>("roo")
      .field<&RooAccuracyBounds::rsss>("rsss");
  Result<RooSampleComplexity>("RooSampleComplexity")
      .field<&RooSampleComplexity::roo>("roo")
      .field<&RooSampleComplexity::rsss>("rsss")
      .field<&RooSampleComplexity::subrr>("subrr");
  Result<MixtureParameters>("MixtureParameters")
      .field<&MixtureParameters::means>("means")
      .field<&MixtureParameters::weights>("weights");
  Result<MbdeResult>("MbdeResult")
      .field<&MbdeResult::density>("density")
      .field<&MbdeResult::reference>("reference")
      .field<&MbdeResult::theta>("theta");
  Result<ClassMembership>("ClassMembership")
      .field<&ClassMembership::min_ratio>("minRatio")
      .field<&ClassMembership::max_ratio>("maxRatio")
      .field<&ClassMembership::inside>("inside");
  Result<ReleasedEstimate>("ReleasedEstimate")
      .field<&ReleasedEstimate::users>("users")
      .field<&ReleasedEstimate::confidence>("confidence")
      .field<&ReleasedEstimate::q>("q")
      .field<&ReleasedEstimate::lower>("lower")
      .field<&ReleasedEstimate::upper>("upper")
      .field<&ReleasedEstimate::pointwise_lower>("pointwiseLower")
      .field<&ReleasedEstimate::pointwise_upper>("pointwiseUpper")
      .field<&ReleasedEstimate::target>("target")
      .field<&ReleasedEstimate::interval_method>("intervalMethod")
      .field<&ReleasedEstimate::assumption>("assumption")
      .field<&ReleasedEstimate::radius>("radius")
      .field_or_null<&ReleasedEstimate::radius_assumption>("radiusAssumption")
      .field<&ReleasedEstimate::divergence>("divergence");
  Result<PopulationEstimate>("PopulationEstimate")
      .field<&PopulationEstimate::users>("users")
      .field<&PopulationEstimate::confidence>("confidence")
      .field<&PopulationEstimate::estimate>("estimate")
      .field<&PopulationEstimate::variance>("variance")
      .field<&PopulationEstimate::standard_error>("standardError")
      .field<&PopulationEstimate::lower>("lower")
      .field<&PopulationEstimate::upper>("upper")
      .field<&PopulationEstimate::simultaneous_lower>("simultaneousLower")
      .field<&PopulationEstimate::simultaneous_upper>("simultaneousUpper")
      .field<&PopulationEstimate::projected>("projected")
      .field<&PopulationEstimate::method>("method")
      .field<&PopulationEstimate::assumption>("assumption")
      .field<&PopulationEstimate::target>("target")
      .field<&PopulationEstimate::interval_method>("intervalMethod")
      .field_or_null<&PopulationEstimate::caveat>("caveat")
      .field<&PopulationEstimate::warnings>("warnings");
  Result<EstimateReport>("EstimateReport")
      .field<&EstimateReport::released>("released")
      .field<&EstimateReport::population>("population")
      .field<&EstimateReport::point_masses>("pointMasses");
  Result<EstimationErrors>("EstimationErrors")
      .field<&EstimationErrors::tv>("tv")
      .field<&EstimationErrors::kl>("kl")
      .field<&EstimationErrors::max_abs>("maxAbs")
      .field<&EstimationErrors::l2>("l2");
  Result<SimulationErrors>("SimulationErrors")
      .field<&SimulationErrors::released>("released")
      .field<&SimulationErrors::population>("population")
      .field<&SimulationErrors::point_masses>("pointMasses");
  Result<SimulationResult>("SimulationResult")
      .field<&SimulationResult::truth>("truth")
      .field_or_null<&SimulationResult::model>("model")
      .field_or_null<&SimulationResult::items>("items")
      .field<&SimulationResult::counts>("counts")
      .field<&SimulationResult::estimate>("estimate")
      .field<&simulation_errors>("errors");
  Result<PrivacyLoss>("PrivacyLoss")
      .field<&PrivacyLoss::epsilon>("epsilon")
      .field<&PrivacyLoss::delta>("delta")
      .field<&PrivacyLoss::method>("method");
  Result<NamedShuffleBound>("NamedShuffleBound")
      .field<&NamedShuffleBound::epsilon>("epsilon")
      .field<&NamedShuffleBound::delta>("delta")
      .field<&NamedShuffleBound::applies>("applies")
      .field<&NamedShuffleBound::epsilon_lower>("epsilonLower")
      .field<&NamedShuffleBound::method>("method");
  Result<FrequencyCounts>("FrequencyCounts")
      .field<&FrequencyCounts::counts>("counts")
      .field<&FrequencyCounts::users>("users");
  Result<FrequencyEstimate>("FrequencyEstimate")
      .field<&FrequencyEstimate::users>("users")
      .field<&FrequencyEstimate::alpha>("alpha")
      .field<&FrequencyEstimate::confidence>("confidence")
      .field<&FrequencyEstimate::assumption>("assumption")
      .field<&FrequencyEstimate::target>("target")
      .field<&FrequencyEstimate::interval_method>("intervalMethod")
      .field<&FrequencyEstimate::estimate>("estimate")
      .field<&FrequencyEstimate::variance>("variance")
      .field<&FrequencyEstimate::standard_error>("standardError")
      .field<&FrequencyEstimate::lower>("lower")
      .field<&FrequencyEstimate::upper>("upper")
      .field<&FrequencyEstimate::simultaneous_lower>("simultaneousLower")
      .field<&FrequencyEstimate::simultaneous_upper>("simultaneousUpper")
      .field<&FrequencyEstimate::warnings>("warnings");
  Result<AdviceCandidate>("AdviceCandidate")
      .field<&AdviceCandidate::mechanism>("mechanism")
      .field<&AdviceCandidate::error>("error")
      .field<&AdviceCandidate::report_bits>("reportBits")
      .field<&AdviceCandidate::server_cost>("serverCost")
      .field<&AdviceCandidate::server_operations>("serverOperations");
  Result<Advice>("Advice")
      .field<&Advice::mechanism>("mechanism")
      .field<&Advice::error>("error")
      .field<&Advice::tolerance>("tolerance")
      .field<&Advice::reason>("reason")
      .field<&Advice::candidates>("candidates");

  emscripten::function("frequencyCounts", &frequency_counts_of);
  emscripten::function("estimateFrequencies", &estimate_frequencies_of);
  emscripten::function("frequencyVariance", &frequency_variance_of);
  emscripten::function("advise", &advise_of);
  emscripten::function("accountant", &accountant_of);
  emscripten::function("mixtureWeight", &mixture_weight_of);
  emscripten::function("releasedLaw", &released_law_of);
  emscripten::function("privacyProfile", &privacy_profile_of);
  emscripten::function("continuousMixtureWeight", &continuous_mixture_weight_of);
  emscripten::function("ldpDeltaFromCapacity", &ldp_delta_from_capacity_of);
  emscripten::function("ldpDeltaFloorFromCapacity", &ldp_delta_floor_of);
  emscripten::function("lipDeltaFromMutualInformation", &lip_delta_of);
  emscripten::function("lipDeltaFromMutualInformationAsPrinted", &lip_delta_as_printed_of);
  emscripten::function("gaussianSigma2ForCapacity", &gaussian_sigma2_of);
  emscripten::function("channelLdp", &channel_ldp_of);
  emscripten::function("boxLogWidth", &box_log_width_of);
  emscripten::function("channelLdpOfExtremes", &channel_ldp_of_extremes);
  emscripten::function("gaussianLdpDelta", &gaussian_ldp_delta_of);
  emscripten::function("gaussianCapacityPeak", &gaussian_capacity_peak_of);
  emscripten::function("gaussianCapacityAveragePower", &gaussian_capacity_average_power_of);
  emscripten::function("gaussianMixtureMutualInformation", &gaussian_mixture_mi_of);
  emscripten::function("gaussianMixtureLipDelta", &gaussian_mixture_lip_delta_of);
  emscripten::function("capacityBoundFromLdpCurve", &capacity_bound_from_ldp_curve_of);
  emscripten::function("mutualInformationBoundFromLipCurve", &mi_bound_from_lip_curve_of);
  emscripten::function("rooObscureProbability", &roo_obscure_probability_of);
  emscripten::function("dsRooObscureTable", &dsroo_table_of);
  emscripten::function("dsRooObscureTableAsPrinted", &dsroo_table_as_printed_of);
  emscripten::function("dsRooObscureTableTopFixOnly", &dsroo_table_top_fix_only_of);
  emscripten::function("dsRooWorstPair", &dsroo_worst_pair_of);
  emscripten::function("rooAccuracyBounds", &roo_accuracy_of);
  emscripten::function("rooSampleComplexity", &roo_sample_complexity_of);
  emscripten::function("normalise", &normalise_of);
  emscripten::function("neighbourhoodMembership", &neighbourhood_membership_of);
  emscripten::function("densityClassMembership", &density_class_membership_of);
  emscripten::function("checkGrid", &check_grid);
  emscripten::function("gaussianMixture", &gaussian_mixture_of);
  emscripten::function("laplaceMixture", &laplace_mixture_of);
  emscripten::function("gaussianRing", &gaussian_ring_of);
  emscripten::function("kernelDensity", &kernel_density_of);
  emscripten::function("gaussianMixtureEnvelope", &gaussian_mixture_envelope_of);
  emscripten::function("gaussianRingEnvelope", &gaussian_ring_envelope_of);
  emscripten::function("seededRandomMixtures", &seeded_random_mixtures_of);
  emscripten::function("continuousGuarantee", &continuous_guarantee_of);
  emscripten::function("continuousDistribution", &continuous_distribution_of);
  emscripten::function("continuousNormaliser", &continuous_normaliser_of);
  emscripten::function("continuousWorstCaseRisk", &continuous_risk_of);
  emscripten::function("continuousSamplePoint", &continuous_sample_point);
  emscripten::function("mbde", &mbde_of);
  emscripten::function("estimate", &estimate_of);
  emscripten::function("simulate", &simulate_of);
  emscripten::function("compose", &compose_of);
  emscripten::function("shuffle", &shuffle_of);
}
