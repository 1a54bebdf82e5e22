// max and min: over everything (a 0-d value), or along one dim with the index of the
// extreme (argmax). Only the chosen elements receive gradient.
#include "ops/helpers.h"

namespace attic {

namespace {

// y = max (or min) of every element of x. Like PyTorch, ties share the gradient evenly:
//   dx = g · mask / Σ mask,  mask = (x == y), or mask = isnan(x) when y is NaN.
struct ExtremeAllBackward final : autograd::Node {
  const char* op;
  Tensor x, value;  // input and output, detached: only their values pick the mask
  const char* name() const override { return op; }
  std::vector<Tensor> backward(const Tensor& g) override {
    // x == y, or x and y both NaN (ne(t, t) is isnan(t)); in g's dtype
    const Tensor mask = logical_or(eq(x, value), logical_and(ne(x, x), ne(value, value)))
                            .to(g.dtype());
    return {g * mask / sum(mask)};
  }
};

// x [*] -> 0-d y = max (or min) of every element.
Tensor extreme_all(const char* op, const char* node_name, ReduceOp kind, const Tensor& x) {
  detail::check_defined(op, x);
  ATTIC_CHECK(x.numel() > 0, op, ": cannot reduce an empty tensor of shape ", str(x.shape()));
  Tensor out = empty(Shape(size_t(x.dim()), 1), TensorOptions(x.dtype()).device(x.device()));
  detail::backend_of(op, {x}).reduce(kind, detail::ktensor(out), detail::ktensor(x));
  out = out.view({});
  if (autograd::needs_grad({x})) {
    auto node = std::make_shared<ExtremeAllBackward>();
    node->op = node_name;
    node->x = x.detach();
    node->value = out.detach();
    autograd::connect(out, node, {x});
  }
  return out;
}

// values = max (or min) of x along dim, indices = where it was: the gradient goes back to
// that one position, dx = scatter_add(0, dim, indices, g).
struct ExtremeDimBackward final : autograd::Node {
  const char* op;
  Shape in_shape;
  int64_t dim;
  bool keepdim;
  Tensor indices;  // int64, with size 1 at dim
  const char* name() const override { return op; }
  std::vector<Tensor> backward(const Tensor& g) override {
    const Tensor gk = keepdim ? g : g.unsqueeze(dim);
    const Tensor z = zeros(in_shape, TensorOptions(g.dtype()).device(g.device()));
    return {scatter_add(z, dim, indices, gk)};
  }
};

// x [*], dim -> values and int64 indices of x's shape without dim (size 1 there when
// keepdim). The first of several equal extremes wins; a NaN wins outright.
ValuesIndices extreme_dim(const char* op, const char* node_name, ReduceOp kind,
                          const Tensor& x, int64_t dim, bool keepdim) {
  detail::check_defined(op, x);
  dim = wrap_dim(dim, x.dim(), op);
  if (x.dim() == 0) {  // a 0-d tensor is its own extreme, at index 0
    ValuesIndices r = extreme_dim(op, node_name, kind, x.reshape({1}), 0, false);
    return {r.values.reshape({}), r.indices};
  }
  ATTIC_CHECK(x.size(dim) > 0, op, ": cannot reduce dim ", dim, " of size 0 (shape ",
              str(x.shape()), ")");
  Shape kept = x.shape();
  kept[size_t(dim)] = 1;
  Tensor values = empty(kept, TensorOptions(x.dtype()).device(x.device()));
  Tensor indices = empty(kept, TensorOptions(kInt64).device(x.device()));
  detail::backend_of(op, {x}).arg_reduce(kind, detail::ktensor(values), detail::ktensor(indices),
                                         detail::ktensor(x), dim);
  const Tensor kept_indices = indices;
  if (!keepdim) {
    values = values.squeeze(dim);
    indices = indices.squeeze(dim);
  }
  if (autograd::needs_grad({x})) {
    auto node = std::make_shared<ExtremeDimBackward>();
    node->op = node_name;
    node->in_shape = x.shape();
    node->dim = dim;
    node->keepdim = keepdim;
    node->indices = kept_indices;
    autograd::connect(values, node, {x});
  }
  return {values, indices};
}

}  // namespace

Tensor max(const Tensor& x) { return extreme_all("max", "MaxBackward", ReduceOp::Max, x); }
Tensor min(const Tensor& x) { return extreme_all("min", "MinBackward", ReduceOp::Min, x); }

ValuesIndices max(const Tensor& x, int64_t dim, bool keepdim) {
  return extreme_dim("max", "MaxBackward", ReduceOp::Max, x, dim, keepdim);
}

ValuesIndices min(const Tensor& x, int64_t dim, bool keepdim) {
  return extreme_dim("min", "MinBackward", ReduceOp::Min, x, dim, keepdim);
}

// x [*], dim -> int64 index of the largest element along dim.
Tensor argmax(const Tensor& x, int64_t dim, bool keepdim) {
  detail::check_defined("argmax", x);
  return extreme_dim("argmax", "ArgmaxBackward", ReduceOp::Max, x.detach(), dim, keepdim).indices;
}

}  // namespace attic
