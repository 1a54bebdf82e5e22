// Learning-rate schedules: functions from the iteration number to a learning rate. Set the
// result on the optimizer before each step:
//
//   optim::set_lr(opt, optim::cosine_with_warmup(it, 6e-4, 6e-5, 2000, 600000));
//   opt.step();
#pragma once

#include <cstdint>

#include "optim/optimizer.h"

namespace attic::optim {

// nanoGPT's get_lr (train.py at commit 9755682b), for it >= 0:
//   it < warmup_iters:      lr · it / warmup_iters              (linear warmup from 0)
//   it > lr_decay_iters:    min_lr
//   otherwise:              min_lr + ½ (1 + cos(π r)) (lr - min_lr),
//                           r = (it - warmup_iters) / (lr_decay_iters - warmup_iters)
// Needs 0 <= warmup_iters < lr_decay_iters.
double cosine_with_warmup(int64_t it, double lr, double min_lr, int64_t warmup_iters,
                          int64_t lr_decay_iters);

// lr · it / warmup_iters while it < warmup_iters, then lr; warmup_iters = 0 is plain
// constant lr (nanoGPT with decay_lr = False).
double constant_with_warmup(int64_t it, double lr, int64_t warmup_iters = 0);

// min(max_lr, scale / √step), for step >= 1 (steps count from 1). With the defaults, ELiTA's
// schedule min(1e-3, 1e-2 / √step): 1e-3 up to step 100, then decaying as 1 / √step.
double inverse_sqrt(int64_t step, double max_lr = 1e-3, double scale = 1e-2);

// PyTorch's StepLR, with nanoGPT's warmup in front: lr · it / warmup_iters while
// it < warmup_iters, then lr · gamma^⌊it / step_size⌋. Needs step_size >= 1.
double step_decay(int64_t it, double lr, double gamma, int64_t step_size, int64_t warmup_iters = 0);

// PyTorch's CosineAnnealingLR(T_max, eta_min) after `step` calls of scheduler.step(), in its
// closed form: eta_min + ½ (1 + cos(π step / T_max)) (lr - eta_min), for 0 <= step <= T_max
// (at T_max the rate is eta_min). Needs T_max >= 1.
double cosine_annealing(int64_t step, double lr, double eta_min, int64_t t_max);

// Sets the lr of every group of opt.
void set_lr(Optimizer& opt, double lr);

}  // namespace attic::optim
