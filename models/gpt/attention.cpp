#include "models/gpt/attention.h"

namespace attic::models {

CausalSelfAttention::CausalSelfAttention(const GPTConfig& cfg)
    : n_head(cfg.n_head), n_embd(cfg.n_embd) {
  c_attn = register_module("c_attn", std::make_shared<nn::Linear>(cfg.n_embd, 3 * cfg.n_embd, cfg.bias));
  c_proj = register_module("c_proj", std::make_shared<nn::Linear>(cfg.n_embd, cfg.n_embd, cfg.bias));
  attn_dropout = register_module("attn_dropout", std::make_shared<nn::Dropout>(cfg.dropout));
  resid_dropout = register_module("resid_dropout", std::make_shared<nn::Dropout>(cfg.dropout));
}

// x [B, T, C] -> [B, T, C]:
//   y = softmax(q kᵀ / √hs, key t' > t dropped) v per head, heads side by side, then c_proj
Tensor CausalSelfAttention::forward(const Tensor& x) {
  Tensor qkv = c_attn->forward(x);  // [B, T, 3C]: q, k, v side by side
  // One call for every head. With no attention dropout in play it is the fused kernel,
  // reading q, k, v out of qkv in place; otherwise the same math in separate ops, with
  // dropout on the weights (karpathy/nanoGPT, model.py, both branches of `flash`).
  const double p = is_training() ? attn_dropout->p : 0.0;
  Tensor y = scaled_dot_product_attention_packed(
      qkv, n_head, {.is_causal = true, .dropout_p = p, .generator = attn_dropout->gen, .fused = fused});
  return resid_dropout->forward(c_proj->forward(y));  // y [B, T, C]
}

}  // namespace attic::models
