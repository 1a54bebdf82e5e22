// gather and scatter_add: per-element indexing along one dim. For dim 1 of a matrix,
//   gather:      y[i][j] = x[i][index[i][j]]
//   scatter_add: y[i][index[i][j]] += src[i][j]
// Each is the other's backward (they are transposes of one linear map).
#include "ops/helpers.h"

namespace attic {

namespace {

// x [any rank], index [x's rank]: checks index is int64, index.size(d) <= x.size(d) for
// d != dim, and every value is in [0, x.size(dim)). Values are read on the host.
void check_index_nd(const char* op, const Tensor& x, int64_t dim, const Tensor& index) {
  detail::check_index_dtype(op, index);
  ATTIC_CHECK(index.dim() == x.dim(), op, ": index of shape ", str(index.shape()),
              " must have the same number of dims as the input's shape ", str(x.shape()));
  for (int64_t d = 0; d < x.dim(); ++d)
    ATTIC_CHECK(d == dim || index.size(d) <= x.size(d), op, ": index of shape ",
                str(index.shape()), " is larger than the input's shape ", str(x.shape()),
                " at dim ", d);
  const int64_t size = x.size(dim);
  for (int64_t i : index.to_vector<int64_t>())
    ATTIC_CHECK(i >= 0 && i < size, op, ": index ", i, " is out of range for dim ", dim,
                " of size ", size);
}

// g [shape of index] zero-padded at the end of each dim up to shape. Written with cat so
// that it stays differentiable.
Tensor pad_to(Tensor g, const Shape& shape) {
  for (int64_t d = 0; d < g.dim(); ++d) {
    if (g.size(d) == shape[size_t(d)]) continue;
    Shape rest = g.shape();
    rest[size_t(d)] = shape[size_t(d)] - g.size(d);
    g = cat({g, zeros(rest, TensorOptions(g.dtype()).device(g.device()))}, d);
  }
  return g;
}

// y = gather(x, dim, index): x's element at index[p] along dim went to y[p], so
// dx = scatter_add(0, dim, index, g); an element picked twice gets both gradients.
struct GatherBackward final : autograd::Node {
  Shape in_shape;
  int64_t dim;
  Tensor index;
  const char* name() const override { return "GatherBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override {
    Tensor z = zeros(in_shape, TensorOptions(g.dtype()).device(g.device()));
    return {scatter_add(z, dim, index, g)};
  }
};

// y = scatter_add(x, dim, index, src): dx = g; dsrc[p] = g at index[p] along dim, i.e.
// gather(g, dim, index), and zero where src reaches past index's shape (those were unused).
struct ScatterAddBackward final : autograd::Node {
  Shape src_shape;
  int64_t dim;
  Tensor index;
  const char* name() const override { return "ScatterAddBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override {
    return {needs_grad(0) ? g : Tensor(),
            needs_grad(1) ? pad_to(gather(g, dim, index), src_shape) : Tensor()};
  }
};

}  // namespace

// x [N, M] (any rank), index int64 of x's rank -> y with index's shape; for dim 0:
// y[i][j] = x[index[i][j]][j], for dim 1: y[i][j] = x[i][index[i][j]].
Tensor gather(const Tensor& x, int64_t dim, const Tensor& index) {
  detail::check_defined("gather", x);
  ATTIC_CHECK(x.dim() >= 1, "gather: needs a tensor of at least 1 dim, got shape ",
              str(x.shape()));
  dim = wrap_dim(dim, x.dim(), "gather");
  check_index_nd("gather", x, dim, index);
  Backend& be = detail::backend_of("gather", {x, index});
  Tensor out = empty(index.shape(), TensorOptions(x.dtype()).device(x.device()));
  be.gather(detail::ktensor(out), detail::ktensor(x), dim, detail::ktensor(index));
  if (autograd::needs_grad({x})) {
    auto node = std::make_shared<GatherBackward>();
    node->in_shape = x.shape();
    node->dim = dim;
    node->index = index;
    autograd::connect(out, node, {x});
  }
  return out;
}

// x [N, M] (any rank), index and src of x's rank, index.size(d) <= src.size(d) -> y like x;
// y = x, then for dim 0: y[index[i][j]][j] += src[i][j] over every position of index.
Tensor scatter_add(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& src) {
  detail::check_defined("scatter_add", x);
  detail::check_defined("scatter_add", src);
  ATTIC_CHECK(x.dim() >= 1, "scatter_add: needs a tensor of at least 1 dim, got shape ",
              str(x.shape()));
  dim = wrap_dim(dim, x.dim(), "scatter_add");
  check_index_nd("scatter_add", x, dim, index);
  detail::check_same_dtype("scatter_add", x, src);
  ATTIC_CHECK(src.dim() == index.dim(), "scatter_add: src of shape ", str(src.shape()),
              " must have the same number of dims as index ", str(index.shape()));
  for (int64_t d = 0; d < src.dim(); ++d)
    ATTIC_CHECK(index.size(d) <= src.size(d), "scatter_add: index of shape ",
                str(index.shape()), " is larger than src ", str(src.shape()), " at dim ", d);
  Backend& be = detail::backend_of("scatter_add", {x, index, src});
  Tensor out = empty(x.shape(), TensorOptions(x.dtype()).device(x.device()));
  be.copy(detail::ktensor(out), detail::ktensor(x));
  be.scatter_add(detail::ktensor(out), dim, detail::ktensor(index), detail::ktensor(src));
  if (autograd::needs_grad({x, src})) {
    auto node = std::make_shared<ScatterAddBackward>();
    node->src_shape = src.shape();
    node->dim = dim;
    node->index = index;
    autograd::connect(out, node, {x, src});
  }
  return out;
}

}  // namespace attic
