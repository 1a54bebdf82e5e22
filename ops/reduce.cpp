// sum and mean over chosen dims (or everything), and sum_to.
#include <algorithm>

#include "ops/helpers.h"

namespace attic {

namespace {

// Shape of a reduction that keeps every dim: size 1 on the reduced ones.
Shape kept_shape(const Shape& in, const std::vector<int64_t>& dims) {
  Shape s = in;
  for (int64_t d : dims) s[size_t(d)] = 1;
  return s;
}

Shape dropped_shape(const Shape& in, const std::vector<int64_t>& dims) {
  Shape s;
  for (int64_t d = 0; d < int64_t(in.size()); ++d)
    if (std::find(dims.begin(), dims.end(), d) == dims.end()) s.push_back(in[size_t(d)]);
  return s;
}

// y = sum over dims of x: every x element contributed once, so dx = g broadcast back.
struct SumBackward final : autograd::Node {
  Shape in_shape, kept;  // kept: the output's shape with the reduced dims as size 1
  const char* name() const override { return "SumBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override {
    return {g.reshape(kept).expand(in_shape)};
  }
};

}  // namespace

// x [*] -> x's shape without dims (size 1 there when keepdim): y = Σ_dims x. A bool x
// counts its trues, in int64 (PyTorch's rule).
Tensor sum(const Tensor& x_in, const std::vector<int64_t>& dims_in, bool keepdim) {
  detail::check_defined("sum", x_in);
  detail::check_computes("sum", x_in);
  const Tensor x = x_in.dtype() == kBool ? x_in.to(kInt64) : x_in;
  const std::vector<int64_t> dims = detail::reduce_dims("sum", dims_in, x.dim());
  const Shape kept = kept_shape(x.shape(), dims);
  Tensor out = empty(kept, TensorOptions(x.dtype()).device(x.device()));
  backend_for(x.device()).reduce(ReduceOp::Sum, detail::ktensor(out), detail::ktensor(x));
  if (!keepdim) out = out.detach().view(dropped_shape(x.shape(), dims));
  if (autograd::needs_grad({x})) {
    auto node = std::make_shared<SumBackward>();
    node->in_shape = x.shape();
    node->kept = kept;
    autograd::connect(out, node, {x});
  }
  return out;
}

Tensor sum(const Tensor& x) { return sum(x, {}, false); }

Tensor mean(const Tensor& x, const std::vector<int64_t>& dims_in, bool keepdim) {
  detail::check_defined("mean", x);
  detail::check_floating("mean", x);
  const std::vector<int64_t> dims = detail::reduce_dims("mean", dims_in, x.dim());
  int64_t n = 1;
  for (int64_t d : dims) n *= x.size(d);
  return sum(x, dims, keepdim) / double(n);
}

Tensor mean(const Tensor& x) { return mean(x, {}, false); }

Tensor sum_to(const Tensor& x, const Shape& shape) {
  if (x.shape() == shape) return x;
  ATTIC_CHECK(int64_t(shape.size()) <= x.dim(), "sum_to: cannot sum shape ", str(x.shape()),
              " to the larger rank of ", str(shape));
  const int64_t lead = x.dim() - int64_t(shape.size());
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < x.dim(); ++d) {
    if (d < lead) {
      dims.push_back(d);
    } else if (shape[size_t(d - lead)] == 1 && x.size(d) != 1) {
      dims.push_back(d);
    } else {
      ATTIC_CHECK(shape[size_t(d - lead)] == x.size(d), "sum_to: shape ", str(x.shape()),
                  " does not broadcast from ", str(shape));
    }
  }
  Tensor s = dims.empty() ? x : sum(x, dims, /*keepdim=*/true);
  return s.reshape(shape);
}

}  // namespace attic
