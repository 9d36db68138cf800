#pragma once
// WebAssembly SIMD for the client module's hot passes (internal to the core's sources). PRIVSAMPLE_WASM_SIMD is defined for the
// client's own build of these files (CMakeLists.txt); the functions that use f64x2 carry PRIVSAMPLE_SIMD_FUNCTION
// (target("simd128")) instead of building whole files with -msimd128, which let clang vectorise other loops and
// cost the client KBs. Every other build computes the same lanes in scalar code, in the same order, bit for bit.
#if defined(__wasm__) && defined(PRIVSAMPLE_WASM_SIMD)
#define PRIVSAMPLE_SIMD_LANES 1
#include <wasm_simd128.h>

#include "base/numeric.hpp"

#define PRIVSAMPLE_SIMD_FUNCTION __attribute__((target("simd128")))

namespace privsample {

// Two ExactSums, lane by lane: ExactSum::add's TwoSum on each lane.
struct LaneSums {
  v128_t sum;
  v128_t error;
  PRIVSAMPLE_SIMD_FUNCTION LaneSums() : sum(wasm_f64x2_splat(0.0)), error(wasm_f64x2_splat(0.0)) {}
  PRIVSAMPLE_SIMD_FUNCTION void add(v128_t x) {
    const v128_t total = wasm_f64x2_add(sum, x);
    const v128_t x_part = wasm_f64x2_sub(total, sum);
    error = wasm_f64x2_add(error, wasm_f64x2_add(wasm_f64x2_sub(sum, wasm_f64x2_sub(total, x_part)),
                                                 wasm_f64x2_sub(x, x_part)));
    sum = total;
  }
  // add(x) for sums and terms >= 0 (or +0 and −0): Fast2Sum on the pair ordered by pmin/pmax, the same exact error
  // as TwoSum's (an error of 0 may differ in sign, which adding it to `error`, never −0, does not see) in one
  // operation fewer. (Other terms: an invalid histogram, whose sums are not used.)
  PRIVSAMPLE_SIMD_FUNCTION void add_nonnegative(v128_t x) {
    const v128_t total = wasm_f64x2_add(sum, x);
    error = wasm_f64x2_add(
        error, wasm_f64x2_sub(wasm_f64x2_pmin(x, sum), wasm_f64x2_sub(total, wasm_f64x2_pmax(sum, x))));
    sum = total;
  }
  [[nodiscard]] PRIVSAMPLE_SIMD_FUNCTION ExactSum lane(int which) const {
    return which == 0 ? ExactSum{wasm_f64x2_extract_lane(sum, 0), wasm_f64x2_extract_lane(error, 0)}
                      : ExactSum{wasm_f64x2_extract_lane(sum, 1), wasm_f64x2_extract_lane(error, 1)};
  }
};

}  // namespace privsample
#else
#define PRIVSAMPLE_SIMD_LANES 0
#define PRIVSAMPLE_SIMD_FUNCTION
#endif
