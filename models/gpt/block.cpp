#include "models/gpt/block.h"

namespace attic::models {

Block::Block(const GPTConfig& cfg) {
  ln_1 = register_module("ln_1", std::make_shared<nn::LayerNorm>(cfg.n_embd, cfg.bias));
  attn = register_module("attn", std::make_shared<CausalSelfAttention>(cfg));
  ln_2 = register_module("ln_2", std::make_shared<nn::LayerNorm>(cfg.n_embd, cfg.bias));
  mlp = register_module("mlp", std::make_shared<MLP>(cfg));
}

Tensor Block::forward(const Tensor& x) {
  Tensor h = x + attn->forward(ln_1->forward(x));
  return h + mlp->forward(ln_2->forward(h));
}

}  // namespace attic::models
