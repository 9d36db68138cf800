#include "mechanisms/laplace-projection/laplace_projection.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "base/errors.hpp"
#include "base/numeric.hpp"

namespace privsample {

using namespace records;

namespace {

// Laplace(scale) from one 64-bit word: the top bit is the sign, the low 53 bits a uniform U in [0, 1), and
// the magnitude scale·(−log(1 − U)) is an Exponential(1/scale) by inverse CDF. Textbook, not snapping-hardened.
double laplace(RandomBits& bits, double scale) {
  const std::uint64_t word = bits.next_u64();
  const double u = static_cast<double>(word & ((std::uint64_t{1} << 53) - 1)) * 0x1.0p-53;
  const double magnitude = -scale * std::log1p(-u);
  return (word >> 63) != 0 ? -magnitude : magnitude;
}

// A draw proportional to weights w_j is the winner of an exponential race, argmin_j E_j/w_j with E_j ~ Exp(1) iid.
// A point-mass user's letter weighs own = max(0, n + L_0); each of the k − 1 others max(0, L_j), which is 0 or an
// Exp of mean s = 2/ε with probability ½ each, so P(E_j/w_j > r) = ½·(1 + 1/(1 + r·s)) and the others' best time R
// has the survival function S(r) = (1 − r·s/(2·(1 + r·s)))^(k−1). With R = S⁻¹(V) for a uniform V in (0, 1], the
// letter wins (E_0/own < R) exactly when V < S(E_0/own). The winner among the others is uniform (they are
// exchangeable). V <= S(∞) = 2^−(k−1) is the event that every other weight is 0: the letter wins if own > 0, else
// every noisy count is <= 0 and the release is uniform over all k letters.
// Squeeze: S(z) <= exp(−T(z)) <= 1/(1 + T(z)) with T(z) = (k−1)·z·s/(2·(1 + z·s)), S decreasing and E_0 >= u_0 (for
// E_0 = −ln(1 − u_0)), so V·(1 + T(u_0/own)) >= 1 proves a loss without a logarithm; most users lose so.
//
// The users' loop of point_mass_counts into counts. No object with a destructor is alive here, so where C++
// exceptions are handled on the JavaScript side (Emscripten's -fexceptions) each draw is a direct call, not a trip
// through a JavaScript invoke_* wrapper, which a live vector in the frame would force on every draw (hence noinline:
// inlined into point_mass_counts, it would share that frame).
[[gnu::noinline]] void race_point_masses(std::span<const double> items, double n, double epsilon,
                                         RandomBits& bits, std::span<double> counts) {
  const std::size_t k = items.size();
  const double scale = 2.0 / epsilon;
  const double others = static_cast<double>(k) - 1.0;
  const double all_others_zero = others * -std::numbers::ln2;  // ln S(∞)
  for (std::size_t x = 0; x < k; ++x) {
    for (double user = 0.0; user < items[x]; user += 1.0) {
      if (epsilon == 0.0 || k == 1) {
        counts[static_cast<std::size_t>(uniform_below(bits, k))] += 1.0;
        continue;
      }
      const double own = std::max(0.0, n + laplace(bits, scale));
      const double v = 1.0 - uniform01(bits);  // in (0, 1]
      const double u = uniform01(bits);
      bool wins = false;
      if (!(own > 0.0)) {
        if (std::log(v) <= all_others_zero) {
          counts[static_cast<std::size_t>(uniform_below(bits, k))] += 1.0;
          continue;
        }
      } else {
        // V·(1 + T(u_0/own)) >= 1 multiplied by 2·(own + u_0·s) > 0, so that it takes no division.
        const double lower = u * scale;
        if (v * (2.0 * (own + lower) + others * lower) < 2.0 * (own + lower)) {
          const double zs = -std::log1p(-u) / own * scale;
          wins = std::log(v) < others * std::log1p(-zs / (2.0 * (1.0 + zs)));
        }
      }
      std::size_t released = x;
      if (!wins) {
        const auto other = static_cast<std::size_t>(uniform_below(bits, k - 1));
        released = other < x ? other : other + 1;
      }
      counts[released] += 1.0;
    }
  }
}

}  // namespace

LaplaceProjectionSampler LaplaceProjectionSampler::make(const MechanismOptions& o) {
  (void)checked_options(spec, o);
  return LaplaceProjectionSampler(*o.epsilon, *o.records);
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
  (void)validated_counts(counts, records_, "laplace-projection");  // a check only: the noise is added to the counts
  std::vector<double> projected;
  project_noisy(counts, bits, projected);
  return CumulativeTable(projected).draw(bits);  // post-processing of the noisy counts: no privacy rests on it
}

// Every run draws fresh noise, so there is nothing to prepare beyond checking the counts.
IndexDraw LaplaceProjectionSampler::prepare(std::span<const double> counts, std::size_t /*draws*/) const {
  (void)validated_counts(counts, records_, "laplace-projection");  // a check only, as in sample()
  return [self = *this, c = std::vector<double>(counts.begin(), counts.end())](RandomBits& bits) {
    return self.sample(c, bits);
  };
}

double LaplaceProjectionSampler::worst_case_risk(const FDivergence&, std::size_t) const {
  throw std::domain_error("laplace-projection has no closed-form worst-case risk");
}

std::vector<double> LaplaceProjectionSampler::point_mass_counts(std::span<const double> items, RandomBits& bits) const {
  check_category_count(items.size(), "items");
  std::vector<double> counts(items.size(), 0.0);
  race_point_masses(items, static_cast<double>(records_), epsilon_, bits, counts);
  return counts;
}

}  // namespace privsample
