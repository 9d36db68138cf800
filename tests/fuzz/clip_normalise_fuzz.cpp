// clip-normalise on adversarial doubles through its public API: every q stays inside its box exactly and sums to 1,
// or the box/input is rejected with std::invalid_argument.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <vector>

#include "fuzz_support.hpp"
#include "privsample/clip_normalise.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  privsample_fuzz::Bytes bytes(data, size);
  const std::vector<double> p = bytes.histogram(48);
  const std::size_t k = p.size();
  std::vector<double> lo(k), hi(k);
  const double scale = 1.0 / static_cast<double>(k);
  for (std::size_t x = 0; x < k; ++x) {
    lo[x] = scale * (bytes.byte() / 256.0);
    hi[x] = lo[x] + scale * (bytes.byte() / 16.0);
  }
  try {
    const privsample::ClipNormalised r = privsample::clip_normalise(p, privsample::AtomBox{lo, hi});
    double total = 0.0;
    for (std::size_t x = 0; x < k; ++x) {
      if (!(r.q[x] >= lo[x] && r.q[x] <= hi[x])) std::abort();
      total += r.q[x];
    }
    if (std::fabs(total - 1.0) > 1e-9) std::abort();
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
