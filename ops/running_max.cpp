// running_max: the running (prefix) maximum along one dim, m_i = max(x_0, ..., x_i), used as a
// shift by attentions that keep prefix sums of exponentials: causal exp linear attention
// (nn/attention/linear_attention.cpp) and ELiTA's prefix softmax (ops/prefix_softmax_scan.cpp).
// A shift that cancels between numerator and denominator changes no value, so it carries no
// gradient: the result is detached.
#include <algorithm>
#include <vector>

#include "ops/helpers.h"

namespace attic {

// x [..., N, ...], dim -> the same shape, detached. There is no prefix-max kernel: the values
// go through the host, linear in the number of elements and cheap next to the sums it shifts.
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

}  // namespace attic
