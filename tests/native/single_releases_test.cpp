// SingleReleases (mechanism.hpp): the JS sampler's sample() with the release plan kept per k. It must draw exactly
// what prepare(mechanism, input)(bits) draws (the same law, the same random words), and allocate nothing once its
// plan and buffers for k exist. The allocation count comes from the replaceable global operator new below, which
// counts every allocation of this test binary (a counter only: the other tests are unaffected).
#include <atomic>
#include <catch2/catch.hpp>
#include <cstddef>
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/randomness.hpp"
#include "mechanisms/mechanism.hpp"

namespace {
std::atomic<std::size_t> g_allocations{0};
}  // namespace

// Every unaligned form is replaced, so that each allocation and its release go through malloc and free alike (a
// sanitizer checks that an operator new's block is released by the matching delete).
namespace {
void* counted_malloc(std::size_t size) noexcept {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(size == 0 ? 1 : size);
}
}  // namespace

void* operator new(std::size_t size) {
  if (void* p = counted_malloc(size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) {
  if (void* p = counted_malloc(size)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return counted_malloc(size); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return counted_malloc(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

using namespace privsample;

namespace {

struct Case {
  std::string name;
  MechanismOptions options;
};

std::vector<Case> cases() {
  MechanismOptions pure;
  pure.epsilon = 1.0;
  MechanismOptions approx = pure;
  approx.delta = 1e-6;
  MechanismOptions gaussian;
  gaussian.mu = 1.0;
  // mollifier: a mechanism without a kept plan (prepare() itself)
  return {{"linear", pure}, {"linear", approx}, {"linear", gaussian}, {"minimax", pure}, {"mollifier", pure}};
}

std::vector<double> histogram_of(std::size_t k, std::uint64_t seed) {
  SeededRandom bits(seed);
  std::vector<double> h(k);
  for (auto& v : h) v = static_cast<double>(bits.next_u64() % 7);
  h[0] += 1.0;  // a positive total
  return h;
}

}  // namespace

TEST_CASE("SingleReleases: the same draws as prepare() for every input, k changing between calls", "[mechanism]") {
  for (const Case& c : cases()) {
    INFO(c.name);
    const Mechanism m = make_finite_mechanism(c.name, c.options);
    SingleReleases kept;
    SeededRandom ours(7);
    SeededRandom theirs(7);
    for (const std::size_t k : {std::size_t{2}, std::size_t{6}, std::size_t{6}, std::size_t{100}, std::size_t{2}}) {
      for (std::uint64_t input = 0; input < 50; ++input) {
        const std::vector<double> h = histogram_of(k, 1000 * k + input);
        REQUIRE(kept.sample(m, h, ours) == prepare(m, h)(theirs));
      }
    }
    REQUIRE(ours.next_u64() == theirs.next_u64());  // the same number of words drawn
  }
}

TEST_CASE("SingleReleases: no allocation per release once the plan for k is kept (linear, minimax)", "[mechanism]") {
  MechanismOptions pure;
  pure.epsilon = 1.0;
  MechanismOptions approx = pure;
  approx.delta = 1e-6;
  for (const auto& [name, options] : {std::pair{"linear", pure}, std::pair{"linear", approx}, std::pair{"minimax", pure}}) {
    for (const std::size_t k : {std::size_t{2}, std::size_t{6}, std::size_t{1000}}) {
      INFO(name << " k = " << k);
      Mechanism m = make_finite_mechanism(name, options);
      keep_for_categories(m, k);  // what the JS handle does when a histogram of k categories comes in
      SingleReleases kept;
      SeededRandom bits(3);
      const std::vector<double> first = histogram_of(k, 1);
      const std::vector<double> second = histogram_of(k, 2);
      (void)kept.sample(m, first, bits);
      const std::size_t before = g_allocations.load();
      std::size_t sink = 0;
      for (int i = 0; i < 100; ++i) sink += kept.sample(m, i % 2 == 0 ? first : second, bits);
      CHECK(g_allocations.load() == before);
      CHECK(sink < 100 * k);
    }
  }
}

TEST_CASE("SingleReleases: a bad input is refused with the histogram's own message, and the next call works",
          "[mechanism]") {
  MechanismOptions pure;
  pure.epsilon = 1.0;
  const Mechanism m = make_finite_mechanism("minimax", pure);
  SingleReleases kept;
  SeededRandom bits(5);
  CHECK_THROWS_WITH(kept.sample(m, std::vector<double>{}, bits), "hist is empty: need at least one category");
  CHECK_THROWS_WITH(kept.sample(m, std::vector<double>{1.0, -2.0}, bits),
                    Catch::Matchers::StartsWith("hist[1] = -2: counts must be finite and >= 0"));
  CHECK(kept.sample(m, std::vector<double>{0.0, 1.0}, bits) < 2);
}
