#include "privsample/histogram.hpp"
#include "privsample/errors.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "privsample/numeric.hpp"

namespace privsample {
namespace {

// The one scale rule of histograms: counts or probabilities (validated finite and >= 0, `largest` their maximum,
// > 0), divided by their total after scaling by the largest entry — in [0, 1], so no overflow when summing up to
// 10^7 entries and no underflow to zero on the way.
std::vector<double> scaled_to_pmf(std::span<const double> values, double largest) {
  std::vector<double> pmf(values.size());
  CompensatedSum total;
  for (std::size_t i = 0; i < values.size(); ++i) {
    pmf[i] = values[i] / largest;
    total.add(pmf[i]);
  }
  const double sum = total.value();
  for (double& v : pmf) v /= sum;
  return pmf;
}

}  // namespace

void check_category_count(std::size_t k, std::string_view name) {
  if (k == 0) {
    throw std::invalid_argument(std::string(name) + " is empty: need at least one category");
  }
  if (k > kMaxCategories) {
    throw std::invalid_argument(std::string(name) + " has " + std::to_string(k) +
                                " categories: at most " + std::to_string(kMaxCategories) + " are supported");
  }
}

std::vector<double> validated_prior(std::span<const double> prior, std::size_t k, std::string_view name,
                                    bool allow_zeros) {
  if (prior.size() != k) {
    throw ShapeError(std::string(name) + " has " + std::to_string(prior.size()) +
                                " entries but the histogram has " + std::to_string(k) + " categories");
  }
  double largest = 0.0;
  for (std::size_t i = 0; i < prior.size(); ++i) {
    const double v = prior[i];
    if (!std::isfinite(v) || v < 0.0 || (!allow_zeros && v == 0.0)) {
      throw std::invalid_argument(std::string(name) + "[" + std::to_string(i) + "] = " + format_value(v) +
                                  (allow_zeros ? ": entries must be finite and >= 0 (counts or probabilities)"
                                               : ": entries must be finite and > 0 (smooth the " + std::string(name) +
                                                     ", e.g. mix it with the uniform distribution)"));
    }
    largest = std::max(largest, v);
  }
  if (largest == 0.0) {
    throw std::invalid_argument(std::string(name) + " is all zeros: at least one entry must be positive");
  }
  return scaled_to_pmf(prior, largest);  // the scale rule of normalized_pmf
}

std::vector<double> normalized_pmf(std::span<const double> hist, std::string_view name) {
  check_category_count(hist.size(), name);
  double largest = 0.0;
  for (std::size_t i = 0; i < hist.size(); ++i) {
    const double v = hist[i];
    if (!std::isfinite(v) || v < 0.0) {
      throw std::invalid_argument(std::string(name) + "[" + std::to_string(i) + "] = " + format_value(v) +
                                  ": counts must be finite and >= 0");
    }
    largest = std::max(largest, v);
  }
  if (largest == 0.0) {
    throw std::invalid_argument(std::string(name) + " is all zeros: at least one count must be positive");
  }
  return scaled_to_pmf(hist, largest);
}

}  // namespace privsample

namespace privsample {

std::size_t validated_count(double value, std::string_view name, std::size_t minimum, std::size_t maximum) {
  if (!std::isfinite(value) || value != std::floor(value) || value < static_cast<double>(minimum) ||
      value > static_cast<double>(maximum)) {
    throw std::invalid_argument(std::string(name) + " = " + format_value(value) + ": must be an integer in [" +
                                std::to_string(minimum) + ", " + std::to_string(maximum) + "]");
  }
  return static_cast<std::size_t>(value);
}

}  // namespace privsample
