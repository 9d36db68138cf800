// The client module: finite samplers, divergences, guarantees — what a page that privatizes a histogram needs.
// Plain C functions, no Embind (whose runtime was most of the module's JavaScript): numbers, heap addresses and
// UTF-8 text cross the boundary, and bindings/js/abi.mjs turns them back into the JS API. Glue only: convert,
// call the core, convert back; errors travel as in guard.hpp, and text and arrays are staged as in abi.hpp. The
// research module links this file too. The ledger's functions are in ledger.cpp (a module of their own for the
// client entry, loaded only when a page asks for a ledger).
// Guarantee: every function returns normally (a core exception becomes NaN + the module's error slot), and no
// heap view escapes to the caller (the JS wrapper copies every output).
#include "client.hpp"

#include <emscripten/emscripten.h>
#if defined(PRIVSAMPLE_EMMALLOC)
#include <emscripten/emmalloc.h>
#else
#include <malloc.h>
#endif

#include <cmath>
#include <cstdint>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "abi.hpp"
#include "guard.hpp"
#include "model/divergence.hpp"
#include "base/errors.hpp"
#include "model/histogram.hpp"
#include "base/numeric.hpp"
#include "mechanisms/oracle_encoder.hpp"
#include "mechanisms/oracles.hpp"

// Whole blocks from the CSPRNG the wrapper captured at init, so a page script that later replaces
// crypto.getRandomValues changes nothing (Emscripten's getentropy would make one JS call per byte). The client
// module imports it as env.fill_with_captured_crypto (bindings/js/abi.mjs); in the research module Emscripten's
// glue runs this body.
EM_JS(void, fill_with_captured_crypto, (std::uint8_t * data, std::size_t length), {
  Module["privsampleRandom"](HEAPU8.subarray(data, data + length));
});

namespace privsample::bindings {

namespace {
SecureRandom& secure_random() {
  static SecureRandom bits([](std::span<std::uint8_t> out) { fill_with_captured_crypto(out.data(), out.size()); });
  return bits;
}
}  // namespace

RandomBits& secure_bits() { return secure_random(); }

void Sampler::configure(std::string_view name, const MechanismOptions& options) {
  // Built before the old one goes (a failed configure keeps it), then moved in: emplace move-constructs, where an
  // assignment would add the variant's move assignment, one case per mechanism, to the module. The kept release
  // plan belonged to the old mechanism.
  mechanism_.emplace(make_finite_mechanism(name, options));
  releases_.forget();
}

std::size_t Sampler::sample(RandomBits& bits) { return releases_.sample(mechanism(), input, bits); }

const Mechanism& Sampler::mechanism() const {
  if (!mechanism_) throw std::logic_error("the sampler was not configured");
  return *mechanism_;
}

void Sampler::expect_categories(std::size_t k) {
  if (mechanism_) keep_for_categories(*mechanism_, k);
}

const Sampler& sampler_at(double address) {
  return *reinterpret_cast<const Sampler*>(static_cast<std::uintptr_t>(address));
}

GuaranteeFields guarantee_fields(const Guarantee& g) {
  switch (g.notion) {
    case PrivacyNotion::pure_ldp:
      return {{{{"epsilon", g.epsilon}}}, 1};
    case PrivacyNotion::approximate_ldp:
      return {{{{"epsilon", g.epsilon}, {"delta", g.delta}}}, 2};
    case PrivacyNotion::gaussian_ldp:
      return {{{{"mu", g.mu}}}, 1};
    case PrivacyNotion::record_dp:
      return {{{{"epsilon", g.epsilon}, {"records", g.records}}}, 2};
  }
  return {};
}

void set_option(MechanismOptions& o, std::string_view key, double value) {
  const auto field = number_field(key);
  if (!field) throw_invalid({"option '", key, "' is not a numeric option"});
  o.*field = value;
}

void set_option(MechanismOptions& o, std::string_view key, std::vector<double> values) {
  const auto field = array_field(key);
  if (!field) throw_invalid({"option '", key, "' is not an array option"});
  o.*field = std::move(values);
}

void set_option(MechanismOptions& o, std::string_view key, std::string value) {
  const auto field = text_field(key);
  if (!field) throw_invalid({"option '", key, "' is not a text option"});
  o.*field = std::move(value);
}

namespace {

constexpr std::size_t kMaxDrawsPerCall = 10'000'000;

// The options of the next ps_sampler_new or ps_oracle_new, staged one by one (ps_option).
MechanismOptions& staged_options() {
  static MechanismOptions options;
  return options;
}

Sampler& sampler_of(double address) { return *reinterpret_cast<Sampler*>(static_cast<std::uintptr_t>(address)); }

// The client's oracles draw from the CSPRNG, whose next_u64 their report loops call directly.
using ClientEncoder = BasicOracleEncoder<SecureRandom>;

ClientEncoder& oracle_of(double address) {
  return *reinterpret_cast<ClientEncoder*>(static_cast<std::uintptr_t>(address));
}

// A buffer of n doubles for a JS array's values; n = 0 is left for the core to reject with its own message.
double* resized(std::vector<double>& buffer, double n, const char* name) {
  const auto length = static_cast<std::size_t>(n);
  if (length > 0) check_category_count(length, name);
  return sized(buffer, length);
}

}  // namespace
}  // namespace privsample::bindings

using namespace privsample;
using namespace privsample::bindings;

extern "C" {

// ---- samplers ----------------------------------------------------------------------------------------------------
// A sampler of the mechanism named by the staged text, built from the staged options: its heap address. The options
// are read where they were staged (configure copies what it keeps) and cleared after the call, which returns either
// way; a sampler that could not be configured is freed here.
EMSCRIPTEN_KEEPALIVE double ps_sampler_new(double name_length) {
  const double address = guarded_number([&] {
    auto made = std::make_unique<Sampler>();
    made->configure(staged_text(name_length), staged_options());
    return address_of(made.release());  // owned by the JS handle
  });
  staged_options() = {};
  return address;
}

// Takes a JS handle's ownership back and releases it: a sampler (`what` 0) or an oracle (`what` 1). One export for
// both.
EMSCRIPTEN_KEEPALIVE void ps_delete(double what, double handle) {
  if (what == 1.0) {
    std::unique_ptr<ClientEncoder>(&oracle_of(handle));
  } else {
    std::unique_ptr<Sampler>(&sampler_of(handle));
  }
}

// The option named by the staged text (key_length bytes) for the next ps_sampler_new or ps_oracle_new, by its kind:
// 0 a number (`value`), 1 an array (array slot 0), 2 a text (the staged text is the key followed by the option's
// text, `value` bytes in all). One export for the three, so that the module carries one error guard for them.
EMSCRIPTEN_KEEPALIVE double ps_option(double key_length, double kind, double value) {
  return guarded_number([&] {
    MechanismOptions& options = staged_options();
    if (kind == 2.0) {
      const std::string_view text = staged_text(value);
      const std::size_t split = std::min(static_cast<std::size_t>(key_length), text.size());
      set_option(options, text.substr(0, split), std::string(text.substr(split)));
    } else if (kind == 1.0) {
      set_option(options, staged_text(key_length), staging().arrays[0]);
    } else {
      set_option(options, staged_text(key_length), value);
    }
    return 1.0;
  });
}

// The sampler's guarantee: at index -1, the address of "notion field field…" (space-separated, e.g. "approx-ldp
// epsilon delta"); at the index of a field, its value. One export for both, so that the module carries one error
// guard for them.
EMSCRIPTEN_KEEPALIVE double ps_guarantee(double sampler, double index) {
  return guarded_number([&] {
    const Guarantee g = guarantee(sampler_of(sampler).mechanism());
    const GuaranteeFields fields = guarantee_fields(g);
    if (index == -1.0) {
      std::string& text = staging().text;
      text = notion_name(g.notion);
      for (const auto& [name, value] : fields) (text += ' ') += name;
      return address_of(text.c_str());
    }
    // checked before the conversion: a negative or NaN index would make it undefined
    if (!(index >= 0.0 && index < static_cast<double>(fields.count))) {
      throw std::out_of_range("guarantee field index out of range");
    }
    return fields.items[static_cast<std::size_t>(index)].second;
  });
}

// The address of the sampler's input buffer of n doubles (n: a JS array's length), and the mechanism ready for n
// categories (Sampler::expect_categories).
EMSCRIPTEN_KEEPALIVE double ps_input(double sampler, double n) {
  return guarded_number([&] {
    Sampler& s = sampler_of(sampler);
    const double at = address_of(resized(s.input, n, "hist"));
    s.expect_categories(s.input.size());
    return at;
  });
}

// Q(·|input) into the sampler's output buffer, kept between calls (no allocation once it holds n doubles): its
// address, valid until the next call on this sampler.
EMSCRIPTEN_KEEPALIVE double ps_distribution(double sampler) {
  return guarded_number([&] {
    Sampler& s = sampler_of(sampler);
    double* out = sized(s.output, s.input.size());
    distribution_into(s.mechanism(), s.input, s.output);
    return address_of(out);
  });
}

// r_P of a clip sampler for the input; NaN with no error pending for a mechanism without one.
EMSCRIPTEN_KEEPALIVE double ps_normaliser(double sampler) {
  return guarded_number([&] {
    const Sampler& s = sampler_of(sampler);
    return normaliser(s.mechanism(), s.input).value_or(__builtin_nan(""));
  });
}

// One category released for the input, drawn with the CSPRNG: its index plus one. A double returned to JS is checked
// for −0 when it is 0, a branch taken for index 0 alone whose prediction learns how often index 0 comes, so that the
// time of a release said whether its index was the one the data made likely; no index plus one is 0.
EMSCRIPTEN_KEEPALIVE double ps_sample(double sampler) {
  return guarded_number([&] {
    return static_cast<double>(sampler_of(sampler).sample(secure_bits())) + 1.0;
  });
}

// n draws for the input (seeded != 0: a reproducible, NOT secure, generator from `seed`): the address of n uint32.
EMSCRIPTEN_KEEPALIVE double ps_sample_many(double sampler, double n, double seeded, double seed) {
  return guarded_number([&] {
    Sampler& s = sampler_of(sampler);
    const std::size_t count = validated_count(n, "n", 0, kMaxDrawsPerCall);
    std::uint32_t* out = sized(s.draws, count);  // kept between calls: no allocation for the same n
    with_bits(seeded != 0 ? std::optional<double>(seed) : std::nullopt,
              [&](RandomBits& bits) { sample_many_into(s.mechanism(), s.input, s.draws, bits); });
    return address_of(out);
  });
}

// ---- frequency oracles -------------------------------------------------------------------------------------------
// An oracle is a core encoder (its buffers hold the last reports) drawing from the CSPRNG.
// The oracle named by the staged text from the staged options (cleared either way): its heap address.
EMSCRIPTEN_KEEPALIVE double ps_oracle_new(double name_length) {
  const double address = guarded_number([&] {  // the staged options cleared after it, as in ps_sampler_new
    auto made = std::make_unique<ClientEncoder>(make_oracle(staged_text(name_length), staged_options()),
                                                secure_random());
    return address_of(made.release());  // owned by the JS handle
  });
  staged_options() = {};
  return address;
}

// (No export for the oracle's ε and k: every oracle states pure ε-LDP at options.epsilon over options.categories
// items, as ps_oracle_new accepted them, and the glue has both.)
// The oracle's parameters a server needs to count its reports (oracles.hpp): for the one at `index`, its value when
// `value` is 1, else the address of its NUL-terminated name, 0 past the last (the glue reads them in order until
// then). One export for both, so that the module carries one copy of the dispatch. (Nothing here allocates or throws.)
EMSCRIPTEN_KEEPALIVE double ps_oracle_parameter(double oracle, double index, double value) {
  const OracleParameter p = oracle_parameter(oracle_of(oracle).oracle(), static_cast<std::size_t>(index));
  if (value == 1.0) return p.value;
  return p.name.empty() ? 0.0 : address_of(p.name.data());
}

// One report of `item`: an integer report itself, or the address of a bitset report's NUL-terminated hex text
// (valid until the next call on this oracle).
EMSCRIPTEN_KEEPALIVE double ps_oracle_encode(double oracle, double item) {
  return guarded_number([&] {
    ClientEncoder& e = oracle_of(oracle);
    const double report = e.encode(item);
    return e.text_width() == 0 ? report : address_of(e.text());
  });
}

// One report per item of array slot 0 (every item checked before any is drawn; a bad one is named by its index): the
// address of the integer reports as doubles (written over the items), or of the bitset reports' hex texts one after
// another (2·report_bytes characters each, NUL-terminated); valid until the next call into the module.
EMSCRIPTEN_KEEPALIVE double ps_oracle_encode_many(double oracle) {
  return guarded_number([&] {
    ClientEncoder& e = oracle_of(oracle);
    std::vector<double>& items = staging().arrays[0];
    if (items.size() > kMaxDrawsPerCall) {
      throw_invalid({"items has ", items.size(), " entries: at most ", kMaxDrawsPerCall, " per call"});
    }
    e.encode_many(items, items);  // integer reports over the items, in place
    return e.text_width() == 0 ? address_of(items.data()) : address_of(e.text());
  });
}

// ---- the rest of the API -----------------------------------------------------------------------------------------
// The divergence named by the staged text (f_length bytes): with sampler 0, between the staged arrays p (slot 0) and
// q (slot 1); else the sampler's closed-form worst-case risk at k categories. One export for both, so that the
// module carries one error guard and one name lookup for them.
EMSCRIPTEN_KEEPALIVE double ps_divergence(double sampler, double f_length, double k) {
  return guarded_number([&] {
    const NamedDivergence f = parse_divergence(staged_text(f_length));
    if (sampler == 0.0) return divergence(f, staging().arrays[0], staging().arrays[1]);
    return worst_case_risk(sampler_of(sampler).mechanism(), f, validated_count(k, "k", 1, kMaxCategories));
  });
}

// The registry of mechanisms and options (registry.hpp) as JSON, for the wrapper's type conversions and the
// public ps.registry; NUL-terminated UTF-8.
EMSCRIPTEN_KEEPALIVE const char* ps_registry_json() {
  return registry_json().data();
}

EMSCRIPTEN_KEEPALIVE const char* ps_version() { return PRIVSAMPLE_VERSION; }
EMSCRIPTEN_KEEPALIVE double ps_max_categories() { return static_cast<double>(kMaxCategories); }

// For the wrapper's leak tests: bytes allocated on the heap, and the current shadow-stack position. (With emmalloc,
// the client module's allocator, its heap less its free memory: mallinfo() computes much more, in more bytes.)
EMSCRIPTEN_KEEPALIVE double ps_heap_in_use() {
#if defined(PRIVSAMPLE_EMMALLOC)
  return static_cast<double>(emmalloc_dynamic_heap_size() - emmalloc_free_dynamic_memory());
#else
  return static_cast<double>(mallinfo().uordblks);
#endif
}
EMSCRIPTEN_KEEPALIVE double ps_stack_position() {
  volatile char probe = 0;
  return static_cast<double>(reinterpret_cast<std::uintptr_t>(&probe));
}

}  // extern "C"
