#include "optim/schedule.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace attic::optim {

double cosine_with_warmup(int64_t it, double lr, double min_lr, int64_t warmup_iters,
                          int64_t lr_decay_iters) {
  ATTIC_CHECK(it >= 0, "cosine_with_warmup: iteration ", it, " is negative");
  ATTIC_CHECK(warmup_iters >= 0 && warmup_iters < lr_decay_iters,
              "cosine_with_warmup: needs 0 <= warmup_iters < lr_decay_iters, got warmup_iters ",
              warmup_iters, " and lr_decay_iters ", lr_decay_iters);
  if (it < warmup_iters) return lr * double(it) / double(warmup_iters);
  if (it > lr_decay_iters) return min_lr;
  const double ratio = double(it - warmup_iters) / double(lr_decay_iters - warmup_iters);
  const double coeff = 0.5 * (1.0 + std::cos(std::numbers::pi * ratio));  // 1 -> 0
  return min_lr + coeff * (lr - min_lr);
}

double step_decay(int64_t it, double lr, double gamma, int64_t step_size, int64_t warmup_iters) {
  ATTIC_CHECK(it >= 0 && step_size >= 1 && warmup_iters >= 0, "step_decay: needs it >= 0, step_size >= 1 and "
              "warmup_iters >= 0, got ", it, ", ", step_size, " and ", warmup_iters);
  if (it < warmup_iters) return lr * double(it) / double(warmup_iters);
  return lr * std::pow(gamma, double(it / step_size));
}

double cosine_annealing(int64_t step, double lr, double eta_min, int64_t t_max) {
  ATTIC_CHECK(step >= 0 && step <= t_max && t_max >= 1, "cosine_annealing: needs 0 <= step <= T_max and "
              "T_max >= 1, got step ", step, " and T_max ", t_max);
  return eta_min + 0.5 * (1.0 + std::cos(std::numbers::pi * double(step) / double(t_max))) * (lr - eta_min);
}

double constant_with_warmup(int64_t it, double lr, int64_t warmup_iters) {
  ATTIC_CHECK(it >= 0, "constant_with_warmup: iteration ", it, " is negative");
  ATTIC_CHECK(warmup_iters >= 0, "constant_with_warmup: warmup_iters ", warmup_iters,
              " is negative");
  if (it < warmup_iters) return lr * double(it) / double(warmup_iters);
  return lr;
}

double inverse_sqrt(int64_t step, double max_lr, double scale) {
  ATTIC_CHECK(step >= 1, "inverse_sqrt: step must be >= 1 (steps count from 1), got ", step);
  return std::min(max_lr, scale / std::sqrt(double(step)));
}

void set_lr(Optimizer& opt, double lr) {
  ATTIC_CHECK(lr >= 0, "set_lr: invalid lr ", lr, " (must be >= 0)");
  for (ParamGroup& g : opt.param_groups()) g.lr = lr;
}

}  // namespace attic::optim
