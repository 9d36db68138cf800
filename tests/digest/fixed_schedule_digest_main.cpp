// Prints the fixed schedule's digest (fixed_schedule_digest.hpp) as JSON. Built for WebAssembly against the client
// module's own libraries (wasm SIMD lanes), run by tests/js/fixed-schedule-digest.test.mjs.
#include <cinttypes>
#include <cstdio>

#include "fixed_schedule_digest.hpp"

int main() {
  const privsample_test::FixedScheduleDigest d = privsample_test::fixed_schedule_digest();
  const privsample_test::FixedScheduleDigest bad = privsample_test::corrupted_input_digest();
  const privsample_test::FixedScheduleDigest large = privsample_test::large_input_digest();
  std::printf("{\"digest\": \"%016" PRIx64 "\", \"cases\": %" PRIu64 ", \"rejected\": %" PRIu64
              ", \"adaptive\": \"%016" PRIx64 "\", \"corrupted\": {\"digest\": \"%016" PRIx64 "\", \"cases\": %" PRIu64 ", \"rejected\": %" PRIu64
              ", \"adaptive\": \"%016" PRIx64 "\"}, \"large\": {\"digest\": \"%016" PRIx64 "\", \"cases\": %" PRIu64
              ", \"rejected\": %" PRIu64 ", \"adaptive\": \"%016" PRIx64 "\"}}\n",
              d.digest, d.cases, d.rejected, d.adaptive, bad.digest, bad.cases, bad.rejected, bad.adaptive, large.digest,
              large.cases, large.rejected, large.adaptive);
  return 0;
}
