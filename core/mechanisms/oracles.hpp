#pragma once
// Frequency oracles by name, and what an entry point asks of whichever one it holds (the JS handles, the analysis
// layer, the audit), dispatched over the oracle list (list.hpp): nothing here names an oracle. Names and option rules
// come from the registry (registry.hpp).
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "base/randomness.hpp"
#include "mechanisms/list.hpp"
#include "mechanisms/oracle.hpp"
#include "privacy/privacy.hpp"

namespace privsample {

// The oracle of the registry named `name`, from its options (epsilon, categories). Throws std::invalid_argument
// naming an unknown oracle, a missing or unsupported option, or a bad value.
[[nodiscard]] Oracle make_oracle(std::string_view name, const MechanismOptions& options);

[[nodiscard]] std::string_view oracle_name(const Oracle& oracle);
[[nodiscard]] Guarantee guarantee(const Oracle& oracle);
[[nodiscard]] std::size_t categories(const Oracle& oracle);
[[nodiscard]] ReportFormat report_format(const Oracle& oracle);
[[nodiscard]] CountsKind counts_kind(const Oracle& oracle);
[[nodiscard]] SupportLaw support_law(const Oracle& oracle);
[[nodiscard]] ReportLevels report_levels(const Oracle& oracle);
// Bytes of a bitset report (0 for integer reports); the number of integer report values (0 for bitset reports).
[[nodiscard]] std::size_t report_bytes(const Oracle& oracle);
[[nodiscard]] std::uint64_t report_values(const Oracle& oracle);
// The length of the counts the estimator takes: k support counts, or one count per report value.
[[nodiscard]] std::size_t counts_length(const Oracle& oracle);
// The numbers a server needs to count the oracle's reports without the library: the one at `index` of the oracle's own
// parameters(), or an empty name past the last (at once for an oracle that declares none: its reports are counted
// from k alone).
[[nodiscard]] OracleParameter oracle_parameter(const Oracle& oracle, std::size_t index);
// The steps the batch count takes per report (the advisor's server cost): one tally for per-report counts, else the
// items a report is tested against — k for a bitset, or the oracle's own support_steps() where it finds the items a
// report supports without testing all k.
[[nodiscard]] std::uint64_t support_steps(const Oracle& oracle);

// One report of `item` (< k, checked by the caller): an integer oracle returns it; a bitset oracle writes its
// report_bytes() bytes into `bytes` (resized to them) and returns 0. Its random words have a law that does not depend
// on the item (each oracle's report()).
std::uint64_t encode_report(const Oracle& oracle, std::size_t item, RandomBits& bits,
                            std::vector<std::uint8_t>& bytes);

}  // namespace privsample
