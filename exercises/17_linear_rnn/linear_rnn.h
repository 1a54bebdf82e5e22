// Chapter 17's exercise: causal linear attention as an explicit recurrence over positions.
#pragma once

#include "nn/attention/linear_attention.h"

// x [B, T, d] -> [B, T, d]: LinearAttention la applied causally to x (queries, keys and
// values all from x), computed with one step per position t. Per head, with φ = elu + 1:
//   S_t = S_{t-1} + φ(k_t) v_tᵀ     [dk, dv]
//   z_t = z_{t-1} + φ(k_t)          [dk]
//   o_t = φ(q_t)ᵀ S_t / φ(q_t)ᵀ z_t
// (Katharopoulos et al. 2020, "Transformers are RNNs", eq. 16-20); then fc_o.
attic::Tensor my_causal_linear_attention(attic::nn::LinearAttention& la, const attic::Tensor& x);
