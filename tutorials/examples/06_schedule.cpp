// Chapter 6: learning-rate schedules. nanoGPT's cosine with warmup, at its breakpoints, for
// the recipe of config/train_shakespeare_char.py: lr 1e-3, min_lr 1e-4, warmup 100,
// decay until 5000. Then the inverse square root schedule, setting the lr in a loop, and
// both schedules drawn (06_lr_schedule.svg).
#include <cstdio>
#include <fstream>

#include "optim/optim.h"
#include "viz/line_plot.h"

using namespace attic;

int main() {
  std::printf("%6s  %s\n", "it", "cosine_with_warmup");
  for (int64_t it : {0, 1, 50, 99, 100, 1000, 2550, 4000, 4999, 5000, 6000})
    std::printf("%6lld  %.4e\n", (long long)it,
                optim::cosine_with_warmup(it, 1e-3, 1e-4, 100, 5000));

  std::printf("%6s  %s\n", "step", "inverse_sqrt");
  for (int64_t step : {1, 50, 100, 400, 2500, 10000})
    std::printf("%6lld  %.4e\n", (long long)step, optim::inverse_sqrt(step));

  // In a training loop: compute the lr for this iteration, set it, then step.
  Tensor w = zeros({2}).requires_grad_();
  optim::AdamW opt({w}, optim::AdamWOptions(1e-3));
  for (int64_t it = 0; it < 3; ++it) {
    optim::set_lr(opt, optim::cosine_with_warmup(it, 1e-3, 1e-4, 100, 5000));
    std::printf("it %lld: group 0 lr %.1e\n", (long long)it, opt.param_groups()[0].lr);
    // ... zero_grad, forward, backward, step ...
  }

  // The picture: the whole run on the left, its first 300 iterations on the right.
  viz::Series cosine{"cosine_with_warmup", "#1f77b4", {}}, zoom{"", "#1f77b4", {}};
  viz::Series isqrt{"inverse_sqrt", "#d62728", {}, /*dashed=*/true};
  for (int64_t it = 0; it <= 6000; it += 20) {
    cosine.points.push_back({double(it), optim::cosine_with_warmup(it, 1e-3, 1e-4, 100, 5000)});
    if (it > 0) isqrt.points.push_back({double(it), optim::inverse_sqrt(it)});
  }
  for (int64_t it = 0; it <= 300; it += 5)
    zoom.points.push_back({double(it), optim::cosine_with_warmup(it, 1e-3, 1e-4, 100, 5000)});
  std::ofstream("06_lr_schedule.svg")
      << viz::panels_svg({{{cosine, isqrt}, "iterations 0 to 6000", "iteration", "lr"},
                          {{zoom}, "the warmup: iterations 0 to 300", "iteration", "lr"}},
                         "learning-rate schedules");
  std::printf("wrote 06_lr_schedule.svg\n");
  return 0;
}
