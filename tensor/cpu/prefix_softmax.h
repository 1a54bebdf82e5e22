// The reference of the CPU prefix softmax (tensor/cpu/prefix_softmax.cpp): every row's
// softmax written out over its i + 2 logits, O(N²) per line, every sum in double.
// tests/tensor/cpu/test_prefix_softmax.cpp checks the kernel against it.
#pragma once

#include <cstdint>

namespace attic::cpu {

// s, d, r [L, N] and v [L, N, A], contiguous (L lines: B·H) -> y [L, N, A], row i of a line
//   y_i = (Σ_{j≤i} e^{r_i + s_j} v_j + e^{d_i} v_i) / (Σ_{j≤i} e^{r_i + s_j} + e^{d_i})
template <class T>
void prefix_softmax_naive(int64_t L, int64_t N, int64_t A, const T* s, const T* d, const T* r,
                          const T* v, T* y);

// g [L, N, A] -> ds, dd, dr [L, N] and dv [L, N, A], by the softmax's derivative: for a
// logit of probability p and value u in row i, ∂/∂logit = p (g_i·u − g_i·y_i).
template <class T>
void prefix_softmax_backward_naive(int64_t L, int64_t N, int64_t A, const T* g, const T* s,
                                   const T* d, const T* r, const T* v, T* ds, T* dd, T* dr,
                                   T* dv);

}  // namespace attic::cpu
