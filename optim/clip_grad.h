// Gradient clipping by the global norm, PyTorch's torch.nn.utils.clip_grad_norm_.
#pragma once

#include <vector>

#include "ops/ops.h"

namespace attic::optim {

// Over the params that have a .grad (any shapes):
//   total = √(Σ_p ||g_p||²)              (the norm of all gradients as one long vector)
//   c = max_norm / (total + 1e-6)
//   if c < 1: every g_p *= c             (the direction is kept, the length becomes max_norm)
// Returns total, measured before clipping. The 1e-6 keeps c finite when total is 0.
double clip_grad_norm_(const std::vector<Tensor>& params, double max_norm);

}  // namespace attic::optim
