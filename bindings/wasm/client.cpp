// The client module: finite samplers, divergences, guarantees — what a page that privatizes a histogram needs.
// Embind glue only: convert JS values, call the core, convert back; errors travel as in guard.hpp.
#include "client.hpp"

#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <malloc.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "guard.hpp"
#include "privsample/divergence.hpp"
#include "privsample/errors.hpp"
#include "privsample/histogram.hpp"
#include "privsample/ledger.hpp"
#include "privsample/numeric.hpp"

using emscripten::val;

// Whole blocks from the CSPRNG the wrapper captured at init, so a page script that later replaces
// crypto.getRandomValues changes nothing (Emscripten's getentropy would make one JS call per byte).
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

val take_error() {
  PendingError& slot = pending_error();
  if (slot.kind == ErrorKind::none) return val::null();
  static const char* const kNames[] = {"", "RangeError", "TypeError", "Error"};
  val out = val::object();
  out.set("kind", std::string(kNames[static_cast<int>(slot.kind)]));
  out.set("message", slot.message);
  slot = {};
  return out;
}

RandomBits& secure_bits() {
  static SecureRandom bits([](std::span<std::uint8_t> out) { fill_with_captured_crypto(out.data(), out.size()); });
  return bits;
}

std::vector<double> numbers(const val& array) { return emscripten::convertJSArrayToNumberVector<double>(array); }

val copy_out(const std::vector<double>& values) {
  return val(emscripten::typed_memory_view(values.size(), values.data())).call<val>("slice");
}

val copy_out(const std::vector<std::uint32_t>& values) {
  return val(emscripten::typed_memory_view(values.size(), values.data())).call<val>("slice");
}

val guarantee_to_val(const Guarantee& g) {
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
}

// The wrapper has checked the JS types (numbers, numeric arrays); values are checked by the core.
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
  out.c1 = number("c1");
  out.c2 = number("c2");
  return out;
}

namespace {
constexpr std::size_t kMaxDrawsPerCall = 10'000'000;
}

val Sampler::configure(std::string name, val options) {
  return guarded([&] {
    mechanism_ = make_finite_mechanism(name, read_options(options));
    return val(true);
  });
}

const FiniteMechanism& Sampler::mechanism() const {
  if (!mechanism_) throw std::logic_error("the sampler was not configured");
  return *mechanism_;
}

val Sampler::guarantee() const {
  return guarded([&] { return guarantee_to_val(privsample::guarantee(mechanism())); });
}

val Sampler::distribution(val hist) const {
  return guarded([&] { return copy_out(privsample::distribution(mechanism(), numbers(hist))); });
}

val Sampler::normaliser(val hist) const {
  return guarded([&] {
    const auto r = privsample::normaliser(mechanism(), numbers(hist));
    return r ? val(*r) : val::null();
  });
}

val Sampler::sample(val hist) const {
  return guarded([&] { return val(static_cast<double>(prepare(mechanism(), numbers(hist))(secure_bits()))); });
}

val Sampler::sample_many(val hist, double n, val seed) const {
  return guarded([&] {
    const std::vector<double> h = numbers(hist);
    const std::size_t count = validated_count(n, "n", 0, kMaxDrawsPerCall);
    return copy_out(with_bits(seed, [&](RandomBits& bits) { return privsample::sample_many(mechanism(), h, count, bits); }));
  });
}

val Sampler::worst_case_risk(std::string f, double k) const {
  return guarded([&] {
    return val(privsample::worst_case_risk(mechanism(), parse_divergence(f), validated_count(k, "k", 1, kMaxCategories)));
  });
}

double Sampler::input_buffer(double n) {
  return guarded_number([&] {
    // n is a JS array's length; an empty histogram is left for the core to reject with its own message.
    const auto length = static_cast<std::size_t>(n);
    if (length > 0) check_category_count(length, "hist");
    input_.resize(length);
    return static_cast<double>(reinterpret_cast<std::uintptr_t>(input_.data()));
  });
}

double Sampler::distribution_of_input() {
  return guarded_number([&] {
    output_ = privsample::distribution(mechanism(), input_);
    return static_cast<double>(reinterpret_cast<std::uintptr_t>(output_.data()));
  });
}

double Sampler::sample_of_input() const {
  return guarded_number([&] { return static_cast<double>(prepare(mechanism(), input_)(secure_bits())); });
}

namespace {

// The registry of mechanisms and options (registry.hpp) for the wrapper's type conversions and the public
// ps.registry.
std::string registry() { return registry_json(); }

val divergence_of(std::string f, val p, val q) {
  return guarded([&] { return val(divergence(parse_divergence(f), numbers(p), numbers(q))); });
}

// ---- the privacy-budget ledger (core/include/privsample/ledger.hpp): the JS ledger stores entries and calls these.

// A number field of a JS object; NaN for anything else (the core then names the field and rejects it).
double number_field(const val& object, const char* key) {
  const val v = object[key];
  return v.isNumber() ? v.as<double>() : __builtin_nan("");
}

std::optional<double> optional_number(const val& object, const char* key) {
  const val v = object[key];
  if (v.isUndefined()) return std::nullopt;
  return v.isNumber() ? v.as<double>() : __builtin_nan("");
}

// A stored entry's guarantee ({notion, epsilon, delta, mu, records}) as the core's Guarantee; values checked there.
Guarantee guarantee_from_val(const val& g) {
  const val notion = g["notion"];
  Guarantee out;
  out.notion = notion_from_name(notion.isString() ? notion.as<std::string>() : std::string("(not a string)"));
  out.epsilon = number_field(g, "epsilon");
  out.delta = out.notion == PrivacyNotion::approximate_ldp ? number_field(g, "delta") : 0.0;
  out.mu = number_field(g, "mu");
  out.records = number_field(g, "records");
  return out;
}

std::vector<Guarantee> guarantees_from_val(const val& list) {
  std::vector<Guarantee> out;
  const auto n = list["length"].as<std::size_t>();
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) out.push_back(guarantee_from_val(list[i]));
  return out;
}

// A budget object (the wrapper checked the types) → the validated budget, or nullopt for null/undefined.
std::optional<Guarantee> budget_from_val(const std::string& name, const val& b) {
  if (b.isNull() || b.isUndefined()) return std::nullopt;
  BudgetOptions options;
  const val notion = b["notion"];
  if (!notion.isUndefined()) options.notion = notion.as<std::string>();
  options.epsilon = optional_number(b, "epsilon");
  options.delta = optional_number(b, "delta");
  options.mu = optional_number(b, "mu");
  return budget_from_options(options, name);
}

val total_to_val(const LedgerTotal& t, bool with_releases) {
  val out = val::object();
  out.set("notion", account_name(t.account));
  if (t.account == LedgerAccount::gaussian_ldp) {
    out.set("mu", t.mu);
  } else {
    out.set("epsilon", t.epsilon);
    if (t.account == LedgerAccount::ldp) out.set("delta", t.delta);
  }
  if (with_releases) out.set("releases", static_cast<double>(t.releases));
  return out;
}

val budget_to_val(const Guarantee& b) {
  LedgerTotal t;
  t.account = account_of_budget(b);
  t.epsilon = b.epsilon;
  t.delta = b.delta;
  t.mu = b.mu;
  return total_to_val(t, false);
}

// The validated budget of `name` (e.g. "budgets.survey"), as { notion: account, epsilon[, delta] | mu }.
val ledger_budget(std::string name, val budget) {
  return guarded([&] { return budget_to_val(*budget_from_val(name, budget)); });
}

// { spent, remaining } of one purpose: its entries' guarantees composed in its account; remaining is null without
// a budget.
val ledger_total(std::string purpose, val guarantees, val budget) {
  return guarded([&] {
    const std::vector<Guarantee> releases = guarantees_from_val(guarantees);
    const std::optional<Guarantee> b = budget_from_val("budget", budget);
    const LedgerTotal spent = composed_total(purpose, releases, purpose_account(releases, b ? &*b : nullptr));
    val out = val::object();
    out.set("spent", total_to_val(spent, true));
    out.set("remaining", b ? total_to_val(remaining_budget(spent, *b), false) : val::null());
    return out;
  });
}

// true when `request` may be released for `purpose`; else the core's refusal (a RangeError in JS).
val ledger_check(std::string purpose, val guarantees, val request, val budget) {
  return guarded([&] {
    const std::optional<Guarantee> b = budget_from_val("budget", budget);
    check_release(purpose, guarantees_from_val(guarantees), guarantee_from_val(request), b ? &*b : nullptr);
    return val(true);
  });
}

std::string version() { return PRIVSAMPLE_VERSION; }
double max_categories() { return static_cast<double>(kMaxCategories); }
double max_draws_per_call() { return static_cast<double>(kMaxDrawsPerCall); }

// For the wrapper's leak tests: bytes allocated on the heap, and the current shadow-stack position.
double heap_in_use() { return static_cast<double>(mallinfo().uordblks); }
double stack_position() {
  volatile char probe = 0;
  return static_cast<double>(reinterpret_cast<std::uintptr_t>(&probe));
}

}  // namespace
}  // namespace privsample::bindings

EMSCRIPTEN_BINDINGS(privsample_client) {
  using namespace privsample::bindings;
  emscripten::class_<Sampler>("Sampler")
      .constructor<>()
      .function("configure", &Sampler::configure)
      .function("guarantee", &Sampler::guarantee)
      .function("distribution", &Sampler::distribution)
      .function("normaliser", &Sampler::normaliser)
      .function("sample", &Sampler::sample)
      .function("sampleMany", &Sampler::sample_many)
      .function("worstCaseRisk", &Sampler::worst_case_risk)
      .function("inputBuffer", &Sampler::input_buffer)
      .function("distributionOfInput", &Sampler::distribution_of_input)
      .function("sampleOfInput", &Sampler::sample_of_input);
  emscripten::function("takeError", &take_error);
  emscripten::function("registryJson", &registry);
  emscripten::function("divergence", &divergence_of);
  emscripten::function("ledgerBudget", &ledger_budget);
  emscripten::function("ledgerTotal", &ledger_total);
  emscripten::function("ledgerCheck", &ledger_check);
  emscripten::function("version", &version);
  emscripten::function("maxCategories", &max_categories);
  emscripten::function("maxDrawsPerCall", &max_draws_per_call);
  emscripten::function("heapInUse", &heap_in_use);
  emscripten::function("stackPosition", &stack_position);
}
