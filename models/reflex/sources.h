// What reflex and route attention read at block i >= 2 (Vadimbuildercxx/reflex_attention,
// model.py): three sources, each through the block's own c_attn,
//
//   l = 0: x_{i−2}      the input of the block two back, raw residual stream
//   l = 1: x_{i−1}      the input of the block before, raw
//   l = 2: ln_1(x_i)    this block's attention input, as classic attention reads it
//
// Queries come from the current stream only. The fork runs c_attn over all three and throws
// the earlier states' queries away; attic multiplies those by the key and value rows of
// c_attn only, which gives the same keys and values.
#pragma once

#include <array>
#include <string>

#include "nn/attention/causal_self_attention.h"

namespace attic::models::reflex {

// The same projections as c_attn and its key and value rows write them, before the heads
// are split: what route's routed_sum_packed reads.
struct PackedSources {
  Tensor qkv;                // [B, T, 3C] = q | k_2 | v_2, from ln_1(x_i)
  std::array<Tensor, 2> kv;  // [B, T, 2C] = k_l | v_l for l = 0 (x_{i−2}), 1 (x_{i−1})
};

struct SourceProjections {
  Tensor q;                 // [B, NH, T, hs], from ln_1(x_i)
  std::array<Tensor, 3> k;  // [B, NH, T, hs] for l = 0 (x_{i−2}), 1 (x_{i−1}), 2 (ln_1(x_i))
  std::array<Tensor, 3> v;
};

// x [B, T, C] = ln_1(x_i); ctx.back(2), ctx.back(1) = x_{i−2}, x_{i−1}, each [B, T, C].
//   q_2, k_2, v_2 = split(x W_attnᵀ + b, C);  k_l, v_l = x_{i−2+l} W_{k,v}ᵀ + b_{k,v}, l = 0, 1
// norm_prev: apply ctx.pre_norm (the block's ln_1) to x_{i−2} and x_{i−1} first. The fork
// does not: its earlier states enter un-normalized while the current one is normalized.
// who names the attention in errors (missing or mis-shaped earlier states).
SourceProjections project_sources(nn::Linear& c_attn, const Tensor& x,
                                  const nn::MixerContext& ctx, int64_t n_head, bool norm_prev,
                                  const std::string& who);
// The same, packed: x [B, T, C] -> qkv [B, T, 3C] and kv_0, kv_1 [B, T, 2C].
PackedSources project_packed(nn::Linear& c_attn, const Tensor& x, const nn::MixerContext& ctx,
                             bool norm_prev, const std::string& who);

// What reflex and route share: nanoGPT's attention (its c_attn, c_proj and dropouts, so the
// parameter names stay the fork's) in blocks 0 and 1, which have fewer than two earlier
// states; from block 2 on, q, k, v from project() through the same causal softmax, or
// through the KV cache when generating.
class EarlierLayersAttention : public nn::CausalSelfAttention {
 public:
  // x [B, T, C] = ln_1(x_i) -> [B, T, C]; ctx.back(1), ctx.back(2) = x_{i−1}, x_{i−2}.
  Tensor forward(const Tensor& x, const nn::MixerContext& ctx = {}) override;
  // x [B, t, C] of t new tokens, ctx.earlier the earlier blocks' inputs for them -> [B, t, C].
  Tensor step(nn::MixerState& state, const Tensor& x, const nn::MixerContext& ctx) override;
  bool reads_earlier() const override { return true; }

  bool norm_prev;  // earlier states through this block's ln_1 (the fork: raw); option norm_prev

 protected:
  // norm_prev: the subclass's option of that name, which it has read.
  EarlierLayersAttention(const nn::MixerOptions& options, bool norm_prev);
  // x [B, T, C], block layer >= 2 -> q, k, v [B, NH, T, hs].
  virtual std::array<Tensor, 3> project(const Tensor& x, const nn::MixerContext& ctx) = 0;
  // project_sources with this attention's c_attn, heads and norm_prev.
  SourceProjections sources(const Tensor& x, const nn::MixerContext& ctx);
  // project_packed with the same.
  PackedSources packed_sources(const Tensor& x, const nn::MixerContext& ctx);
};

}  // namespace attic::models::reflex
