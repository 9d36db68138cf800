// The client module: finite samplers, divergences, guarantees — what a page that privatizes a histogram needs.
// Plain C functions, no Embind (whose runtime was most of the module's JavaScript): numbers, heap addresses and
// UTF-8 text cross the boundary, and bindings/js/abi.mjs turns them back into the JS API. Glue only: convert,
// call the core, convert back; errors travel as in guard.hpp. The research module links this file too.
// Guarantee: every function returns normally (a core exception becomes NaN + the module's error slot), and no
// heap view escapes to the caller (the JS wrapper copies every output).
#include "client.hpp"

#include <emscripten/emscripten.h>
#include <malloc.h>

#include <array>
#include <cstdint>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "guard.hpp"
#include "privsample/divergence.hpp"
#include "privsample/errors.hpp"
#include "privsample/histogram.hpp"
#include "privsample/ledger.hpp"
#include "privsample/numeric.hpp"

// Whole blocks from the CSPRNG the wrapper captured at init, so a page script that later replaces
// crypto.getRandomValues changes nothing (Emscripten's getentropy would make one JS call per byte). The client
// module imports it as env.fill_with_captured_crypto (bindings/js/abi.mjs); in the research module Emscripten's
// glue runs this body.
EM_JS(void, fill_with_captured_crypto, (std::uint8_t * data, std::size_t length), {
  Module["privsampleRandom"](HEAPU8.subarray(data, data + length));
});

namespace privsample::bindings {

PendingError& pending_error() {
  static PendingError slot;
  return slot;
}

void record_current_exception() noexcept {
  PendingError& slot = pending_error();
  try {
    throw;
  } catch (const ShapeError& e) {
    slot = {ErrorKind::type, e.what()};
  } catch (const std::invalid_argument& e) {
    slot = {ErrorKind::range, e.what()};
  } catch (const std::domain_error& e) {
    slot = {ErrorKind::range, e.what()};
  } catch (const std::bad_alloc&) {
    slot = {ErrorKind::range, "out of memory: the input is too large for this WebAssembly module"};
  } catch (const std::exception& e) {
    slot = {ErrorKind::other, e.what()};
  } catch (...) {
    slot = {ErrorKind::other, "unknown error in the privsample core"};
  }
}

RandomBits& secure_bits() {
  static SecureRandom bits([](std::span<std::uint8_t> out) { fill_with_captured_crypto(out.data(), out.size()); });
  return bits;
}

void Sampler::configure(std::string_view name, const MechanismOptions& options) {
  mechanism_ = make_finite_mechanism(name, options);
}

const FiniteMechanism& Sampler::mechanism() const {
  if (!mechanism_) throw std::logic_error("the sampler was not configured");
  return *mechanism_;
}

const Sampler& sampler_at(double address) {
  return *reinterpret_cast<const Sampler*>(static_cast<std::uintptr_t>(address));
}

std::vector<std::pair<const char*, double>> guarantee_fields(const Guarantee& g) {
  switch (g.notion) {
    case PrivacyNotion::pure_ldp:
      return {{"epsilon", g.epsilon}};
    case PrivacyNotion::approximate_ldp:
      return {{"epsilon", g.epsilon}, {"delta", g.delta}};
    case PrivacyNotion::gaussian_ldp:
      return {{"mu", g.mu}};
    case PrivacyNotion::record_dp:
      return {{"epsilon", g.epsilon}, {"records", g.records}};
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

namespace {

constexpr std::size_t kMaxDrawsPerCall = 10'000'000;

// What the wrapper stages between calls: UTF-8 text (a mechanism, option or divergence name), two arrays (an
// option's values; divergence's p and q) and the options of the next ps_configure.
struct Staging {
  std::string text;
  std::array<std::vector<double>, 2> arrays;
  MechanismOptions options;
};

Staging& staging() {
  static Staging s;
  return s;
}

std::string_view staged_text(double length) {
  return std::string_view(staging().text).substr(0, static_cast<std::size_t>(length));
}

// ---- the privacy-budget ledger (core/include/privsample/ledger.hpp): the JS ledger stores entries, these compose.
// Staged input: the text holds lines — [0] the purpose (or the budget's name), [1] the budget: "0" none, "1" no
// notion given, "2<notion>" with one, [2…] the notion name of each release (then of the request, for a check);
// array slot 0 holds the budget's (given?, value) pairs for epsilon, delta, mu; slot 1 four numbers per release:
// epsilon, delta, mu, records (NaN where a release has no such field).
struct LedgerInput {
  std::string_view name;
  std::optional<Guarantee> budget;
  std::vector<Guarantee> releases;
};

LedgerInput staged_ledger_input(double text_length) {
  std::string_view text = staged_text(text_length);
  std::vector<std::string_view> lines;
  for (std::size_t start = 0;;) {
    const std::size_t end = text.find('\n', start);
    lines.push_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  const std::vector<double>& numbers = staging().arrays[1];
  if (lines.size() < 2 || lines.size() - 2 != numbers.size() / 4 || numbers.size() % 4 != 0) {
    throw std::invalid_argument("ledger: a purpose, budget or notion name contains a line break, which no name may");
  }
  LedgerInput in{lines[0], std::nullopt, {}};
  if (lines[1] != "0") {
    const std::vector<double>& b = staging().arrays[0];
    const auto given = [&](std::size_t i) { return b.at(2 * i) != 0 ? std::optional<double>(b.at(2 * i + 1)) : std::nullopt; };
    BudgetOptions options;
    if (lines[1].starts_with('2')) options.notion = std::string(lines[1].substr(1));
    options.epsilon = given(0);
    options.delta = given(1);
    options.mu = given(2);
    in.budget = budget_from_options(options, in.name);
  }
  for (std::size_t i = 2; i < lines.size(); ++i) {
    const double* n = numbers.data() + 4 * (i - 2);
    Guarantee g;
    g.notion = notion_from_name(lines[i]);
    g.epsilon = n[0];
    g.delta = g.notion == PrivacyNotion::approximate_ldp ? n[1] : 0.0;
    g.mu = n[2];
    g.records = n[3];
    in.releases.push_back(g);
  }
  return in;
}

// The ledger's answer, read by the wrapper: [account, epsilon, delta, mu, releases] of the total, then
// [has remaining, account, epsilon, delta, mu] of what remains of the budget.
std::array<double, 10>& ledger_result() {
  static std::array<double, 10> out{};
  return out;
}

void put_total(std::size_t at, const LedgerTotal& t) {
  std::array<double, 10>& out = ledger_result();
  out[at] = static_cast<double>(t.account);
  out[at + 1] = t.epsilon;
  out[at + 2] = t.delta;
  out[at + 3] = t.mu;
}

Sampler& sampler_of(double address) { return *reinterpret_cast<Sampler*>(static_cast<std::uintptr_t>(address)); }

template <class T>
double address_of(const T* pointer) {
  return static_cast<double>(reinterpret_cast<std::uintptr_t>(pointer));
}

// A buffer of n doubles for a JS array's values; n = 0 is left for the core to reject with its own message.
double* resized(std::vector<double>& buffer, double n, const char* name) {
  const auto length = static_cast<std::size_t>(n);
  if (length > 0) check_category_count(length, name);
  buffer.resize(length);
  return buffer.data();
}

}  // namespace
}  // namespace privsample::bindings

using namespace privsample;
using namespace privsample::bindings;

extern "C" {

// ---- staging and errors ------------------------------------------------------------------------------------------
// The address of a text buffer of `length` bytes the wrapper writes a name into.
EMSCRIPTEN_KEEPALIVE double ps_text(double length) {
  return guarded_number([&] {
    staging().text.resize(static_cast<std::size_t>(length));
    return address_of(staging().text.data());
  });
}

// The address of array slot 0 or 1, resized to `length` doubles (their values are checked by the core).
EMSCRIPTEN_KEEPALIVE double ps_array(double slot, double length) {
  return guarded_number([&] {
    std::vector<double>& array = staging().arrays.at(static_cast<std::size_t>(slot));
    array.resize(static_cast<std::size_t>(length));
    return address_of(array.data());
  });
}

// 0 when nothing is pending, else 1 RangeError, 2 TypeError, 3 Error; the message is UTF-8, NUL-terminated.
EMSCRIPTEN_KEEPALIVE double ps_error_kind() { return static_cast<double>(pending_error().kind); }
EMSCRIPTEN_KEEPALIVE const char* ps_error_message() { return pending_error().message.c_str(); }
EMSCRIPTEN_KEEPALIVE void ps_error_clear() { pending_error() = {}; }

// ---- samplers ----------------------------------------------------------------------------------------------------
EMSCRIPTEN_KEEPALIVE double ps_sampler_new() {
  return guarded_number([] { return address_of(std::make_unique<Sampler>().release()); });  // owned by the JS handle
}

EMSCRIPTEN_KEEPALIVE void ps_sampler_delete(double sampler) {
  std::unique_ptr<Sampler>(&sampler_of(sampler));  // takes the JS handle's ownership back and releases it
}

// The option named by the staged text (keyLength bytes) for the next ps_configure: a number, or array slot 0.
EMSCRIPTEN_KEEPALIVE double ps_option_number(double key_length, double value) {
  return guarded_number([&] {
    set_option(staging().options, staged_text(key_length), value);
    return 1.0;
  });
}

EMSCRIPTEN_KEEPALIVE double ps_option_array(double key_length) {
  return guarded_number([&] {
    set_option(staging().options, staged_text(key_length), staging().arrays[0]);
    return 1.0;
  });
}

// Builds the mechanism named by the staged text from the staged options (which are cleared either way).
EMSCRIPTEN_KEEPALIVE double ps_configure(double sampler, double name_length) {
  MechanismOptions options = std::move(staging().options);
  staging().options = {};
  return guarded_number([&] {
    sampler_of(sampler).configure(staged_text(name_length), options);
    return 1.0;
  });
}

// "notion field field…" (space-separated, e.g. "approx-ldp epsilon delta"); the values by ps_guarantee_value.
EMSCRIPTEN_KEEPALIVE double ps_guarantee(double sampler) {
  return guarded_number([&] {
    const Guarantee g = guarantee(sampler_of(sampler).mechanism());
    std::string& text = staging().text;
    text = notion_name(g.notion);
    for (const auto& [name, value] : guarantee_fields(g)) text.append(" ").append(name);
    return address_of(text.c_str());
  });
}

EMSCRIPTEN_KEEPALIVE double ps_guarantee_value(double sampler, double index) {
  return guarded_number([&] {
    return guarantee_fields(guarantee(sampler_of(sampler).mechanism())).at(static_cast<std::size_t>(index)).second;
  });
}

// The address of the sampler's input buffer of n doubles (n: a JS array's length).
EMSCRIPTEN_KEEPALIVE double ps_input(double sampler, double n) {
  return guarded_number([&] { return address_of(resized(sampler_of(sampler).input, n, "hist")); });
}

// Q(·|input): the address of n doubles, valid until the next call on this sampler.
EMSCRIPTEN_KEEPALIVE double ps_distribution(double sampler) {
  return guarded_number([&] {
    Sampler& s = sampler_of(sampler);
    s.output = distribution(s.mechanism(), s.input);
    return address_of(s.output.data());
  });
}

// r_P of a clip sampler for the input; NaN with no error pending for a mechanism without one.
EMSCRIPTEN_KEEPALIVE double ps_normaliser(double sampler) {
  return guarded_number([&] {
    const Sampler& s = sampler_of(sampler);
    return normaliser(s.mechanism(), s.input).value_or(__builtin_nan(""));
  });
}

// One category released for the input, drawn with the CSPRNG.
EMSCRIPTEN_KEEPALIVE double ps_sample(double sampler) {
  return guarded_number([&] {
    const Sampler& s = sampler_of(sampler);
    return static_cast<double>(prepare(s.mechanism(), s.input)(secure_bits()));
  });
}

// n draws for the input (seeded != 0: a reproducible, NOT secure, generator from `seed`): the address of n uint32.
EMSCRIPTEN_KEEPALIVE double ps_sample_many(double sampler, double n, double seeded, double seed) {
  return guarded_number([&] {
    Sampler& s = sampler_of(sampler);
    const std::size_t count = validated_count(n, "n", 0, kMaxDrawsPerCall);
    s.draws = with_bits(seeded != 0 ? std::optional<double>(seed) : std::nullopt,
                        [&](RandomBits& bits) { return sample_many(s.mechanism(), s.input, count, bits); });
    return address_of(s.draws.data());
  });
}

// The closed-form worst-case risk for the divergence named by the staged text and k categories.
EMSCRIPTEN_KEEPALIVE double ps_worst_case_risk(double sampler, double f_length, double k) {
  return guarded_number([&] {
    return worst_case_risk(sampler_of(sampler).mechanism(), parse_divergence(staged_text(f_length)),
                           validated_count(k, "k", 1, kMaxCategories));
  });
}

// ---- the rest of the API -----------------------------------------------------------------------------------------
// D_f(p‖q) for the divergence named by the staged text, p in array slot 0 and q in slot 1.
EMSCRIPTEN_KEEPALIVE double ps_divergence(double f_length) {
  return guarded_number([&] {
    return divergence(parse_divergence(staged_text(f_length)), staging().arrays[0], staging().arrays[1]);
  });
}

// The registry of mechanisms and options (registry.hpp) as JSON, for the wrapper's type conversions and the
// public ps.registry; NUL-terminated UTF-8.
EMSCRIPTEN_KEEPALIVE const char* ps_registry_json() {
  static const std::string json = registry_json();
  return json.c_str();
}

// The ledger: the validated budget (the total's slots), a purpose's total and remaining budget, or whether the last
// staged release may be added to the others (1; else the core's refusal is the pending RangeError).
EMSCRIPTEN_KEEPALIVE double ps_ledger_budget(double text_length) {
  return guarded_number([&] {
    const LedgerInput in = staged_ledger_input(text_length);
    if (!in.budget) throw_invalid({in.name, ": a budget is required"});
    LedgerTotal t;
    t.account = account_of_budget(*in.budget);
    t.epsilon = in.budget->epsilon;
    t.delta = in.budget->delta;
    t.mu = in.budget->mu;
    put_total(0, t);
    return address_of(ledger_result().data());
  });
}

EMSCRIPTEN_KEEPALIVE double ps_ledger_total(double text_length) {
  return guarded_number([&] {
    const LedgerInput in = staged_ledger_input(text_length);
    const Guarantee* budget = in.budget ? &*in.budget : nullptr;
    const LedgerTotal spent = composed_total(in.name, in.releases, purpose_account(in.releases, budget));
    put_total(0, spent);
    ledger_result()[4] = static_cast<double>(spent.releases);
    ledger_result()[5] = budget ? 1.0 : 0.0;
    if (budget) put_total(6, remaining_budget(spent, *budget));
    return address_of(ledger_result().data());
  });
}

EMSCRIPTEN_KEEPALIVE double ps_ledger_check(double text_length) {
  return guarded_number([&] {
    LedgerInput in = staged_ledger_input(text_length);
    if (in.releases.empty()) throw std::invalid_argument("ledger: no release to check");
    const Guarantee request = in.releases.back();
    in.releases.pop_back();
    check_release(in.name, in.releases, request, in.budget ? &*in.budget : nullptr);
    return 1.0;
  });
}

// "account field…" of ledger account `account` (LedgerAccount's order), e.g. "ldp epsilon delta": the fields a
// total or budget in that account has (their values are in the result's epsilon, delta, mu slots).
EMSCRIPTEN_KEEPALIVE const char* ps_ledger_account(double account) {
  static std::string text;
  const auto a = static_cast<LedgerAccount>(static_cast<int>(account));
  text = account_name(a);
  text += a == LedgerAccount::gaussian_ldp ? " mu" : a == LedgerAccount::ldp ? " epsilon delta" : " epsilon";
  return text.c_str();
}

EMSCRIPTEN_KEEPALIVE const char* ps_version() { return PRIVSAMPLE_VERSION; }
EMSCRIPTEN_KEEPALIVE double ps_max_categories() { return static_cast<double>(kMaxCategories); }
EMSCRIPTEN_KEEPALIVE double ps_max_draws_per_call() { return static_cast<double>(kMaxDrawsPerCall); }

// For the wrapper's leak tests: bytes allocated on the heap, and the current shadow-stack position.
EMSCRIPTEN_KEEPALIVE double ps_heap_in_use() { return static_cast<double>(mallinfo().uordblks); }
EMSCRIPTEN_KEEPALIVE double ps_stack_position() {
  volatile char probe = 0;
  return static_cast<double>(reinterpret_cast<std::uintptr_t>(&probe));
}

}  // extern "C"
