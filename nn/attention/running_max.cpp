#include "nn/attention/running_max.h"

#include <algorithm>
#include <vector>

namespace attic::nn {

// x [..., N, ...] -> the same shape, prefix maxima along dim
Tensor running_max(const Tensor& x, int64_t dim) {
  ATTIC_CHECK(x.defined() && x.dim() > 0, "running_max: x needs at least one dim");
  dim = dim < 0 ? dim + x.dim() : dim;
  ATTIC_CHECK(dim >= 0 && dim < x.dim(), "running_max: dim ", dim, " out of range for ", x.dim(), " dims");
  // Move dim last so that each prefix is a contiguous row of n values.
  const Tensor rows = x.detach().transpose(dim, x.dim() - 1).contiguous();
  const int64_t n = rows.size(-1), count = n == 0 ? 0 : rows.numel() / n;
  std::vector<double> m = rows.to_vector<double>();
  for (int64_t r = 0; r < count; ++r)
    for (int64_t i = 1; i < n; ++i)
      m[size_t(r * n + i)] = std::max(m[size_t(r * n + i)], m[size_t(r * n + i - 1)]);
  return from_vector(m, rows.shape()).to(x.dtype()).to(x.device()).transpose(dim, x.dim() - 1).contiguous();
}

}  // namespace attic::nn
