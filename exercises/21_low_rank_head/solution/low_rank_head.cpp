// The solution of chapter 21's exercise: one Linformer head.
//
// The chapter's question: with causal=prefix, for a query early in the sequence (i < k), how many
// slots does it see, and what are they made of?
// Answer: i + 1 slots, 0..i (prefix_attention_naive masks the slots after position i);
// each is a mix of the first i + 1 keys (and values), K̄_i[s] = Σ_{j ≤ i} E[s, j] k_j (+ bE[s]).
// As many slots as tokens: for an invertible block E[0..i, 0..i] the slots are the tokens'
// keys in another basis, not a summary of them. From position k on, more tokens than slots
// share the k slots, and only there do they compress the past.
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
