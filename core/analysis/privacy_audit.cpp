#include "analysis/privacy_audit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>
#include <sstream>

#include "base/errors.hpp"
#include "base/randomness.hpp"
#include "privacy/functional_ldp.hpp"

namespace privsample {
namespace {

// Every released probability is (1 − λ)·b/T + λ·w·2^-63 with b, T, w integers below 2^64 and λ a double: in 64 bits
// of mantissa each term is exact or rounded once, so a law is within 3·2^-64 relative of its real value. A log-ratio
// is taken as log1p(difference/bottom) with the difference formed exactly where the two laws share their base part
// (λ·(w_a − w_b)·2^-63): so it keeps its relative precision at any ε, also where e^ε is within 1e-15 of 1.
using Real = long double;
static_assert(std::numeric_limits<Real>::digits >= 64, "the audit needs an extended-precision long double");

using Wide = __uint128_t;

struct Shares {
  Real base;
  Real data;
};

Shares shares_of(const ReleasePlan& plan) {
  const Real share = plan.share;
  return plan.share_is_data ? Shares{1.0L - share, share} : Shares{share, 1.0L - share};
}

Real base_probability(const ReleasePlan& plan, std::size_t x) {
  return static_cast<Real>(plan.base.weight(x)) / static_cast<Real>(plan.base.total());
}

Real law(const ReleasePlan& plan, const Shares& s, std::size_t x, std::uint64_t units) {
  return s.base * base_probability(plan, x) + s.data * std::ldexp(static_cast<Real>(units), -63);
}

std::vector<Real> law_of(const Release& release) {
  const ReleasePlan& plan = release.plan();
  const Shares s = shares_of(plan);
  std::vector<Real> out(plan.size());
  for (std::size_t x = 0; x < out.size(); ++x) out[x] = law(plan, s, x, release.units()[x]);
  return out;
}

std::uint64_t lo_of(const ReleasePlan& plan, std::size_t x) { return plan.box.lo.empty() ? 0 : plan.box.lo[x]; }
std::uint64_t hi_of(const ReleasePlan& plan, std::size_t x) { return plan.box.hi.empty() ? kReleaseUnits : plan.box.hi[x]; }

std::string describe(std::initializer_list<MessagePiece> pieces) { return message(pieces); }

// The upper bound on the hockey-stick divergence at e^β over every pair of laws the plan allows (module comment).
Real plan_hockey_stick(const ReleasePlan& plan, Real growth) {
  const Shares s = shares_of(plan);
  const std::size_t k = plan.size();
  if (s.data == 0.0L) return 0.0L;
  if (plan.box.hi.empty()) {
    // Any pmf: the whole data part on the atom the base gives least, against a data part with nothing there.
    Real least = std::numeric_limits<Real>::infinity();
    for (std::size_t x = 0; x < k; ++x) least = std::min(least, base_probability(plan, x));
    return std::max(0.0L, s.data - (growth - 1.0L) * s.base * least);
  }
  // A box: c1 and c2 = the smallest and largest factors between an atom's box ends and its base share; every set A
  // then has ΣH_A <= c2·B(A) and ΣL_A >= c1·B(A) (in units of 2^63), and the worst set's hockey-stick is at most
  // max_s λ(min(c2·s, 1 − c1(1−s)) − e^β·max(c1·s, 1 − c2(1−s))) − (e^β − 1)(1 − λ)s, whose maximum over s ∈ [0, 1] is
  // at a breakpoint of the piecewise-linear function.
  Real c1 = 1.0L;
  Real c2 = 1.0L;
  for (std::size_t x = 0; x < k; ++x) {
    const Real b = base_probability(plan, x) * std::ldexp(1.0L, 63);
    if (b == 0.0L) {
      if (plan.box.hi[x] > 0) return s.data;  // mass where the base has none
      continue;
    }
    c2 = std::max(c2, static_cast<Real>(plan.box.hi[x]) / b);
    c1 = std::min(c1, static_cast<Real>(plan.box.lo[x]) / b);
  }
  Real worst = 0.0L;
  std::vector<Real> shares{0.0L, 1.0L};
  if (c2 > c1) shares.insert(shares.end(), {(1.0L - c1) / (c2 - c1), (c2 - 1.0L) / (c2 - c1)});
  for (const Real share : shares) {
    const Real most = std::min(c2 * share, 1.0L - c1 * (1.0L - share));
    const Real least = std::max(c1 * share, 1.0L - c2 * (1.0L - share));
    worst = std::max(worst, s.data * (most - growth * least) - (growth - 1.0L) * s.base * share);
  }
  return worst;
}

// β's at which a Gaussian guarantee is checked: 0, a linear and a log grid up to where δ_μ vanishes, and a
// golden-section refinement around each of the three grid points where the hockey-stick comes closest to δ_μ(β)
// relative to it (the worst β of a tight mechanism is a narrow peak of H(β) − δ_μ(β) at 0; far out both vanish).
// hockey(β) is the hockey-stick divergence at e^β.
// The log grid starts at β = 1e-6, so that the narrow peak near 0 falls between grid points a golden-section
// refinement can start from; the refinement stops at a bracket of 1e-15 of max(1, β), a few ulps.
constexpr double kLogGridStart = 1e-6;
constexpr double kRefinedBracket = 1e-15;
// The coarse grid that ranks pairs starts at 1e-3: it only has to say which pairs come closest, not where.
constexpr double kCoarseGridStart = 1e-3;
template <class Hockey>
AuditFinding gaussian_search(const Guarantee& g, Hockey&& hockey) {
  const double top = g.mu * g.mu / 2.0 + 10.0 * g.mu + 10.0;
  AuditFinding out;
  out.bound = 0.0;
  out.worst = -std::numeric_limits<double>::infinity();
  out.excess = -std::numeric_limits<double>::infinity();
  const auto excess = [&](double beta) {
    const double h = hockey(beta);
    const double d = privacy_profile(g, beta);
    ++out.pairs;
    if (h - d > out.worst) {
      out.worst = h - d;
      out.excess = out.worst;
      out.witness = describe({"beta = ", beta});
    }
    return d > 0.0 ? h / d : (h > 0.0 ? std::numeric_limits<double>::infinity() : 0.0);
  };
  constexpr int kGrid = 2000;
  std::vector<double> betas{0.0};
  for (int i = 1; i <= kGrid; ++i) betas.push_back(top * i / kGrid);
  for (int i = 0; i <= kGrid; ++i) {
    betas.push_back(kLogGridStart * std::pow(top / kLogGridStart, static_cast<double>(i) / kGrid));
  }
  std::sort(betas.begin(), betas.end());
  std::vector<double> ratio(betas.size());
  for (std::size_t i = 0; i < betas.size(); ++i) ratio[i] = excess(betas[i]);
  std::vector<std::size_t> order(betas.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::partial_sort(order.begin(), order.begin() + 3, order.end(), [&](auto a, auto b) { return ratio[a] > ratio[b]; });
  for (int peak = 0; peak < 3; ++peak) {
    const std::size_t i = order[peak];
    double a = betas[i == 0 ? 0 : i - 1];
    double b = betas[std::min(i + 1, betas.size() - 1)];
    for (int step = 0; step < 100 && b - a > kRefinedBracket * std::max(1.0, b); ++step) {
      const double m1 = b - (b - a) * 0.6180339887498949;
      const double m2 = a + (b - a) * 0.6180339887498949;
      if (excess(m1) > excess(m2)) b = m2; else a = m1;
    }
  }
  return out;
}
}  // namespace

AuditFinding audit_release_plan(const ReleasePlan& plan, const Guarantee& g) {
  const std::size_t k = plan.size();
  const Shares s = shares_of(plan);
  if (g.notion == PrivacyNotion::pure_ldp) {
    AuditFinding out;
    out.bound = effective_epsilon(g.epsilon);
    Wide low = 0;
    Wide high = 0;
    for (std::size_t x = 0; x < k; ++x) {
      low += lo_of(plan, x);
      high += hi_of(plan, x);
    }
    for (std::size_t x = 0; x < k; ++x) {
      const Wide others_low = low - lo_of(plan, x);
      const Wide others_high = high - hi_of(plan, x);
      const std::uint64_t most = static_cast<std::uint64_t>(
          std::min<Wide>(hi_of(plan, x), others_low >= kReleaseUnits ? 0 : kReleaseUnits - others_low));
      const std::uint64_t least = static_cast<std::uint64_t>(
          std::max<Wide>(lo_of(plan, x), others_high >= kReleaseUnits ? 0 : kReleaseUnits - others_high));
      const std::uint64_t spread = s.data == 0.0L ? 0 : most - least;
      const Real top = law(plan, s, x, s.data == 0.0L ? 0 : most);
      const Real bottom = law(plan, s, x, s.data == 0.0L ? 0 : least);
      ++out.pairs;
      if (top == 0.0L) continue;  // never released
      const Real ratio = bottom == 0.0L ? std::numeric_limits<Real>::infinity()
                                        : std::log1p(s.data * std::ldexp(static_cast<Real>(spread), -63) / bottom);
      if (ratio - out.bound > out.excess || out.witness.empty()) {
        out.worst = static_cast<double>(ratio);
        out.excess = static_cast<double>(ratio - out.bound);
        out.witness = describe({"atom ", x, ": largest law ", static_cast<double>(top), " over smallest ",
                                static_cast<double>(bottom)});
      }
    }
    return out;
  }
  if (g.notion == PrivacyNotion::approximate_ldp) {
    AuditFinding out;
    out.bound = g.delta;
    const Real worst = plan_hockey_stick(plan, std::exp(static_cast<Real>(effective_epsilon(g.epsilon))));
    out.worst = static_cast<double>(worst);
    out.excess = static_cast<double>(worst - g.delta);
    out.pairs = 1;
    out.witness = "the plan's worst set";
    return out;
  }
  if (g.notion == PrivacyNotion::gaussian_ldp) {
    const Guarantee running = effective_ldp_guarantee(g);
    return gaussian_search(running, [&](double beta) {
      return static_cast<double>(plan_hockey_stick(plan, std::exp(static_cast<Real>(beta))));
    });
  }
  throw_invalid({"audit_release_plan: ", notion_name(g.notion), " is not a local notion"});
}

namespace {

// difference(i, j, x) = laws[i][x] − laws[j][x], formed as exactly as the laws allow.
template <class Difference>
AuditFinding audit_laws(std::span<const std::vector<Real>> laws, const Guarantee& g, std::span<const std::string> labels,
                        Difference&& difference) {
  const auto name = [&](std::size_t i) { return i < labels.size() ? labels[i] : "input " + std::to_string(i); };
  AuditFinding out;
  if (laws.empty()) return out;
  const std::size_t k = laws[0].size();
  if (g.notion == PrivacyNotion::pure_ldp || g.notion == PrivacyNotion::record_dp) {
    out.bound = effective_epsilon(g.epsilon);
    out.worst = -std::numeric_limits<double>::infinity();
    out.excess = -std::numeric_limits<double>::infinity();
    for (std::size_t x = 0; x < k; ++x) {
      std::size_t top = 0;
      std::size_t bottom = 0;
      for (std::size_t i = 1; i < laws.size(); ++i) {
        if (laws[i][x] > laws[top][x]) top = i;
        if (laws[i][x] < laws[bottom][x]) bottom = i;
      }
      out.pairs += laws.size() * (laws.size() - 1);
      if (laws[top][x] == 0.0L) continue;
      const Real ratio = laws[bottom][x] == 0.0L ? std::numeric_limits<Real>::infinity()
                                                 : std::log1p(difference(top, bottom, x) / laws[bottom][x]);
      if (ratio - out.bound > out.excess) {
        out.worst = static_cast<double>(ratio);
        out.excess = static_cast<double>(ratio - out.bound);
        out.witness = describe({"atom ", x, ": ", name(top), " over ", name(bottom)});
      }
    }
    if (out.worst == -std::numeric_limits<double>::infinity()) out.worst = out.excess = 0.0;
    return out;
  }
  const auto hockey = [&](const std::vector<Real>& a, const std::vector<Real>& b, Real growth) {
    Real sum = 0.0L;
    for (std::size_t x = 0; x < k; ++x) sum += std::max(0.0L, a[x] - growth * b[x]);
    return sum;
  };
  if (g.notion == PrivacyNotion::approximate_ldp) {
    out.bound = g.delta;
    const Real growth = std::exp(static_cast<Real>(effective_epsilon(g.epsilon)));
    for (std::size_t i = 0; i < laws.size(); ++i) {
      for (std::size_t j = 0; j < laws.size(); ++j) {
        if (i == j) continue;
        ++out.pairs;
        const Real h = hockey(laws[i], laws[j], growth);
        if (h - g.delta > out.excess || out.witness.empty()) {
          out.worst = static_cast<double>(h);
          out.excess = static_cast<double>(h - g.delta);
          out.witness = describe({name(i), " against ", name(j)});
        }
      }
    }
    return out;
  }
  if (g.notion == PrivacyNotion::gaussian_ldp) {
    const Guarantee running = effective_ldp_guarantee(g);
    // Every pair on a coarse grid of β (its hockey-stick relative to δ_μ), then the full search on the three pairs
    // that come closest.
    const double top = running.mu * running.mu / 2.0 + 10.0 * running.mu + 10.0;
    std::vector<double> coarse{0.0};
    for (int i = 0; i <= 24; ++i) coarse.push_back(kCoarseGridStart * std::pow(top / kCoarseGridStart, i / 24.0));
    struct Candidate {
      double closeness;
      std::size_t i;
      std::size_t j;
    };
    std::vector<Candidate> candidates;
    for (std::size_t i = 0; i < laws.size(); ++i) {
      for (std::size_t j = 0; j < laws.size(); ++j) {
        if (i == j) continue;
        double closest = -std::numeric_limits<double>::infinity();
        for (const double beta : coarse) {
          const double h = static_cast<double>(hockey(laws[i], laws[j], std::exp(static_cast<Real>(beta))));
          const double d = privacy_profile(running, beta);
          closest = std::max(closest, d > 0.0 ? h / d : (h > 0.0 ? 2.0 : 0.0));
        }
        candidates.push_back({closest, i, j});
      }
    }
    const std::size_t keep = std::min<std::size_t>(3, candidates.size());
    std::partial_sort(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(keep), candidates.end(),
                      [](const Candidate& a, const Candidate& b) { return a.closeness > b.closeness; });
    AuditFinding best;
    best.worst = -std::numeric_limits<double>::infinity();
    best.pairs = candidates.size() * coarse.size();
    for (std::size_t c = 0; c < keep; ++c) {
      const std::size_t i = candidates[c].i;
      const std::size_t j = candidates[c].j;
      AuditFinding f = gaussian_search(running, [&](double beta) {
        return static_cast<double>(hockey(laws[i], laws[j], std::exp(static_cast<Real>(beta))));
      });
      best.pairs += f.pairs;
      if (f.worst > best.worst) {
        best.worst = best.excess = f.worst;
        best.witness = describe({name(i), " against ", name(j), " at ", f.witness});
      }
    }
    best.bound = 0.0;
    return best;
  }
  throw_invalid({"audit: unknown notion"});
}

}  // namespace

AuditFinding audit_released_pairs(std::span<const Release> releases, const Guarantee& g,
                                  std::span<const std::string> labels) {
  std::vector<std::vector<Real>> laws;
  laws.reserve(releases.size());
  for (const Release& r : releases) laws.push_back(law_of(r));
  return audit_laws(laws, g, labels, [&](std::size_t i, std::size_t j, std::size_t x) -> Real {
    const Release& a = releases[i];
    const Release& b = releases[j];
    // One mechanism's releases share a plan when they share its parameters and k: their base parts cancel exactly.
    if (a.plan().share == b.plan().share && a.plan().share_is_data == b.plan().share_is_data &&
        a.plan().base.weight(x) == b.plan().base.weight(x) && a.plan().base.total() == b.plan().base.total()) {
      const std::uint64_t wa = a.units()[x];
      const std::uint64_t wb = b.units()[x];
      const Real step = shares_of(a.plan()).data * std::ldexp(1.0L, -63);
      return wa >= wb ? step * static_cast<Real>(wa - wb) : -step * static_cast<Real>(wb - wa);
    }
    return laws[i][x] - laws[j][x];
  });
}

AuditFinding audit_distribution_pairs(std::span<const std::vector<double>> laws, const Guarantee& g,
                                      std::span<const std::string> labels) {
  std::vector<std::vector<Real>> wide;
  wide.reserve(laws.size());
  for (const auto& l : laws) wide.emplace_back(l.begin(), l.end());
  // Two doubles' difference in 64 bits of mantissa: exact where they are within a factor 2 (Sterbenz), else rounded
  // once relative to itself.
  return audit_laws(wide, g, labels, [&](std::size_t i, std::size_t j, std::size_t x) { return wide[i][x] - wide[j][x]; });
}

namespace {

// log(a/b) for a >= b > 0 with the difference formed first (exact where they are close), so that it keeps its relative
// precision at tiny ε.
Real log_ratio(Real a, Real b) {
  if (b == 0.0L) return a == 0.0L ? 0.0L : std::numeric_limits<Real>::infinity();
  return std::log1p((a - b) / b);
}

// A report of `item` (drawn by the oracle's encoder) that supports item and not other, and the log of the larger of
// its two probability ratios; nothing when none was drawn in `tries` (or both probabilities underflow).
template <class O>
std::optional<Real> witness_ratio(const O& o, std::size_t item, std::size_t other, RandomBits& bits, int tries) {
  for (int t = 0; t < tries; ++t) {
    Real a = 0.0L;
    Real b = 0.0L;
    bool found = false;
    if constexpr (O::report_format == ReportFormat::bits) {
      std::vector<std::uint8_t> report(o.report_bytes());
      o.report(item, bits, report);
      if (O::supports(report, item) && !O::supports(report, other)) {
        a = o.report_probability(report, item);
        b = o.report_probability(report, other);
        found = true;
      }
    } else {
      const std::uint64_t report = o.report(item, bits);
      if (o.supports(report, item) && !o.supports(report, other)) {
        a = o.report_probability(report, item);
        b = o.report_probability(report, other);
        found = true;
      }
    }
    if (!found) continue;
    if (a == 0.0L && b == 0.0L) return std::nullopt;
    return std::max(a, b) == a ? log_ratio(a, b) : log_ratio(b, a);
  }
  return std::nullopt;
}

}  // namespace

AuditFinding audit_oracle(const Oracle& oracle) {
  const Guarantee g = guarantee(oracle);
  AuditFinding out;
  out.bound = effective_epsilon(g.epsilon);
  const ReportLevels l = report_levels(oracle);
  const Real top = std::max(l.supported, l.unsupported);
  const Real bottom = std::min(l.supported, l.unsupported);
  const Real analytic = log_ratio(top, bottom);
  out.worst = static_cast<double>(analytic);
  out.excess = static_cast<double>(analytic - out.bound);
  out.pairs = 1;
  out.witness = describe({"levels: a report supporting the item ", static_cast<double>(l.supported),
                          ", not supporting it ", static_cast<double>(l.unsupported)});
  const std::size_t k = categories(oracle);
  SeededRandom bits(0x5eedc0ffeeULL);
  const std::pair<std::size_t, std::size_t> pairs[] = {{0, 1}, {0, k - 1}, {k / 2, k - 1}};
  std::visit(
      [&](const auto& o) {
        for (const auto& [first, second] : pairs) {
          if (first == second) continue;
          for (const auto& [item, other] : {std::pair{first, second}, std::pair{second, first}}) {
            const std::optional<Real> r = witness_ratio(o, item, other, bits, 1000);
            if (!r) continue;
            ++out.pairs;
            if (*r - out.bound > out.excess) {
              out.worst = static_cast<double>(*r);
              out.excess = static_cast<double>(*r - out.bound);
              out.witness = describe({"a report of item ", item, " supporting it and not item ", other});
            }
          }
        }
      },
      oracle);
  return out;
}

}  // namespace privsample
