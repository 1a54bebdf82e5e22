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
  // TODO: per head, softmax(att) v with att[t, s] = q_t · k_s / √hs for t − window < s ≤ t
  //       and −∞ elsewhere, q, k, v from c_attn; the heads merged, then c_proj
  //       (window_attention.h).
  (void)x;
  throw std::logic_error("TODO: WindowAttention::forward is not written yet");
}
