// The solution of chapter 19's exercise: causal sliding-window attention.
//
// The chapter's question: what would `step` have to keep for this attention, and why does it not
// grow with the text?
// Answer: per layer and head, the keys and values of the last `window` positions (the
// new token's and the window - 1 before it), for example in a ring of `window` rows that
// each step overwrites at position t mod window. A query never looks further back, so
// nothing older is needed, and the state is [window, hs] however long the text grows.
#include "window_attention.h"

using namespace attic;

WindowAttention::WindowAttention(const nn::MixerOptions& o, int64_t window_)
    : n_head(o.n_head), window(window_) {
  o.validate("WindowAttention");
  c_attn = register_module("c_attn", std::make_shared<nn::Linear>(o.n_embd, 3 * o.n_embd, o.bias));
  c_proj = register_module("c_proj", std::make_shared<nn::Linear>(o.n_embd, o.n_embd, o.bias));
}

// x [B, T, C] -> [B, T, C]
Tensor WindowAttention::forward(const Tensor& x, const nn::MixerContext&) {
  const int64_t T = x.size(1), C = x.size(2);
  Tensor qkv = c_attn->forward(x);  // [B, T, 3C]
  Tensor q = split_heads(qkv.narrow(2, 0, C), n_head);  // [B, NH, T, hs]
  Tensor k = split_heads(qkv.narrow(2, C, C), n_head);
  Tensor v = split_heads(qkv.narrow(2, 2 * C, C), n_head);
  // keep[t, s] = s <= t and s > t - window: the band of ones between two diagonals
  Tensor ones_tt = ones({T, T});
  Tensor keep = gt(tril(ones_tt) - tril(ones_tt, -window), 0.5);  // [T, T] bool
  SdpaOptions opts;
  opts.attn_mask = keep;
  Tensor y = scaled_dot_product_attention(q, k, v, opts);  // [B, NH, T, hs]
  return c_proj->forward(merge_heads(y));
}
