#include "model/divergence.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/errors.hpp"
#include "model/histogram.hpp"
#include "base/numeric.hpp"

namespace privsample {
namespace {
constexpr double kInfinity = std::numeric_limits<double>::infinity();

// weight·value with 0·∞ = 0: a term that carries no mass contributes nothing.
double weighted(double weight, double value) { return weight == 0.0 ? 0.0 : weight * value; }
}  // namespace

NamedDivergence parse_divergence(std::string_view name) {
  if (name == "kl") return NamedDivergence::kl;
  if (name == "tv") return NamedDivergence::tv;
  if (name == "hellinger") return NamedDivergence::hellinger;
  if (name == "chi2") return NamedDivergence::chi2;
  throw_invalid({"f = '", name, "': unknown divergence; use 'kl', 'tv', 'hellinger' or 'chi2'"});
}

std::string divergence_name(NamedDivergence divergence) {
  switch (divergence) {
    case NamedDivergence::kl: return "kl";
    case NamedDivergence::tv: return "tv";
    case NamedDivergence::hellinger: return "hellinger";
    case NamedDivergence::chi2: return "chi2";
  }
  return "unknown";
}

FDivergence f_divergence(NamedDivergence divergence) {
  switch (divergence) {
    case NamedDivergence::kl:
      return {[](double x) { return x == 0.0 ? 0.0 : x * std::log(x); }, 0.0, kInfinity};
    case NamedDivergence::tv:
      return {[](double x) { return std::fabs(x - 1.0) / 2.0; }, 0.5, 0.5};
    case NamedDivergence::hellinger:
      return {[](double x) {
                const double d = 1.0 - std::sqrt(x);
                return 0.5 * d * d;
              },
              0.5, 0.5};
    case NamedDivergence::chi2:
      return {[](double x) { return (x - 1.0) * (x - 1.0); }, 1.0, kInfinity};
  }
  throw std::invalid_argument("unknown divergence");
}

double divergence(const FDivergence& f, std::span<const double> p_in, std::span<const double> q_in) {
  if (p_in.size() != q_in.size()) {
    throw_shape({"p has ", p_in.size(), " entries but q has ", q_in.size(), ": they must have the same length"});
  }
  if (!f.f) throw std::invalid_argument("f is empty: an f-divergence needs a function");
  const std::vector<double> p = exactly_normalized_pmf(p_in, "p");
  const std::vector<double> q = exactly_normalized_pmf(q_in, "q");
  CompensatedSum total;
  for (std::size_t x = 0; x < p.size(); ++x) {
    if (q[x] > 0.0) {
      total.add(p[x] > 0.0 ? q[x] * f.f(p[x] / q[x]) : weighted(q[x], f.f_at_zero));
    } else {
      total.add(weighted(p[x], f.f_star_at_zero));  // 0·f(p/0) = p·f*(0); 0·f(0/0) = 0
    }
  }
  return total.value();
}

double divergence(NamedDivergence f, std::span<const double> p, std::span<const double> q) {
  // The named f have f(1) = 0, so D_f >= 0 (Jensen); rounding can leave −1e-17 where Q ≈ P.
  return std::max(0.0, divergence(f_divergence(f), p, q));
}

double chord_risk(const FDivergence& f, double r1, double r2) {
  if (!(r1 >= 0.0 && r1 <= 1.0 && r2 >= 1.0)) {
    throw_invalid({"chord_risk: need 0 <= r1 <= 1 <= r2, got r1 = ", r1, ", r2 = ", r2});
  }
  if (r2 == r1) return 0.0;
  const double weight_of_r2 = (1.0 - r1) / (r2 - r1);
  const double weight_of_r1 = (r2 - 1.0) / (r2 - r1);
  const double f_r1 = r1 == 0.0 ? f.f_at_zero : f.f(r1);
  return weighted(weight_of_r2, f.f(r2)) + weighted(weight_of_r1, f_r1);
}

}  // namespace privsample
