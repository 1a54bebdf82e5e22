// The solution of chapter 21's exercise: one Linformer head.
#include "low_rank_head.h"

#include <cmath>

using namespace attic;

// Q, K, V [n, d]; E, F [k, n] -> [n, d]
Tensor low_rank_attention(const Tensor& Q, const Tensor& K, const Tensor& V, const Tensor& E,
                          const Tensor& F) {
  const double scale = 1.0 / std::sqrt(double(Q.size(1)));
  Tensor K_bar = matmul(E, K);  // [k, d]
  Tensor V_bar = matmul(F, V);  // [k, d]
  Tensor P_bar = softmax(matmul(Q, K_bar.t()) * scale, -1);  // [n, k]
  return matmul(P_bar, V_bar);
}
