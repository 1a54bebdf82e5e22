// softmax's and log_softmax's plain reference: the definition, one row after another,
// everything in double. Slow and obviously right; the fused kernel of tensor/cpu/softmax.cpp
// and the backward nodes of ops/softmax.cpp are tested against it
// (tests/tensor/cpu/test_softmax.cpp).
#pragma once

#include <cmath>
#include <cstdint>

namespace attic::cpu {

// x, y: [N, C] row-major, each row a distribution over C:
//   softmax:      y_i = e^(x_i - m) / Σ_j e^(x_j - m)
//   log_softmax:  y_i = x_i - m - log Σ_j e^(x_j - m),   m = max_j x_j
// (m cancels; it keeps every exponent <= 0, so e^x cannot overflow).
template <class T>
void softmax_naive(int64_t N, int64_t C, const T* x, T* y, bool log) {
  for (int64_t n = 0; n < N; ++n) {
    const T* row = x + n * C;
    double m = -INFINITY, s = 0;
    // The max by a comparison, not std::fmax (the same here: a NaN is skipped either way):
    // GCC 12.2 for AArch64 crashes at -O3 vectorizing an fmax over widened floats ("internal
    // compiler error: in vect_transform_reduction"), Debian 12's compiler among them.
    for (int64_t i = 0; i < C; ++i)
      if (double(row[i]) > m) m = double(row[i]);
    for (int64_t i = 0; i < C; ++i) s += std::exp(double(row[i]) - m);
    for (int64_t i = 0; i < C; ++i)
      y[n * C + i] = T(log ? double(row[i]) - m - std::log(s) : std::exp(double(row[i]) - m) / s);
  }
}

// y (the forward's output), dy, dx: [N, C] row-major. From dy_i/dx_k:
//   softmax:      ∂y_i/∂x_k = y_i (δ_ik - y_k)    =>  dx = y ⊙ (dy - Σ_j dy_j y_j)
//   log_softmax:  ∂y_i/∂x_k = δ_ik - e^(y_k)      =>  dx = dy - e^y Σ_j dy_j
template <class T>
void softmax_backward_naive(int64_t N, int64_t C, const T* y, const T* dy, T* dx, bool log) {
  for (int64_t n = 0; n < N; ++n) {
    const T* yr = y + n * C;
    const T* g = dy + n * C;
    double s = 0;
    for (int64_t i = 0; i < C; ++i) s += log ? double(g[i]) : double(g[i]) * double(yr[i]);
    for (int64_t i = 0; i < C; ++i)
      dx[n * C + i] = T(log ? double(g[i]) - std::exp(double(yr[i])) * s
                            : double(yr[i]) * (double(g[i]) - s));
  }
}

}  // namespace attic::cpu
