// Chapter 19's exercise: causal sliding-window attention in the GPT's attention socket.
// Build and check it with `make exercise N=19`; the solution is in
// solution/window_attention.cpp.
#include "window_attention.h"

#include <stdexcept>

using namespace attic;

WindowAttention::WindowAttention(const nn::MixerOptions& o, int64_t window_)
    : n_head(o.n_head), window(window_) {
  o.validate("WindowAttention");
  c_attn = register_module("c_attn", std::make_shared<nn::Linear>(o.n_embd, 3 * o.n_embd, o.bias));
  c_proj = register_module("c_proj", std::make_shared<nn::Linear>(o.n_embd, o.n_embd, o.bias));
}

// x [B, T, C] -> [B, T, C]
Tensor WindowAttention::forward(const Tensor& x, const nn::MixerContext&) {
  // TODO 1: qkv = c_attn->forward(x), [B, T, 3C]; q, k, v are its three C-wide column blocks
  //         (narrow along dim 2), each split into heads with split_heads(·, n_head).
  // TODO 2: the keep mask [T, T]: true where t − window < s ≤ t. tril(ones({T, T})) keeps
  //         s ≤ t; tril(·, −window) is what lies window or more below the diagonal; gt(t, 0.5)
  //         turns ones into true.
  // TODO 3: scaled_dot_product_attention(q, k, v, options with attn_mask = keep), then
  //         merge_heads and c_proj.
  (void)x;
  throw std::logic_error("TODO: WindowAttention::forward is not written yet");
}
