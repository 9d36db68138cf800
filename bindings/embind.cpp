// Embind glue: convert JS values, call the core, convert back, turn C++ exceptions into JS errors.
// No mathematics here. The public API is the ES module bindings/js/privsample.mjs, which wraps these.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>

#include <cmath>
#include <new>
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

FiniteMechanism mechanism(const std::string& name, double epsilon) {
  return make_finite_mechanism(name, MechanismOptions{epsilon});
}

val guarantee_of(std::string name, double epsilon) {
  return guarded([&] {
    const Guarantee g = guarantee(mechanism(name, epsilon));
    val out = val::object();
    out.set("notion", notion_name(g.notion));
    out.set("epsilon", g.epsilon);
    return out;
  });
}

val distribution_of(std::string name, double epsilon, val hist) {
  return guarded([&] { return copy_out(distribution(mechanism(name, epsilon), numbers(hist))); });
}

val normaliser_of(std::string name, double epsilon, val hist) {
  return guarded([&] {
    const auto r = normaliser(mechanism(name, epsilon), numbers(hist));
    return r ? val(*r) : val::null();
  });
}

double sample_one(std::string name, double epsilon, val hist) {
  return guarded([&] {
    const auto draws = sample_many(mechanism(name, epsilon), numbers(hist), 1, secure_bits());
    return static_cast<double>(draws.front());
  });
}

val sample_n(std::string name, double epsilon, val hist, double n, val seed) {
  return guarded([&] {
    const FiniteMechanism m = mechanism(name, epsilon);
    const std::vector<double> h = numbers(hist);
    const std::size_t count = validated_count(n, "n", 0, kMaxDrawsPerCall);
    if (seed.isUndefined() || seed.isNull()) return copy_out(sample_many(m, h, count, secure_bits()));
    const double seed_value = seed.as<double>();
    SeededRandom seeded(validated_seed(seed_value));
    return copy_out(sample_many(m, h, count, seeded));
  });
}

double risk_of(std::string name, double epsilon, std::string f, double k) {
  return guarded([&] {
    const FiniteMechanism m = mechanism(name, epsilon);
    return worst_case_risk(m, parse_divergence(f), validated_count(k, "k", 1, kMaxCategories));
  });
}

double divergence_of(std::string f, val p, val q) {
  return guarded([&] { return divergence(parse_divergence(f), numbers(p), numbers(q)); });
}

void check_mechanism(std::string name, double epsilon) {
  guarded([&] { (void)mechanism(name, epsilon); });
}

double max_categories() { return static_cast<double>(kMaxCategories); }
double max_draws_per_call() { return static_cast<double>(kMaxDrawsPerCall); }

}  // namespace

EMSCRIPTEN_BINDINGS(privsample) {
  emscripten::function("checkMechanism", &check_mechanism);
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
