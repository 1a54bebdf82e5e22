// Causal self-attention, nanoGPT's CausalSelfAttention (karpathy/nanoGPT, model.py), the
// GPT's "softmax" attention:
//   q, k, v = split(x Wᵀ_attn, C)                 c_attn: Linear(C, 3C)
//   att = softmax(mask(q kᵀ / √hs)) per head       mask: position t sees 0..t only
//   y = (att v) heads concatenated, then c_proj    c_proj: Linear(C, C)
// For generation it keeps every key and value seen so far (a KV cache), so that a new
// token costs one row of attention instead of the whole context again.
#pragma once

#include "nn/attention/causal_mixer.h"
#include "nn/dropout.h"
#include "nn/linear.h"

namespace attic::nn {

class CausalSelfAttention : public CausalMixer {
 public:
  explicit CausalSelfAttention(const MixerOptions& options);
  // x [B, T, C] -> [B, T, C]
  Tensor forward(const Tensor& x, const MixerContext& ctx = {}) override;

  // The KV cache: the keys and values of every token so far, per head.
  struct Cache : MixerState {
    Tensor k, v;  // [B, NH, length, hs]
  };
  std::unique_ptr<MixerState> start_decoding() const override;
  // x [B, t, C] -> [B, t, C]: the t new tokens attend to the cached ones and to each other
  // causally; their keys and values join the cache.
  Tensor step(MixerState& state, const Tensor& x, const MixerContext& ctx) override;
  std::string name() const override { return "softmax"; }

  // What forward and step do after the projections, for attentions that build their own
  // q, k, v (reflex, route). q, k, v [B, NH, T, hs] -> [B, T, C]: causal softmax attention
  // with dropout on the weights while training, heads merged, c_proj, resid_dropout.
  Tensor attend(const Tensor& q, const Tensor& k, const Tensor& v);
  // The same with q, k, v side by side in qkv [B, T, 3C], as c_attn makes them (and route's
  // routed_sum_packed): the fused kernel reads them in place and writes one gradient.
  Tensor attend_packed(const Tensor& qkv);
  // q, k, v [B, NH, t, hs] of t new tokens -> [B, t, C]: k and v join the cache, then the new
  // queries attend to the cached keys and to each other causally.
  Tensor attend_cached(Cache& cache, const Tensor& q, const Tensor& k, const Tensor& v);

  std::shared_ptr<Linear> c_attn, c_proj;
  std::shared_ptr<Dropout> attn_dropout, resid_dropout;
  int64_t n_head, n_embd;
  int64_t layer;  // the block it sits in
  // nanoGPT's `flash`: let scaled_dot_product_attention run its fused kernel. The kernel
  // has no dropout on the weights, so with attention dropout in training the composed ops
  // run either way.
  bool fused = true;

 protected:
  // For an attention built on this one that reads options of its own: the same modules,
  // and the caller checks that every option was used.
  struct OwnOptions {};
  CausalSelfAttention(const MixerOptions& options, OwnOptions);
};

}  // namespace attic::nn
