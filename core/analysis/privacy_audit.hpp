#pragma once
// The privacy audit: checks a mechanism's guarantee where it is weakest, on the law its releases actually draw from.
//
// Two checks, both on exact released laws (release_plan.hpp), evaluated in extended precision (long double with at
// least 64 bits of mantissa: every released probability is a short exact expression of doubles and integers, so the
// check resolves a violation of 1e-18 relative; it needs no slack beyond that and reports the margin it found):
//  * the plan: over EVERY data part the plan's unit box allows — hence every input — the largest log-ratio at each
//    atom (pure ε), or an upper bound on the largest hockey-stick divergence over all pairs and sets (approximate
//    and Gaussian LDP, against δ and the profile δ_μ(β) on a grid of β). This is the analytic worst pair: the box's
//    ends are what an input can reach.
//  * the searched pairs: the released laws of given inputs (point masses, clip breakpoints, adversarial doubles),
//    every ordered pair, so that the worst case is seen attained and a defect of a release (a target the quantizer
//    had to clamp far outside its box) shows.
// The record-level mechanisms have their own analytic search over neighbouring datasets (reveal_or_obscure.hpp). The
// frequency oracles release reports, not categories: audit_oracle checks the ratio of two items' probabilities of the
// report where it is largest.
// Tests and audits only: not in the client module.
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "mechanisms/oracles.hpp"
#include "privacy/privacy.hpp"
#include "privacy/release_plan.hpp"

namespace privsample {

struct AuditFinding {
  // Pure ε and record-level: the largest log-ratio found (bound: ε). Approximate: the largest hockey-stick
  // divergence (bound: δ). Gaussian: the largest hockey-stick minus δ_μ(β) over the β checked (bound: 0).
  double worst = 0.0;
  double bound = 0.0;
  double excess = 0.0;     // worst − bound, formed in extended precision before rounding (its sign is the verdict)
  std::string witness;     // where the worst value was found
  std::size_t pairs = 0;   // pairs of laws (or atoms of a plan) compared
  [[nodiscard]] bool holds() const noexcept { return excess <= 0.0; }
};

// The plan's worst case over every law it allows, for a local notion (pure, approximate or Gaussian LDP).
[[nodiscard]] AuditFinding audit_release_plan(const ReleasePlan& plan, const Guarantee& guarantee);

// The worst ordered pair among the released laws of some inputs (one Release per input, all from one mechanism).
// labels name the inputs in the witness (may be empty).
[[nodiscard]] AuditFinding audit_released_pairs(std::span<const Release> releases, const Guarantee& guarantee,
                                                std::span<const std::string> labels = {});

// The same on plain probability vectors (e.g. distribution()'s doubles, taken as exact values).
[[nodiscard]] AuditFinding audit_distribution_pairs(std::span<const std::vector<double>> laws, const Guarantee& guarantee,
                                                    std::span<const std::string> labels = {});

// A frequency oracle's pure ε-LDP where it is weakest. Every oracle's law is two-level (mechanisms/oracle.hpp):
// Pr(y | v) = w(y)·(y supports v ? supported : unsupported), w(y) the same for every item, so over every report and
// pair of items the largest log-ratio is |log(supported/unsupported)|, attained at a report that supports one item
// and not the other. Checked there from the exact coins (the levels, in extended precision), and at witnesses: for
// pairs of items (first and second, first and last, middle and last) a report the encoder drew (a seeded generator)
// that supports one and not the other, whose report_probability ratio is evaluated in both orders. Every value is a
// short expression of integers below 2^64, so no slack is needed; the finding's excess is the margin. Witnesses whose
// probabilities underflow (OUE at very large k) are skipped and counted out of `pairs`.
[[nodiscard]] AuditFinding audit_oracle(const Oracle& oracle);

}  // namespace privsample
