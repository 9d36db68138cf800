#pragma once
// Validated input: a histogram of counts (or probabilities) becomes a normalised pmf, or a clear error.
#include <cstddef>
#include <limits>
#include <span>
#include <string_view>
#include <vector>

#include "base/draw.hpp"
#include "base/errors.hpp"
#include "base/numeric.hpp"

namespace privsample {

// Largest number of categories every entry point accepts (memory, not mathematics, sets it:
// a few vectors of this length must fit in a browser tab's WebAssembly memory).
inline constexpr std::size_t kMaxCategories = 10'000'000;

// Checks 1 <= k <= kMaxCategories and every entry finite and >= 0 with a positive total, then divides by the
// total (compensated; each p_x = h_x / Σh rounded once). Throws std::invalid_argument naming `name`, the index and
// the value, e.g. "hist[3] = -2: counts must be finite and >= 0". Counts as large as 1e308 or as small as 1e-300
// normalise without overflow or underflow to zero (they are scaled by a power of two first). A count below 2^-400 of
// the largest count gives p_x = 0: what a mechanism does with p then never meets a subnormal number, whose arithmetic
// would make its time depend on the data.
[[nodiscard]] std::vector<double> normalized_pmf(std::span<const double> hist, std::string_view name = "hist");
// The same, every count divided however small (for divergences, which a far tail can dominate).
[[nodiscard]] std::vector<double> exactly_normalized_pmf(std::span<const double> hist, std::string_view name = "hist");

// q_x = clip(weight·p_x + floor; floor, ceiling) with p = normalized_pmf(hist, name), checked and computed in the same
// pass, each p_x the same double: the linear samplers' mixtures λ·P + floor, clamped so that rounding never leaves
// their box. (normalized_pmf is this with weight 1, floor −0 and ceiling +∞, which leave every p_x as it is.)
struct AffineClip {
  double weight = 1.0;
  double floor = -0.0;
  double ceiling = std::numeric_limits<double>::infinity();
};
[[nodiscard]] std::vector<double> normalized_pmf(std::span<const double> hist, const AffineClip& then,
                                                 std::string_view name = "hist");
// The same values written into `out` (as many entries as hist: a shape error otherwise), which may be hist itself.
void normalized_pmf_into(std::span<const double> hist, std::span<double> out, const AffineClip& then = {},
                         std::string_view name = "hist");

// The same checks (and errors) as normalized_pmf, and the rule p_x = rule(h_x) by which it divides (base/numeric.hpp),
// for a caller that computes p_x in a pass of its own (the clip samplers' distribution_into, which normalises in the
// solver's first pass): each p_x the same double as normalized_pmf's.
[[nodiscard]] HistogramScale checked_histogram_scale(std::span<const double> hist, std::string_view name = "hist");
// The shape error of normalized_pmf_into when its output does not have as many entries as the histogram.
inline void check_pmf_output(std::size_t entries, std::size_t out_entries, std::string_view name = "hist") {
  if (out_entries != entries) {
    throw_shape({"the output has ", out_entries, " entries but ", name, " has ", entries});
  }
}

// A public prior (reference distribution) over the same k categories, as counts or probabilities (any positive
// scale, like a histogram): length k, every entry finite and > 0 (or >= 0 when zeros are allowed, with a positive
// total). Returns it normalised to sum 1 the way normalized_pmf does. Errors name `name` ("prior",
// "reference"), the index and the value.
[[nodiscard]] std::vector<double> validated_prior(std::span<const double> prior, std::size_t k,
                                                  std::string_view name = "prior", bool allow_zeros = false);

// Checks the category count alone (for entry points that take k instead of a histogram).
void check_category_count(std::size_t k, std::string_view name = "k");

}  // namespace privsample

namespace privsample {

// A count given as a double (as JavaScript numbers arrive): must be an integer in [minimum, maximum].
// Throws std::invalid_argument, e.g. "n = 2.5: must be an integer in [0, 10000000]".
[[nodiscard]] std::size_t validated_count(double value, std::string_view name, std::size_t minimum,
                                          std::size_t maximum);

}  // namespace privsample
