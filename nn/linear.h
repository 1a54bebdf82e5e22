// Linear: y = x Wᵀ + b, with W [out, in] and b [out] (PyTorch's layout, so checkpoints map
// one to one).
#pragma once

#include "nn/module.h"

namespace attic::nn {

class Linear : public UnaryModule {
 public:
  // W and b ~ U[-1/√in, 1/√in] (PyTorch's default, kaiming_uniform with a = √5).
  Linear(int64_t in_features, int64_t out_features, bool bias = true);
  // x [..., in] -> [..., out]
  Tensor forward(const Tensor& x) override;

  Tensor weight;  // [out, in]
  Tensor bias;    // [out], undefined when built with bias = false
  int64_t in_features, out_features;
};

}  // namespace attic::nn
