// Chapter 6's exercise: the Adam / AdamW update as one plain loop over float arrays, the
// kernel that optim::Adam and optim::AdamW run for every parameter on every step.
#pragma once

#include <cstdint>

#include "tensor/adam_step.h"

// p, g, m, v: n floats each (a parameter, its gradient, and its first and second moments,
// updated in place). s holds lr, beta1 = b1, beta2 = b2, eps, weight_decay = wd, the bias
// corrections bc1 = 1 - b1^t and bc2 = 1 - b2^t of step t (t = 1 on the first update), and
// whether the decay is decoupled. For every i (Kingma & Ba 2015; Loshchilov & Hutter 2019):
//   AdamW (s.decoupled):  p = p (1 - lr wd)         Adam (otherwise):  g = g + wd p
//   m = b1 m + (1 - b1) g
//   v = b2 v + (1 - b2) g²
//   p = p - lr / bc1 · m / (√v / √bc2 + eps)
// The same signature as attic's kernel, Kernels::adam_step in tensor/cpu/adam.cpp, with
// raw float arrays in place of its KTensors.
void my_adam_step(float* p, const float* g, float* m, float* v, int64_t n,
                  const attic::AdamStep& s);
