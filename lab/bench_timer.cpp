#include "lab/bench_timer.h"

#include <algorithm>
#include <chrono>

#include "autograd/grad_mode.h"
#include "tensor/cpu/cpu_backend.h"

namespace attic::lab {


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

FwdBwd time_fwd_bwd(const std::function<Tensor()>& forward, const std::function<void()>& clear) {
  FwdBwd r;
  r.fwd = best_seconds([&] {
    NoGradGuard no_grad;
    (void)forward();
  }, 0, 0.05);
  auto fb = [&] {
    sum(forward()).backward();
    clear();
  };
  r.fwd_bwd = best_seconds(fb, 0, 0.05);
  const size_t base = cpu::live_bytes();
  cpu::reset_peak_bytes();
  fb();
  r.peak = cpu::peak_bytes() - base;
  return r;
}

}  // namespace attic::lab
