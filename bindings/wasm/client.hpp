#pragma once
// Shared by both WebAssembly modules (client and research): the sampler handle, the CSPRNG and the guarantee's
// fields. No Embind here: the client module is plain C functions (client.cpp), so it ships without Embind's runtime.
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "mechanisms/mechanism.hpp"
#include "base/randomness.hpp"

namespace privsample::bindings {

// A finite mechanism built once from its options; every method reuses it. JS owns it (ps_sampler_new /
// ps_delete, called by dispose() and a FinalizationRegistry).
class Sampler {
 public:
  void configure(std::string_view name, const MechanismOptions& options);
  // Throws std::logic_error when not configured.
  [[nodiscard]] const Mechanism& mechanism() const;
  // A histogram of k categories is being copied in: the mechanism keeps what it computes once for k
  // (keep_for_categories), so that the calls on it that follow skip that work.
  void expect_categories(std::size_t k);
  // One release for `input` (SingleReleases: the plan for its k kept in this sampler). Throws std::logic_error when
  // not configured.
  [[nodiscard]] std::size_t sample(RandomBits& bits);

  // Buffers the JS wrapper copies into and out of (typed-array copies instead of JS values crossing the boundary).
  std::vector<double> input;
  std::vector<double> output;
  std::vector<std::uint32_t> draws;

 private:
  std::optional<Mechanism> mechanism_;
  SingleReleases releases_;
};

// The sampler at a heap address the JS wrapper holds (from ps_sampler_new); for the research module's functions.
[[nodiscard]] const Sampler& sampler_at(double address);

// The platform CSPRNG captured by the JS wrapper at init, in 64 KiB blocks (SecureRandom).
RandomBits& secure_bits();

// run(bits) with the CSPRNG when there is no seed, else with a seeded generator (reproducible, NOT secure) from the
// validated seed: the one rule for every call that takes an optional seed (always an options object's `seed`).
template <class Run>
auto with_bits(std::optional<double> seed, Run&& run) {
  if (!seed) return run(secure_bits());
  SeededRandom seeded(validated_seed(*seed, "options.seed"));
  return run(seeded);
}

// The fields a guarantee states for its notion, in order ({"epsilon", ε}, {"delta", δ}, …): the one place that
// says which numbers each notion has, for both modules' conversions to a JS object.
struct GuaranteeFields {
  std::array<std::pair<const char*, double>, 2> items{};
  std::size_t count = 0;
  [[nodiscard]] const std::pair<const char*, double>* begin() const { return items.data(); }
  [[nodiscard]] const std::pair<const char*, double>* end() const { return items.data() + count; }
};
[[nodiscard]] GuaranteeFields guarantee_fields(const Guarantee& g);

// Sets the option named `key` (a registry option: epsilon, delta, mu, gamma, records, c1, c2, categories, prior,
// reference, outsideNeighbourhood);
// throws std::invalid_argument for any other name.
void set_option(MechanismOptions& options, std::string_view key, double value);
void set_option(MechanismOptions& options, std::string_view key, std::vector<double> values);
void set_option(MechanismOptions& options, std::string_view key, std::string value);

}  // namespace privsample::bindings
