// LayerNorm over the last dim: y = (x - mean) / √(var + eps) · weight + bias.
#pragma once

#include "nn/module.h"

namespace attic::nn {

class LayerNorm : public UnaryModule {
 public:
  // weight = 1, bias = 0; bias = false leaves it out (nanoGPT's bias flag).
  explicit LayerNorm(int64_t C, bool bias = true, double eps = 1e-5);
  // x [..., C] -> [..., C]
  Tensor forward(const Tensor& x) override;

  Tensor weight;  // [C]
  Tensor bias;    // [C] or undefined
  double eps;
};

}  // namespace attic::nn
