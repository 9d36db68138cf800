#pragma once
// Shared by both WebAssembly modules (client and research): the sampler handle, conversions and the CSPRNG.
#include <emscripten/val.h>

#include <optional>
#include <string>
#include <vector>

#include "privsample/mechanism.hpp"
#include "privsample/randomness.hpp"

namespace privsample::bindings {

// A finite mechanism built once from its options; every method reuses it. JS owns it (dispose() /
// FinalizationRegistry call delete()). Methods return undefined after recording an error (guard.hpp).
class Sampler {
 public:
  emscripten::val configure(std::string name, emscripten::val options);
  emscripten::val guarantee() const;
  emscripten::val distribution(emscripten::val hist) const;
  emscripten::val normaliser(emscripten::val hist) const;
  emscripten::val sample(emscripten::val hist) const;
  emscripten::val sample_many(emscripten::val hist, double n, emscripten::val seed) const;
  emscripten::val worst_case_risk(std::string f, double k) const;

  // The fast path for one histogram, without a JS value per call: the wrapper copies the histogram into the
  // buffer input_buffer(n) returns (a heap address), then distribution_of_input() returns the address of the
  // output (n doubles, valid until the next call) and sample_of_input() the category. NaN means an error was
  // recorded (guard.hpp).
  double input_buffer(double n);
  double distribution_of_input();
  double sample_of_input() const;

  // For the research module (accountant); throws std::logic_error when not configured.
  [[nodiscard]] const FiniteMechanism& mechanism() const;

 private:
  std::optional<FiniteMechanism> mechanism_;
  std::vector<double> input_;
  std::vector<double> output_;
};

// The platform CSPRNG captured by the JS wrapper at init (Module.privsampleRandom), in 4 KiB blocks.
RandomBits& secure_bits();

// run(bits) with the CSPRNG when seed is undefined or null, else with a seeded generator (reproducible, NOT
// secure) from the validated seed: the one rule for every call that takes an optional seed.
template <class Run>
auto with_bits(const emscripten::val& seed, Run&& run) {
  if (seed.isUndefined() || seed.isNull()) return run(secure_bits());
  SeededRandom seeded(validated_seed(seed.as<double>()));
  return run(seeded);
}

std::vector<double> numbers(const emscripten::val& array);
emscripten::val copy_out(const std::vector<double>& values);
emscripten::val copy_out(const std::vector<std::uint32_t>& values);
emscripten::val guarantee_to_val(const Guarantee& g);
MechanismOptions read_options(const emscripten::val& options);

}  // namespace privsample::bindings
