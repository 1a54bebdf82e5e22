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
  // nanoGPT's `flash`: use the fused scaled_dot_product_attention kernel. It has no dropout
  // on the weights, so with attention dropout in training the composed ops run instead.
  bool fused = true;

 private:
  // q, k, v [B, NH, T, hs] -> softmax(mask(q kᵀ / √hs)) v, in separate ops
  Tensor attend(const Tensor& q, const Tensor& k, const Tensor& v);
  Tensor future_mask(int64_t T);  // [T, T] bool, true above the diagonal (t' > t)
  Tensor mask_;                   // cached for the largest T seen
};

}  // namespace attic::models
