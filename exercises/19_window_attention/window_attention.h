// Chapter 19's exercise: an attention of your own in the GPT's socket. Sliding-window
// attention (Beltagy et al. 2020, "Longformer", §3.1, its causal form): query t attends to
// the `window` keys t − window + 1 .. t only, so each token sees a fixed amount of context.
#pragma once

#include "models/gpt.h"

class WindowAttention : public attic::nn::CausalMixer {
 public:
  // The same projections as the GPT's softmax attention, under the same names, so that a
  // checkpoint of one loads into the other: c_attn Linear(C, 3C) makes q, k, v side by side;
  // c_proj Linear(C, C) mixes the heads. window >= 1.
  WindowAttention(const attic::nn::MixerOptions& o, int64_t window);

  // x [B, T, C] -> [B, T, C]. Per head (hs = C / NH):
  //   q, k, v = split of x c_attnᵀ                        [B, NH, T, hs] each
  //   att[t, s] = q_t · k_s / √hs  for t − window < s ≤ t, −∞ elsewhere
  //   y = softmax(att) v, heads merged, then c_proj
  attic::Tensor forward(const attic::Tensor& x, const attic::nn::MixerContext& ctx = {}) override;

  std::string name() const override { return "window"; }

  int64_t n_head, window;
  std::shared_ptr<attic::nn::Linear> c_attn, c_proj;
};
