// Views: new shape, strides and offset over the same storage — no data moves. Each view
// is differentiable; its backward maps the gradient of the view back onto the base's shape.
#include <algorithm>
#include <numeric>

#include "ops/helpers.h"

namespace attic {

namespace {

Tensor make_view(const Tensor& base, Shape shape, Shape strides, int64_t offset) {
  auto v = std::make_shared<TensorImpl>();
  v->storage = base.impl()->storage;
  v->shape = std::move(shape);
  v->strides = std::move(strides);
  v->offset = offset;
  v->dtype = base.dtype();
  v->device = base.device();
  return Tensor(v);
}

// view, reshape, squeeze, unsqueeze, flatten: the gradient is reshaped back.
struct ReshapeBackward final : autograd::Node {
  const char* op;
  Shape in_shape;
  const char* name() const override { return op; }
  std::vector<Tensor> backward(const Tensor& g) override { return {g.reshape(in_shape)}; }
};

Tensor record_reshape(Tensor out, const Tensor& in, const char* op) {
  if (autograd::needs_grad({in})) {
    auto node = std::make_shared<ReshapeBackward>();
    node->op = op;
    node->in_shape = in.shape();
    autograd::connect(out, node, {in});
  }
  return out;
}

// Resolves one -1 in shape from numel, and checks the element count.
Shape infer_shape(const char* op, const Shape& in, Shape shape) {
  const int64_t n = numel_of(in);
  int64_t known = 1, infer = -1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      ATTIC_CHECK(infer < 0, op, ": only one dimension can be -1 in ", attic::str(shape));
      infer = int64_t(i);
    } else {
      ATTIC_CHECK(shape[i] >= 0, op, ": invalid size ", shape[i], " in ", attic::str(shape));
      known *= shape[i];
    }
  }
  if (infer >= 0) {
    ATTIC_CHECK(known != 0 && n % known == 0, op, ": shape ", attic::str(shape),
                " is invalid for input of size ", n);
    shape[size_t(infer)] = n / known;
  }
  ATTIC_CHECK(numel_of(shape) == n, op, ": shape ", attic::str(shape), " is invalid for input of ",
              "shape ", attic::str(in), " (", n, " elements)");
  return shape;
}

// Strides that let `shape` view memory laid out as (old_shape, old_strides), or an empty
// vector when none exist. Old dims are grouped into runs that are contiguous with each
// other; every new dim must fall within one run (PyTorch's computeStride).
Shape view_strides(const Shape& old_shape, const Shape& old_strides, const Shape& shape) {
  Shape strides(shape.size());
  if (numel_of(old_shape) == 0 || old_shape.empty()) return contiguous_strides(shape);
  int64_t view_d = int64_t(shape.size()) - 1;
  int64_t chunk_base_stride = old_strides.empty() ? 1 : old_strides.back();
  int64_t tensor_numel = 1, view_numel = 1;
  for (int64_t d = int64_t(old_shape.size()) - 1; d >= 0; --d) {
    tensor_numel *= old_shape[d];
    const bool run_ends = d == 0 || (old_shape[d - 1] != 1 &&
                                     old_strides[d - 1] != tensor_numel * chunk_base_stride);
    if (run_ends) {
      while (view_d >= 0 && (view_numel < tensor_numel || shape[view_d] == 1)) {
        strides[view_d] = view_numel * chunk_base_stride;
        view_numel *= shape[view_d];
        --view_d;
      }
      if (view_numel != tensor_numel) return {};
      if (d > 0) {
        chunk_base_stride = old_strides[d - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  if (view_d != -1) return {};
  return strides;
}

}  // namespace

Tensor Tensor::view(const Shape& shape_in) const {
  detail::check_defined("view", *this);
  const Shape s = infer_shape("view", shape(), shape_in);
  Shape st = view_strides(shape(), strides(), s);
  ATTIC_CHECK(!st.empty() || s.empty(), "view: shape ", attic::str(s), " is not compatible with the "
              "input's shape ", attic::str(shape()), " and strides ", attic::str(strides()),
              "; use reshape() (which copies) or contiguous() first");
  return record_reshape(make_view(*this, s, st, storage_offset()), *this, "ViewBackward");
}

Tensor Tensor::reshape(const Shape& shape_in) const {
  detail::check_defined("reshape", *this);
  const Shape s = infer_shape("reshape", shape(), shape_in);
  Shape st = view_strides(shape(), strides(), s);
  if (!st.empty() || s.empty())
    return record_reshape(make_view(*this, s, st, storage_offset()), *this, "ReshapeBackward");
  return contiguous().view(s);
}

Tensor Tensor::squeeze() const {
  Shape s, st;
  for (int64_t d = 0; d < dim(); ++d)
    if (size(d) != 1) {
      s.push_back(size(d));
      st.push_back(stride(d));
    }
  return record_reshape(make_view(*this, s, st, storage_offset()), *this, "SqueezeBackward");
}

Tensor Tensor::squeeze(int64_t d) const {
  d = wrap_dim(d, dim(), "squeeze");
  if (dim() == 0 || size(d) != 1) return record_reshape(detach(), *this, "SqueezeBackward");
  Shape s = shape(), st = strides();
  s.erase(s.begin() + d);
  st.erase(st.begin() + d);
  return record_reshape(make_view(*this, s, st, storage_offset()), *this, "SqueezeBackward");
}

Tensor Tensor::unsqueeze(int64_t d) const {
  d = wrap_dim(d, dim() + 1, "unsqueeze");
  Shape s = shape(), st = strides();
  const int64_t new_stride = d < dim() ? stride(d) * size(d) : 1;
  s.insert(s.begin() + d, 1);
  st.insert(st.begin() + d, new_stride);
  return record_reshape(make_view(*this, s, st, storage_offset()), *this, "UnsqueezeBackward");
}

// ---- transpose and permute: the gradient is permuted back.

namespace {
struct PermuteBackward final : autograd::Node {
  Shape inverse;  // inverse[dims[i]] = i
  const char* name() const override { return "PermuteBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override { return {g.permute(inverse)}; }
};
}  // namespace

Tensor Tensor::permute(const Shape& dims) const {
  detail::check_defined("permute", *this);
  ATTIC_CHECK(int64_t(dims.size()) == dim(), "permute: got ", dims.size(), " dims ", attic::str(dims),
              " for a tensor of ", dim(), " dims");
  Shape s(dims.size()), st(dims.size()), inverse(dims.size(), -1);
  for (size_t i = 0; i < dims.size(); ++i) {
    const int64_t d = wrap_dim(dims[i], dim(), "permute");
    ATTIC_CHECK(inverse[size_t(d)] < 0, "permute: dim ", d, " repeats in ", attic::str(dims));
    inverse[size_t(d)] = int64_t(i);
    s[i] = size(d);
    st[i] = stride(d);
  }
  Tensor out = make_view(*this, s, st, storage_offset());
  if (autograd::needs_grad({*this})) {
    auto node = std::make_shared<PermuteBackward>();
    node->inverse = inverse;
    autograd::connect(out, node, {*this});
  }
  return out;
}

Tensor Tensor::transpose(int64_t d0, int64_t d1) const {
  detail::check_defined("transpose", *this);
  Shape dims(static_cast<size_t>(dim()));
  std::iota(dims.begin(), dims.end(), 0);
  if (dim() == 0) return permute(dims);
  std::swap(dims[size_t(wrap_dim(d0, dim(), "transpose"))],
            dims[size_t(wrap_dim(d1, dim(), "transpose"))]);
  return permute(dims);
}

Tensor Tensor::t() const {
  ATTIC_CHECK(dim() <= 2, "t: expects a tensor of at most 2 dims, got shape ", attic::str(shape()));
  return dim() < 2 ? *this : transpose(0, 1);
}

// ---- narrow, slice and select: the gradient lands in a zero tensor of the base's shape.

namespace {
struct SliceBackward final : autograd::Node {
  const char* op;
  Shape in_shape;
  int64_t dim, start, end, step;
  bool drop_dim;  // select() removed the dim
  const char* name() const override { return op; }
  std::vector<Tensor> backward(const Tensor& g) override {
    Tensor dx = zeros(in_shape, TensorOptions(g.dtype()).device(g.device()));
    Tensor window = dx.slice(dim, start, end, step);
    window.copy_(drop_dim ? g.unsqueeze(dim) : g);
    return {dx};
  }
};
}  // namespace

Tensor Tensor::slice(int64_t d, int64_t start, int64_t end, int64_t step) const {
  detail::check_defined("slice", *this);
  d = wrap_dim(d, dim(), "slice");
  ATTIC_CHECK(step > 0, "slice: step must be positive, got ", step);
  const int64_t n = size(d);
  // Python's rules: negative bounds count from the end, then clamp to [0, n].
  if (start < 0) start += n;
  if (end < 0) end += n;
  start = std::clamp<int64_t>(start, 0, n);
  end = std::clamp<int64_t>(end, start, n);
  Shape s = shape(), st = strides();
  s[size_t(d)] = (end - start + step - 1) / step;
  st[size_t(d)] = stride(d) * step;
  Tensor out = make_view(*this, s, st, storage_offset() + start * stride(d));
  if (autograd::needs_grad({*this})) {
    auto node = std::make_shared<SliceBackward>();
    node->op = "SliceBackward";
    node->in_shape = shape();
    node->dim = d;
    node->start = start;
    node->end = end;
    node->step = step;
    node->drop_dim = false;
    autograd::connect(out, node, {*this});
  }
  return out;
}

Tensor Tensor::narrow(int64_t d, int64_t start, int64_t length) const {
  detail::check_defined("narrow", *this);
  d = wrap_dim(d, dim(), "narrow");
  if (start < 0) start += size(d);
  ATTIC_CHECK(start >= 0 && length >= 0 && start + length <= size(d), "narrow: start ", start,
              " + length ", length, " exceeds size ", size(d), " of dim ", d);
  return slice(d, start, start + length);
}

Tensor Tensor::select(int64_t d, int64_t index) const {
  detail::check_defined("select", *this);
  ATTIC_CHECK(dim() > 0, "select: cannot select from a 0-d tensor");
  d = wrap_dim(d, dim(), "select");
  const int64_t n = size(d);
  ATTIC_CHECK(index >= -n && index < n, "select: index ", index, " is out of range for dim ",
              d, " of size ", n);
  if (index < 0) index += n;
  Shape s = shape(), st = strides();
  s.erase(s.begin() + d);
  st.erase(st.begin() + d);
  Tensor out = make_view(*this, s, st, storage_offset() + index * stride(d));
  if (autograd::needs_grad({*this})) {
    auto node = std::make_shared<SliceBackward>();
    node->op = "SelectBackward";
    node->in_shape = shape();
    node->dim = d;
    node->start = index;
    node->end = index + 1;
    node->step = 1;
    node->drop_dim = true;
    autograd::connect(out, node, {*this});
  }
  return out;
}

// ---- expand: stride 0 repeats an element; the gradient sums over the repeats.

namespace {
struct ExpandBackward final : autograd::Node {
  Shape in_shape;
  const char* name() const override { return "ExpandBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override { return {sum_to(g, in_shape)}; }
};
}  // namespace

Tensor Tensor::expand(const Shape& target) const {
  detail::check_defined("expand", *this);
  ATTIC_CHECK(int64_t(target.size()) >= dim(), "expand: target ", attic::str(target),
              " has fewer dims than the input's shape ", attic::str(shape()));
  const int64_t lead = int64_t(target.size()) - dim();
  Shape s(target.size()), st(target.size(), 0);
  for (int64_t i = 0; i < int64_t(target.size()); ++i) {
    const int64_t d = i - lead;
    const int64_t have = d >= 0 ? size(d) : 1;
    const int64_t want = target[size_t(i)] == -1 ? have : target[size_t(i)];
    ATTIC_CHECK(d >= 0 || target[size_t(i)] != -1, "expand: -1 is not allowed for the new "
                "leading dim ", i, " in ", attic::str(target));
    ATTIC_CHECK(have == want || have == 1, "expand: the input's size ", have, " at dim ", d,
                " must be 1 or equal the target size ", want, " (", attic::str(shape()), " -> ",
                attic::str(target), ")");
    s[size_t(i)] = want;
    st[size_t(i)] = (d >= 0 && have == want) ? stride(d) : 0;
  }
  Tensor out = make_view(*this, s, st, storage_offset());
  if (autograd::needs_grad({*this})) {
    auto node = std::make_shared<ExpandBackward>();
    node->in_shape = shape();
    autograd::connect(out, node, {*this});
  }
  return out;
}

}  // namespace attic
