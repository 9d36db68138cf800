#include "mechanisms/ds-roo/ds_roo.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "base/errors.hpp"

namespace privsample {

using namespace records;

namespace {

// ---- DS-ROO tables (core/mechanisms/ds-roo/README.md) ------------------------------------------------------------------
// Everything below works with nk·Pr(y | x) = k·c_y·(1 − q) + n·q =: S(q, k·c_y), the released probability scaled by
// nk, and with the constraints divided by e^ε: a pair is private at a letter when e^{−ε}·S_i <= S_j.

// S(q, kc) in double: two nonnegative terms, so at most 4 roundings of relative size 2^-53 each (k·c is rounded
// once when above 2^53).
double scaled_probability(double q, std::uint64_t kc, double nd) {
  return static_cast<double>(kc) * (1.0 - q) + nd * q;
}

// The least q >= num/den, rounded up: num was computed with an error below 2^-50·terms + 2^-51·|num| (terms: the
// sum of the magnitudes it was computed from; at most ~5 roundings of those and one of num), den with a relative
// error below 3·2^-53. Adding that error to num and taking the quotient up by 2^-50 gives a value at least the
// exact bound of the doubles given: a lower bound on q_j is met, never missed, by rounding.
double bound_up(double num, double terms, double den) {
  return (num + (0x1p-50 * terms + 0x1p-51 * std::fabs(num))) / den * (1.0 + 0x1p-50);
}

// max and min by a mask (detail::select_double): V8 compiles WebAssembly's scalar f64 max, min and select to branches.
double larger(double a, double b) { return detail::select_double(a > b, a, b); }
double smaller(double a, double b) { return detail::select_double(a < b, a, b); }

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
double corrected_step(Decay d, std::uint64_t n, std::uint64_t k, std::uint64_t j, double q) {
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
  return detail::select_double(kj == n, 0.0, smaller(larger(best, 0.0), 1.0));
}

// The paper's recursion with the top-index fix only (docs/errata.md#ds-roo-top-index), divided through by e^ε:
//   q_j = max{0, [(n − (j+1)k)·q_{j−1}·w + k(w − j·a)] / (n − j·k), t_j},  q_M = 0 when k | n.
// What the library used before the second erratum (docs/errata.md#ds-roo-unchanged-letters): NOT ε-DP.
double top_fix_step(Decay d, std::uint64_t n, std::uint64_t k, std::uint64_t j, double q) {
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
template <class Step, class Visit>
std::uint64_t dsroo_run(Decay d, std::uint64_t n, std::uint64_t k, Step&& step, Visit&& visit) {
  const std::uint64_t M = n / k;
  double q = roo_q(d, n, k);
  if (!visit(std::uint64_t{0}, q)) return 0;
  for (std::uint64_t j = 1; j <= M; ++j) {
    q = step(d, n, k, j, q);
    if (!visit(j, q)) return j;
    if (n == j * k) return j;
    if (q == 0.0 && static_cast<double>(j) * d.a > d.w * (1.0 + 0x1p-40)) return j;
  }
  return M;
}

// One entry of the corrected table with a data-independent loop length (the whole public run, a select per step).
double corrected_entry(Decay d, std::uint64_t n, std::uint64_t k, std::uint64_t m) {
  const std::uint64_t M = n / k;
  if (k == 1) return m == 0 ? roo_q(d, n, k) : 0.0;
  if (d.a == 0.0) return (n % k == 0 && m == M) ? 0.0 : 1.0;  // ε = 0: q ≡ 1 (q_M := 0 when k | n)
  double found = 0.0;
  dsroo_run(d, n, k, corrected_step, [&](std::uint64_t j, double q) {
    found = detail::select_double(j == m, q, found);
    return true;
  });
  return found;
}

// The verification (core/mechanisms/ds-roo/README.md#verification-and-fallback): every constraint of the complete list, in
// double, at ε itself. w_hi >= e^{−ε}. fl(S) is within 4·2^-53 of S (relative), the product with w_hi one more
// rounding: e^{−ε}·S_i <= S_j holds for the real numbers when fl(fl(S_i)·w_hi)·(1 + 2^-48) <= fl(S_j) (9 roundings
// need 1 + 9·2^-53 < 1 + 2^-48 with the product's own rounding); 2^-1060 covers subnormal results (absolute errors
// below 2^-1070). The check is thus at most ~2^-47 stricter than ε in the log, far below the margin of ε′.
class Verification {
 public:
  Verification(double epsilon, std::uint64_t n, std::uint64_t k)
      : w_hi_(std::nextafter(std::exp(-epsilon) * (1.0 + 0x1p-50), 2.0)), nd_(static_cast<double>(n)), n_(n), k_(k) {}

  // The self pair at m (a letter m+1 → m, both minima m), when n >= km + 1.
  [[nodiscard]] bool self(std::uint64_t m, double q) const {
    return n_ < k_ * m + 1 || holds(scaled(q, m + 1), scaled(q, m));
  }
  // Every pair (m, m + 1), both directions, at both ends of every letter's range (the k >= 3 list; for k = 2 it holds
  // more pairs than exist, which only makes the check stricter).
  [[nodiscard]] bool pair(std::uint64_t m, double q_m, double q_next) const {
    const std::uint64_t j = m + 1;
    const std::uint64_t high = n_ - k_ * j + j;
    const auto both = [&](std::uint64_t c, std::uint64_t c_tilde) {
      const double s = scaled(q_m, c);
      const double s_tilde = scaled(q_next, c_tilde);
      return holds(s, s_tilde) && holds(s_tilde, s);
    };
    bool ok = both(m, j) && both(m + 2, j) && both(high + 1, high);
    if (k_ >= 3) ok = ok && both(j, j) && both(high, high);
    return ok;
  }

 private:
  [[nodiscard]] double scaled(double q, std::uint64_t c) const { return scaled_probability(q, k_ * c, nd_); }
  // e^{−ε}·S_i <= S_j for the S computed by scaled().
  [[nodiscard]] bool holds(double s_i, double s_j) const {
    return s_i * w_hi_ * (1.0 + 0x1p-48) + 0x1p-1060 <= s_j;
  }

  double w_hi_;
  double nd_;
  std::uint64_t n_;
  std::uint64_t k_;
};

// ---- double-double arithmetic for the worst-pair checker ----------------------------------------------------------

struct DoubleDouble {
  double hi;
  double lo;
};

DoubleDouble normalised(double hi, double lo) {
  const double s = hi + lo;
  return {s, lo - (s - hi)};
}

DoubleDouble dd_of(std::uint64_t v) {
  const double hi = static_cast<double>(v);  // v < 2^63 here; the rest is below 2^11 and exact
  return {hi, static_cast<double>(static_cast<std::int64_t>(v) - static_cast<std::int64_t>(hi))};
}

DoubleDouble dd_add(DoubleDouble a, DoubleDouble b) {
  const TwoDoubles s = two_sum(a.hi, b.hi);
  return normalised(s.hi, s.lo + (a.lo + b.lo));
}

DoubleDouble dd_mul(DoubleDouble a, DoubleDouble b) {
  const TwoDoubles p = two_product(a.hi, b.hi);
  return normalised(p.hi, p.lo + (a.hi * b.lo + a.lo * b.hi));
}

// a/b by two corrections of the leading quotient (b > 0).
DoubleDouble dd_div(DoubleDouble a, DoubleDouble b) {
  const double q1 = a.hi / b.hi;
  DoubleDouble r = dd_add(a, dd_mul({-q1, 0.0}, b));
  const double q2 = r.hi / b.hi;
  r = dd_add(r, dd_mul({-q2, 0.0}, b));
  const double q3 = r.hi / b.hi;
  return dd_add(normalised(q1, q2), {q3, 0.0});
}

// S(q, kc) = kc·(1 − q) + n·q in double-double: 1 − q and n·q exact, kc exact, one product and one sum of
// nonnegative terms — a relative error below 2^-102.
DoubleDouble dd_scaled_probability(double q, std::uint64_t kc, double nd) {
  const TwoDoubles rest = two_sum(1.0, -q);
  const TwoDoubles nq = two_product(nd, q);
  return dd_add(dd_mul(dd_of(kc), {rest.hi, rest.lo}), normalised(nq.hi, nq.lo));
}

}  // namespace

namespace {

// M = ⌊n/k⌋, the last index of a DS-ROO table, when the table fits in kMaxDsRooTableLength entries.
std::uint64_t checked_table_top(std::uint64_t n, std::size_t k) {
  const std::uint64_t M = n / k;
  if (M + 1 > kMaxDsRooTableLength) {
    throw_invalid({"records / k = ", n, " / ", k, ": the DS-ROO table would have ", M + 1, " entries (at most ",
                   kMaxDsRooTableLength, "); use dsroo_obscure_probability for single entries"});
  }
  return M;
}

}  // namespace

std::vector<double> dsroo_obscure_table(double epsilon, std::size_t records, std::size_t k) {
  const double eps = effective_epsilon(validated_epsilon(epsilon));
  const std::uint64_t n = checked_records(records);
  check_category_count(k, "k");
  const std::uint64_t M = checked_table_top(n, k);
  std::vector<double> table(M + 1, 0.0);
  const Decay d = decay(eps);
  if (k == 1) {  // no neighbours change the output; the only dataset has m = n, q_n := 0
    table[0] = roo_q(d, n, k);
    return table;
  }
  dsroo_run(d, n, k, corrected_step, [&](std::uint64_t j, double q) {
    table[j] = q;
    return true;
  });
  return table;
}

double dsroo_obscure_probability(double epsilon, std::size_t records, std::size_t k, std::size_t m) {
  const double eps = effective_epsilon(validated_epsilon(epsilon));
  const std::uint64_t n = checked_records(records);
  check_category_count(k, "k");
  if (m > n / k) {
    throw_invalid({"m = ", m, ": the minimum count of ", n, " records over ", k, " letters is at most ", n / k});
  }
  return corrected_entry(decay(eps), n, k, m);
}

std::vector<double> dsroo_obscure_table_top_fix_only(double epsilon, std::size_t records, std::size_t k) {
  const double eps = effective_epsilon(validated_epsilon(epsilon));
  const std::uint64_t n = checked_records(records);
  check_category_count(k, "k");
  const std::uint64_t M = checked_table_top(n, k);
  std::vector<double> table(M + 1, 0.0);
  dsroo_run(decay(eps), n, k, top_fix_step, [&](std::uint64_t j, double q) {
    table[j] = q;
    return true;
  });
  return table;
}

std::vector<double> dsroo_obscure_table_as_printed(double epsilon, std::size_t records, std::size_t k) {
  const double eps = effective_epsilon(validated_epsilon(epsilon));
  const std::uint64_t n = checked_records(records);
  check_category_count(k, "k");
  const std::uint64_t M = checked_table_top(n, k);
  const double nd = static_cast<double>(n);
  const double kd = static_cast<double>(k);
  const double s = std::exp(eps);
  std::vector<double> table(M + 1, 0.0);
  table[0] = 1.0 / (1.0 + (nd / kd) * std::expm1(eps));  // eq. 9
  for (std::uint64_t m = 1; m <= M; ++m) {
    if (m * k == n) {  // v_M = 0: eq. 13 divides by zero; see the header
      table[m] = 0.0;
      continue;
    }
    const double md = static_cast<double>(m);
    const double u = -md / nd + 1.0 / kd - 1.0 / nd;           // eq. 10
    const double v = s * (1.0 / kd - md / nd);                 // eq. 11
    const double w = -1.0 / nd - md / nd + (md / nd) * s;      // eq. 12
    table[m] = std::max(0.0, (u / v) * table[m - 1] - w / v);  // eq. 13
  }
  return table;
}

// ---- DS-ROO: the worst pair ------------------------------------------------------------------------------------

DsRooWorstPair dsroo_worst_log_ratio(std::span<const double> table, std::size_t records, std::size_t k) {
  const std::uint64_t n = checked_records(records);
  check_category_count(k, "k");
  const std::uint64_t M = n / k;
  if (table.size() != M + 1) {
    throw_invalid({"table has ", table.size(), " entries but records = ", n, " over k = ", k,
                   " letters needs ⌊n/k⌋ + 1 = ", M + 1});
  }
  for (std::size_t i = 0; i < table.size(); ++i) {
    if (!(table[i] >= 0.0 && table[i] <= 1.0)) {
      throw_invalid({"table[", i, "] = ", table[i], ": obscure probabilities must lie in [0, 1]"});
    }
  }
  DsRooWorstPair worst;
  if (k == 1) return worst;  // one letter: every output is it
  const double nd = static_cast<double>(n);
  DoubleDouble best{0.0, 0.0};
  bool any = false;
  bool infinite = false;
  // Pr(y | x)/Pr(y | x̃) for the letter with count c in x (minimum m) and c̃ in x̃ (minimum m̃).
  const auto consider = [&](std::uint64_t m, std::uint64_t m_tilde, std::uint64_t c, std::uint64_t c_tilde) {
    if (infinite) return;
    // A double screen first: its ratio is within 10·2^-53 of the true one (S to 4 roundings each, one division),
    // so a ratio 2^-40 below the best so far cannot be the maximum and needs no double-double evaluation.
    const double screen_bottom = scaled_probability(table[m_tilde], k * c_tilde, nd);
    if (any && screen_bottom > 0.0 &&
        scaled_probability(table[m], k * c, nd) / screen_bottom < best.hi * (1.0 - 0x1p-40)) {
      return;
    }
    const DoubleDouble top = dd_scaled_probability(table[m], k * c, nd);
    const DoubleDouble bottom = dd_scaled_probability(table[m_tilde], k * c_tilde, nd);
    if (bottom.hi == 0.0) {
      if (top.hi == 0.0) return;  // impossible under both
      infinite = true;
      worst = {std::numeric_limits<double>::infinity(), m, m_tilde, c, c_tilde};
      return;
    }
    const DoubleDouble r = dd_div(top, bottom);
    if (!any || r.hi > best.hi || (r.hi == best.hi && r.lo > best.lo)) {
      any = true;
      best = r;
      worst = {0.0, m, m_tilde, c, c_tilde};
    }
  };
  const auto both = [&](std::uint64_t m, std::uint64_t c, std::uint64_t c_tilde) {
    consider(m, m + 1, c, c_tilde);
    consider(m + 1, m, c_tilde, c);
  };
  // The pairs that exist (core/mechanisms/ds-roo/README.md#the-complete-list-of-neighbouring-pairs). For k >= 3 every end
  // is a dataset; for k = 2 a dataset with minimum m is (m, n − m), so the pairs are b: m → m+1 with a: n − m →
  // n − m − 1, and the self pair only at n = 2m + 1.
  for (std::uint64_t m = 0; m <= M; ++m) {
    const bool self = k == 2 ? n == 2 * m + 1 : n >= k * m + 1;
    if (self) consider(m, m, m + 1, m);
    if (m + 1 > M) continue;
    const std::uint64_t j = m + 1;
    const std::uint64_t high = n - k * j + j;
    both(m, m, j);                // b, the unique minimum, m → m + 1
    both(m, high + 1, high);      // a at its high end (for k = 2, its only count n − m)
    if (k >= 3) {
      both(m, m + 2, j);          // a at its low end
      both(m, j, j);              // an unchanged letter at its low end
      both(m, high, high);        // an unchanged letter at its high end
    }
  }
  if (infinite || !any) return worst;
  // log r = log1p(r − 1): r − 1 to double (relative error ~2^-52 plus 2^-100·r absolute), log1p within one ulp;
  // rounded up by what both can contribute.
  const TwoDoubles excess = two_sum(best.hi, -1.0);
  const double log_ratio = std::log1p(excess.hi + (excess.lo + best.lo));
  worst.log_ratio = log_ratio + (0x1p-50 * std::fabs(log_ratio) + 0x1p-95);
  return worst;
}

// ---- DS-ROO: the sampler's plan ---------------------------------------------------------------------------------

namespace detail {

DsRooPlan dsroo_plan(double epsilon, std::uint64_t n, std::uint64_t k, DsRooRecursion recursion) {
  const double eps = effective_epsilon(epsilon);
  DsRooPlan plan;
  plan.n = n;
  plan.k = k;
  plan.top = n / k;
  plan.top_is_uniform = n % k == 0;
  plan.recursion = recursion;
  plan.constant = true;
  plan.verified = true;
  const double roo = round_up(roo_q(decay(with_margin(eps)), n, k));
  // n < k: the minimum count is always 0 and DS-ROO is ROO (its rounded-up q_0).
  if (plan.top == 0) {
    plan.constant_q = roo;
    return plan;
  }
  // k = 1: one letter, every output is it.
  if (k == 1) return plan;
  const Decay d = decay(with_margin(eps));
  plan.w = d.w;
  plan.a = d.a;
  if (d.a == 0.0) {  // ε′ = 0: q ≡ 1
    plan.constant_q = 1.0;
    return plan;
  }
  // One pass: build, verify each new entry against every constraint it enters, and keep every entry while the run is
  // short and every ⌈√(M+1)⌉-th one (the checkpoints when the run goes on to J = M, or close to it); otherwise the
  // run is run again for the checkpoints.
  constexpr std::uint64_t kKeepAll = std::uint64_t{1} << 20;
  const auto stride_for = [](std::uint64_t length) {
    return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::ceil(std::sqrt(static_cast<double>(length)))));
  };
  const std::uint64_t top_stride = stride_for(plan.top + 1);
  const Verification check(eps, n, k);
  std::vector<double> all;
  std::vector<double> every_top_stride;
  bool ok = true;
  double previous = 0.0;
  const auto step = [&](Decay dd, std::uint64_t nn, std::uint64_t kk, std::uint64_t j, double q) {
    return recursion == DsRooRecursion::corrected ? corrected_step(dd, nn, kk, j, q) : top_fix_step(dd, nn, kk, j, q);
  };
  const std::uint64_t last = dsroo_run(d, n, k, step, [&](std::uint64_t j, double q) {
    ok = j == 0 ? check.self(0, q) : check.pair(j - 1, previous, q) && check.self(j, q);
    previous = q;
    if (j < kKeepAll) all.push_back(q);
    if (j % top_stride == 0) every_top_stride.push_back(q);
    return ok;
  });
  if (!ok) {  // the fallback: ROO's q_0 for every m, always ε-DP
    plan.constant_q = roo;
    plan.verified = false;
    return plan;
  }
  plan.constant = false;
  plan.last = last;
  plan.stride = stride_for(last + 1);
  if (last < kKeepAll) {
    plan.checkpoints.reserve(last / plan.stride + 1);
    for (std::uint64_t j = 0; j <= last; j += plan.stride) plan.checkpoints.push_back(all[j]);
  } else if (plan.stride == top_stride) {
    plan.checkpoints = std::move(every_top_stride);
  } else {
    plan.checkpoints.reserve(last / plan.stride + 1);
    all = {};
    dsroo_run(d, n, k, step, [&](std::uint64_t j, double q) {
      if (j % plan.stride == 0) plan.checkpoints.push_back(q);
      return true;
    });
  }
  return plan;
}

double dsroo_step(const DsRooPlan& plan, std::uint64_t j, double q_previous) noexcept {
  const Decay d{plan.w, plan.a};
  return plan.recursion == DsRooRecursion::corrected ? corrected_step(d, plan.n, plan.k, j, q_previous)
                                                     : top_fix_step(d, plan.n, plan.k, j, q_previous);
}

}  // namespace detail

DsRooSampler DsRooSampler::make(const MechanismOptions& o) {
  (void)checked_options(spec, o);
  return DsRooSampler(*o.epsilon, *o.records);
}

// ---- DS-ROO: the sampler ----------------------------------------------------------------------------------------

// Built once per k (depends on ε, n and k only), then shared by copies.
std::shared_ptr<const detail::DsRooPlan> DsRooSampler::plan(std::size_t k) const {
  if (cache_ && cache_->k == k) return cache_;
  cache_ = std::make_shared<const detail::DsRooPlan>(detail::dsroo_plan(epsilon_, records_, k));
  return cache_;
}

double DsRooSampler::q_for(std::size_t k, std::uint64_t m) const {
  check_category_count(k, "k");
  const std::shared_ptr<const detail::DsRooPlan> p = plan(k);
  return detail::dsroo_lookup(*p, m, [&](std::uint64_t j, double q) { return detail::dsroo_step(*p, j, q); });
}

std::vector<double> DsRooSampler::obscure_table(std::size_t k) const {
  check_category_count(k, "k");
  const std::uint64_t M = checked_table_top(records_, k);
  const std::shared_ptr<const detail::DsRooPlan> p = plan(k);
  std::vector<double> table(M + 1, 0.0);
  if (p->constant) {
    std::fill(table.begin(), table.end(), p->constant_q);
    if (p->top_is_uniform) table[M] = 0.0;
    return table;
  }
  double q = p->checkpoints.front();
  table[0] = q;
  for (std::uint64_t j = 1; j <= p->last; ++j) {
    q = detail::dsroo_step(*p, j, q);
    table[j] = q;
  }
  return table;
}

DsRooWorstPair dsroo_worst_log_ratio(const DsRooSampler& sampler, std::size_t k) {
  return dsroo_worst_log_ratio(sampler.obscure_table(k), static_cast<std::size_t>(sampler.records()), k);
}

double DsRooSampler::obscure_probability(std::span<const double> counts) const {
  const Counts c = validated_counts(counts, records_, "DS-ROO");
  return q_for(c.c.size(), c.min);
}

std::vector<double> DsRooSampler::distribution(std::span<const double> counts) const {
  const Counts c = validated_counts(counts, records_, "DS-ROO");
  return mixture(c, records_, q_for(c.c.size(), c.min));
}

IndexDraw DsRooSampler::prepare(std::span<const double> counts, std::size_t /*draws*/) const {
  Counts c = validated_counts(counts, records_, "DS-ROO");
  const double q = q_for(c.c.size(), c.min);
  return [c = std::move(c), n = records_, q](RandomBits& bits) { return reveal_or_obscure(c, n, q, bits); };
}

double DsRooSampler::worst_case_risk(const FDivergence& f, std::size_t k) const {
  return mixture_risk(f, spread(q_for(k, 0), k));
}

double DsRooSampler::worst_case_risk(NamedDivergence f, std::size_t k) const {
  return mixture_risk(f, spread(q_for(k, 0), k));
}

}  // namespace privsample
