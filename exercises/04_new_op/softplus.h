// Chapter 4's exercise: a new op for attic, softplus, with its forward kernel loop and its
// autograd node, in the style of ops/activation.cpp.
#pragma once

#include "tensor/tensor.h"

namespace exercise {

// x [*] (float32 or float64, on the CPU) -> y [*], elementwise (Dugas et al. 2001):
//   y = log(1 + e^x)
// to the last digits for every finite x: no overflow of e^x for a large x, and no rounding
// of 1 + e^x to 1 for a very negative x. When x needs a gradient, out.grad_fn() is a node
// named "SoftplusBackward" that saves x and returns dx, the gradient of the input.
// Throws attic::Error naming softplus for an x that is not floating.
attic::Tensor softplus(const attic::Tensor& x);

}  // namespace exercise
