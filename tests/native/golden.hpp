#pragma once
// Golden values shared by every test layer (Catch2 here, node --test, the pack smoke test): tests/golden/*.json.
#include <cstddef>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/divergence.hpp"

namespace privsample_test {

inline nlohmann::json read_golden(const std::string& file) {
  const std::string path = std::string(PRIVSAMPLE_GOLDEN_DIR) + "/" + file;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read golden file " + path);
  return nlohmann::json::parse(in);
}

// A table of worst-case risks in a golden file: one value per ε for each (k, f) row, to ± tolerance.
struct RiskRow {
  std::size_t k;
  privsample::NamedDivergence f;
  std::vector<double> values;
};
struct RiskTable {
  std::vector<double> epsilons;
  double tolerance;
  std::vector<RiskRow> rows;
};

inline RiskTable read_risk_table(const std::string& file, const std::string& key) {
  const nlohmann::json table = read_golden(file)[key];
  RiskTable out{table["epsilons"].get<std::vector<double>>(), table["tolerance"].get<double>(), {}};
  for (const auto& row : table["rows"]) {
    out.rows.push_back({row["k"].get<std::size_t>(), privsample::parse_divergence(row["f"].get<std::string>()),
                        row["values"].get<std::vector<double>>()});
  }
  return out;
}

}  // namespace privsample_test
