// Chapter 9 exercise: which input positions each output position depends on, read off the
// gradient.
#pragma once

#include <functional>

#include "tensor/tensor.h"

// f maps x [1, T, C] to y [1, T, C'] (C' may differ from C). Returns a [T, T] float32
// tensor D with
//   D[t, u] = 1  if d sum(y[0, t]) / d x[0, u] has a nonzero element,  0 otherwise.
// x need not require grad, and is left as it was.
attic::Tensor dependence_pattern(const std::function<attic::Tensor(const attic::Tensor&)>& f,
                                 const attic::Tensor& x);
