// DS-ROO's tables, their verification and the worst-pair search: run once per (ε, n, k), so built for size in the
// client module (the sampler's per-release lookup is ds_roo.cpp).
#include "mechanisms/ds-roo/ds_roo.hpp"
#include "mechanisms/ds-roo/ds_roo_steps.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "base/errors.hpp"

namespace privsample {

using namespace records;
using detail::corrected_step;
using detail::top_fix_step;
using detail::scaled_probability;
using detail::checked_table_top;

namespace {

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

// What every table function checks first, in this order (ε, the records, k), and the table's top M = ⌊n/k⌋.
struct TableSetup {
  double epsilon;  // effective (validated, capped)
  std::uint64_t records;
  std::uint64_t top;
};
TableSetup table_setup(double epsilon, std::size_t records, std::size_t k) {
  const double eps = effective_epsilon(validated_epsilon(epsilon));
  const std::uint64_t n = checked_records(records);
  check_category_count(k, "k");
  return {eps, n, checked_table_top(n, k)};
}

// The table q_0 … q_M by `step` (the corrected or the top-fix recurrence), zeros after the run stops; with
// one_letter_rule, k = 1 gives q_0 alone.
template <class Step>
std::vector<double> table_by(const TableSetup& t, std::uint64_t k, Step&& step, bool one_letter_rule) {
  std::vector<double> table(t.top + 1, 0.0);
  const Decay d = decay(t.epsilon);
  if (one_letter_rule && k == 1) {  // no neighbours change the output; the only dataset has m = n, q_n := 0
    table[0] = roo_q(d, t.records, k);
    return table;
  }
  dsroo_run(d, t.records, k, step, [&](std::uint64_t j, double q) {
    table[j] = q;
    return true;
  });
  return table;
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


std::vector<double> dsroo_obscure_table(double epsilon, std::size_t records, std::size_t k) {
  return table_by(table_setup(epsilon, records, k), k, corrected_step, true);
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
  return table_by(table_setup(epsilon, records, k), k, top_fix_step, false);
}

std::vector<double> dsroo_obscure_table_as_printed(double epsilon, std::size_t records, std::size_t k) {
  const TableSetup t = table_setup(epsilon, records, k);
  const double eps = t.epsilon;
  const std::uint64_t n = t.records;
  const std::uint64_t M = t.top;
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

}  // namespace detail

}  // namespace privsample
