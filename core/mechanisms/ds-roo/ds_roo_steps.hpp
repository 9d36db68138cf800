#pragma once
// One step of DS-ROO's table (internal to this folder): the corrected recursion's and the old one's, shared by the
// table's construction (ds_roo_setup.cpp) and the sampler's per-release lookup (ds_roo.cpp).
#include <cmath>
#include <cstdint>

#include "base/errors.hpp"
#include "base/numeric.hpp"
#include "mechanisms/ds-roo/ds_roo.hpp"
#include "mechanisms/records.hpp"

namespace privsample::detail {

using records::Decay;

// ---- DS-ROO tables (core/mechanisms/ds-roo/README.md) ------------------------------------------------------------------
// Everything below works with nk·Pr(y | x) = k·c_y·(1 − q) + n·q =: S(q, k·c_y), the released probability scaled by
// nk, and with the constraints divided by e^ε: a pair is private at a letter when e^{−ε}·S_i <= S_j.

// S(q, kc) in double: two nonnegative terms, so at most 4 roundings of relative size 2^-53 each (k·c is rounded
// once when above 2^53).
inline double scaled_probability(double q, std::uint64_t kc, double nd) {
  return static_cast<double>(kc) * (1.0 - q) + nd * q;
}

// The least q >= num/den, rounded up: num was computed with an error below 2^-50·terms + 2^-51·|num| (terms: the
// sum of the magnitudes it was computed from; at most ~5 roundings of those and one of num), den with a relative
// error below 3·2^-53. Adding that error to num and taking the quotient up by 2^-50 gives a value at least the
// exact bound of the doubles given: a lower bound on q_j is met, never missed, by rounding.
inline double bound_up(double num, double terms, double den) {
  return (num + (0x1p-50 * terms + 0x1p-51 * std::fabs(num))) / den * (1.0 + 0x1p-50);
}

// max and min by a mask (select_double): V8 compiles WebAssembly's scalar f64 max, min and select to branches.
inline double larger(double a, double b) { return select_double(a > b, a, b); }
inline double smaller(double a, double b) { return select_double(a < b, a, b); }

// The corrected pass (core/mechanisms/ds-roo/README.md#the-forward-construction), one step: q_j from q_{j−1} for k >= 2 and
// 1 <= j <= M = ⌊n/k⌋, with m = j − 1. The lower bounds on q_j, each rounded up (bound_up):
//   the self pair at j (a letter j+1 → j, both minima j):  t_j = k(w − j·a)/(k·w + a(n − kj));
//   the pairs (j − 1, j) whose letter ends at c̃ = j <= n/k in x̃ (b: m → j, a at its low end: m+2 → j, an
//   unchanged letter at its low end: j → j, k >= 3):  w·S(q_{j−1}, kc) <= S(q_j, kj),
//   i.e. q_j >= (w·S(q_{j−1}, kc) − kj)/(n − kj);
//   the pairs whose letter ends at c̃ = n − kj + j >= n/k (a at its high end: c̃+1 → c̃, an unchanged letter at its
//   high end: c̃ → c̃, k >= 3):  w·S(q_j, kc̃) <= S(q_{j−1}, kc), i.e. q_j >= (w·kc̃ − S(q_{j−1}, kc))/(w(kc̃ − n)).
// q_j is the largest of them and 0, at most 1; q_{n/k} := 0 when k | n. Every other constraint of the list is an
// upper bound on q_j (checked by the verification, not used here). No branch depends on j or q (masks for max, min
// and the select), so every step costs the same.
inline double corrected_step(Decay d, std::uint64_t n, std::uint64_t k, std::uint64_t j, double q) {
  const double nd = static_cast<double>(n);
  const double kd = static_cast<double>(k);
  const double jd = static_cast<double>(j);
  const std::uint64_t kj = k * j;  // <= n
  const double rest = static_cast<double>(n - kj);
  double best = bound_up(kd * (d.w - jd * d.a), kd * (d.w + jd * d.a), kd * d.w + d.a * rest);
  const double kjd = static_cast<double>(kj);
  const double free = larger(rest, 1.0);  // n − kj = 0 only at j = n/k, where the result is 0 whatever this gives
  const auto from_low_end = [&](std::uint64_t c) {
    const double ws = d.w * scaled_probability(q, k * c, nd);
    return bound_up(ws - kjd, ws + kjd, free);
  };
  best = larger(best, from_low_end(j - 1));
  best = larger(best, from_low_end(j + 1));
  if (k >= 3) best = larger(best, from_low_end(j));
  const std::uint64_t high = n - kj + j;  // c̃ at the high ends; k·c̃ − n = (k − 1)(n − kj)
  const double w_kc = d.w * static_cast<double>(k * high);
  const double over = d.w * static_cast<double>(std::max<std::uint64_t>((k - 1) * (n - kj), 1));
  const auto from_high_end = [&](std::uint64_t c) {
    const double s = scaled_probability(q, k * c, nd);
    return bound_up(w_kc - s, w_kc + s, over);
  };
  best = larger(best, from_high_end(high + 1));
  if (k >= 3) best = larger(best, from_high_end(high));
  return select_double(kj == n, 0.0, smaller(larger(best, 0.0), 1.0));
}

// The paper's recursion with the top-index fix only (docs/errata.md#ds-roo-top-index), divided through by e^ε:
//   q_j = max{0, [(n − (j+1)k)·q_{j−1}·w + k(w − j·a)] / (n − j·k), t_j},  q_M = 0 when k | n.
// What the library used before the second erratum (docs/errata.md#ds-roo-unchanged-letters): NOT ε-DP.
inline double top_fix_step(Decay d, std::uint64_t n, std::uint64_t k, std::uint64_t j, double q) {
  const auto den = static_cast<std::int64_t>(n) - static_cast<std::int64_t>(j * k);  // k·D_j >= 0
  if (den == 0) return 0.0;  // j = M = n/k: v_M = 0, the exact-uniform histogram, whose output is U for any q
  const double kd = static_cast<double>(k);
  const double jd = static_cast<double>(j);
  const double head = d.w - jd * d.a;  // (1 − j·e1)/e^ε
  const auto next_den = static_cast<std::int64_t>(n) - static_cast<std::int64_t>((j + 1) * k);  // k·D_{j+1}
  const double r = (static_cast<double>(next_den) * q * d.w + kd * head) / static_cast<double>(den);
  q = r > 0.0 ? r : 0.0;
  const double t = kd * head / (kd * d.w + d.a * static_cast<double>(den));
  return t > q ? t : q;
}

// Calls visit(j, q_j) for j = 0, 1, …, J and returns J: J = M, or the first j with q_j = 0 and j·e1 > 1 (from there
// on every entry is 0: core/mechanisms/ds-roo/README.md#the-early-stop; the test keeps a relative margin of 2^-40 so that
// rounding cannot stop it early). J depends only on (ε, n, k), never on the data. A visit returning false ends the
// run there (the verification's first failure).

// M = ⌊n/k⌋, the last index of a DS-ROO table, when the table fits in kMaxDsRooTableLength entries.
inline std::uint64_t checked_table_top(std::uint64_t n, std::size_t k) {
  const std::uint64_t M = n / k;
  if (M + 1 > kMaxDsRooTableLength) {
    throw_invalid({"records / k = ", n, " / ", k, ": the DS-ROO table would have ", M + 1, " entries (at most ",
                   kMaxDsRooTableLength, "); use dsroo_obscure_probability for single entries"});
  }
  return M;
}

}  // namespace privsample::detail
