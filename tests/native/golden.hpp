#pragma once
// Golden values shared by every test layer (Catch2 here, node --test, the pack smoke test): tests/golden/*.json.
#include <fstream>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

namespace privsample_test {

inline nlohmann::json read_golden(const std::string& file) {
  const std::string path = std::string(PRIVSAMPLE_GOLDEN_DIR) + "/" + file;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read golden file " + path);
  return nlohmann::json::parse(in);
}

}  // namespace privsample_test
