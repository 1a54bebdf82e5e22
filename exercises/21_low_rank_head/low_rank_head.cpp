// Chapter 21's exercise: one Linformer head. Build and check it with `make exercise N=21`;
// the solution is in solution/low_rank_head.cpp.
#include "low_rank_head.h"

#include <stdexcept>

using namespace attic;

// Q, K, V [n, d]; E, F [k, n] -> [n, d]
Tensor low_rank_attention(const Tensor& Q, const Tensor& K, const Tensor& V, const Tensor& E,
                          const Tensor& F) {
  // TODO: softmax(Q (E K)ᵀ / √d) (F V)   [n, d]   (low_rank_head.h), differentiable in every
  // input, so that backward works.
  (void)Q, (void)K, (void)V, (void)E, (void)F;
  throw std::logic_error("TODO: low_rank_attention is not written yet");
}
