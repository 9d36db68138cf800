#pragma once
// Internal to core/solver/ (clip-normalise's own sources include it; nothing else may): which form of each pass over
// the masses a build compiles, decided here once, and the lane helpers of every build — branch-free selects and clips
// on bit patterns for the scalar lanes, f64x2 vector types with their masks, minima and maxima (SSE2, NEON or
// WebAssembly SIMD), and the client module's WebAssembly SIMD pairs.
//
// Every form of a pass does the scalar form's operations in the same order with the same roundings, so every build
// gives the same doubles: the golden digests (tests/golden/fixed-schedule-digest.json) were computed by the scalar
// forms, and each build is checked against them.
#include <algorithm>
#include <cstdint>

#include "base/numeric.hpp"
#include "base/simd_lanes.hpp"

// The adaptive search's passes over every mass of a uniform box — the validating scan, the small-k steering, the
// closing pass and the check for an atom inside its box — run in f64x2 lanes where the target has them (GCC/Clang
// vector extensions: SSE2 or NEON natively, WebAssembly SIMD in the research module, which is built with -msimd128,
// and in the client's PRIVSAMPLE_SIMD_FUNCTION functions): lanes 0 and 1 in one vector, 2 and 3 in another.
// PRIVSAMPLE_VECTOR_LANES: the scan and the steering pass; PRIVSAMPLE_VECTOR_CLOSING: the closing pass and the check.
// The client (PRIVSAMPLE_CLIENT_SIZE_BUDGET, CMakeLists.txt) keeps the scalar closing pass and leaves out what helps
// large k only (kClientSizeBudget, below), because its bytes go to its size budget and to small k.
// PRIVSAMPLE_SCALAR_FORMS (the test build privsample_scalar_forms_tests, CMakeLists.txt) compiles the scalar form of
// every pass instead, as a build without SSE2, NEON or WebAssembly SIMD would: no shipped build runs the scalar scan or
// steering pass, and only the client the scalar closing pass, yet the digests' goldens came from them.
// The fixed schedule's F̃ runs in these f64x2 lanes in every build that has them (the client included); its checking
// pass too, except in the client, which keeps a form by WebAssembly SIMD intrinsics (PRIVSAMPLE_SIMD_LANES,
// base/simd_lanes.hpp). The scalar-forms build runs their scalar lanes, which give the same doubles.
#if defined(PRIVSAMPLE_SCALAR_FORMS)
#define PRIVSAMPLE_VECTOR_LANES 0
#define PRIVSAMPLE_VECTOR_CLOSING 0
#elif defined(__wasm__) ? (defined(__wasm_simd128__) || PRIVSAMPLE_SIMD_LANES) \
                         : (defined(__SSE2__) || defined(__ARM_NEON))
#define PRIVSAMPLE_VECTOR_LANES 1
#if defined(PRIVSAMPLE_CLIENT_SIZE_BUDGET)
#define PRIVSAMPLE_VECTOR_CLOSING 0
#else
#define PRIVSAMPLE_VECTOR_CLOSING 1
#endif
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#else
#define PRIVSAMPLE_VECTOR_LANES 0
#define PRIVSAMPLE_VECTOR_CLOSING 0
#endif

namespace privsample::clip_solver {

// The client module leaves out what helps large k only (reserves, the closing pass's lanes, the one-pass output, a
// second steering pass): its bytes go to its size budget and to small k. Read by `if constexpr`.
#if defined(PRIVSAMPLE_CLIENT_SIZE_BUDGET)
inline constexpr bool kClientSizeBudget = true;
#else
inline constexpr bool kClientSizeBudget = false;
#endif

// ---- Scalar lanes: branch-free selection and clipping --------------------------------------------------------------
// For the fixed schedule and the output of both schedules, whose work must not depend on the data. V8 compiles
// WebAssembly's f64 select, min and max to branches, which random masses mispredict: these work on bit patterns with
// integer masks, which order doubles >= 0 as the values do (+∞ included) once the sign bit is cleared (−0 has it set).
inline constexpr std::uint64_t kLargestFiniteBits = 0x7FEF'FFFF'FFFF'FFFFULL;

// All ones when `condition`, else zero.
inline std::uint64_t mask_of(bool condition) { return std::uint64_t{0} - static_cast<std::uint64_t>(condition); }

// condition ? if_true : if_false by masks on the bit patterns. The mask is opaque to the optimiser (opaque_mask), which
// would otherwise fold the masking back into a select on doubles, which V8 compiles to a branch (a select on
// integers, as in clip_bits, becomes a conditional move, whose time does not depend on the data).
inline double select_bits(bool condition, double if_true, double if_false) {
  const std::uint64_t mask = opaque_mask(condition);
  return double_of((bits_of(if_true) & mask) | (bits_of(if_false) & ~mask));
}

// clip(x; lo, hi) for x, lo, hi >= 0 (x may be +∞), without a branch. Natively min and max are branch-free
// instructions (minsd/maxsd), faster than the integer form; in WebAssembly the integer form, on the magnitudes' bits:
// −0 is >= 0 but its pattern, as an integer, is above every other (without the sign bit cleared, a histogram with a
// count of −0, as Math.round(-0.2) gives, would have every term of F̃ at its ceiling, and sample() would release a
// uniformly random category).
inline double clip_bits(double x, double lo, double hi) {
#if defined(__wasm__)
  constexpr std::uint64_t kMagnitude = 0x7FFF'FFFF'FFFF'FFFFULL;
  std::uint64_t v = bits_of(x) & kMagnitude;
  const std::uint64_t low = bits_of(lo) & kMagnitude;
  const std::uint64_t high = bits_of(hi) & kMagnitude;
  v ^= (v ^ low) & mask_of(v < low);
  v ^= (v ^ high) & mask_of(v > high);
  return double_of(v);
#else
  return std::min(std::max(x, lo), hi);
#endif
}

// ---- The client's WebAssembly SIMD pairs (the fixed schedule's lanes) ----------------------------------------------
#if PRIVSAMPLE_SIMD_LANES
// Atoms i and i + 1 of n in the two lanes of an f64x2 (base[i·step], base[(i + 1)·step]): `keep` has all ones in the
// lanes that hold an atom; past the end of an odd n lane 1 reads atom i again and is masked to 0.
PRIVSAMPLE_SIMD_FUNCTION inline v128_t pair_mask(std::size_t i, std::size_t n) {
  return wasm_i64x2_make(-1, i + 1 < n ? -1 : 0);
}
PRIVSAMPLE_SIMD_FUNCTION inline v128_t pair_at(const double* base, std::size_t step, std::size_t i, std::size_t n,
                                               v128_t keep) {
  const std::size_t next = i + 1 < n ? i + 1 : i;
  return wasm_v128_and(keep, wasm_f64x2_make(base[i * step], base[next * step]));
}
#endif

// ---- f64x2 vector lanes (the adaptive search's passes, the fixed schedule's) ----------------------------------------
#if PRIVSAMPLE_VECTOR_LANES
using F64x2 = double __attribute__((vector_size(16)));
using I64x2 = long long __attribute__((vector_size(16)));  // a comparison's mask: -1 (all ones) or 0 per lane

PRIVSAMPLE_SIMD_FUNCTION inline F64x2 load_pair(const double* at) {
  F64x2 pair;
  std::memcpy(&pair, at, sizeof pair);  // unaligned
  return pair;
}
PRIVSAMPLE_SIMD_FUNCTION inline F64x2 splat(double x) { return F64x2{x, x}; }
// The lanes of x where mask is set, +0 elsewhere (the scalar form's `condition ? x : 0.0`; masked_out: where it is
// clear), and mask ? a : b lane by lane, on the bits. With SSE2 by intrinsics: g++ 12 turns `mask & x` on vector
// types into a per-lane conditional move through general registers.
#if defined(__SSE2__)
inline F64x2 masked(I64x2 mask, F64x2 x) { return _mm_and_pd(reinterpret_cast<__m128d>(mask), x); }
inline F64x2 masked_out(I64x2 mask, F64x2 x) { return _mm_andnot_pd(reinterpret_cast<__m128d>(mask), x); }
inline F64x2 select_lanes(I64x2 mask, F64x2 a, F64x2 b) {
  const __m128d bits = reinterpret_cast<__m128d>(mask);
  return _mm_or_pd(_mm_and_pd(bits, a), _mm_andnot_pd(bits, b));
}
// Whether both lanes of a mask are set (the rare branch for open atoms).
inline bool both_set(I64x2 mask) { return _mm_movemask_pd(reinterpret_cast<__m128d>(mask)) == 3; }
// All ones in the lanes where lo < v < hi, as doubles' bits; a | b; whether some lane is set. By intrinsics: g++ 12
// moved the vector-extension forms' masks through general registers lane by lane.
inline F64x2 within(F64x2 v, F64x2 lo, F64x2 hi) { return _mm_and_pd(_mm_cmpgt_pd(v, lo), _mm_cmplt_pd(v, hi)); }
inline F64x2 either(F64x2 a, F64x2 b) { return _mm_or_pd(a, b); }
inline bool any_set(F64x2 mask) { return _mm_movemask_pd(mask) != 0; }
// v > m ? v : m and v < m ? v : m (maxpd and minpd return their second operand unless the first is greater/less).
inline F64x2 larger(F64x2 v, F64x2 m) { return _mm_max_pd(v, m); }
inline F64x2 smaller(F64x2 v, F64x2 m) { return _mm_min_pd(v, m); }
#else
PRIVSAMPLE_SIMD_FUNCTION inline F64x2 masked(I64x2 mask, F64x2 x) {
  return reinterpret_cast<F64x2>(mask & reinterpret_cast<I64x2>(x));
}
PRIVSAMPLE_SIMD_FUNCTION inline F64x2 masked_out(I64x2 mask, F64x2 x) {
  return reinterpret_cast<F64x2>(~mask & reinterpret_cast<I64x2>(x));
}
PRIVSAMPLE_SIMD_FUNCTION inline bool both_set(I64x2 mask) { return (mask[0] & mask[1]) != 0; }
PRIVSAMPLE_SIMD_FUNCTION inline F64x2 within(F64x2 v, F64x2 lo, F64x2 hi) {
  return reinterpret_cast<F64x2>((v > lo) & (v < hi));
}
PRIVSAMPLE_SIMD_FUNCTION inline F64x2 either(F64x2 a, F64x2 b) {
  return reinterpret_cast<F64x2>(reinterpret_cast<I64x2>(a) | reinterpret_cast<I64x2>(b));
}
PRIVSAMPLE_SIMD_FUNCTION inline bool any_set(F64x2 mask) {
  const I64x2 bits = reinterpret_cast<I64x2>(mask);
  return (bits[0] | bits[1]) != 0;
}
#if defined(__wasm__)
using I32x4 = int __attribute__((vector_size(16)));
PRIVSAMPLE_SIMD_FUNCTION inline F64x2 select_lanes(I64x2 mask, F64x2 a, F64x2 b) {  // v128.bitselect: one instruction
  return reinterpret_cast<F64x2>(__builtin_wasm_bitselect(reinterpret_cast<I32x4>(a), reinterpret_cast<I32x4>(b),
                                                          reinterpret_cast<I32x4>(mask)));
}
// pmax(m, v) = m < v ? v : m and pmin(m, v) = v < m ? v : m: one instruction each (f64x2.min/max follow IEEE's NaN and
// signed-zero rules, which V8 spells out in several).
PRIVSAMPLE_SIMD_FUNCTION inline F64x2 larger(F64x2 v, F64x2 m) { return __builtin_wasm_pmax_f64x2(m, v); }
PRIVSAMPLE_SIMD_FUNCTION inline F64x2 smaller(F64x2 v, F64x2 m) { return __builtin_wasm_pmin_f64x2(m, v); }
#else
PRIVSAMPLE_SIMD_FUNCTION inline F64x2 select_lanes(I64x2 mask, F64x2 a, F64x2 b) {
  return reinterpret_cast<F64x2>((mask & reinterpret_cast<I64x2>(a)) | (~mask & reinterpret_cast<I64x2>(b)));
}
PRIVSAMPLE_SIMD_FUNCTION inline F64x2 larger(F64x2 v, F64x2 m) { return select_lanes(v > m, v, m); }
PRIVSAMPLE_SIMD_FUNCTION inline F64x2 smaller(F64x2 v, F64x2 m) { return select_lanes(v < m, v, m); }
#endif
#endif
#endif

}  // namespace privsample::clip_solver
