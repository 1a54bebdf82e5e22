// E and F: how a Linformer head maps the n positions of its keys (E) and values (F) to k
// slots. The linformer-pytorch package builds them in get_EF; one Projection object is
// shared by every head and layer that the parameter sharing says (models/linformer/config.h).
//
//   learnable    K̄ = W K + b           W [k, n] xavier_normal, b [k] (a Linear over positions)
//   no_params    K̄ = Eᵀ K               E [n, k] ~ N(0, σ²), fixed: a buffer, not a parameter
//   convolution  K̄[s] = Σ_t W_t k_{s·w+t} + b    Conv1d(d → d, kernel = stride = w = n/k):
//                                       W [d, d, w] mixes channels inside window s
//
// with K [B, n, d] (one head's keys) and K̄ [B, k, d]. Names follow the package's state dict:
// a learnable or convolution E has "weight" and "bias"; a no_params E is the head's own
// buffer (the package keeps it in no state dict; see LinearAttentionHead).
#pragma once

#include "models/linformer/config.h"
#include "nn/module.h"

namespace attic::models::linformer {

class Projection : public nn::Module {
 public:
  // n positions to k slots, for heads of width d. no_params_code_std: σ = 1/k (the package's
  // code) instead of 1/√k (the paper).
  Projection(int64_t n, int64_t k, Method method, int64_t d, bool no_params_code_std = false);

  // x [B, m, d] with m ≤ n -> [B, k, d]: the slots over x's m positions. Positions m..n−1
  // count as zero rows (as if x were zero-padded to n, the package's Padder).
  Tensor compress(const Tensor& x) const;

  // The same map written as slots over positions, for prefix sums (Causal::Prefix):
  //   compress(x)[s] = Σ_j M[s, j] x̃_j + bias[s]
  // where x̃ = keyed(x) [B, m, d]. learnable and no_params: M = W (or Eᵀ) and x̃ = x. For a
  // convolution M[s, j] = 1 when j lies in window s, and x̃_j = W_{j mod w} x_j: each
  // position is mixed by the kernel tap it meets.
  Tensor matrix(int64_t m) const;  // M [k, m]
  Tensor column(int64_t j) const;  // M[:, j] [k]
  // x̃ [B, m, d] for x [B, m, d] at positions offset .. offset + m − 1
  Tensor keyed(const Tensor& x, int64_t offset = 0) const;
  Tensor bias_rows() const;  // [k, 1], [1, d] or undefined: broadcasts to [k, d]

  int64_t n, k, d;
  Method method;
  int64_t window = 0;  // convolution: w = ⌊n/k⌋
  Tensor weight;       // learnable [k, n]; convolution [d, d, w]; no_params [n, k] (a buffer)
  Tensor bias;         // learnable [k]; convolution [d]; no_params undefined
};

}  // namespace attic::models::linformer
