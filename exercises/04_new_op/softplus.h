// Chapter 4's exercise: a new op for attic, softplus, with its forward kernel loop and its
// autograd node, in the style of ops/activation.cpp.
#pragma once

#include "tensor/tensor.h"

namespace exercise {

// x [*] (float32 or float64, on the CPU) -> y [*], elementwise (Dugas et al. 2001):
//   y = log(1 + e^x),  computed as  y = max(x, 0) + log1p(e^(-|x|))
// the same value, without the overflow of e^x for a large x or the rounding of 1 + e^x to 1
// for a very negative x. When x needs a gradient, out.grad_fn() is a node named
// "SoftplusBackward" that saves x and returns dx = g σ(x), with σ(x) = 1 / (1 + e^(-x)).
// Throws attic::Error naming softplus for an x that is not floating.
attic::Tensor softplus(const attic::Tensor& x);

}  // namespace exercise
