// Joining (cat, stack) and splitting (split, chunk) along one dim.
#include <algorithm>

#include "ops/helpers.h"

namespace attic {

namespace {

// y = cat(x_0, x_1, ...): x_i is the slice of y at [offset_i, offset_i + n_i) along dim,
// so dx_i = g.narrow(dim, offset_i, n_i).
struct CatBackward final : autograd::Node {
  int64_t dim;
  std::vector<int64_t> sizes;  // n_i, each input's size at dim
  const char* name() const override { return "CatBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override {
    std::vector<Tensor> grads;
    int64_t offset = 0;
    for (size_t i = 0; i < sizes.size(); ++i) {
      grads.push_back(needs_grad(i) ? g.narrow(dim, offset, sizes[i]) : Tensor());
      offset += sizes[i];
    }
    return grads;
  }
};

}  // namespace

// x_i [..., n_i, ...] (equal except at dim) -> y [..., Σ n_i, ...];  y = [x_0 | x_1 | ...]
Tensor cat(const std::vector<Tensor>& tensors, int64_t dim) {
  ATTIC_CHECK(!tensors.empty(), "cat: expects a non-empty list of tensors");
  for (const Tensor& t : tensors) detail::check_defined("cat", t);
  const Tensor& first = tensors[0];
  ATTIC_CHECK(first.dim() >= 1, "cat: cannot concatenate 0-d tensors; unsqueeze them or use "
              "stack");
  dim = wrap_dim(dim, first.dim(), "cat");
  Shape shape = first.shape();
  shape[size_t(dim)] = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    ATTIC_CHECK(t.dim() == first.dim(), "cat: tensor ", i, " has shape ", str(t.shape()),
                " but tensor 0 has shape ", str(first.shape()), " (a different number of dims)");
    ATTIC_CHECK(t.dtype() == first.dtype(), "cat: tensor ", i, " has dtype ",
                dtype_name(t.dtype()), " but tensor 0 has dtype ", dtype_name(first.dtype()));
    ATTIC_CHECK(t.device() == first.device(), "cat: tensor ", i, " is on ",
                device_name(t.device()), " but tensor 0 is on ", device_name(first.device()));
    for (int64_t d = 0; d < t.dim(); ++d)
      ATTIC_CHECK(d == dim || t.size(d) == first.size(d), "cat: tensor ", i, " has shape ",
                  str(t.shape()), " but tensor 0 has shape ", str(first.shape()),
                  "; sizes must match except at dim ", dim);
    shape[size_t(dim)] += t.size(dim);
  }
  Backend& be = backend_for(first.device());
  Tensor out = empty(shape, TensorOptions(first.dtype()).device(first.device()));
  std::vector<int64_t> sizes;
  int64_t offset = 0;
  for (const Tensor& t : tensors) {
    be.copy(detail::ktensor(out.narrow(dim, offset, t.size(dim))), detail::ktensor(t));
    sizes.push_back(t.size(dim));
    offset += t.size(dim);
  }
  if (autograd::needs_grad(tensors)) {
    auto node = std::make_shared<CatBackward>();
    node->dim = dim;
    node->sizes = std::move(sizes);
    autograd::connect(out, node, tensors);
  }
  return out;
}

// x_i [...] (all one shape) -> y with a new dim of size len(tensors) at dim;
// y.select(dim, i) = x_i. The unsqueezes and cat carry the gradient.
Tensor stack(const std::vector<Tensor>& tensors, int64_t dim) {
  ATTIC_CHECK(!tensors.empty(), "stack: expects a non-empty list of tensors");
  for (const Tensor& t : tensors) detail::check_defined("stack", t);
  dim = wrap_dim(dim, tensors[0].dim() + 1, "stack");
  std::vector<Tensor> parts;
  for (size_t i = 0; i < tensors.size(); ++i) {
    ATTIC_CHECK(tensors[i].shape() == tensors[0].shape(), "stack: tensor ", i, " has shape ",
                str(tensors[i].shape()), " but tensor 0 has shape ", str(tensors[0].shape()),
                "; all must have the same shape");
    parts.push_back(tensors[i].unsqueeze(dim));
  }
  return cat(parts, dim);
}

// x [..., N, ...] -> views of size split_size along dim (the last one holds the rest,
// N - split_size * (ceil(N / split_size) - 1)). narrow() records each view's gradient.
std::vector<Tensor> split(const Tensor& x, int64_t split_size, int64_t dim) {
  detail::check_defined("split", x);
  ATTIC_CHECK(x.dim() >= 1, "split: cannot split a 0-d tensor");
  dim = wrap_dim(dim, x.dim(), "split");
  ATTIC_CHECK(split_size > 0, "split: split_size must be positive, got ", split_size);
  const int64_t n = x.size(dim);
  if (n == 0) return {x.narrow(dim, 0, 0)};
  std::vector<Tensor> parts;
  for (int64_t start = 0; start < n; start += split_size)
    parts.push_back(x.narrow(dim, start, std::min(split_size, n - start)));
  return parts;
}

// x [..., N, ...] -> views of ceil(N / chunks) along dim, the last holding the rest. As in
// PyTorch, fewer than `chunks` may come back: N = 5, chunks = 4 gives sizes 2, 2, 1.
std::vector<Tensor> chunk(const Tensor& x, int64_t chunks, int64_t dim) {
  detail::check_defined("chunk", x);
  ATTIC_CHECK(x.dim() >= 1, "chunk: cannot chunk a 0-d tensor");
  dim = wrap_dim(dim, x.dim(), "chunk");
  ATTIC_CHECK(chunks > 0, "chunk: chunks must be positive, got ", chunks);
  const int64_t n = x.size(dim);
  if (n == 0) {
    std::vector<Tensor> parts;
    for (int64_t i = 0; i < chunks; ++i) parts.push_back(x.narrow(dim, 0, 0));
    return parts;
  }
  return split(x, (n + chunks - 1) / chunks, dim);
}

}  // namespace attic
