// A pre-LayerNorm transformer block (GPT-2, nanoGPT's Block):
//   x = x + attn(ln_1(x))
//   x = x + mlp(ln_2(x))
#pragma once

#include "models/gpt/attention.h"
#include "models/gpt/mlp.h"

namespace attic::models {

class Block : public nn::UnaryModule {
 public:
  explicit Block(const GPTConfig& cfg);
  // x [B, T, C] -> [B, T, C]
  Tensor forward(const Tensor& x) override;

  std::shared_ptr<nn::LayerNorm> ln_1, ln_2;
  std::shared_ptr<CausalSelfAttention> attn;
  std::shared_ptr<MLP> mlp;
};

}  // namespace attic::models
