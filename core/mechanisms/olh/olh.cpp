#include "mechanisms/olh/olh.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>
#include <vector>

namespace privsample {
namespace {

constexpr std::uint64_t kReportLimit = std::uint64_t{1} << 53;  // reports are exact in a JS number
constexpr std::uint64_t kLargestRange = std::uint64_t{1} << 15;  // 16·g <= P and P²·g <= 2^53

bool is_prime(std::uint64_t n) {
  if (n < 2) return false;
  if (n % 2 == 0) return n == 2;
  for (std::uint64_t d = 3; d * d <= n; d += 2) {
    if (n % d == 0) return false;
  }
  return true;
}

std::uint64_t prime_at_least(std::uint64_t n) {
  while (!is_prime(n)) ++n;
  return n;
}

// x mod m for x < 2^52 and 2 <= m < 2^31: the quotient from a product in doubles is within one of floor(x/m) (its
// relative error is below 2^-51, so its absolute error is below 2^52/m·2^-51 <= 1), and one correction each way
// lands the remainder in [0, m). The same operations for every x.
std::uint64_t mod_below(std::uint64_t x, std::uint64_t m, double inverse) noexcept {
  const auto quotient = static_cast<std::uint64_t>(static_cast<double>(x) * inverse);
  const auto modulus = static_cast<std::int64_t>(m);
  std::int64_t r = static_cast<std::int64_t>(x) - static_cast<std::int64_t>(quotient * m);
  r += modulus & -static_cast<std::int64_t>(r < 0);
  r -= modulus & -static_cast<std::int64_t>(r >= modulus);
  return static_cast<std::uint64_t>(r);
}

// a⁻¹ mod p for 0 < a < p, p prime (extended Euclid).
std::uint64_t inverse_mod(std::uint64_t a, std::uint64_t p) {
  std::int64_t t = 0, next_t = 1;
  auto r = static_cast<std::int64_t>(p), next_r = static_cast<std::int64_t>(a);
  while (next_r != 0) {
    const std::int64_t q = r / next_r;
    t = std::exchange(next_t, t - q * next_t);
    r = std::exchange(next_r, r - q * next_r);
  }
  return static_cast<std::uint64_t>(t < 0 ? t + static_cast<std::int64_t>(p) : t);
}

}  // namespace

OlhOracle OlhOracle::make(const MechanismOptions& options) { return oracle_from_options<OlhOracle>(options); }

OlhOracle::OlhOracle(double epsilon, std::size_t k) : OracleParts(epsilon, k) {
  // g = round(e^ε + 1) (Wang et al.'s optimum), lowered until the report fits: each round lowers g strictly, and
  // g = 2 fits for every k <= kMaxCategories.
  const double running = effective_epsilon(epsilon);
  std::uint64_t g = running >= std::log(static_cast<double>(kLargestRange))
                        ? kLargestRange
                        : std::max<std::uint64_t>(2, static_cast<std::uint64_t>(std::llround(std::exp(running) + 1.0)));
  std::uint64_t p = 0;
  while (true) {
    p = prime_at_least(std::max<std::uint64_t>(k_, 16 * g));
    if (static_cast<__uint128_t>(p) * p * g <= kReportLimit) break;
    g = kReportLimit / (p * p);
  }
  g_ = g;
  prime_ = p;
  // keep = 2^64 − ceil(2^64·(g − 1)/(e^ε′ + g − 1)): the other values' share rounded up
  // (README.md#rounding-toward-privacy),
  const double others = static_cast<double>(g - 1);
  // and keep >= ceil(2^64/g) (keep >= each other value's share), which rounding passes at ε′ ≈ 0, where g = 2 and
  // keep = 2^63 makes the two values equally likely.
  const std::uint64_t fair = (~std::uint64_t{0}) / g + 1;  // ceil(2^64/g), for g a power of two or not
  coins_ = {std::max(0 - scaled_up(others / (std::exp(coin_epsilon(epsilon)) + others), 64), fair)};
  inverse_prime_ = 1.0 / static_cast<double>(p);
  inverse_range_ = 1.0 / static_cast<double>(g);
}

OlhOracle::OlhOracle(Guarantee claimed, std::size_t k, std::uint64_t g, std::uint64_t prime, Coins coins)
    : OracleParts(claimed, k, coins), g_(g), prime_(prime) {
  if (g < 2 || prime < k || !is_prime(prime) || static_cast<__uint128_t>(prime) * prime * g > kReportLimit) {
    throw std::invalid_argument("OlhOracle: needs g >= 2 and a prime P >= k with P^2 g <= 2^53");
  }
  inverse_prime_ = 1.0 / static_cast<double>(prime);
  inverse_range_ = 1.0 / static_cast<double>(g);
}

long double OlhOracle::collision_probability() const noexcept {
  const std::uint64_t m = prime_ / g_;
  const std::uint64_t r = prime_ % g_;
  // Σ_j n_j² = r(m + 1)² + (g − r)m² < P² <= 2^53: exact
  const std::uint64_t squares = r * (m + 1) * (m + 1) + (g_ - r) * m * m;
  return static_cast<long double>(squares) / (static_cast<long double>(prime_) * static_cast<long double>(prime_));
}

std::uint64_t OlhOracle::hash(std::uint64_t seed, std::uint64_t v) const noexcept {
  const std::uint64_t a = seed / prime_;  // the seed is public randomness: its division reveals nothing of v
  const std::uint64_t b = seed - a * prime_;
  return mod_below(mod_below(a * v + b, prime_, inverse_prime_), g_, inverse_range_);
}

std::uint64_t OlhOracle::report(std::size_t item, RandomBits& bits) const {
  const std::uint64_t seed = uniform_below(bits, prime_ * prime_);
  const bool keep = bits.next_u64() < coins_.keep;
  const std::uint64_t other = uniform_below(bits, g_ - 1);
  const std::uint64_t hashed = hash(seed, item);
  const std::uint64_t moved = other + static_cast<std::uint64_t>(other >= hashed);  // the g − 1 values but hashed
  const std::uint64_t value = moved ^ ((moved ^ hashed) & (0 - static_cast<std::uint64_t>(keep)));
  return seed * g_ + value;
}

bool OlhOracle::supports(std::uint64_t report, std::size_t v) const noexcept {
  const std::uint64_t seed = report / g_;
  return hash(seed, v) == report - seed * g_;
}

long double OlhOracle::report_probability(std::uint64_t report, std::size_t item) const {
  const ReportLevels l = levels();
  const long double seeds = static_cast<long double>(prime_) * static_cast<long double>(prime_);
  return (supports(report, item) ? l.supported : l.unsupported) / seeds;
}

ReportLevels OlhOracle::levels() const noexcept {
  const long double keep = coins_.keep;
  return {std::ldexp(keep, -64), std::ldexp(0x1.0p64L - keep, -64) / static_cast<long double>(g_ - 1)};
}

SupportLaw OlhOracle::support_law() const noexcept {
  const ReportLevels l = levels();
  const long double c = collision_probability();
  return {l.supported, c * l.supported + (1.0L - c) * l.unsupported};
}

void OlhOracle::add_support(std::span<const std::uint64_t> reports, std::span<double> counts) const {
  const std::uint64_t p = prime_;
  std::vector<std::uint64_t> tally(k_ + 1, 0);  // tally[k]: residues whose item is past the last one (k <= v < P)
  std::uint64_t everyone = 0;                   // reports whose hash is constant (a = 0) and equal to their value
  for (const std::uint64_t report : reports) {
    const std::uint64_t seed = report / g_;
    const std::uint64_t y = report - seed * g_;
    const std::uint64_t a = seed / p;
    const std::uint64_t b = seed - a * p;
    if (a == 0) {
      everyone += static_cast<std::uint64_t>(b % g_ == y);
      continue;
    }
    const std::uint64_t inverse = inverse_mod(a, p);
    const std::uint64_t step = g_ % p * inverse % p;
    std::uint64_t v = (y + p - b % p) % p * inverse % p;  // the item whose hash residue is r = y
    for (std::uint64_t r = y; r < p; r += g_) {
      ++tally[v < k_ ? v : k_];
      v += step;
      v -= p & (0 - static_cast<std::uint64_t>(v >= p));
    }
  }
  for (std::size_t v = 0; v < k_; ++v) counts[v] += static_cast<double>(tally[v] + everyone);
}

}  // namespace privsample
