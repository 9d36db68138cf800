#pragma once
// What every native benchmark times with: the median wall time of a piece of work, and a sink that keeps results
// alive so the compiler cannot drop the timed work.
#include <algorithm>
#include <chrono>
#include <cstddef>
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

inline volatile double sink = 0.0;

}  // namespace privsample_bench
