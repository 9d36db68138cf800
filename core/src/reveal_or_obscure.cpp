#include "privsample/reveal_or_obscure.hpp"
#include "privsample/errors.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "privsample/histogram.hpp"
#include "privsample/numeric.hpp"

namespace privsample {
namespace {

// e^{−ε} and 1 − e^{−ε} at the effective ε: every formula below is written with these two, after dividing
// numerator and denominator by e^ε, so ε up to 700 never overflows (e^ε·n would for n > 1.8e4).
struct Decay {
  double w;  // e^{−ε}
  double a;  // 1 − e^{−ε} = −expm1(−ε) = e1/e^ε
};

Decay decay(double epsilon) { return {std::exp(-epsilon), -std::expm1(-epsilon)}; }

std::uint64_t checked_records(std::size_t records) {
  if (records < 1 || records > kMaxRecords) {
    throw_invalid({"records = ", records, ": must be an integer in [1, ", kMaxRecords, "]"});
  }
  return records;
}

// q_0 = k/(k + n·e1) = k·w/(k·w + n·a).
double roo_q(Decay d, std::uint64_t n, std::uint64_t k) {
  const double kw = static_cast<double>(k) * d.w;
  return kw / (kw + static_cast<double>(n) * d.a);
}

// Outward rounding of an obscure probability: the computed q_0 is within ~4 ulp (exp/expm1 within 1 ulp, three
// correctly rounded operations) of k/(k + n·e1); 8 ulp up plus two steps of nextafter (which also covers
// subnormal q at ε near 700) make it >= the exact value, and a larger q only lowers ROO's ratio.
double round_up(double q) {
  double up = q * (1.0 + 0x1.0p-50);
  up = std::nextafter(up, 2.0);
  up = std::nextafter(up, 2.0);
  return std::min(up, 1.0);
}

// The DS-ROO′ recursion (docs/mechanisms/ds-roo.md#the-recursion, docs/mechanisms/ds-roo.md#the-top-index-fix), divided through by e^ε:
//   q_j = max{0, [(n − (j+1)k)·q_{j−1}·w + k(w − j·a)] / (n − j·k), t_j},  t_j = k(w − j·a)/(k·w + a(n − j·k)),
//   q_M = 0 when k | n.
// One step, j >= 1 and j <= M: the same operations in the same order wherever a run starts, so re-running from a
// stored q_{j−1} reproduces the full run bit for bit.
double dsroo_step(Decay d, std::uint64_t n, std::uint64_t k, std::uint64_t j, double q) {
  const auto den = static_cast<std::int64_t>(n) - static_cast<std::int64_t>(j * k);  // k·D_j >= 0
  if (den == 0) return 0.0;  // j = M = n/k: v_M = 0, the exact-uniform histogram, whose output is U for any q
  const double kd = static_cast<double>(k);
  const double jd = static_cast<double>(j);
  const double head = d.w - jd * d.a;  // (1 − j·e1)/e^ε
  const auto next_den = static_cast<std::int64_t>(n) - static_cast<std::int64_t>((j + 1) * k);  // k·D_{j+1}
  const double r = (static_cast<double>(next_den) * q * d.w + kd * head) / static_cast<double>(den);
  q = r > 0.0 ? r : 0.0;
  // The fix: q_j >= t_j. A no-op for j < M (Lemma 3), needed at j = M when k ∤ n (u_M < 0).
  const double t = kd * head / (kd * d.w + d.a * static_cast<double>(den));
  return t > q ? t : q;
}

// Calls visit(j, q_j) for j = 0, 1, …, J and returns J: J = M, or the first j with q_j = 0 and j·e1 > 1 (from
// there on every entry is 0). J depends only on (ε, n, k), never on the data.
template <class Visit>
std::uint64_t dsroo_run(Decay d, std::uint64_t n, std::uint64_t k, Visit&& visit) {
  const std::uint64_t M = n / k;
  double q = roo_q(d, n, k);
  visit(std::uint64_t{0}, q);
  for (std::uint64_t j = 1; j <= M; ++j) {
    q = dsroo_step(d, n, k, j, q);
    visit(j, q);
    if (static_cast<std::int64_t>(n) == static_cast<std::int64_t>(j * k)) return j;
    if (q == 0.0 && static_cast<double>(j) * d.a > d.w) return j;  // j·e1 > 1 and q_j = 0: all later entries are 0
  }
  return M;
}

// The q_m used by DsRooSampler-style callers, with a data-independent loop length.
double dsroo_entry(Decay d, std::uint64_t n, std::uint64_t k, std::uint64_t m) {
  const std::uint64_t M = n / k;
  if (d.a == 0.0) return (n % k == 0 && m == M) ? 0.0 : 1.0;  // ε = 0: q ≡ 1 (q_M := 0 when k | n)
  double found = 0.0;
  dsroo_run(d, n, k, [&](std::uint64_t j, double q) {
    // Select without branching on the data: every step does the same work.
    const double pick = j == m ? 1.0 : 0.0;
    found += pick * q;
  });
  return found;
}

// The counts of the n records: 1 <= k <= kMaxCategories, every entry a finite integer >= 0, summing to n.
struct Counts {
  std::vector<std::uint64_t> c;
  std::uint64_t min = 0;  // over ALL k letters
};

Counts validated_counts(std::span<const double> hist, std::uint64_t records, std::string_view mechanism) {
  check_category_count(hist.size(), "hist");
  Counts out;
  out.c.resize(hist.size());
  bool oversized = false;
  std::uint64_t total = 0;
  CompensatedSum approximate_total;  // for the message only, when some count exceeds records
  for (std::size_t i = 0; i < hist.size(); ++i) {
    const double v = hist[i];
    if (!std::isfinite(v) || v < 0.0) {
      throw_invalid({"hist[", i, "] = ", v, ": counts must be finite and >= 0"});
    }
    if (v != std::floor(v)) {
      throw_invalid({"hist[", i, "] = ", v, ": ", mechanism, " needs counts of records, which must be integers"});
    }
    approximate_total.add(v);
    if (v > static_cast<double>(records)) {
      oversized = true;
      continue;
    }
    out.c[i] = static_cast<std::uint64_t>(v);
    total += out.c[i];  // <= 10^7 · 10^9 < 2^64
  }
  if (oversized || total != records) {
    throw_invalid({"hist sums to ", oversized ? MessagePiece(approximate_total.value()) : MessagePiece(total),
                   " but records = ", records, ": ", mechanism, " needs the histogram of exactly the public n records"});
  }
  std::uint64_t smallest = out.c[0];
  for (const std::uint64_t value : out.c) smallest = std::min(smallest, value);  // full scan, no early exit
  out.min = smallest;
  return out;
}

// A uniformly chosen record: r = uniform_below(n), then the letter whose cumulative block contains r, found
// with a fixed-length scan over all k counts (no early exit, no data-dependent branch).
std::size_t uniform_record(const Counts& counts, std::uint64_t n, RandomBits& bits) {
  const std::uint64_t r = uniform_below(bits, n);
  std::uint64_t cumulative = 0;
  std::size_t letter = 0;
  for (const std::uint64_t c : counts.c) {
    cumulative += c;
    letter += static_cast<std::size_t>(cumulative <= r);  // the number of blocks ending at or before r
  }
  return letter;
}

// Pr(y | x^n) = q/k + (1 − q)·c_y/n.
std::vector<double> mixture(const Counts& counts, std::uint64_t n, double q) {
  const double k = static_cast<double>(counts.c.size());
  const double nd = static_cast<double>(n);
  std::vector<double> out(counts.c.size());
  for (std::size_t y = 0; y < out.size(); ++y) out[y] = q / k + (1.0 - q) * (static_cast<double>(counts.c[y]) / nd);
  return out;
}

// Both candidates are drawn whatever the coin says (the draw policy: constant work), so the time of a release does
// not tell whether it was obscured — which matters for DS-ROO, whose q depends on the data.
std::size_t reveal_or_obscure(const Counts& counts, std::uint64_t n, double q, RandomBits& bits) {
  const bool obscure = bernoulli_fixed_cost(bits, q);
  const auto uniform = static_cast<std::size_t>(uniform_below(bits, counts.c.size()));
  const std::size_t record = uniform_record(counts, n, bits);
  return obscure ? uniform : record;
}

// Worst case over datasets of D_f(P̂ ‖ qU + (1−q)P̂): a point mass, 𝔑(0, 1/(1 − b)) with b = q(1 − 1/k).
double mixture_risk(const FDivergence& f, double b) { return chord_risk(f, 0.0, 1.0 / (1.0 - b)); }

double mixture_risk(NamedDivergence f, double b) {
  switch (f) {
    case NamedDivergence::kl: return -std::log1p(-b);
    case NamedDivergence::tv: return b;
    case NamedDivergence::hellinger: return b / (1.0 + std::sqrt(1.0 - b));  // 1 − √(1 − b)
    case NamedDivergence::chi2: return b / (1.0 - b);
  }
  return mixture_risk(f_divergence(f), b);
}

double spread(double q, std::size_t k) {
  check_category_count(k, "k");
  return q * (static_cast<double>(k - 1) / static_cast<double>(k));
}

// Laplace(scale) from one 64-bit word: the top bit is the sign, the low 53 bits a uniform U in [0, 1), and
// the magnitude scale·(−log(1 − U)) is an Exponential(1/scale) by inverse CDF. Textbook, not snapping-hardened.
double laplace(RandomBits& bits, double scale) {
  const std::uint64_t word = bits.next_u64();
  const double u = static_cast<double>(word & ((std::uint64_t{1} << 53) - 1)) * 0x1.0p-53;
  const double magnitude = -scale * std::log1p(-u);
  return (word >> 63) != 0 ? -magnitude : magnitude;
}

}  // namespace

// ---- free functions --------------------------------------------------------------------------------------

double roo_obscure_probability(double epsilon, std::size_t records, std::size_t k) {
  const double eps = effective_epsilon(validated_epsilon(epsilon));
  const std::uint64_t n = checked_records(records);
  check_category_count(k, "k");
  return roo_q(decay(eps), n, k);
}

RooAccuracyBounds roo_accuracy_bounds(double epsilon, std::size_t records, std::size_t k) {
  const double eps = validated_epsilon(epsilon);
  const std::uint64_t n = checked_records(records);
  check_category_count(k, "k");
  if (k < 2) throw_invalid({"k = ", k, ": the accuracy formulas need k >= 2"});
  const double kd = static_cast<double>(k);
  RooAccuracyBounds out;
  out.roo = roo_q(decay(effective_epsilon(eps)), n, k) * (1.0 - 1.0 / kd);  // eq. 19
  out.rsss = eps == 0.0 ? std::numeric_limits<double>::infinity()
                        : 2.0 * kd / (static_cast<double>(n) * eps);     // eq. 18
  return out;
}

RooSampleComplexity roo_sample_complexity(std::size_t k, double alpha, double epsilon) {
  check_category_count(k, "k");
  if (k < 2) throw_invalid({"k = ", k, ": the sample complexities need k >= 2"});
  const double kd = static_cast<double>(k);
  if (!(alpha > 0.0 && alpha < 1.0 - 1.0 / kd)) {
    throw_invalid({"alpha = ", alpha, ": must lie in (0, 1 − 1/k) = (0, ", 1.0 - 1.0 / kd, ")"});
  }
  const double eps = validated_epsilon(epsilon);
  if (eps == 0.0) throw std::invalid_argument("epsilon = 0: no finite number of records is enough at ε = 0");
  RooSampleComplexity out;
  out.roo = (kd * (1.0 - alpha) - 1.0) / (alpha * std::expm1(eps));  // eq. 8 (0 once e^ε − 1 overflows)
  out.rsss = 2.0 * kd / (alpha * eps);                                  // eq. 5
  out.subrr = (kd - 1.0) * (1.0 - alpha) / (alpha * eps);               // eq. 45
  return out;
}

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
  dsroo_run(decay(eps), n, k, [&](std::uint64_t j, double q) { table[j] = q; });
  return table;
}

double dsroo_obscure_probability(double epsilon, std::size_t records, std::size_t k, std::size_t m) {
  const double eps = effective_epsilon(validated_epsilon(epsilon));
  const std::uint64_t n = checked_records(records);
  check_category_count(k, "k");
  if (m > n / k) {
    throw_invalid({"m = ", m, ": the minimum count of ", n, " records over ", k, " letters is at most ", n / k});
  }
  return dsroo_entry(decay(eps), n, k, m);
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

// ---- ROO ------------------------------------------------------------------------------------------------

double RooSampler::obscure_probability(std::size_t k) const {
  check_category_count(k, "k");
  return round_up(roo_q(decay(effective_epsilon(epsilon_)), records_, k));
}

std::vector<double> RooSampler::distribution(std::span<const double> counts) const {
  const Counts c = validated_counts(counts, records_, "ROO");
  return mixture(c, records_, obscure_probability(c.c.size()));
}

IndexDraw RooSampler::prepare(std::span<const double> counts, std::size_t /*draws*/) const {
  Counts c = validated_counts(counts, records_, "ROO");
  const double q = obscure_probability(c.c.size());
  return [c = std::move(c), n = records_, q](RandomBits& bits) { return reveal_or_obscure(c, n, q, bits); };
}

double RooSampler::worst_case_risk(const FDivergence& f, std::size_t k) const {
  return mixture_risk(f, spread(obscure_probability(k), k));
}

double RooSampler::worst_case_risk(NamedDivergence f, std::size_t k) const {
  return mixture_risk(f, spread(obscure_probability(k), k));
}

// ---- DS-ROO′ --------------------------------------------------------------------------------------------

double DsRooSampler::q_for(std::size_t k, std::uint64_t m) const {
  check_category_count(k, "k");
  const double eps = effective_epsilon(epsilon_);
  const std::uint64_t M = records_ / k;
  // n < k: the minimum count is always 0 and DS-ROO is ROO (use its rounded-up q_0).
  if (M == 0) return round_up(roo_q(decay(eps), records_, k));
  // k = 1: one letter, every output is it; q_M := 0 (k | n).
  if (k == 1) return 0.0;
  const double margin = 1e-12 * eps + 1e-14;
  const double eps_prime = eps > margin ? eps - margin : 0.0;
  const Decay d = decay(eps_prime);
  if (d.a == 0.0) return (records_ % k == 0 && m == M) ? 0.0 : 1.0;  // ε′ = 0: q ≡ 1
  const std::shared_ptr<const Checkpoints> table = checkpoints(k, eps_prime);
  const Checkpoints& c = *table;
  // Re-run exactly `stride` steps from the checkpoint at or below m: the same work for every m (data-independent
  // timing), bit-identical to the full run. Past the run's end (m > last) every entry is 0.
  const std::uint64_t target = std::min(m, c.last);
  const std::uint64_t base = target / c.stride * c.stride;
  double q = c.q[target / c.stride];
  double found = base == target ? q : 0.0;
  for (std::uint64_t i = 1; i < c.stride; ++i) {
    const std::uint64_t j = base + i;
    const bool live = j <= c.last;
    q = live ? dsroo_step(d, records_, k, j, q) : q;
    found += (live && j == target) ? q : 0.0;
  }
  return m > c.last ? 0.0 : found;
}

// Built once per k (the recursion's whole length, which depends on ε, n and k only), then shared by copies.
std::shared_ptr<const DsRooSampler::Checkpoints> DsRooSampler::checkpoints(std::size_t k, double epsilon_prime) const {
  if (cache_ && cache_->k == k) return cache_;
  const Decay d = decay(epsilon_prime);
  auto table = std::make_shared<Checkpoints>();
  table->k = k;
  // One pass keeping every stride-th entry, stride ≈ √(M+1) from the run's public bound M (memory and per-call
  // work both ~√M); the run may end earlier, at J, after which every entry is 0.
  const std::uint64_t M = records_ / k;
  table->stride = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::ceil(std::sqrt(static_cast<double>(M + 1)))));
  table->q.reserve(M / table->stride + 1);
  table->last = dsroo_run(d, records_, k, [&](std::uint64_t j, double q) {
    if (j % table->stride == 0) table->q.push_back(q);
  });
  cache_ = table;
  return table;
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

// ---- Laplace + projection baseline ----------------------------------------------------------------------

void LaplaceProjectionSampler::project_noisy(std::span<const double> counts, RandomBits& bits,
                                             std::vector<double>& out) const {
  const std::size_t k = counts.size();
  out.assign(k, 0.0);
  if (epsilon_ == 0.0) {  // infinite noise: data-independent uniform output
    std::fill(out.begin(), out.end(), 1.0 / static_cast<double>(k));
    return;
  }
  const double scale = 2.0 / epsilon_;  // replace-one L1 sensitivity of the count vector is 2
  CompensatedSum total;
  for (std::size_t y = 0; y < k; ++y) {
    const double noisy = counts[y] + laplace(bits, scale);
    out[y] = noisy > 0.0 ? noisy : 0.0;
    total.add(out[y]);
  }
  const double sum = total.value();
  if (!(sum > 0.0)) {
    std::fill(out.begin(), out.end(), 1.0 / static_cast<double>(k));
    return;
  }
  for (double& value : out) value /= sum;
}

std::vector<double> LaplaceProjectionSampler::distribution(std::span<const double> counts) const {
  const Counts c = validated_counts(counts, records_, "laplace-projection");
  const std::size_t k = c.c.size();
  if (epsilon_ == 0.0) return std::vector<double>(k, 1.0 / static_cast<double>(k));
  SeededRandom rng(kDistributionSeed);
  std::vector<double> sum(k, 0.0);
  std::vector<double> draw;
  for (std::size_t t = 0; t < kDistributionDraws; ++t) {
    project_noisy(counts, rng, draw);
    for (std::size_t y = 0; y < k; ++y) sum[y] += draw[y];
  }
  for (double& value : sum) value /= static_cast<double>(kDistributionDraws);
  return sum;
}

std::size_t LaplaceProjectionSampler::sample(std::span<const double> counts, RandomBits& bits) const {
  validated_counts(counts, records_, "laplace-projection");
  std::vector<double> projected;
  project_noisy(counts, bits, projected);
  return CumulativeTable(projected).draw(bits);  // post-processing of the noisy counts: no privacy rests on it
}

// Every run draws fresh noise, so there is nothing to prepare beyond checking the counts.
IndexDraw LaplaceProjectionSampler::prepare(std::span<const double> counts, std::size_t /*draws*/) const {
  validated_counts(counts, records_, "laplace-projection");
  return [self = *this, c = std::vector<double>(counts.begin(), counts.end())](RandomBits& bits) {
    return self.sample(c, bits);
  };
}

double LaplaceProjectionSampler::worst_case_risk(const FDivergence&, std::size_t) const {
  throw std::domain_error("laplace-projection has no closed-form worst-case risk");
}

}  // namespace privsample
