// ScaleNorm (Nguyen & Salazar 2019, "Transformers without Tears"): one learned scalar g per
// norm, y = g · x / max(‖x‖₂, eps) along the last axis, g initialized to √dim.
#pragma once

#include "nn/module.h"

namespace attic::nn {

class ScaleNorm : public UnaryModule {
 public:
  explicit ScaleNorm(int64_t dim, double eps = 1e-5);
  // x [..., dim] -> [..., dim], every row of norm g (rows shorter than eps are scaled by g/eps)
  Tensor forward(const Tensor& x) override;

  Tensor g;  // [1]
  int64_t dim;
  double eps;
};

}  // namespace attic::nn
