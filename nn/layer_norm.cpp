#include "nn/layer_norm.h"

namespace attic::nn {

LayerNorm::LayerNorm(int64_t C, bool with_bias, double eps_) : eps(eps_) {
  ATTIC_CHECK(C > 0, "LayerNorm: size must be positive, got ", C);
  weight = register_parameter("weight", ones({C}));
  if (with_bias) bias = register_parameter("bias", zeros({C}));
}

Tensor LayerNorm::forward(const Tensor& x) { return layer_norm(x, weight, bias, eps); }

}  // namespace attic::nn
