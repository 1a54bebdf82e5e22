// The tensor core: Storage, TensorImpl, metadata, element access, the autograd fields, and
// empty(). Nothing here runs an op or the autograd engine: the factories that run a kernel
// (zeros, full, randn, tensor, ...) are in ops/factories.cpp, and the autograd methods
// (backward, retain_grad, the graph's release) in autograd/tensor_autograd.cpp. Views live in
// ops/view.cpp, copies in ops/copy.cpp, printing in print.cpp.
#include "tensor/tensor.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <type_traits>

#include "tensor/backend.h"

namespace attic {

namespace detail {
namespace {
std::ostringstream& thread_fail_stream() {
  thread_local std::ostringstream os;
  return os;
}
}  // namespace
std::ostream& fail_stream() {
  std::ostringstream& os = thread_fail_stream();
  os.str(std::string());
  os.clear();
  return os;
}
void fail_raise() { throw Error(thread_fail_stream().str()); }
}  // namespace detail

std::string str(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

std::string str_bytes(uint64_t n) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = double(n);
  int u = 0;
  while (v >= 1024 && u < 6) {
    v /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
  return buf;
}

// ---------------------------------------------------------------- Storage, TensorImpl

Storage::Storage(size_t n, Device dev) : nbytes(n), device(dev) {
  data = backend_for(dev).allocate(n);
}

Storage::~Storage() {
  if (data) backend_for(device).deallocate(data, nbytes);
}

// ---------------------------------------------------------------- shape helpers

Shape contiguous_strides(const Shape& shape) {
  Shape s(shape.size());
  int64_t acc = 1;
  for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d) {
    s[d] = acc;
    acc *= shape[d];
  }
  return s;
}

// The product of the sizes. Sizes come from users (a block_size of 2^62, a checkpoint's
// metadata), so the product is checked: a wrapped count would allocate a small block for a
// huge tensor. The nonzero sizes' product must fit too, since contiguous_strides multiplies
// them whatever the zeros are.
int64_t numel_of(const Shape& shape) {
  int64_t n = 1;
  bool empty = false;
  for (int64_t s : shape) {
    if (s == 0) {
      empty = true;
      continue;
    }
    ATTIC_CHECK(s > 0, "a tensor of shape ", str(shape), " has a negative size");
    if (__builtin_mul_overflow(n, s, &n))
      throw OutOfMemory("a tensor of shape " + str(shape) +
                        " is too large: its element count does not fit in int64");
  }
  return empty ? 0 : n;
}

int64_t wrap_dim(int64_t dim, int64_t ndim, const char* op) {
  const int64_t lo = ndim == 0 ? -1 : -ndim, hi = ndim == 0 ? 0 : ndim - 1;
  ATTIC_CHECK(dim >= lo && dim <= hi, op, ": dim ", dim, " is out of range for a tensor of ",
              ndim, " dims (expected ", lo, " to ", hi, ")");
  return dim < 0 ? dim + (ndim == 0 ? 1 : ndim) : dim;
}

// ---------------------------------------------------------------- metadata

static TensorImpl& checked(const std::shared_ptr<TensorImpl>& p) {
  if (!p) throw Error("Tensor: this tensor is undefined (default-constructed)");
  return *p;
}

const Shape& Tensor::shape() const { return checked(impl_).shape; }
const Shape& Tensor::strides() const { return checked(impl_).strides; }
int64_t Tensor::dim() const { return int64_t(checked(impl_).shape.size()); }
int64_t Tensor::size(int64_t d) const { return shape()[wrap_dim(d, dim(), "size")]; }
int64_t Tensor::stride(int64_t d) const { return strides()[wrap_dim(d, dim(), "stride")]; }
int64_t Tensor::numel() const { return numel_of(shape()); }
int64_t Tensor::storage_offset() const { return checked(impl_).offset; }
DType Tensor::dtype() const { return checked(impl_).dtype; }
Device Tensor::device() const { return checked(impl_).device; }

bool Tensor::is_contiguous() const {
  int64_t expected = 1;
  for (int64_t d = dim() - 1; d >= 0; --d) {
    if (size(d) == 1) continue;
    if (stride(d) != expected) return false;
    expected *= size(d);
  }
  return true;
}

bool Tensor::shares_storage(const Tensor& other) const {
  return defined() && other.defined() && impl_->storage == other.impl_->storage;
}

void* Tensor::raw_data() const {
  TensorImpl& t = checked(impl_);
  return static_cast<char*>(t.storage->data) + t.offset * int64_t(dtype_size(t.dtype));
}

template <class T>
T* Tensor::data_ptr() const {
  ATTIC_CHECK(dtype() == dtype_of<T>::value, "data_ptr: tensor has dtype ",
              dtype_name(dtype()), ", asked for ", dtype_name(dtype_of<T>::value));
  ATTIC_CHECK(device() == Device::CPU, "data_ptr: tensor is on ", device_name(device()),
              "; move it with .to(Device::CPU) first");
  return static_cast<T*>(raw_data());
}

template <class T>
std::vector<T> Tensor::to_vector() const {
  Tensor c = to(Device::CPU).to(dtype_of<T>::value).contiguous();
  const T* p = c.data_ptr<T>();
  return std::vector<T>(p, p + c.numel());
}

template <class T>
T Tensor::item() const {
  ATTIC_CHECK(numel() == 1, "item: tensor of shape ", attic::str(shape()),
              " has ", numel(), " elements, not one");
  return to_vector<T>()[0];
}

template float* Tensor::data_ptr<float>() const;
template double* Tensor::data_ptr<double>() const;
template int64_t* Tensor::data_ptr<int64_t>() const;
template bool* Tensor::data_ptr<bool>() const;
template bfloat16* Tensor::data_ptr<bfloat16>() const;
template float16* Tensor::data_ptr<float16>() const;
template std::vector<float> Tensor::to_vector<float>() const;
template std::vector<double> Tensor::to_vector<double>() const;
template std::vector<int64_t> Tensor::to_vector<int64_t>() const;
template std::vector<bool> Tensor::to_vector<bool>() const;
template float Tensor::item<float>() const;
template double Tensor::item<double>() const;
template int64_t Tensor::item<int64_t>() const;
template bool Tensor::item<bool>() const;

// ---------------------------------------------------------------- autograd accessors

bool Tensor::requires_grad() const { return checked(impl_).requires_grad; }

Tensor& Tensor::requires_grad_(bool r) {
  TensorImpl& t = checked(impl_);
  ATTIC_CHECK(t.grad_fn == nullptr || r, "requires_grad_: only a leaf can stop requiring "
              "grad; use detach() on a tensor made by ", t.grad_fn ? autograd::node_name(*t.grad_fn) : "");
  ATTIC_CHECK(!r || is_floating(t.dtype), "requires_grad_: only floating tensors can require "
              "grad, this one is ", dtype_name(t.dtype));
  t.requires_grad = r;
  return *this;
}

Tensor Tensor::grad() const {
  TensorImpl& t = checked(impl_);
  return t.grad ? Tensor(t.grad) : Tensor();
}

void Tensor::set_grad(const Tensor& g) const {
  TensorImpl& t = checked(impl_);
  if (g.defined())
    ATTIC_CHECK(g.shape() == t.shape, "set_grad: gradient of shape ", attic::str(g.shape()),
                " for a tensor of shape ", attic::str(t.shape));
  t.grad = g.impl_ptr();
}

const std::shared_ptr<autograd::Node>& Tensor::grad_fn() const { return checked(impl_).grad_fn; }
bool Tensor::is_leaf() const { return checked(impl_).grad_fn == nullptr; }

Tensor Tensor::detach() const {
  TensorImpl& t = checked(impl_);
  auto d = std::make_shared<TensorImpl>();
  d->storage = t.storage;
  d->shape = t.shape;
  d->strides = t.strides;
  d->offset = t.offset;
  d->dtype = t.dtype;
  d->device = t.device;
  return Tensor(d);
}

// ---------------------------------------------------------------- factories

Tensor empty(const Shape& shape, TensorOptions o) {
  for (int64_t s : shape)
    ATTIC_CHECK(s >= 0, "empty: negative size in shape ", attic::str(shape));
  auto t = std::make_shared<TensorImpl>();
  const int64_t n = numel_of(shape);
  uint64_t nbytes = 0;
  if (__builtin_mul_overflow(uint64_t(n), uint64_t(dtype_size(o.dtype_)), &nbytes))
    throw OutOfMemory("a tensor of shape " + attic::str(shape) +
                      " is too large: its size in bytes does not fit in 64 bits");
  try {
    t->storage = std::make_shared<Storage>(size_t(nbytes), o.device_);
  } catch (const OutOfMemory& e) {
    throw OutOfMemory("a " + std::string(dtype_name(o.dtype_)) + " tensor of shape " +
                      attic::str(shape) + " needs " + str_bytes(nbytes) + ": " + e.what());
  }
  t->shape = shape;
  t->strides = contiguous_strides(shape);
  t->dtype = o.dtype_;
  t->device = o.device_;
  Tensor out(t);
  if (o.requires_grad_) out.requires_grad_(true);
  return out;
}

Tensor empty_like(const Tensor& t) {
  return empty(t.shape(), TensorOptions(t.dtype()).device(t.device()));
}

}  // namespace attic
