// Linear attention as the GPT's attention ("linear_elu", "linear_exp"): nanoGPT's c_attn and
// c_proj around the causal linear attention of Katharopoulos et al. 2020, "Transformers are
// RNNs" (eq. 8–10), per head, with no 1/√hs scale:
//   q, k, v = split(x Wᵀ_attn, C)
//   S_t = S_{t−1} + φ(k_t) v_tᵀ,  z_t = z_{t−1} + φ(k_t),  y_t = φ(q_t)ᵀ S_t / φ(q_t)ᵀ z_t
//   out = c_proj(y)
// Time and memory grow linearly in T. For generation the state (S, z) is all it keeps:
// d_k × d_v numbers per head, however long the text.
#pragma once

#include "nn/attention/causal_mixer.h"
#include "nn/attention/linear_attention.h"
#include "nn/dropout.h"
#include "nn/linear.h"

namespace attic::nn {

class CausalLinearAttention : public CausalMixer {
 public:
  CausalLinearAttention(const MixerOptions& options, FeatureMap feature_map);
  // x [B, T, C] -> [B, T, C]
  Tensor forward(const Tensor& x, const MixerContext& ctx = {}) override;

  struct State : MixerState {
    LinearAttentionState rnn;  // S [B, NH, hs, hs], z [B, NH, hs]
  };
  std::unique_ptr<MixerState> start_decoding() const override;
  // x [B, t, C] -> [B, t, C]: the recurrence, one token after another.
  Tensor step(MixerState& state, const Tensor& x, const MixerContext& ctx) override;
  std::string name() const override;

  std::shared_ptr<Linear> c_attn, c_proj;
  std::shared_ptr<Dropout> resid_dropout;
  int64_t n_head, n_embd;
  FeatureMap feature_map;
};

}  // namespace attic::nn
