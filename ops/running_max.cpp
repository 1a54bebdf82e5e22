// running_max: the running (prefix) maximum along one dim, m_i = max(x_0, ..., x_i), used as a
// shift by attentions that keep prefix sums of exponentials: causal exp linear attention
// (nn/attention/linear_attention.cpp) and ELiTA's prefix softmax (ops/prefix_softmax_scan.cpp).
// A shift that cancels between numerator and denominator changes no value, so it carries no
// gradient: the result is detached.
#include "ops/helpers.h"

namespace attic {

// x [..., N, ...] float, dim -> the same shape and dtype, detached: the backend's scan
// (Backend::running_max). A NaN is the maximum from where it appears on. The kernels scan
// float32 and float64; a bfloat16 or float16 x goes through float32, which holds each of its
// values exactly.
Tensor running_max(const Tensor& x_in, int64_t dim) {
  ATTIC_CHECK(x_in.defined() && x_in.dim() > 0, "running_max: x needs at least one dim");
  ATTIC_CHECK(is_floating(x_in.dtype()), "running_max: x must be floating point, got ", dtype_name(x_in.dtype()));
  dim = dim < 0 ? dim + x_in.dim() : dim;
  ATTIC_CHECK(dim >= 0 && dim < x_in.dim(), "running_max: dim ", dim, " out of range for ", x_in.dim(), " dims");
  const bool reduced = is_reduced_float(x_in.dtype());
  const Tensor x = reduced ? x_in.detach().to(kFloat32) : x_in.detach();
  Tensor out = empty(x.shape(), TensorOptions(x.dtype()).device(x.device()));
  detail::backend_of("running_max", {x}).running_max(detail::ktensor(out), detail::ktensor(x), dim);
  return reduced ? out.to(x_in.dtype()) : out;
}

}  // namespace attic
