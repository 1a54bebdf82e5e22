#include "cli/bench_timer.h"

#include <algorithm>
#include <chrono>

namespace attic::cli {

double best_seconds(const std::function<void()>& f, int runs, double min_run) {
  using Clock = std::chrono::steady_clock;
  auto t0 = Clock::now();
  f();
  const double once = std::chrono::duration<double>(Clock::now() - t0).count();
  if (runs <= 0) runs = once > 1.0 ? 1 : once > 0.1 ? 3 : 5;
  const int reps = std::max(1, int(min_run / std::max(once, 1e-9)));
  double best = 1e30;
  for (int r = 0; r < runs; ++r) {
    t0 = Clock::now();
    for (int i = 0; i < reps; ++i) f();
    best = std::min(best, std::chrono::duration<double>(Clock::now() - t0).count() / reps);
  }
  return best;
}

}  // namespace attic::cli
