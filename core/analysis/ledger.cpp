// The privacy-budget ledger's arithmetic: basic composition per purpose and the budget check
// (docs/analysis/ledger.md#composition-rules; rounding: docs/analysis/ledger.md#rounding).
#include "analysis/ledger.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/errors.hpp"
#include "base/numeric.hpp"

namespace privsample {
namespace {

constexpr double kMaxRecords = 1e9;

std::string quoted(std::string_view text) { return message({"'", text, "'"}); }

// "<name>.<key> = <value>: <rule>" as std::invalid_argument.
[[noreturn]] void bad_field(std::string_view name, std::string_view key, double value, std::string_view rule) {
  throw_invalid({name, ".", key, " = ", value, ": ", rule});
}

// Σ terms − limit > 0, decided in compensated arithmetic (exact up to O(ulp²) for the handful of terms here).
bool exceeds(const std::vector<double>& terms, double limit) {
  CompensatedSum sum;
  for (double t : terms) sum.add(t);
  sum.add(-limit);
  return sum.value() > 0.0;
}

// μ² as an unevaluated sum hi + lo with hi = fl(μ²) and lo = μ² − hi exactly: Dekker's product with Veltkamp's
// split (exact for |μ| < 2^996; μ <= 100 here). Not std::fma: WebAssembly has no fma instruction and the library
// fallback would add kilobytes of soft-float code to the client module.
void add_square(std::vector<double>& terms, double mu) {
  constexpr double kSplitter = 134217729.0;  // 2^27 + 1
  const double hi = mu * mu;
  const double t = kSplitter * mu;
  const double big = t - (t - mu);
  const double small = mu - big;
  terms.push_back(hi);
  terms.push_back(((big * big - hi) + 2.0 * big * small) + small * small);
}

double total_of(const std::vector<double>& terms) {
  CompensatedSum sum;
  for (double t : terms) sum.add(t);
  return sum.value();
}

std::string describe(const Guarantee& g) {
  switch (g.notion) {
    case PrivacyNotion::pure_ldp:
      return message({"pure-ldp, epsilon = ", g.epsilon});
    case PrivacyNotion::approximate_ldp:
      return message({"approx-ldp, epsilon = ", g.epsilon, ", delta = ", g.delta});
    case PrivacyNotion::gaussian_ldp:
      return message({"gaussian-ldp, mu = ", g.mu});
    case PrivacyNotion::record_dp:
      return message({"record-dp, epsilon = ", g.epsilon, ", records = ", g.records});
  }
  return "?";
}

// Each account's name and what it counts, in the order of LedgerAccount.
struct AccountWords {
  LedgerAccount account;
  const char* name;
  const char* counts;
};
constexpr AccountWords kAccounts[] = {
    {LedgerAccount::ldp, "ldp", "(epsilon, delta)-LDP releases (pure-ldp, approx-ldp)"},
    {LedgerAccount::gaussian_ldp, "gaussian-ldp", "mu-Gaussian LDP releases (gaussian-ldp)"},
    {LedgerAccount::record_dp, "record-dp",
     "record-level epsilon-DP releases (record-dp, and pure-ldp at its epsilon)"},
};

const AccountWords& words_of(LedgerAccount account) {
  for (const AccountWords& words : kAccounts) {
    if (words.account == account) return words;
  }
  return kAccounts[0];
}

std::string what_account_counts(LedgerAccount account) { return words_of(account).counts; }

std::vector<double> field(std::span<const Guarantee> releases, double Guarantee::*member) {
  std::vector<double> out;
  out.reserve(releases.size() + 2);
  for (const Guarantee& g : releases) out.push_back(g.*member);
  return out;
}

std::vector<double> squares(std::span<const Guarantee> releases) {
  std::vector<double> out;
  out.reserve(2 * releases.size() + 4);
  for (const Guarantee& g : releases) add_square(out, g.mu);
  return out;
}

std::string releases_word(std::size_t n) { return message({static_cast<double>(n), n == 1 ? " release" : " releases"}); }

}  // namespace

std::string account_name(LedgerAccount account) { return words_of(account).name; }

PrivacyNotion notion_from_name(std::string_view name) {
  if (name == "pure-ldp") return PrivacyNotion::pure_ldp;
  if (name == "approx-ldp") return PrivacyNotion::approximate_ldp;
  if (name == "gaussian-ldp") return PrivacyNotion::gaussian_ldp;
  if (name == "record-dp") return PrivacyNotion::record_dp;
  throw_invalid({"notion = ", quoted(name), ": must be one of 'pure-ldp', 'approx-ldp', 'gaussian-ldp', 'record-dp'"});
}

Guarantee validated_release(const Guarantee& release, std::string_view name) {
  const auto fail = [name](std::string_view key, double value, std::string_view rule) { bad_field(name, key, value, rule); };
  Guarantee out;
  out.notion = release.notion;
  switch (release.notion) {
    case PrivacyNotion::pure_ldp:
    case PrivacyNotion::approximate_ldp:
    case PrivacyNotion::record_dp:
      if (!(release.epsilon >= 0.0 && release.epsilon <= kMaxEpsilon)) fail("epsilon", release.epsilon, "must be a finite number in [0, 1000]");
      out.epsilon = release.epsilon;
      break;
    case PrivacyNotion::gaussian_ldp:
      if (!(release.mu > 0.0 && release.mu <= kMaxMu)) fail("mu", release.mu, "must be a finite number in (0, 100]");
      out.mu = release.mu;
      break;
  }
  if (release.notion == PrivacyNotion::approximate_ldp) {
    if (!(release.delta >= 0.0 && release.delta < 1.0)) fail("delta", release.delta, "must be in [0, 1)");
    out.delta = release.delta;
  }
  if (release.notion == PrivacyNotion::record_dp) {
    if (!(release.records >= 1.0 && release.records <= kMaxRecords && release.records == std::floor(release.records))) {
      fail("records", release.records, "must be an integer in [1, 1e9]");
    }
    out.records = release.records;
  }
  return out;
}

Guarantee validated_budget(const Guarantee& budget, std::string_view name) {
  const auto fail = [name](std::string_view key, double value, std::string_view rule) { bad_field(name, key, value, rule); };
  Guarantee out;
  out.notion = budget.notion;
  if (budget.notion == PrivacyNotion::gaussian_ldp) {
    if (!(budget.mu >= 0.0 && std::isfinite(budget.mu))) fail("mu", budget.mu, "must be a finite number >= 0");
    out.mu = budget.mu;
    return out;
  }
  if (!(budget.epsilon >= 0.0 && std::isfinite(budget.epsilon))) fail("epsilon", budget.epsilon, "must be a finite number >= 0");
  out.epsilon = budget.epsilon;
  if (budget.notion == PrivacyNotion::approximate_ldp) {
    if (!(budget.delta >= 0.0 && budget.delta < 1.0)) fail("delta", budget.delta, "must be in [0, 1)");
    out.delta = budget.delta;
    if (out.delta == 0.0) out.notion = PrivacyNotion::pure_ldp;
  }
  return out;
}

Guarantee budget_from_options(const BudgetOptions& options, std::string_view name) {
  const std::string notion = options.notion.value_or(options.mu ? "gaussian-ldp" : "ldp");
  const auto fail = [name](std::string_view rule) { throw_invalid({name, rule}); };
  if (notion != "ldp" && notion != "gaussian-ldp" && notion != "record-dp") {
    fail(message({".notion = ", quoted(notion), ": must be 'ldp', 'gaussian-ldp' or 'record-dp'"}));
  }
  Guarantee budget;
  if (notion == "gaussian-ldp") {
    if (options.epsilon || options.delta || !options.mu) {
      fail(": a mu-Gaussian LDP budget is { mu } alone (no epsilon or delta)");
    }
    budget.notion = PrivacyNotion::gaussian_ldp;
    budget.mu = *options.mu;
  } else {
    if (options.mu || !options.epsilon) {
      fail(": a budget is { epsilon } or { epsilon, delta } (LDP), { mu } (Gaussian LDP) or { notion: 'record-dp', epsilon }");
    }
    if (notion == "record-dp" && options.delta) {
      fail(": a record-dp budget is pure epsilon-DP: no delta");
    }
    budget.notion = notion == "record-dp" ? PrivacyNotion::record_dp
                    : options.delta       ? PrivacyNotion::approximate_ldp
                                          : PrivacyNotion::pure_ldp;
    budget.epsilon = *options.epsilon;
    budget.delta = options.delta.value_or(0.0);
  }
  return validated_budget(budget, name);
}

LedgerAccount account_of_budget(const Guarantee& budget) noexcept {
  switch (budget.notion) {
    case PrivacyNotion::gaussian_ldp:
      return LedgerAccount::gaussian_ldp;
    case PrivacyNotion::record_dp:
      return LedgerAccount::record_dp;
    default:
      return LedgerAccount::ldp;
  }
}

LedgerAccount natural_account(const Guarantee& release) noexcept { return account_of_budget(release); }

bool counts_in(const Guarantee& release, LedgerAccount account) noexcept {
  switch (account) {
    case LedgerAccount::ldp:
      return release.notion == PrivacyNotion::pure_ldp || release.notion == PrivacyNotion::approximate_ldp;
    case LedgerAccount::gaussian_ldp:
      return release.notion == PrivacyNotion::gaussian_ldp;
    case LedgerAccount::record_dp:
      return release.notion == PrivacyNotion::record_dp || release.notion == PrivacyNotion::pure_ldp;
  }
  return false;
}

LedgerAccount purpose_account(std::span<const Guarantee> releases, const Guarantee* budget) noexcept {
  if (budget != nullptr) return account_of_budget(*budget);
  if (!releases.empty()) return natural_account(releases.front());
  return LedgerAccount::ldp;
}

namespace {

// The releases validated, each checked to count in the account.
std::vector<Guarantee> counted_releases(std::string_view purpose, std::span<const Guarantee> releases, LedgerAccount account) {
  std::vector<Guarantee> checked;
  checked.reserve(releases.size());
  for (std::size_t i = 0; i < releases.size(); ++i) {
    const std::string index = format_value(static_cast<double>(i));
    checked.push_back(validated_release(releases[i], message({"entries[", index, "].guarantee"})));
    if (!counts_in(checked.back(), account)) {
      throw_domain({"purpose ", quoted(purpose), " counts ", what_account_counts(account), "; its release ", index,
                                    " (", describe(checked.back()), ") cannot be composed with them: keep each notion under its own purpose"});
    }
  }
  return checked;
}

}  // namespace

LedgerTotal composed_total(std::string_view purpose, std::span<const Guarantee> releases, LedgerAccount account) {
  const std::vector<Guarantee> checked = counted_releases(purpose, releases, account);
  LedgerTotal total;
  total.account = account;
  total.releases = checked.size();
  if (account == LedgerAccount::gaussian_ldp) {
    total.mu = std::sqrt(std::max(0.0, total_of(squares(checked))));
  } else {
    total.epsilon = total_of(field(checked, &Guarantee::epsilon));
    total.delta = std::min(1.0, total_of(field(checked, &Guarantee::delta)));
  }
  return total;
}

LedgerTotal remaining_budget(const LedgerTotal& spent, const Guarantee& budget) {
  LedgerTotal left;
  left.account = spent.account;
  left.releases = spent.releases;
  if (spent.account == LedgerAccount::gaussian_ldp) {
    // sqrt(μ_b² − Σμ²): the largest μ one more release may have (sqrt(Σμ² + μ²) <= μ_b).
    left.mu = std::sqrt(std::max(0.0, (budget.mu - spent.mu) * (budget.mu + spent.mu)));
  } else {
    left.epsilon = std::max(0.0, budget.epsilon - spent.epsilon);
    left.delta = std::max(0.0, budget.delta - spent.delta);
  }
  return left;
}

void check_release(std::string_view purpose, std::span<const Guarantee> spent, const Guarantee& request,
                   const Guarantee* budget) {
  const Guarantee wanted = validated_release(request, "guarantee");
  // Without a budget the first release opens the account: this one, when nothing was released yet.
  const LedgerAccount account = budget == nullptr && spent.empty() ? natural_account(wanted) : purpose_account(spent, budget);
  const std::vector<Guarantee> counted = counted_releases(purpose, spent, account);
  const LedgerTotal before = composed_total(purpose, counted, account);
  if (!counts_in(wanted, account)) {
    throw_domain({"purpose ", quoted(purpose), " counts ", what_account_counts(account),
                                  budget != nullptr ? " (its budget's notion)" : " (the notion of its first release)", "; this release (",
                                  describe(wanted), ") cannot be composed with them: refused (keep each notion under its own purpose)"});
  }
  if (budget == nullptr) return;
  const std::string head = message({"purpose ", quoted(purpose), ": releasing this sample (", describe(wanted), ") would exceed its budget: spent "});
  const std::string count = message({" (", releases_word(before.releases), ")"});
  const auto refuse = [&](std::string_view symbol, double spent_value, double requested, double together, double limit) {
    throw_domain({head, symbol, " = ", spent_value, count, ", requested ", symbol, " = ",
                                  requested, ", together ", together, " > budget ", symbol, " = ",
                                  limit});
  };
  if (account == LedgerAccount::gaussian_ldp) {
    std::vector<double> terms = squares(counted);
    add_square(terms, wanted.mu);
    std::vector<double> limit;
    add_square(limit, budget->mu);
    terms.push_back(-limit[1]);  // compare Σμ² + μ² with μ_b² = limit[0] + limit[1]
    if (exceeds(terms, limit[0])) {
      refuse("mu", before.mu, wanted.mu, std::sqrt(before.mu * before.mu + wanted.mu * wanted.mu), budget->mu);
    }
    return;
  }
  std::vector<double> epsilons = field(counted, &Guarantee::epsilon);
  epsilons.push_back(wanted.epsilon);
  if (exceeds(epsilons, budget->epsilon)) refuse("epsilon", before.epsilon, wanted.epsilon, total_of(epsilons), budget->epsilon);
  if (account == LedgerAccount::ldp) {
    std::vector<double> deltas = field(counted, &Guarantee::delta);
    deltas.push_back(wanted.delta);
    if (exceeds(deltas, budget->delta)) refuse("delta", before.delta, wanted.delta, total_of(deltas), budget->delta);
  }
}

}  // namespace privsample
