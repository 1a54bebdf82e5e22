// Reflex attention (Vadimbuildercxx/reflex_attention, model.py, attention_type = "reflex"):
// a GPT attention whose heads read earlier layers. At block i >= 2 the heads are split by
// fixed index into three groups, all with queries from the current stream ln_1(x_i):
//
//   heads [0, sa)              SA:  keys and values from ln_1(x_i)   (self-attention)
//   heads [sa, sa + p1)        CA1: keys and values from x_{i−1}     (cross-attention)
//   heads [sa + p1, NH)        CA2: keys and values from x_{i−2}
//
//   Attn_i = c_proj(Cat[SA(h_i), CA(h_{i−1}, h_i), CA(h_{i−2}, h_i)])
//
// each group causal softmax attention with scale 1/√hs. So the write-up's three attentions
// are one attention whose heads differ in where their keys come from: same width, same
// parameters as classic. Blocks 0 and 1 have fewer than two earlier states and run classic
// attention over every head. Generation keeps a KV cache of the mixed keys and values.
#pragma once

#include <array>

#include "nn/attention/causal_self_attention.h"

namespace attic::models::reflex {

class ReflexAttention : public nn::CausalSelfAttention {
 public:
  // options.args: norm_prev (false), sa_heads and prev1_heads (the fork's 2 and 2, see the
  // constructor).
  explicit ReflexAttention(const nn::MixerOptions& options);
  // x [B, T, C] = ln_1(x_i) -> [B, T, C]; ctx.back(1), ctx.back(2) = x_{i−1}, x_{i−2}.
  Tensor forward(const Tensor& x, const nn::MixerContext& ctx = {}) override;
  // x [B, t, C] of t new tokens, ctx.earlier the earlier blocks' inputs for them -> [B, t, C].
  Tensor step(nn::MixerState& state, const Tensor& x, const nn::MixerContext& ctx) override;
  std::string name() const override { return "reflex"; }

  int64_t sa_heads;     // SA heads: 0 .. sa_heads − 1
  int64_t prev1_heads;  // CA1 heads after them; the remaining n_head − sa − p1 are CA2
  bool norm_prev;       // earlier states through this block's ln_1 (the fork: raw)

 private:
  // q, k, v [B, NH, T, hs] of block layer >= 2: q from x, each head's k, v from its group's
  // source.
  std::array<Tensor, 3> project(const Tensor& x, const nn::MixerContext& ctx);
};

}  // namespace attic::models::reflex
