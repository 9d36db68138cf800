// The tables of musl's exp() and log() (Arm's optimized routines, Copyright (c) 2018 Arm Limited, MIT licence),
// rebuilt bit for bit from 624 bytes. musl stores 2,048 bytes for exp (__exp_data.tab) and 4,096 for log
// (__log_data.tab, tab2), numbers that barely compress; in the client module they were the largest block of its
// data. The client module (bindings/wasm/musl_tables.cpp) defines musl's two tables itself and fills them from
// these before anything runs; exp() and log() are musl's own code reading the same bits, so every result is unchanged.
// tests/native/musl_tables_test.cpp compares every entry with musl's tables.
//
// exp: tab[2k + 1] = bits(H_k) - (k << 45) and tab[2k] = bits(T_k), where H_k = 2^(k/128) rounded to nearest and
// 2^(k/128) = H_k (1 + T_k) with T_k rounded to nearest. Both come from 2^(k/128) in 128-bit fixed point (the product
// of 2^(2^j/128) over the bits j of k, within 2^-122), H_k by rounding it, T_k by a division whose remainder is exact.
// log: entry i covers the inputs whose bits lie in [OFF + i 2^45, OFF + (i + 1) 2^45); invc_i was chosen by musl's
// authors among the doubles within 2^29 units in the last place of 1 / (the interval's midpoint) and is kept as that
// offset. The rest follows from invc (c = 1 / invc exactly): chi = c rounded, clo = (1 - chi invc) / invc (the
// numerator exact), and logc = log(c) rounded to a multiple of 2^-43 (musl's rule 1: 0x1.8p9 + logc is exact; rule 3
// puts log(c) within 2^-66 of it, so log1p's error of an ulp cannot move it).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "base/numeric.hpp"

namespace privsample::musl_tables {

inline constexpr int kEntries = 128;

// 2^(2^j / 128) for j = 0..6 in fixed point, 126 bits after the point, rounded to nearest: {high, low} 64-bit halves.
inline constexpr std::uint64_t kExpSteps[7][2] = {
    {4636727017470743990u, 1340290985584983696u},
    {4661903986662671289u, 13687198565695909754u},
    {4712668792719003883u, 11463107655215154688u},
    {4815862801830788490u, 7126011576601698521u},
    {5029079263719320435u, 9075370365828636232u},
    {5484249825272419511u, 11769754707048889211u},
    {6521908912666391106u, 3224230822662201168u},
};

// invc_i - 1 / (midpoint of interval i), in units in the last place.
inline constexpr std::int32_t kLogInvcOffsets[kEntries] = {
    -23142382, -57643754, -234334839, -124664804, 19045012, -123323398, -501163255, 342479926,
    -234593306, 57421184, 513617488, -240891478, 85169741, 28659150, 284053799, 342563057,
    -68420459, -346144712, -90113766, -464022980, 285342708, -489548825, 376054848, 47397812,
    -423637851, -260988534, 336107021, 448241578, 154177355, 447893384, 241227555, -420636714,
    -218426730, -96876684, -205835218, -368178198, -345128710, -510284502, 481763731, 209336112,
    429336310, 15489329, 442353177, -417834330, 73183371, 515232680, 507984536, 83787275,
    330409952, 151596684, 377744204, 198302857, 214798271, -345957716, 356163107, 215510022,
    -229897960, -131709726, 215213618, -464519207, -332821996, 385780520, -400344786, 256208139,
    478356527, 345720337, 128466877, 217515751, -162048343, 295127580, -235892775, -69369347,
    93666841, -272860130, 91915174, 29018059, 258893229, 386009280, -241633007, 68399381,
    386341370, 408940642, 65060217, -120872168, 189498853, -32395328, -49955913, 154042178,
    -346113480, 148348366, -396488327, -427431396, 107119491, -500798201, 212184347, 305888811,
    -330297730, -91422864, 6707636, 273897542, -512931067, -500150233, 485589437, -280752730,
    106848032, 30953893, -291342514, -408884927, 149302919, -107851081, 225432558, 460497078,
    -452391632, -490679353, 508304210, 493208081, 336502878, 526975298, -457361038, -312310462,
    -365194252, -421357131, 362015322, 310793228, -441535439, -69145545, -528727990, 433364383,
};

__extension__ using Unsigned128 = unsigned __int128;

// floor(a b / 2^126) for a, b below 2^127 (fixed point with 126 bits after the point), from 64-bit halves.
[[nodiscard]] inline Unsigned128 fixed_product(Unsigned128 a, Unsigned128 b) noexcept {
  constexpr Unsigned128 kLow = 0xffffffffffffffffu;
  const Unsigned128 a1 = a >> 64, a0 = a & kLow, b1 = b >> 64, b0 = b & kLow;
  const Unsigned128 p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  const Unsigned128 middle = (p00 >> 64) + (p01 & kLow) + (p10 & kLow);
  const Unsigned128 high = p11 + (p01 >> 64) + (p10 >> 64) + (middle >> 64);  // the product >> 128
  return (high << 2) | ((middle & kLow) >> 62);
}

// musl's exp_data.tab.
inline void fill_exp_table(std::uint64_t (&tab)[2 * kEntries]) noexcept {
  for (int k = 0; k < kEntries; ++k) {
    Unsigned128 y = Unsigned128{1} << 126;
    for (int j = 0; j < 7; ++j) {
      if (((k >> j) & 1) != 0) y = fixed_product(y, (Unsigned128{kExpSteps[j][0]} << 64) | kExpSteps[j][1]);
    }
    // H = head 2^-52 (53 bits), and y - head 2^74 = (H T) 2^126, below 2^73 in magnitude.
    const auto head = static_cast<std::uint64_t>((y + (Unsigned128{1} << 73)) >> 74);
    const Unsigned128 scaled_head = Unsigned128{head} << 74;
    const bool below = y < scaled_head;
    const Unsigned128 gap = below ? scaled_head - y : y - scaled_head;
    // gap / head: the quotient of gap's top 53 bits, the remainder of that division (exact: two_product's parts
    // and gap's low 21 bits are whole multiples of 2^-31 below 2^21), then the remainder's quotient.
    const double gap_high = static_cast<double>(static_cast<std::uint64_t>(gap >> 21)) * 0x1p21;
    const double gap_low = static_cast<double>(static_cast<std::uint64_t>(gap & ((Unsigned128{1} << 21) - 1)));
    const double divisor = static_cast<double>(head);
    const double quotient = gap_high / divisor;
    const TwoDoubles product = two_product(quotient, divisor);
    const double remainder = ((gap_high - product.hi) - product.lo) + gap_low;
    const double tail = (quotient + remainder / divisor) * 0x1p-74;
    tab[2 * k] = bits_of(below ? -tail : tail);
    tab[2 * k + 1] = bits_of(static_cast<double>(head) * 0x1p-52) - (static_cast<std::uint64_t>(k) << 45);
  }
}

struct LogEntry {
  double invc, logc;
};
struct LogEntry2 {
  double chi, clo;
};

// musl's log_data.tab and tab2.
inline void fill_log_tables(LogEntry (&tab)[kEntries], LogEntry2 (&tab2)[kEntries]) noexcept {
  constexpr std::uint64_t kOff = 0x3fe6000000000000u;
  for (int i = 0; i < kEntries; ++i) {
    const std::uint64_t start = kOff + (static_cast<std::uint64_t>(i) << 45);
    const double midpoint = (double_of(start) + double_of(start + (std::uint64_t{1} << 45))) / 2;
    const std::uint64_t offset = static_cast<std::uint64_t>(std::int64_t{kLogInvcOffsets[i]});  // two's complement
    const double invc = double_of(bits_of(1.0 / midpoint) + offset);
    const double chi = 1.0 / invc;
    const TwoDoubles p = two_product(chi, invc);
    const double clo = ((1.0 - p.hi) - p.lo) / invc;
    const double logc = (-std::log1p(invc - 1.0) + 0x1.8p9) - 0x1.8p9;
    tab[i] = {invc, logc};
    tab2[i] = {chi, clo};
  }
}

}  // namespace privsample::musl_tables
