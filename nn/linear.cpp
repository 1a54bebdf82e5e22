#include "nn/linear.h"

#include <cmath>

#include "nn/init.h"

namespace attic::nn {

Linear::Linear(int64_t in, int64_t out, bool with_bias) : in_features(in), out_features(out) {
  ATTIC_CHECK(in > 0 && out > 0, "Linear: in_features and out_features must be positive, got ",
              in, " and ", out);
  weight = register_parameter("weight", empty({out, in}));
  init::kaiming_uniform_(weight, std::sqrt(5.0));
  if (with_bias) {
    bias = register_parameter("bias", empty({out}));
    const double bound = 1.0 / std::sqrt(double(in));
    init::uniform_(bias, -bound, bound);
  }
}

Tensor Linear::forward(const Tensor& x) {
  ATTIC_CHECK(x.dim() >= 1 && x.size(-1) == in_features, "Linear: input of shape ",
              str(x.shape()), " does not end in in_features = ", in_features);
  // Wᵀ is a transposed view: the GEMM reads it through strides, no copy.
  Tensor y = matmul(x, weight.t());
  return bias.defined() ? y + bias : y;
}

}  // namespace attic::nn
