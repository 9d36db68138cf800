// Histogram validation on arbitrary doubles: either a pmf (finite, >= 0, sums to 1) or std::invalid_argument.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <vector>

#include "fuzz_support.hpp"
#include "model/histogram.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  privsample_fuzz::Bytes bytes(data, size);
  const std::size_t k = bytes.byte() % 64;
  std::vector<double> hist(k);
  for (double& v : hist) v = bytes.raw_double();
  try {
    const std::vector<double> p = privsample::normalized_pmf(hist);
    double total = 0.0;
    for (const double v : p) {
      if (!(v >= 0.0 && v <= 1.0)) std::abort();
      total += v;
    }
    if (std::fabs(total - 1.0) > 1e-12) std::abort();
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
