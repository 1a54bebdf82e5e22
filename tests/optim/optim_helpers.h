// Helpers shared by the optimizer tests.
#pragma once

#include <vector>

#include "optim/optim.h"

namespace attic::testing {

// A float64 leaf holding values.
inline Tensor param(std::vector<double> values) {
  return from_vector(values, {int64_t(values.size())}).requires_grad_();
}

// Sets p's gradient to g and takes one step.
inline void step_with(optim::Optimizer& opt, Tensor& p, std::vector<double> g) {
  p.set_grad(from_vector(g, {int64_t(g.size())}));
  opt.step();
}

}  // namespace attic::testing
