// The ledger module (privsample-ledger.wasm, loaded by the client entry the first time a page asks for ps.ledger;
// the research module links it too): the arithmetic of the privacy-budget ledger over the plain-C boundary of
// abi.hpp. Glue only — the JS ledger (bindings/js/ledger.mjs) stores the entries, core/analysis/ledger.hpp
// composes them and compares with a budget. Guarantee: every function returns normally (guard.hpp).
#include <emscripten/emscripten.h>

#include <array>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "abi.hpp"
#include "guard.hpp"
#include "base/errors.hpp"
#include "analysis/ledger.hpp"

namespace privsample::bindings {
namespace {

// The JS ledger stores entries, these functions compose them (core/analysis/ledger.hpp).
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


}  // namespace
}  // namespace privsample::bindings

using namespace privsample;
using namespace privsample::bindings;

extern "C" {

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

}  // extern "C"
