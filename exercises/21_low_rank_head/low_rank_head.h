// Chapter 21's exercise: one Linformer head (Wang et al. 2020, "Linformer", eq. 7): the keys
// and values are projected along the sequence, from n rows to k, before attention.
#pragma once

#include "ops/ops.h"

// Q, K, V [n, d]; E, F [k, n] -> [n, d]:
//   softmax(Q (E K)ᵀ / √d) (F V)
// P̄ = softmax(·) is [n, k]: each query weighs k compressed slots instead of n keys.
attic::Tensor low_rank_attention(const attic::Tensor& Q, const attic::Tensor& K,
                                 const attic::Tensor& V, const attic::Tensor& E,
                                 const attic::Tensor& F);
