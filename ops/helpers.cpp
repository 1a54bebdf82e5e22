#include "ops/helpers.h"

#include <algorithm>

#include "tensor/swap_in.h"

namespace attic::detail {

KTensor ktensor(const Tensor& t) {
  KTensor k;
  k.data = t.raw_data();
  k.dtype = t.dtype();
  k.shape = t.shape();
  k.strides = t.strides();
  return k;
}

KTensor ktensor_as(const Tensor& t, const Shape& shape) {
  KTensor k;
  k.data = t.raw_data();
  k.dtype = t.dtype();
  k.shape = shape;
  k.strides.assign(shape.size(), 0);
  const int64_t lead = int64_t(shape.size()) - t.dim();
  for (int64_t d = 0; d < t.dim(); ++d)
    k.strides[lead + d] = t.size(d) == 1 ? 0 : t.stride(d);
  return k;
}

Shape broadcast_shapes(const Shape& a, const Shape& b, const char* op) {
  const size_t n = std::max(a.size(), b.size());
  Shape out(n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    ATTIC_CHECK(da == db || da == 1 || db == 1, op, ": shapes ", str(a), " and ", str(b),
                " cannot broadcast (", da, " vs ", db, " in dim ", i, ")");
    out[i] = da == 1 ? db : da;
  }
  return out;
}

void check_computes(const char* op, const Tensor& t) {
  ATTIC_CHECK(!is_reduced_float(t.dtype()), op, ": got a ", dtype_name(t.dtype()),
              " tensor of shape ", str(t.shape()), "; attic stores ", dtype_name(t.dtype()),
              " but computes in float32: convert it with .to(kFloat32), or let autocast "
              "(AutocastGuard) run the matrix products in ", dtype_name(t.dtype()));
}

Backend& backend_of(const char* op, std::initializer_list<Tensor> tensors) {
  for (const Tensor& t : tensors)
    if (t.defined()) check_computes(op, t);
  return backend_of_moves(op, tensors);
}

Backend& backend_of_moves(const char* op, std::initializer_list<Tensor> tensors) {
  const Tensor* first = nullptr;
  for (const Tensor& t : tensors) {
    if (!t.defined()) continue;
    if (!first) first = &t;
    ATTIC_CHECK(t.device() == first->device(), op, ": tensors on different devices (",
                device_name(first->device()), " and ", device_name(t.device()), ")");
  }
  return backend_for(first ? first->device() : Device::CPU);
}

void check_defined(const char* op, const Tensor& t) {
  ATTIC_CHECK(t.defined(), op, ": got an undefined tensor");
}

void check_same_dtype(const char* op, const Tensor& a, const Tensor& b) {
  ATTIC_CHECK(a.dtype() == b.dtype(), op, ": dtypes differ (", dtype_name(a.dtype()), " and ",
              dtype_name(b.dtype()), "); convert one with .to(dtype)");
}

void check_floating(const char* op, const Tensor& t) {
  check_computes(op, t);
  ATTIC_CHECK(is_floating(t.dtype()), op, ": needs a floating tensor, got ",
              dtype_name(t.dtype()));
}

void check_index_dtype(const char* op, const Tensor& index) {
  check_defined(op, index);
  ATTIC_CHECK(index.dtype() == kInt64, op, ": indices must be int64, got ",
              dtype_name(index.dtype()));
}

std::optional<int64_t> first_out_of_range(const Tensor& index, int64_t size) {
  if (index.device() == Device::CPU && index.is_contiguous()) {
    const int64_t* p = index.data_ptr<int64_t>();
    for (int64_t i = 0, n = index.numel(); i < n; ++i)
      if (p[i] < 0 || p[i] >= size) return p[i];
    return std::nullopt;
  }
  for (int64_t v : index.to_vector<int64_t>())
    if (v < 0 || v >= size) return v;
  return std::nullopt;
}

Tensor scalar_like(const Tensor& t, double value) {
  return scalar_tensor(value, TensorOptions(t.dtype()).device(t.device()));
}

Tensor promote_bool(const Tensor& t, const Tensor& other) {
  return t.dtype() == kBool && other.dtype() != kBool ? t.to(other.dtype()) : t;
}

Tensor promote_bool_scalar(const Tensor& t) {
  return t.dtype() == kBool ? t.to(kFloat32) : t;
}

bool is_comparison(BinaryOp op) {
  switch (op) {
    case BinaryOp::Gt: case BinaryOp::Lt: case BinaryOp::Ge:
    case BinaryOp::Le: case BinaryOp::Eq: case BinaryOp::Ne: return true;
    default: return false;
  }
}

Tensor unary_kernel(const char* name, UnaryOp op, const Tensor& x, double p0, double p1) {
  check_defined(name, x);
  check_floating(name, x);
  Tensor out = empty(x.shape(), TensorOptions(x.dtype()).device(x.device()));
  backend_of(name, {x}).unary(op, ktensor(out), ktensor(x), p0, p1);
  return out;
}

Tensor binary_kernel(const char* name, BinaryOp op, const Tensor& a_in, const Tensor& b_in) {
  check_defined(name, a_in);
  check_defined(name, b_in);
  Backend& be = backend_of(name, {a_in, b_in});
  const Tensor a = promote_bool(a_in, b_in), b = promote_bool(b_in, a_in);
  check_same_dtype(name, a, b);
  const Shape shape = broadcast_shapes(a.shape(), b.shape(), name);
  const DType out_dtype = is_comparison(op) ? kBool : a.dtype();
  Tensor out = empty(shape, TensorOptions(out_dtype).device(a.device()));
  run_binary(be, op, ktensor(out), ktensor_as(a, shape), ktensor_as(b, shape));
  return out;
}

std::vector<int64_t> reduce_dims(const char* op, const std::vector<int64_t>& dims, int64_t ndim) {
  std::vector<int64_t> out;
  if (dims.empty()) {
    for (int64_t d = 0; d < ndim; ++d) out.push_back(d);
    return out;
  }
  for (int64_t d : dims) {
    const int64_t w = wrap_dim(d, ndim, op);
    ATTIC_CHECK(std::find(out.begin(), out.end(), w) == out.end(), op, ": dim ", d,
                " appears twice");
    out.push_back(w);
  }
  if (ndim == 0) out.clear();  // dim 0 or -1 of a 0-d tensor names no real dim
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace attic::detail
