// musl's __exp_data and __log_data for the client module, filled from musl_tables.hpp's 624 bytes before
// any other constructor runs. Linked ahead of libc, these definitions are the ones musl's exp() and log() read, and
// musl's exp_data.o and log_data.o (6 KB of data that barely compresses) are not linked in. The layouts and the
// scalar constants are musl's (src/math/exp_data.h, log_data.h: Arm's optimized routines, Copyright (c) 2018 Arm
// Limited, MIT licence; Emscripten's musl builds log without fma, so log_data has tab2).
#include <cstdint>

#include "musl_tables.hpp"

namespace privsample::musl_tables {

struct ExpData {
  double invln2N;
  double shift;
  double negln2hiN;
  double negln2loN;
  double poly[4];
  double exp2_shift;
  double exp2_poly[5];
  std::uint64_t tab[2 * kEntries];
};

struct LogData {
  double ln2hi;
  double ln2lo;
  double poly[5];
  double poly1[11];
  LogEntry tab[kEntries];
  LogEntry2 tab2[kEntries];
};

}  // namespace privsample::musl_tables

extern "C" {
// NOLINTBEGIN(bugprone-reserved-identifier): musl's names, which its exp() and log() refer to.
__attribute__((visibility("hidden"))) privsample::musl_tables::ExpData __exp_data = {
    .invln2N = 0x1.71547652b82fep0 * 128,
    .shift = 0x1.8p52,
    .negln2hiN = -0x1.62e42fefa0000p-8,
    .negln2loN = -0x1.cf79abc9e3b3ap-47,
    .poly = {0x1.ffffffffffdbdp-2, 0x1.555555555543cp-3, 0x1.55555cf172b91p-5, 0x1.1111167a4d017p-7},
    .exp2_shift = 0x1.8p52 / 128,
    .exp2_poly = {0x1.62e42fefa39efp-1, 0x1.ebfbdff82c424p-3, 0x1.c6b08d70cf4b5p-5, 0x1.3b2abd24650ccp-7,
                  0x1.5d7e09b4e3a84p-10},
    .tab = {},
};

__attribute__((visibility("hidden"))) privsample::musl_tables::LogData __log_data = {
    .ln2hi = 0x1.62e42fefa3800p-1,
    .ln2lo = 0x1.ef35793c76730p-45,
    .poly = {-0x1.0000000000001p-1, 0x1.555555551305bp-2, -0x1.fffffffeb459p-3, 0x1.999b324f10111p-3,
             -0x1.55575e506c89fp-3},
    .poly1 = {-0x1p-1, 0x1.5555555555577p-2, -0x1.ffffffffffdcbp-3, 0x1.999999995dd0cp-3, -0x1.55555556745a7p-3,
              0x1.24924a344de3p-3, -0x1.fffffa4423d65p-4, 0x1.c7184282ad6cap-4, -0x1.999eb43b068ffp-4,
              0x1.78182f7afd085p-4, -0x1.5521375d145cdp-4},
    .tab = {},
    .tab2 = {},
};
// NOLINTEND(bugprone-reserved-identifier)
}

namespace {

// Priority 101, the first a program may use: before any static initialiser that could call exp() or log().
__attribute__((constructor(101))) void fill_musl_tables() {
  privsample::musl_tables::fill_exp_table(__exp_data.tab);
  privsample::musl_tables::fill_log_tables(__log_data.tab, __log_data.tab2);
}

}  // namespace
