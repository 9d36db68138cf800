#include "privsample/histogram.hpp"
#include "privsample/errors.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "privsample/numeric.hpp"

namespace privsample {

void check_category_count(std::size_t k, std::string_view name) {
  if (k == 0) {
    throw_invalid({name, " is empty: need at least one category"});
  }
  if (k > kMaxCategories) {
    throw_invalid({name, " has ", k, " categories: at most ", kMaxCategories, " are supported"});
  }
}

std::vector<double> validated_prior(std::span<const double> prior, std::size_t k, std::string_view name,
                                    bool allow_zeros) {
  if (prior.size() != k) {
    throw_shape({name, " has ", prior.size(), " entries but the histogram has ", k, " categories"});
  }
  double largest = 0.0;
  for (std::size_t i = 0; i < prior.size(); ++i) {
    const double v = prior[i];
    if (!std::isfinite(v) || v < 0.0 || (!allow_zeros && v == 0.0)) {
      if (allow_zeros) throw_invalid({name, "[", i, "] = ", v, ": entries must be finite and >= 0 (counts or probabilities)"});
      throw_invalid({name, "[", i, "] = ", v, ": entries must be finite and > 0 (smooth the ", name,
                     ", e.g. mix it with the uniform distribution)"});
    }
    largest = std::max(largest, v);
  }
  if (largest == 0.0) {
    throw_invalid({name, " is all zeros: at least one entry must be positive"});
  }
  // The one scale rule of histograms (normalized_pmf): counts or probabilities, divided by their total after
  // scaling by the largest entry (no overflow or underflow to zero on the way).
  std::vector<double> out(prior.size());
  CompensatedSum total;
  for (std::size_t i = 0; i < prior.size(); ++i) {
    out[i] = prior[i] / largest;
    total.add(out[i]);
  }
  const double sum = total.value();
  for (double& v : out) v /= sum;
  return out;
}

std::vector<double> normalized_pmf(std::span<const double> hist, std::string_view name) {
  check_category_count(hist.size(), name);
  double largest = 0.0;
  for (std::size_t i = 0; i < hist.size(); ++i) {
    const double v = hist[i];
    if (!std::isfinite(v) || v < 0.0) {
      throw_invalid({name, "[", i, "] = ", v, ": counts must be finite and >= 0"});
    }
    largest = std::max(largest, v);
  }
  if (largest == 0.0) {
    throw_invalid({name, " is all zeros: at least one count must be positive"});
  }
  std::vector<double> pmf(hist.size());
  CompensatedSum total;
  for (std::size_t i = 0; i < hist.size(); ++i) {
    pmf[i] = hist[i] / largest;  // in [0, 1]: no overflow when summing up to 10^7 entries
    total.add(pmf[i]);
  }
  const double sum = total.value();
  for (double& v : pmf) v /= sum;
  return pmf;
}

}  // namespace privsample

namespace privsample {

std::size_t validated_count(double value, std::string_view name, std::size_t minimum, std::size_t maximum) {
  if (!std::isfinite(value) || value != std::floor(value) || value < static_cast<double>(minimum) ||
      value > static_cast<double>(maximum)) {
    throw_invalid({name, " = ", value, ": must be an integer in [", minimum, ", ", maximum, "]"});
  }
  return static_cast<std::size_t>(value);
}

}  // namespace privsample
