// Chapter 16's exercise: find the op that makes a NaN with anomaly mode, then fix the
// function it sits in.
#pragma once

#include <string>

#include "tensor/tensor.h"

// x [N, C] -> [N, C]: each row brought to mean 0 and variance 1, layer norm without its
// weight and bias (Ba, Kiros & Hinton 2016):
//   n = (x − mean(x)) / √(var(x) + eps),   mean and var over the row's C values,
//   var(x) = mean((x − mean(x))²)  (the biased variance, as LayerNorm uses).
attic::Tensor normalize(const attic::Tensor& x, double eps);

// Runs normalize(x, 0.0) with anomaly mode on (autograd::DetectAnomalyGuard) and returns
// the message (what()) of the attic::Error it throws, or "" when it throws none.
std::string anomaly_report(const attic::Tensor& x);
