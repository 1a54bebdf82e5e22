// index_select and index_add: pick, or add into, whole slices along one dim by a list of
// int64 indices. Each is the other's backward.
#include "ops/helpers.h"

namespace attic {

namespace {

// index [M]: checks it is int64 with every value in [0, size).
void check_index_1d(const char* op, const Tensor& index, int64_t dim, int64_t size) {
  detail::check_index_dtype(op, index);
  ATTIC_CHECK(index.dim() == 1, op, ": index must be 1-D, got shape ", str(index.shape()));
  if (const auto i = detail::first_out_of_range(index, size))
    fail(op, ": index ", *i, " is out of range for dim ", dim, " of size ", size);
}

// y = index_select(x, dim, index): every x slice lands in y once per time index names it,
// so dx = index_add(0, dim, index, g); repeated indices add up.
struct IndexSelectBackward final : autograd::Node {
  Shape in_shape;
  int64_t dim;
  Tensor index;
  const char* name() const override { return "IndexSelectBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override {
    Tensor z = zeros(in_shape, TensorOptions(g.dtype()).device(g.device()));
    return {detail::index_add_prechecked(z, dim, index, g)};
  }
};

// y = index_add(x, dim, index, src): dx = g; dsrc.select(dim, i) = g.select(dim, index[i]).
struct IndexAddBackward final : autograd::Node {
  int64_t dim;
  Tensor index;
  const char* name() const override { return "IndexAddBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override {
    return {needs_grad(0) ? g : Tensor(),
            needs_grad(1) ? detail::index_select_prechecked(g, dim, index) : Tensor()};
  }
};

}  // namespace

// x [..., N, ...] (N at dim), index [M] -> y [..., M, ...];  y.select(dim, i) = x.select(dim, index[i])
Tensor index_select(const Tensor& x, int64_t dim, const Tensor& index) {
  detail::check_defined("index_select", x);
  ATTIC_CHECK(x.dim() >= 1, "index_select: needs a tensor of at least 1 dim, got shape ",
              str(x.shape()));
  dim = wrap_dim(dim, x.dim(), "index_select");
  check_index_1d("index_select", index, dim, x.size(dim));
  return detail::index_select_prechecked(x, dim, index);
}

Tensor detail::index_select_prechecked(const Tensor& x, int64_t dim, const Tensor& index) {
  Backend& be = detail::backend_of("index_select", {x, index});
  Shape shape = x.shape();
  shape[size_t(dim)] = index.numel();
  Tensor out = empty(shape, TensorOptions(x.dtype()).device(x.device()));
  be.index_select(detail::ktensor(out), detail::ktensor(x), dim, detail::ktensor(index));
  if (autograd::needs_grad({x})) {
    auto node = std::make_shared<IndexSelectBackward>();
    node->in_shape = x.shape();
    node->dim = dim;
    node->index = index;
    autograd::connect(out, node, {x});
  }
  return out;
}

// x [..., N, ...], index [M], src [..., M, ...] (x's shape with M at dim) -> y like x;
// y = x, then y.select(dim, index[i]) += src.select(dim, i) for i in order.
Tensor index_add(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& src) {
  detail::check_defined("index_add", x);
  detail::check_defined("index_add", src);
  ATTIC_CHECK(x.dim() >= 1, "index_add: needs a tensor of at least 1 dim, got shape ",
              str(x.shape()));
  dim = wrap_dim(dim, x.dim(), "index_add");
  check_index_1d("index_add", index, dim, x.size(dim));
  detail::check_same_dtype("index_add", x, src);
  Shape want = x.shape();
  want[size_t(dim)] = index.numel();
  ATTIC_CHECK(src.shape() == want, "index_add: src has shape ", str(src.shape()), " but x ",
              str(x.shape()), " with ", index.numel(), " indices at dim ", dim, " needs ",
              str(want));
  return detail::index_add_prechecked(x, dim, index, src);
}

Tensor detail::index_add_prechecked(const Tensor& x, int64_t dim, const Tensor& index,
                                    const Tensor& src) {
  Backend& be = detail::backend_of("index_add", {x, index, src});
  Tensor out = empty(x.shape(), TensorOptions(x.dtype()).device(x.device()));
  be.copy(detail::ktensor(out), detail::ktensor(x));
  be.index_add(detail::ktensor(out), dim, detail::ktensor(index), detail::ktensor(src));
  if (autograd::needs_grad({x, src})) {
    auto node = std::make_shared<IndexAddBackward>();
    node->dim = dim;
    node->index = index;
    autograd::connect(out, node, {x, src});
  }
  return out;
}

}  // namespace attic
