// nanoGPT's MLP: c_fc Linear(C, 4C) -> GELU (exact, or GPT-2's tanh form) -> c_proj Linear(4C, C) -> dropout.
#pragma once

#include "models/gpt/config.h"
#include "nn/nn.h"

namespace attic::models {

class MLP : public nn::UnaryModule {
 public:
  explicit MLP(const GPTConfig& cfg);
  // x [B, T, C] -> [B, T, C]
  Tensor forward(const Tensor& x) override;

  std::shared_ptr<nn::Linear> c_fc, c_proj;
  std::shared_ptr<nn::Dropout> dropout;
  std::string approximate;  // gelu's: "none" or "tanh" (GPTConfig::gelu)
};

}  // namespace attic::models
