// The position-wise feed-forward network of the seed (PositionwiseFFN):
//   y = fc2(dropout(relu(fc1(x))))        fc1: dim -> hidden, fc2: hidden -> dim
// Weights kaiming_normal (fan_in, ReLU gain), biases 0, as at the seed commit 01581ee.
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
