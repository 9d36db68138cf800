// The client module's exp() and log() tables (bindings/wasm/musl_tables.hpp) against musl's own (exp_data.c,
// log_data.c of Emscripten's musl; Arm's optimized routines, Copyright (c) 2018 Arm Limited, MIT licence): every entry
// bit for bit, so that exp() and log() in the client module return what musl's return everywhere else.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include "golden.hpp"

#include "../../bindings/wasm/musl_tables.hpp"

namespace {

using privsample::bits_of;
using privsample::musl_tables::kEntries;

// A 64-bit pattern written in hex in the golden file.
std::uint64_t pattern(const nlohmann::json& hex) { return std::stoull(hex.get<std::string>(), nullptr, 16); }

const nlohmann::json& musl_tables() {
  static const nlohmann::json tables = privsample_test::read_golden("musl-tables.json");
  return tables;
}

}  // namespace

TEST_CASE("the client module's exp table is musl's, bit for bit", "[musl_tables]") {
  std::uint64_t tab[2 * kEntries] = {};
  privsample::musl_tables::fill_exp_table(tab);
  for (int i = 0; i < 2 * kEntries; ++i) {
    INFO("tab[" << i << "]");
    CHECK(tab[i] == pattern(musl_tables()["expTab"][i]));
  }
}

TEST_CASE("the client module's log tables are musl's, bit for bit", "[musl_tables]") {
  privsample::musl_tables::LogEntry tab[kEntries] = {};
  privsample::musl_tables::LogEntry2 tab2[kEntries] = {};
  privsample::musl_tables::fill_log_tables(tab, tab2);
  for (int i = 0; i < kEntries; ++i) {
    INFO("entry " << i);
    const nlohmann::json& musl = musl_tables()["logTabs"][i];  // invc, logc (tab), chi, clo (tab2)
    CHECK(bits_of(tab[i].invc) == pattern(musl[0]));
    CHECK(bits_of(tab[i].logc) == pattern(musl[1]));
    CHECK(bits_of(tab2[i].chi) == pattern(musl[2]));
    CHECK(bits_of(tab2[i].clo) == pattern(musl[3]));
  }
}
