// The position-wise feed-forward network of tonyduan/transformer-blocks (PositionwiseFFN,
// src/blocks.py; Vaswani et al. 2017):
//   y = fc2(dropout(relu(fc1(x))))        fc1: dim -> hidden, fc2: hidden -> dim
// Weights kaiming_normal (fan_in, ReLU gain), biases 0, as at its commit 01581ee.
#pragma once

#include "nn/dropout.h"
#include "nn/linear.h"

namespace attic::nn {

class FeedForward : public UnaryModule {
 public:
  FeedForward(int64_t dim, int64_t hidden, double dropout = 0.0);
  // x [..., dim] -> [..., dim]
  Tensor forward(const Tensor& x) override;

  std::shared_ptr<Linear> fc1, fc2;
  std::shared_ptr<Dropout> drop;
};

}  // namespace attic::nn
