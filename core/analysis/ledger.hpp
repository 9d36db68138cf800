#pragma once
// The arithmetic of the privacy-budget ledger (docs/analysis/ledger.md): what a person has spent for one purpose
// after several releases, under basic (sequential) composition, and whether one more release fits a budget.
//
// Guarantee (docs/analysis/ledger.md#composition-rules): the releases of one purpose are counted in one account,
//   - (ε,δ)-LDP account (pure and approximate LDP releases): Σε_i, Σδ_i (basic composition, Dwork & Roth 2014,
//     Thm 3.16; pure ε-LDP is (ε,0)-LDP);
//   - μ-Gaussian LDP account: sqrt(Σμ_i²) (Dong, Roth, Su 2022, Cor. 2: G_μ1 ⊗ … ⊗ G_μm = G_sqrt(Σμ_i²));
//   - record-level ε-DP account (record-dp releases, and pure ε-LDP releases at their ε, since LDP over all
//     inputs implies ε-DP for one replaced record): Σε_i (sequential composition of ε-DP).
// Nothing else is converted: a release of another notion is refused with a message. A budget is compared with the
// total in compensated (Neumaier) arithmetic on the doubles given, so a total that exceeds the budget only in its
// last bits is refused too (docs/analysis/ledger.md#rounding). Pure functions of public numbers; nothing here sees
// data.
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "privacy/privacy.hpp"

namespace privsample {

enum class LedgerAccount {
  ldp,           // pure and approximate LDP: (Σε, Σδ)
  gaussian_ldp,  // μ-GDP: sqrt(Σμ²)
  record_dp,     // record-level ε-DP (and pure ε-LDP at its ε): Σε
};

// "ldp" | "gaussian-ldp" | "record-dp"
[[nodiscard]] std::string account_name(LedgerAccount account);

// "pure-ldp" | "approx-ldp" | "gaussian-ldp" | "record-dp" → the notion; std::invalid_argument otherwise.
[[nodiscard]] PrivacyNotion notion_from_name(std::string_view name);

// A guarantee as a mechanism states it (privacy.hpp), checked: ε in [0, 1000], δ in [0, 1) (approx-ldp),
// μ in (0, 100] (gaussian-ldp), records an integer in [1, 1e9] (record-dp). `name` prefixes messages
// ("entries[2].guarantee.epsilon = -1: …"). Throws std::invalid_argument.
Guarantee validated_release(const Guarantee& release, std::string_view name);

// A budget: notion pure_ldp or approximate_ldp is an (ε,δ)-LDP budget (ε finite >= 0, δ in [0, 1), 0 for pure);
// gaussian_ldp a μ budget (μ finite >= 0); record_dp an ε budget of record-level DP. Throws std::invalid_argument
// naming `name` and the bad field.
Guarantee validated_budget(const Guarantee& budget, std::string_view name);

// A budget as a page states it: { epsilon[, delta] } (an (ε,δ)-LDP budget), { mu } (μ-Gaussian LDP) or
// { notion: 'record-dp', epsilon }; `notion`, when given, is an account name ("ldp", "gaussian-ldp", "record-dp")
// and must agree with the fields. Returns the validated budget (notion pure_ldp, approximate_ldp, gaussian_ldp or
// record_dp); throws std::invalid_argument naming `name`.
struct BudgetOptions {
  std::optional<std::string> notion;
  std::optional<double> epsilon;
  std::optional<double> delta;
  std::optional<double> mu;
};
[[nodiscard]] Guarantee budget_from_options(const BudgetOptions& options, std::string_view name);

// The account a budget of this notion keeps.
[[nodiscard]] LedgerAccount account_of_budget(const Guarantee& budget) noexcept;
// The account a release opens when a purpose has no budget and no earlier release.
[[nodiscard]] LedgerAccount natural_account(const Guarantee& release) noexcept;
// Whether a release of this notion is counted in the account (the table in the header comment).
[[nodiscard]] bool counts_in(const Guarantee& release, LedgerAccount account) noexcept;

// What one purpose has spent. ldp: epsilon and delta; gaussian_ldp: mu; record_dp: epsilon.
struct LedgerTotal {
  LedgerAccount account = LedgerAccount::ldp;
  double epsilon = 0.0;
  double delta = 0.0;
  double mu = 0.0;
  std::size_t releases = 0;
};

// The account of a purpose: its budget's when it has one, else its first release's, else ldp.
[[nodiscard]] LedgerAccount purpose_account(std::span<const Guarantee> releases, const Guarantee* budget) noexcept;

// The composed total of `releases` (validated) in `account`. Throws std::domain_error naming `purpose` when a
// release cannot be counted in it.
[[nodiscard]] LedgerTotal composed_total(std::string_view purpose, std::span<const Guarantee> releases,
                                         LedgerAccount account);

// What is left of `budget` after `spent` (same account): ε − Σε, δ − Σδ, sqrt(μ² − Σμ²), each at least 0.
[[nodiscard]] LedgerTotal remaining_budget(const LedgerTotal& spent, const Guarantee& budget);

// Throws std::domain_error when `request` may not be released for `purpose`: it is of a notion the purpose's
// account does not count, or (with a budget) the composed total with it would exceed the budget. The message
// names the purpose, what was spent, what is requested and the budget.
void check_release(std::string_view purpose, std::span<const Guarantee> spent, const Guarantee& request,
                   const Guarantee* budget);

}  // namespace privsample
