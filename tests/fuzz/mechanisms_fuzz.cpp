// Every finite mechanism's distribution() with the privacy check as the oracle: for two inputs made from the fuzz
// bytes, q(P) <= e^ε·q(P')·(1 + 1e-12) on every category (pure-LDP mechanisms) — and never a crash.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "mechanisms/mechanism.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  privsample_fuzz::Bytes bytes(data, size);
  static const char* const kPure[] = {"minimax", "linear", "mollifier", "local"};
  const std::string name = kPure[bytes.byte() % 4];
  const double epsilon = bytes.byte() % 2 == 0 ? bytes.byte() / 16.0 : std::fabs(bytes.raw_double());
  const std::vector<double> a = bytes.histogram(12);
  std::vector<double> b(a.size());
  for (double& v : b) v = bytes.mass();
  privsample::MechanismOptions o;
  o.epsilon = epsilon;
  if (name == "local" || (name == "mollifier" && bytes.byte() % 2 == 0)) {
    std::vector<double> prior(a.size());
    for (double& v : prior) v = bytes.mass();
    (name == "local" ? o.prior : o.reference) = prior;
    if (name == "local") o.gamma = 1.0 + bytes.byte() / 8.0 + 1e-3;
  }
  try {
    const privsample::Mechanism m = privsample::make_finite_mechanism(name, o);
    const std::vector<double> qa = privsample::distribution(m, a);
    const std::vector<double> qb = privsample::distribution(m, b);
    const double bound = std::exp(std::min(epsilon, 700.0)) * (1.0 + 1e-12);
    for (std::size_t x = 0; x < qa.size(); ++x) {
      if (qa[x] > 0.0 && !(qa[x] <= bound * qb[x])) std::abort();
      if (qb[x] > 0.0 && !(qb[x] <= bound * qa[x])) std::abort();
    }
  } catch (const std::invalid_argument&) {
  } catch (const std::domain_error&) {
  }
  return 0;
}
