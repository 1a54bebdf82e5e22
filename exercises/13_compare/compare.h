// Chapter 13's exercise: the comparison at the heart of a check against PyTorch.
#pragma once

#include "ops/ops.h"

struct Comparison {
  double max_abs;  // max |a - b| over all elements
  double rel;      // max |a - b| / (max |b| + 1e-8): the error relative to b's largest entry
  bool close;      // rel < tol, and no NaN anywhere
};

// a, b of one shape (any), b the reference (PyTorch's). The test of tests/models/
// test_gpt_vs_pytorch.cpp uses this rule with tol = 1e-5 for logits, 1e-4 for gradients.
// A NaN in a or b makes max_abs and rel NaN and close false. Throws attic::Error when the
// shapes differ.
Comparison compare(const attic::Tensor& a, const attic::Tensor& b, double tol);
