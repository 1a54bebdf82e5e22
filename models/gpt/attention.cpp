#include "models/gpt/attention.h"

#include <cmath>
#include <limits>

namespace attic::models {

CausalSelfAttention::CausalSelfAttention(const GPTConfig& cfg)
    : n_head(cfg.n_head), n_embd(cfg.n_embd) {
  c_attn = register_module("c_attn", std::make_shared<nn::Linear>(cfg.n_embd, 3 * cfg.n_embd, cfg.bias));
  c_proj = register_module("c_proj", std::make_shared<nn::Linear>(cfg.n_embd, cfg.n_embd, cfg.bias));
  attn_dropout = register_module("attn_dropout", std::make_shared<nn::Dropout>(cfg.dropout));
  resid_dropout = register_module("resid_dropout", std::make_shared<nn::Dropout>(cfg.dropout));
}

Tensor CausalSelfAttention::future_mask(int64_t T) {
  if (!mask_.defined() || mask_.size(0) < T) mask_ = triu(ones({T, T}), 1);
  return mask_.narrow(0, 0, T).narrow(1, 0, T);
}

Tensor CausalSelfAttention::forward(const Tensor& x) {
  const int64_t B = x.size(0), T = x.size(1), C = x.size(2), NH = n_head, hs = C / NH;
  Tensor qkv = c_attn->forward(x);  // [B, T, 3C]: q, k, v side by side
  if (fused && (attn_dropout->p == 0 || !is_training())) {
    // One kernel for every head; it reads q, k, v out of qkv in place.
    Tensor y = scaled_dot_product_attention_packed(qkv, NH, /*is_causal=*/true);  // [B, T, C]
    return resid_dropout->forward(c_proj->forward(y));
  }
  // [B, T, 3C] -> three [B, T, C] views -> [B, NH, T, hs] (views: no copies)
  std::vector<Tensor> parts = split(qkv, C, 2);
  Tensor q = parts[0].view({B, T, NH, hs}).transpose(1, 2);
  Tensor k = parts[1].view({B, T, NH, hs}).transpose(1, 2);
  Tensor v = parts[2].view({B, T, NH, hs}).transpose(1, 2);
  Tensor y = attend(q, k, v);                               // [B, NH, T, hs]
  y = y.transpose(1, 2).contiguous().view({B, T, C});     // heads side by side
  return resid_dropout->forward(c_proj->forward(y));
}

// The same attention in separate ops, as karpathy/nanoGPT's model.py writes it without
// flash attention, with dropout on the weights.
// q, k, v [B, NH, T, hs] -> [B, NH, T, hs].
Tensor CausalSelfAttention::attend(const Tensor& q, const Tensor& k, const Tensor& v) {
  const int64_t T = q.size(2), hs = q.size(3);
  // att [B, NH, T, T] = q kᵀ / √hs: the scale keeps the logits' variance near 1 so the
  // softmax does not saturate as hs grows (Vaswani et al. 2017, §3.2.1).
  Tensor att = matmul(q, k.transpose(-2, -1)) * (1.0 / std::sqrt(double(hs)));
  // -inf above the diagonal: after softmax, position t gives weight 0 to every t' > t.
  att = masked_fill(att, future_mask(T), -std::numeric_limits<double>::infinity());
  att = attn_dropout->forward(softmax(att, -1));
  return matmul(att, v);
}

}  // namespace attic::models
