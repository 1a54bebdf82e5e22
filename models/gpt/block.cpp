#include "models/gpt/block.h"

#include "models/registry.h"

namespace attic::models {

Block::Block(const GPTConfig& cfg, int64_t layer) {
  ln_1 = register_module("ln_1", std::make_shared<nn::LayerNorm>(cfg.n_embd, cfg.bias));
  attn = register_module("attn", models::make_causal_mixer(cfg.attention, mixer_options(cfg, layer)));
  ln_2 = register_module("ln_2", std::make_shared<nn::LayerNorm>(cfg.n_embd, cfg.bias));
  mlp = register_module("mlp", std::make_shared<MLP>(cfg));
}

Tensor Block::forward(const Tensor& x, const nn::MixerContext& ctx) {
  nn::MixerContext with_norm = ctx;
  with_norm.pre_norm = ln_1.get();
  Tensor h = x + attn->forward(ln_1->forward(x), with_norm);
  return h + mlp->forward(ln_2->forward(h));
}

Tensor Block::step(nn::MixerState& state, const Tensor& x, const nn::MixerContext& ctx) {
  nn::MixerContext with_norm = ctx;
  with_norm.pre_norm = ln_1.get();
  Tensor h = x + attn->step(state, ln_1->forward(x), with_norm);
  return h + mlp->forward(ln_2->forward(h));
}

}  // namespace attic::models
