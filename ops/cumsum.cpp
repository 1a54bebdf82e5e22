// cumsum: the inclusive prefix sum along one dim, y_i = Σ_{j<=i} x_j.
#include "ops/helpers.h"

namespace attic {

namespace {

// x_j reaches every y_i with i >= j, so dx_i = Σ_{j>=i} g_j: a prefix sum taken from the
// end, which is decayed_cumsum with r = 1 run in reverse. (Writing it as
// sum(g) − cumsum(g)_i + g_i instead loses every digit in float32 where the suffix sum is
// small next to sum(g), as under ELiTA's e^20 weights.)
struct CumsumBackward final : autograd::Node {
  int64_t dim;
  const char* name() const override { return "CumsumBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override {
    const Tensor one = ones({1}, TensorOptions(g.dtype()).device(g.device()));
    return {decayed_cumsum(g, one, dim, /*reverse=*/true)};
  }
};

}  // namespace

// x [*], dim -> y of x's shape, y[..., i, ...] = Σ_{j<=i} x[..., j, ...]. A bool x counts
// its trues, in int64 (PyTorch's rule).
Tensor cumsum(const Tensor& x_in, int64_t dim) {
  detail::check_defined("cumsum", x_in);
  const Tensor x = x_in.dtype() == kBool ? x_in.to(kInt64) : x_in;
  dim = wrap_dim(dim, x.dim(), "cumsum");
  if (x.dim() == 0) return cumsum(x.reshape({1}), 0).reshape({});  // the kernel needs a dim
  Tensor out = empty(x.shape(), TensorOptions(x.dtype()).device(x.device()));
  detail::backend_of("cumsum", {x}).cumsum(detail::ktensor(out), detail::ktensor(x), dim);
  if (autograd::needs_grad({x})) {
    auto node = std::make_shared<CumsumBackward>();
    node->dim = dim;
    autograd::connect(out, node, {x});
  }
  return out;
}

}  // namespace attic
