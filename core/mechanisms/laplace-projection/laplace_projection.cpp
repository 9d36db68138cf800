#include "mechanisms/laplace-projection/laplace_projection.hpp"

#include <algorithm>
#include <cmath>
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
