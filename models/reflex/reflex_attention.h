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

#include "models/reflex/sources.h"
#include "util/options.h"

namespace attic::models::reflex {

// Its options (--attention_options). Without sa_heads and prev1_heads, the fork's split of the
// heads, [0:2], [2:4], [4:], holds whatever n_head is; with either, the other defaults to the
// same rule and their sum must fit n_head.
struct ReflexOptions {
  bool norm_prev = false;
  int64_t sa_heads = 2;
  int64_t prev1_heads = 2;
  void bind(util::Options& o);
};

class ReflexAttention : public EarlierLayersAttention {
 public:
  // options.args: norm_prev (false), sa_heads and prev1_heads (the fork's 2 and 2, see the
  // constructor).
  explicit ReflexAttention(const nn::MixerOptions& options);
  ReflexAttention(const nn::MixerOptions& options, const ReflexOptions& own);
  std::string name() const override { return "reflex"; }

  int64_t sa_heads;     // SA heads: 0 .. sa_heads − 1
  int64_t prev1_heads;  // CA1 heads after them; the remaining n_head − sa − p1 are CA2

 private:
  // q from x, each head's k, v from its group's source.
  std::array<Tensor, 3> project(const Tensor& x, const nn::MixerContext& ctx) override;
};

}  // namespace attic::models::reflex
