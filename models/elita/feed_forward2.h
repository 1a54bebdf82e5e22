// ELiTA's feed-forward, FeedForward2 of acosharma/elita-transformer (main.py): in place of
// the 4W up-projection, two small swish layers whose outer product reads a [W, F, W]
// memory:
//
//   u = swish(x W1 + b1)            [W]     swish(z) = z σ(z)
//   g = swish(x W2 + b2)            [F]
//   y_k = Σ_{i,j} u_i g_j W3[i, j, k] + b3_k
//
// which is (u ⊗ g) flattened to W·F numbers times W3 as [W·F, W]. Parameters: 9W² + 10W + 8
// at F = 8, against 8W² + 5W for a 4W MLP.
#pragma once

#include "nn/module.h"

namespace attic::models::elita {

class FeedForward2 : public nn::Module {
 public:
  // W the model width, F the second input's width (the original's linear_factor, 8 in its
  // README). Keras init: w1 [W, W], w2 [W, F], w3 [W, F, W] glorot_uniform with Keras's
  // fans (w3: √(6 / (W·F + W·W))); b1 [W], b2 [F], b3 [W] zero.
  FeedForward2(int64_t width, int64_t factor = 8);
  // x [..., W] -> [..., W]
  Tensor forward(const Tensor& x);

  int64_t width, factor;
  Tensor w1, w2, w3, b1, b2, b3;
};

}  // namespace attic::models::elita
