// The tables of musl's exp() and log() (Arm's optimized routines, Copyright (c) 2018 Arm Limited, MIT licence),
// rebuilt bit for bit from a quarter of their bytes. musl stores 2,048 bytes for exp (__exp_data.tab) and 4,096 for
// log (__log_data.tab, tab2), numbers that barely compress; in the client module they were the largest block of its
// data. The client module (bindings/wasm/musl_tables.cpp) defines musl's two tables itself and fills them from these
// before anything runs; exp() and log() are musl's own code reading the same bits, so every result is unchanged.
// tests/native/musl_tables_test.cpp compares every entry with musl's tables.
//
// exp: tab[2k + 1] = bits(H_k) - (k << 45) where H_k = 2^(k/128) rounded to nearest, and tab[2k] = bits(T_k) where
// 2^(k/128) = H_k (1 + T_k). T_k needs 2^(k/128) to ~2^-110 and is kept; H_k is 2^(k/128) in double-double, the
// product of 2^(2^j/128) over the bits j of k, rounded.
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

// T_k: the tails of exp's table, tab[2k].
inline constexpr std::uint64_t kExpTails[kEntries] = {
    0x0u, 0x3c9b3b4f1a88bf6eu, 0xbc7160139cd8dc5du, 0xbc905e7a108766d1u,
    0x3c8cd2523567f613u, 0xbc8bce8023f98efau, 0x3c60f74e61e6c861u, 0x3c90a3e45b33d399u,
    0x3c979aa65d837b6du, 0x3c8eb51a92fdeffcu, 0x3c3ebe3d702f9cd1u, 0xbc6a033489906e0bu,
    0xbc9556522a2fbd0eu, 0xbc5080ef8c4eea55u, 0xbc91c923b9d5f416u, 0x3c80d3e3e95c55afu,
    0xbc801b15eaa59348u, 0xbc8f1ff055de323du, 0x3c8b898c3f1353bfu, 0xbc96d99c7611eb26u,
    0x3c9aecf73e3a2f60u, 0xbc8fe782cb86389du, 0x3c8a6f4144a6c38du, 0x3c807a05b0e4047du,
    0x3c968efde3a8a894u, 0x3c875e18f274487du, 0x3c80472b981fe7f2u, 0xbc96b87b3f71085eu,
    0x3c82f7e16d09ab31u, 0xbc3d219b1a6fbffau, 0x3c8b3782720c0ab4u, 0x3c6e149289cecb8fu,
    0x3c834d754db0abb6u, 0x3c864201e2ac744cu, 0x3c8fdd395dd3f84au, 0xbc86a3803b8e5b04u,
    0xbc924aedcc4b5068u, 0xbc9907f81b512d8eu, 0xbc71d1e83e9436d2u, 0xbc991919b3ce1b15u,
    0x3c859f48a72a4c6du, 0xbc9312607a28698au, 0xbc58a78f4817895bu, 0xbc7c2c9b67499a1bu,
    0x3c4363ed60c2ac11u, 0x3c9666093b0664efu, 0x3c6ecce1daa10379u, 0x3c93ff8e3f0f1230u,
    0x3c7690cebb7aafb0u, 0x3c931dbdeb54e077u, 0xbc8f94340071a38eu, 0xbc87deccdc93a349u,
    0xbc78dec6bd0f385fu, 0xbc861246ec7b5cf6u, 0x3c93350518fdd78eu, 0x3c7b98b72f8a9b05u,
    0x3c9063e1e21c5409u, 0x3c34c7855019c6eau, 0x3c9432e62b64c035u, 0xbc8ce44a6199769fu,
    0xbc8c33c53bef4da8u, 0xbc845378892be9aeu, 0xbc93cedd78565858u, 0x3c5710aa807e1964u,
    0xbc93b3efbf5e2228u, 0xbc6a12ad8734b982u, 0xbc6367efb86da9eeu, 0xbc80dc3d54e08851u,
    0xbc781f647e5a3ecfu, 0xbc86ee4ac08b7db0u, 0xbc8619321e55e68au, 0x3c909ccb5e09d4d3u,
    0xbc7b32dcb94da51du, 0x3c94ecfd5467c06bu, 0x3c65ebe1abd66c55u, 0xbc88a1c52fb3cf42u,
    0xbc9369b6f13b3734u, 0xbc805e843a19ff1eu, 0xbc94d450d872576eu, 0x3c90ad675b0e8a00u,
    0x3c8db72fc1f0eab4u, 0xbc65b6609cc5e7ffu, 0x3c7bf68359f35f44u, 0xbc93091fa71e3d83u,
    0xbc5da9b88b6c1e29u, 0xbc6c23f97c90b959u, 0xbc92434322f4f9aau, 0xbc85ca6cd7668e4bu,
    0x3c71affc2b91ce27u, 0x3c6dd235e10a73bbu, 0xbc87c50422622263u, 0x3c8b1c86e3e231d5u,
    0xbc91bbd1d3bcbb15u, 0x3c90cc319cee31d2u, 0x3c8469846e735ab3u, 0xbc82dfcd978e9db4u,
    0x3c8c1a7792cb3387u, 0xbc907b8f4ad1d9fau, 0xbc55c3d956dcaebau, 0xbc90a40e3da6f640u,
    0xbc68d6f438ad9334u, 0xbc91eee26b588a35u, 0x3c74ffd70a5fddcdu, 0xbc91bdfbfa9298acu,
    0x3c736eae30af0cb3u, 0x3c8ee3325c9ffd94u, 0x3c84e08fd10959acu, 0x3c63cdaf384e1a67u,
    0x3c676b2c6c921968u, 0xbc808a1883ccb5d2u, 0xbc8fad5d3ffffa6fu, 0xbc900dae3875a949u,
    0x3c74a385a63d07a7u, 0xbc82919e2040220fu, 0x3c8e5a50d5c192acu, 0x3c843a59ac016b4bu,
    0xbc82d52107b43e1fu, 0xbc892ab93b470dc9u, 0x3c74b604603a88d3u, 0x3c83c5ec519d7271u,
    0xbc8ff7128fd391f0u, 0xbc8dae98e223747du, 0x3c8ec3bc41aa2008u, 0x3c842b94c3a9eb32u,
    0x3c8a64a931d185eeu, 0xbc8e37bae43be3edu, 0x3c77893b4d91cd9du, 0x3c5305c14160cc89u,
};

// 2^(2^j / 128) for j = 0..6, as double-double (nearest double, then the rest rounded).
inline constexpr double kExpSteps[7][2] = {
    {0x1.0163da9fb3335p+0, 0x1.b61299ab8cdb7p-54},
    {0x1.02c9a3e778061p+0, -0x1.19083535b085dp-56},
    {0x1.059b0d3158574p+0, 0x1.d73e2a475b465p-55},
    {0x1.0b5586cf9890fp+0, 0x1.8a62e4adc610bp-54},
    {0x1.172b83c7d517bp+0, -0x1.19041b9d78a76p-55},
    {0x1.306fe0a31b715p+0, 0x1.6f46ad23182e4p-55},
    {0x1.6a09e667f3bcdp+0, -0x1.bdd3413b26456p-54},
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

[[nodiscard]] inline std::uint64_t bits_of(double x) noexcept {
  std::uint64_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}

[[nodiscard]] inline double double_of(std::uint64_t u) noexcept {
  double x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}

// musl's exp_data.tab.
inline void fill_exp_table(std::uint64_t (&tab)[2 * kEntries]) noexcept {
  for (int k = 0; k < kEntries; ++k) {
    double hi = 1.0;
    double lo = 0.0;
    for (int j = 0; j < 7; ++j) {
      if (((k >> j) & 1) == 0) continue;
      const TwoDoubles p = two_product(hi, kExpSteps[j][0]);
      const double tail = p.lo + (hi * kExpSteps[j][1] + lo * kExpSteps[j][0]);
      hi = p.hi + tail;
      lo = tail - (hi - p.hi);
    }
    tab[2 * k] = kExpTails[k];
    tab[2 * k + 1] = bits_of(hi) - (static_cast<std::uint64_t>(k) << 45);
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
