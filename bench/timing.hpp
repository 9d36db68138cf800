#pragma once
// What every native benchmark times with: the median wall time of a piece of work (alone, or several in turns), the
// one-pass floor they compare against, and a sink that keeps results alive so the compiler cannot drop the work.
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <span>
#include <vector>

namespace privsample_bench {

using Clock = std::chrono::steady_clock;

// How long to repeat: at least min_runs runs, then more until `budget_seconds` have passed or max_runs is reached.
struct Repetitions {
  std::size_t min_runs = 5;
  double budget_seconds = 0.5;
  std::size_t max_runs = 200;
  bool warm_up = false;  // one untimed run first (first-touch page faults, caches)
};

// Median wall time of `body` in seconds.
template <class Body>
double median_seconds(Body&& body, Repetitions r = {}) {
  if (r.warm_up) body();
  std::vector<double> times;
  const auto start = Clock::now();
  while (times.size() < r.min_runs ||
         (std::chrono::duration<double>(Clock::now() - start).count() < r.budget_seconds && times.size() < r.max_runs)) {
    const auto t0 = Clock::now();
    body();
    times.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
  }
  std::nth_element(times.begin(), times.begin() + static_cast<std::ptrdiff_t>(times.size() / 2), times.end());
  return times[times.size() / 2];
}

// Median wall time per call of each body, the bodies timed in turns (A, B, C, A, B, C, …) rather than one after
// the other. A shared host drifts between a fast state and a slower one over seconds; timed in turns,
// every body sees the same states, so the ratios of the medians compare like with like (timed one after the other,
// a ratio could be off by the drift). A turn is a batch of calls lasting at least `batch_seconds`, so that calls
// of a microsecond are not lost in the clock's own cost; every body is called once untimed first.
// `r` applies to the rounds: at least min_runs, then more until all turns together took budget_seconds.
template <class... Bodies>
std::array<double, sizeof...(Bodies)> interleaved_median_seconds(Repetitions r, double batch_seconds,
                                                                 Bodies&&... bodies) {
  constexpr std::size_t count = sizeof...(Bodies);
  std::array<std::size_t, count> batch{};
  std::array<std::vector<double>, count> times;
  const auto timed = [](auto& body, std::size_t calls) {
    const auto t0 = Clock::now();
    for (std::size_t i = 0; i < calls; ++i) body();
    return std::chrono::duration<double>(Clock::now() - t0).count();
  };
  {
    std::size_t i = 0;
    ((bodies(), batch[i] = std::max<std::size_t>(
                    1, static_cast<std::size_t>(std::ceil(batch_seconds / std::max(timed(bodies, 1), 1e-9)))),
      ++i),
     ...);
  }
  const auto start = Clock::now();
  for (std::size_t round = 0;
       round < r.min_runs ||
       (std::chrono::duration<double>(Clock::now() - start).count() < r.budget_seconds && round < r.max_runs);
       ++round) {
    std::size_t i = 0;
    ((times[i].push_back(timed(bodies, batch[i]) / static_cast<double>(batch[i])), ++i), ...);
  }
  std::array<double, count> medians{};
  for (std::size_t i = 0; i < count; ++i) {
    auto& t = times[i];
    std::nth_element(t.begin(), t.begin() + static_cast<std::ptrdiff_t>(t.size() / 2), t.end());
    medians[i] = t[t.size() / 2];
  }
  return medians;
}

// Σ term(i) for i < n in eight independent accumulators: what numpy's sum does (pairwise, eight accumulators per
// block) and what a compiler makes of a reduction it may reorder; the benches' "one pass" floor. One accumulator
// waits for each add to finish, a slower floor that would flatter every ratio against it (bench/README.md).
template <class Term>
double sum_in_lanes(std::size_t n, Term&& term) {
  double lane[8] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    for (std::size_t j = 0; j < 8; ++j) lane[j] += term(i + j);
  }
  for (; i < n; ++i) lane[0] += term(i);
  return ((lane[0] + lane[1]) + (lane[2] + lane[3])) + ((lane[4] + lane[5]) + (lane[6] + lane[7]));
}

// One pass: Σp, the floor of anything that reads every entry once.
inline double one_pass(std::span<const double> p) {
  return sum_in_lanes(p.size(), [&](std::size_t i) { return p[i]; });
}

inline volatile double sink = 0.0;

}  // namespace privsample_bench
