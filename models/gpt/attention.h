// Causal self-attention, nanoGPT's CausalSelfAttention:
//   q, k, v = split(x Wᵀ_attn, C)                 c_attn: Linear(C, 3C)
//   att = softmax(mask(q kᵀ / √hs)) per head       mask: position t sees 0..t only
//   y = (att v) heads concatenated, then c_proj    c_proj: Linear(C, C)
#pragma once

#include "models/gpt/config.h"
#include "nn/nn.h"

namespace attic::models {

class CausalSelfAttention : public nn::UnaryModule {
 public:
  explicit CausalSelfAttention(const GPTConfig& cfg);
  // x [B, T, C] -> [B, T, C]
  Tensor forward(const Tensor& x) override;

  std::shared_ptr<nn::Linear> c_attn, c_proj;
  std::shared_ptr<nn::Dropout> attn_dropout, resid_dropout;
  int64_t n_head, n_embd;
  // nanoGPT's `flash`: let scaled_dot_product_attention run its fused kernel. The kernel
  // has no dropout on the weights, so with attention dropout in training the composed ops
  // run either way.
  bool fused = true;
};

}  // namespace attic::models
