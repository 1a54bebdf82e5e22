#include "models/elita/feed_forward2.h"

#include "nn/init.h"

namespace attic::models::elita {

// W, F -> w1 [W, W], w2 [W, F], w3 [W, F, W] (Keras glorot_uniform), b1 [W], b2 [F], b3 [W] (0)
FeedForward2::FeedForward2(int64_t W, int64_t F) : width(W), factor(F) {
  ATTIC_CHECK(W > 0 && F > 0, "FeedForward2: width and factor must be positive, got ", W, " and ", F);
  auto glorot = [&](const std::string& n, const Shape& shape) {
    Tensor t = empty(shape);
    nn::init::keras_glorot_uniform_(t);
    return register_parameter(n, t);
  };
  w1 = glorot("w1", {W, W});
  w2 = glorot("w2", {W, F});
  w3 = glorot("w3", {W, F, W});
  b1 = register_parameter("b1", zeros({W}));
  b2 = register_parameter("b2", zeros({F}));
  b3 = register_parameter("b3", zeros({W}));
}

// x [..., W] -> [..., W]
Tensor FeedForward2::forward(const Tensor& x) {
  ATTIC_CHECK(x.dim() >= 1 && x.size(-1) == width, "FeedForward2: x must be [..., ", width,
              "], got ", str(x.shape()));
  const Tensor u = silu(matmul(x, w1) + b1);  // u = swish(x W1 + b1)  [..., W]
  const Tensor g = silu(matmul(x, w2) + b2);  // g = swish(x W2 + b2)  [..., F]
  // The outer product flattened, g-major: (g ⊗ u)[j·W + i] = g_j u_i, so that each row of
  // the product is a long contiguous u (W values) times one g_j; W3 [W, F, W] is read in the
  // same order, as [F, W, W] -> [F·W, W].
  Shape outer = x.shape();
  outer.back() = width * factor;
  const Tensor gu = (g.unsqueeze(-1) * u.unsqueeze(-2)).reshape(outer);  // [..., F·W]
  // y_k = Σ_{i,j} u_i g_j W3[i, j, k] + b3_k
  return matmul(gu, w3.permute({1, 0, 2}).reshape({factor * width, width})) + b3;
}

}  // namespace attic::models::elita
