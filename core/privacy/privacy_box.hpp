#pragma once
// The clip boxes the clip samplers release from, rounded toward privacy (docs/numerics.md).
//
// A clip sampler's output satisfies lo_x <= q_x <= hi_x exactly (clip_normalise clamps), so its pure ε-LDP
// guarantee holds for the released doubles themselves when hi_x <= e^ε·lo_x as real numbers. Every box floor is
// therefore rounded up (private_floor): at least the smallest double lo with hi_x <= exp_toward_zero(ε)·lo, a
// quotient whose rounding direction an fma decides exactly. Raising the floor, not lowering the top, keeps a box
// that must reach a top of 1 (a point mass at large ε) able to. The tests check q_a(x) <= e^ε·q_b(x) with an
// error-free product, no slack. When the raised floors sum above 1 (ε below the doubles' resolution, e^ε within a
// few ulps of 1) every input gets the same output, the public weights normalised: a ratio of exactly 1.
// A floor that underflows would break even that: a subnormal floor has lost its relative precision and a zero one
// allows an infinite ratio. A floor near the least normal double has subnormal rounding errors, and sums and
// differences of box ends then reach subnormal numbers, which some processors handle tens of times slower: which of
// them a release meets follows the data, so its time would too. privacy_box builds lo_x = floor·w_x and
// hi_x = ceiling·w_x from public weights w (a prior, a reference, cell masses) and applies the underflow rule:
//   an entry w_x > 0 whose floor lo_x = floor·w_x falls below 2^-960 (1.0e-289; every sum or difference of ends of
//   at least 2^-960 is 0 or at least 2^-1012) is either refused — std::invalid_argument naming the entry, its floor
//   and the smallest entry that works at this ε (finite priors and references: the caller wrote that number; e.g. a
//   prior entry of 1e-280 works up to ε ≈ 21 with γ = 2, not at ε = 30) — or made a category that is never output,
//   lo_x = hi_x = 0 (grid cells far in a reference's tails, where a density of the class could only have mass below
//   ~1e-280 anyway).
// Entries w_x = 0 give lo_x = hi_x = 0 (a category the sampler never outputs).
#include <span>
#include <string_view>
#include <vector>

#include "privacy/privacy.hpp"

namespace privsample {

// The least floor a box may have. A floor near the least normal double (2^-1022) has subnormal rounding errors: sums
// and differences of box ends then reach subnormal numbers, which lose precision and, on some processors, take tens of
// times longer, and which of them a release computes with follows the data. At 2^-960 or more, every sum or
// difference of box ends is 0 or at least 2^-1012 (a multiple of the least end's ulp), never subnormal.
inline constexpr double kSmallestBoxFloor = 0x1p-960;

// A double that is at most the real number e^ε, for 0 <= ε <= 709: std::exp is within 1 ulp; two steps down,
// and never below 1.
[[nodiscard]] double exp_toward_zero(double epsilon);

// max(lo, the smallest double f with top <= exp_toward_zero(ε)·f): the floor of a box at ratio e^ε below the top,
// rounded toward privacy (top/floor <= e^ε for the doubles). top >= 0 and finite.
[[nodiscard]] double private_floor(double lo, double top, double epsilon);

struct PrivacyBox {
  std::vector<double> lo;
  std::vector<double> hi;
};

// weights finite and >= 0 (validated by the caller); 0 < floor <= ceiling; epsilon the user's ε (the floors keep the
// ratio e^{effective_epsilon(ε)}, messages print ε as given). `name` is the weights' name in messages ("prior",
// "reference", "reference cell masses").
enum class UnderflowRule { refuse, never_output };

[[nodiscard]] PrivacyBox privacy_box(std::span<const double> weights, double floor, double ceiling, double epsilon,
                                     std::string_view name, UnderflowRule rule = UnderflowRule::refuse);

// The same for a sampler of any local notion (g validated, as the user gave it): for pure ε-LDP exactly the above; for
// (ε,δ)-LDP and μ-GDP the box is [floor·w, ceiling·w] rounded to nearest, its floors not raised (its ends differ by
// more than e^ε by design: the guarantee rests on the mixture, not on the box), and messages name g's parameters.
[[nodiscard]] PrivacyBox privacy_box(std::span<const double> weights, double floor, double ceiling, const Guarantee& g,
                                     std::string_view name, UnderflowRule rule = UnderflowRule::refuse);

// The log-width of the smallest box [c, c·e^w]·h holding q: w = max_x ln(q_x/h_x) − min_x ln(q_x/h_x) over the atoms
// with h_x > 0; +∞ when q puts mass where h has none or no mass where h has some. Every output of a clip sampler
// with box [b·h, b·e^ε·h] has w <= ε, so a check of an output against its guarantee (the reproductions') is this
// one number. q and h: same length, finite and >= 0 (std::invalid_argument naming the entry otherwise).
[[nodiscard]] double box_log_width(std::span<const double> q, std::span<const double> h);

}  // namespace privsample
