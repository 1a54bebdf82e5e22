#include "models/elita/block.h"

namespace attic::models::elita {

// x [..., W] -> [..., W]
Tensor parameter_free_layer_norm(const Tensor& x) {
  return layer_norm(x, Tensor(), Tensor(), 1e-3);  // Keras's default epsilon, not PyTorch's 1e-5
}

// cfg -> attn (Attention2), ff (FeedForward2), drop
Block::Block(const ElitaConfig& cfg) {
  attn = register_module("attn", std::make_shared<Attention2>(cfg.attention_options()));
  ff = register_module("ff", std::make_shared<FeedForward2>(cfg.n_embd, cfg.ff_factor));
  drop = register_module("drop", std::make_shared<nn::Dropout>(cfg.dropout));
}

// x [B, N, W] -> [B, N, W]
Tensor Block::forward(const Tensor& x) {
  Tensor h = x + attn->forward(parameter_free_layer_norm(x));  // Attention2 drops its own output
  return h + drop->forward(ff->forward(parameter_free_layer_norm(h)));
}

// x [B, t, W] -> [B, t, W]
Tensor Block::step(nn::MixerState& state, const Tensor& x) {
  Tensor h = x + attn->step(state, parameter_free_layer_norm(x), {});
  return h + drop->forward(ff->forward(parameter_free_layer_norm(h)));
}

}  // namespace attic::models::elita
