#include "nn/attention/scale_norm.h"

#include <cmath>
#include <limits>

namespace attic::nn {

ScaleNorm::ScaleNorm(int64_t d, double e) : dim(d), eps(e) {
  ATTIC_CHECK(d > 0 && e > 0, "ScaleNorm: dim and eps must be positive, got ", d, " and ", e);
  g = register_parameter("g", full({1}, std::sqrt(double(d))));
}

// x [..., dim] -> [..., dim]: y = g x / max(‖x‖, eps)
Tensor ScaleNorm::forward(const Tensor& x) {
  ATTIC_CHECK(x.dim() >= 1 && x.size(-1) == dim, "ScaleNorm: input of shape ", str(x.shape()),
              " does not end in dim = ", dim);
  // max(‖x‖, eps) = √max(‖x‖², eps²): clamping before the square root keeps the gradient
  // finite at x = 0, where d√s/ds is infinite (the clamp passes no gradient there).
  Tensor sq = sum(x * x, {-1}, true);
  Tensor norm = sqrt(clamp(sq, eps * eps, std::numeric_limits<double>::infinity()));
  return x * (g / norm);
}

}  // namespace attic::nn
