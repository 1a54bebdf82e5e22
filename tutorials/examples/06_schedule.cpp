// Chapter 6: learning-rate schedules. nanoGPT's cosine with warmup, at its breakpoints, for
// the recipe of config/train_shakespeare_char.py: lr 1e-3, min_lr 1e-4, warmup 100,
// decay until 5000. Then the inverse square root schedule, and setting the lr in a loop.
#include <cstdio>

#include "optim/optim.h"

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
  return 0;
}
