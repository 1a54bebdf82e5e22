// A pre-LayerNorm transformer block (GPT-2, nanoGPT's Block):
//   x = x + attn(ln_1(x), ctx)     attn: any registered attention (models/registry.h)
//   x = x + mlp(ln_2(x))
#pragma once

#include "models/gpt/config.h"
#include "models/gpt/mlp.h"
#include "nn/attention/causal_mixer.h"

namespace attic::models {

class Block : public nn::Module {
 public:
  // The block at index layer (0-based) of a GPT of config cfg; its attention is
  // cfg.attention with cfg.attention_options.
  Block(const GPTConfig& cfg, int64_t layer);
  // x [B, T, C] -> [B, T, C]; ctx.earlier holds the inputs of the blocks before this one.
  Tensor forward(const Tensor& x, const nn::MixerContext& ctx = {});
  // The same for the t tokens after those state has seen: x [B, t, C] -> [B, t, C].
  Tensor step(nn::MixerState& state, const Tensor& x, const nn::MixerContext& ctx);

  // The attention as its concrete class, e.g. attn_as<nn::CausalSelfAttention>(); throws
  // attic::Error naming both when it is another one.
  template <class A>
  std::shared_ptr<A> attn_as() const {
    auto a = std::dynamic_pointer_cast<A>(attn);
    ATTIC_CHECK(a != nullptr, "Block: the attention is ", attn->name(), ", not the class asked for");
    return a;
  }

  std::shared_ptr<nn::LayerNorm> ln_1, ln_2;
  std::shared_ptr<nn::CausalMixer> attn;
  std::shared_ptr<MLP> mlp;
};

}  // namespace attic::models
