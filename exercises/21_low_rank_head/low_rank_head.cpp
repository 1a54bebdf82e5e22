// Chapter 21's exercise: one Linformer head. Build and check it with `make exercise N=21`;
// the solution is in solution/low_rank_head.cpp.
#include "low_rank_head.h"

#include <stdexcept>

using namespace attic;

// Q, K, V [n, d]; E, F [k, n] -> [n, d]
Tensor low_rank_attention(const Tensor& Q, const Tensor& K, const Tensor& V, const Tensor& E,
                          const Tensor& F) {
  // TODO 1: project the keys and the values along the sequence: K̄ = E K, V̄ = F V   [k, d]
  // TODO 2: P̄ = softmax(Q K̄ᵀ / √d) over the last dim                              [n, k]
  // TODO 3: return P̄ V̄                                                             [n, d]
  // Use differentiable ops only (matmul, t, softmax, *), so that backward works.
  (void)Q, (void)K, (void)V, (void)E, (void)F;
  throw std::logic_error("TODO: low_rank_attention is not written yet");
}
