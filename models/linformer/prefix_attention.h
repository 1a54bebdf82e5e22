// Causal low-rank attention: query i reads k slots built from positions ≤ i only,
//
//   K̄_i[s] = Σ_{j≤i} ME[s, j] k̃_j + bE[s]      V̄_i[s] = Σ_{j≤i} MF[s, j] ṽ_j + bF[s]
//   y_i    = Σ_s softmax_s(q_i · K̄_i[s] / √d) V̄_i[s]          over the slots s ≤ i
//
// the form of Peng et al. 2021, "ABC: Attention with Bounded-memory Control", with Linformer's
// E and F as the control matrices (models/linformer/projection.h writes each method as M, x̃
// and a bias). The slots s > i are masked as in the linformer-pytorch package's (n, k) causal
// mask, so that with k = n and E = F = I this is exactly causal softmax attention.
#pragma once

#include "tensor/random.h"
#include "tensor/tensor.h"

namespace attic::models::linformer {

struct PrefixInputs {
  Tensor q, k, v;          // [B, m, d]: queries, keyed keys k̃, keyed values ṽ
  Tensor ME, MF;           // [k, m]
  Tensor bE, bF;           // broadcast to [k, d], or undefined
  double scale = 1.0;      // 1/√d
  double dropout = 0.0;    // on the softmax weights
  bool training = false;
  Generator* gen = nullptr;
};

// [rows, cols] bool, true where column s lies after row r's position (s > first + r): the
// slots (or keys) a causal mask closes. With cols = k and first = 0 it is the package's
// gen_causal_mask(n, k), negated.
Tensor after_position(int64_t rows, int64_t cols, int64_t first, const TensorOptions& options);

// -> y [B, m, d]. The sequence is cut into chunks of c positions; a chunk starts from the
// slots summed over all chunks before it (an exclusive prefix sum over chunks) and adds its
// own positions through a c × c lower triangle, so time and memory are O(m (c + k) d) rather
// than O(m k d) stored sums per position. P, when given, receives the softmax weights
// [B, m, k] before dropout.
Tensor prefix_attention(const PrefixInputs& in, int64_t chunk = 64, Tensor* P = nullptr);

// The same, one query at a time from its own prefix sums: O(m² k d), the reference the
// chunked form is tested against.
Tensor prefix_attention_naive(const PrefixInputs& in);

}  // namespace attic::models::linformer
