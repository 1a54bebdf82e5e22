// The scalars of one Adam / AdamW step, which the adam_step_ op (ops/optim_step.cpp)
// hands to the fused kernel of each backend. optim/adam.cpp has the update written out.
#pragma once

namespace attic {

struct AdamStep {
  double lr = 0, beta1 = 0, beta2 = 0, eps = 0, weight_decay = 0;
  double bias_correction1 = 1, bias_correction2 = 1;  // 1 - beta^t
  bool decoupled = true;                              // AdamW (true) or Adam's L2 (false)
};

}  // namespace attic
