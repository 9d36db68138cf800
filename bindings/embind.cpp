// Embind glue: convert JS values, call the core, convert back, turn C++ exceptions into JS errors.
// No mathematics here. The public API is the ES module bindings/js/privsample.mjs, which wraps these.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>

#include <cmath>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "privsample/divergence.hpp"
#include "privsample/histogram.hpp"
#include "privsample/mechanism.hpp"
#include "privsample/numeric.hpp"
#include "privsample/randomness.hpp"

using emscripten::val;
using namespace privsample;

// Whole blocks from crypto.getRandomValues (Emscripten's getentropy makes one JS call per byte).
EM_JS(void, fill_with_crypto_random, (std::uint8_t * data, std::size_t length), {
  crypto.getRandomValues(HEAPU8.subarray(data, data + length));
});

namespace {

constexpr std::size_t kMaxDrawsPerCall = 10'000'000;

[[noreturn]] void throw_js(const char* constructor, const std::string& message) {
  val::global(constructor).new_(message).throw_();
  __builtin_unreachable();
}

// Runs `body`, rethrowing C++ exceptions as JS errors: bad values become RangeError, everything else Error.
template <class Body>
auto guarded(Body&& body) -> decltype(body()) {
  try {
    return body();
  } catch (const std::invalid_argument& e) {
    throw_js("RangeError", e.what());
  } catch (const std::domain_error& e) {
    throw_js("RangeError", e.what());
  } catch (const std::bad_alloc&) {
    throw_js("RangeError", "out of memory: the input is too large for this WebAssembly module");
  } catch (const std::exception& e) {
    throw_js("Error", e.what());
  }
}

RandomBits& secure_bits() {
  static SecureRandom bits([](std::span<std::uint8_t> out) { fill_with_crypto_random(out.data(), out.size()); });
  return bits;
}

std::vector<double> numbers(const val& array) { return emscripten::convertJSArrayToNumberVector<double>(array); }

template <class T>
val copy_out(const std::vector<T>& values) {
  return val(emscripten::typed_memory_view(values.size(), values.data())).call<val>("slice");
}

// The wrapper has already checked the JS types; values are checked by the core.
MechanismOptions read_options(const val& options) {
  const auto number = [&](const char* key) -> std::optional<double> {
    const val v = options[key];
    if (v.isUndefined()) return std::nullopt;
    return v.as<double>();
  };
  const auto vector = [&](const char* key) -> std::optional<std::vector<double>> {
    const val v = options[key];
    if (v.isUndefined()) return std::nullopt;
    return numbers(v);
  };
  MechanismOptions out;
  out.epsilon = number("epsilon");
  out.delta = number("delta");
  out.mu = number("mu");
  out.gamma = number("gamma");
  out.records = number("records");
  out.prior = vector("prior");
  out.reference = vector("reference");
  return out;
}

FiniteMechanism mechanism(const std::string& name, const val& options) {
  return make_finite_mechanism(name, read_options(options));
}

val mechanism_names() {
  val out = val::array();
  for (const auto& name : finite_mechanism_names()) out.call<void>("push", name);
  return out;
}

val guarantee_of(std::string name, val options) {
  return guarded([&] {
    const Guarantee g = guarantee(mechanism(name, options));
    val out = val::object();
    out.set("notion", notion_name(g.notion));
    switch (g.notion) {
      case PrivacyNotion::pure_ldp:
        out.set("epsilon", g.epsilon);
        break;
      case PrivacyNotion::approximate_ldp:
        out.set("epsilon", g.epsilon);
        out.set("delta", g.delta);
        break;
      case PrivacyNotion::gaussian_ldp:
        out.set("mu", g.mu);
        break;
      case PrivacyNotion::record_dp:
        out.set("epsilon", g.epsilon);
        out.set("records", g.records);
        break;
    }
    return out;
  });
}

val distribution_of(std::string name, val options, val hist) {
  return guarded([&] { return copy_out(distribution(mechanism(name, options), numbers(hist))); });
}

val normaliser_of(std::string name, val options, val hist) {
  return guarded([&] {
    const auto r = normaliser(mechanism(name, options), numbers(hist));
    return r ? val(*r) : val::null();
  });
}

double sample_one(std::string name, val options, val hist) {
  return guarded([&] {
    const auto draws = sample_many(mechanism(name, options), numbers(hist), 1, secure_bits());
    return static_cast<double>(draws.front());
  });
}

val sample_n(std::string name, val options, val hist, double n, val seed) {
  return guarded([&] {
    const FiniteMechanism m = mechanism(name, options);
    const std::vector<double> h = numbers(hist);
    const std::size_t count = validated_count(n, "n", 0, kMaxDrawsPerCall);
    if (seed.isUndefined() || seed.isNull()) return copy_out(sample_many(m, h, count, secure_bits()));
    SeededRandom seeded(validated_seed(seed.as<double>()));
    return copy_out(sample_many(m, h, count, seeded));
  });
}

double risk_of(std::string name, val options, std::string f, double k) {
  return guarded([&] {
    const FiniteMechanism m = mechanism(name, options);
    return worst_case_risk(m, parse_divergence(f), validated_count(k, "k", 1, kMaxCategories));
  });
}

double divergence_of(std::string f, val p, val q) {
  return guarded([&] { return divergence(parse_divergence(f), numbers(p), numbers(q)); });
}

void check_mechanism(std::string name, val options) {
  guarded([&] { (void)mechanism(name, options); });
}

double max_categories() { return static_cast<double>(kMaxCategories); }
double max_draws_per_call() { return static_cast<double>(kMaxDrawsPerCall); }

}  // namespace

EMSCRIPTEN_BINDINGS(privsample) {
  emscripten::function("checkMechanism", &check_mechanism);
  emscripten::function("mechanismNames", &mechanism_names);
  emscripten::function("guarantee", &guarantee_of);
  emscripten::function("distribution", &distribution_of);
  emscripten::function("normaliser", &normaliser_of);
  emscripten::function("sample", &sample_one);
  emscripten::function("sampleMany", &sample_n);
  emscripten::function("worstCaseRisk", &risk_of);
  emscripten::function("divergence", &divergence_of);
  emscripten::function("maxCategories", &max_categories);
  emscripten::function("maxDrawsPerCall", &max_draws_per_call);
}
