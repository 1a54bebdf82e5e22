// Tensor metadata, element access, autograd accessors, factories.
// Views live in tensor/ops/view.cpp, copies in tensor/ops/copy.cpp, printing in print.cpp.
#include "tensor/tensor.h"

#include <cmath>
#include <cstring>
#include <type_traits>

#include "autograd/node.h"
#include "tensor/backend.h"
#include "tensor/ops.h"
#include "tensor/ops/helpers.h"

namespace attic {

std::string str(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

// ---------------------------------------------------------------- Storage, TensorImpl

Storage::Storage(size_t n, Device dev) : nbytes(n), device(dev) {
  data = backend_for(dev).allocate(n);
}

Storage::~Storage() {
  if (data) backend_for(device).deallocate(data, nbytes);
}

TensorImpl::~TensorImpl() { autograd::release_later(std::move(grad_fn)); }

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

int64_t numel_of(const Shape& shape) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return n;
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
              "grad; use detach() on a tensor made by ", t.grad_fn ? t.grad_fn->name() : "");
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

void Tensor::retain_grad() const {
  TensorImpl& t = checked(impl_);
  ATTIC_CHECK(t.requires_grad, "retain_grad: the tensor does not require grad");
  if (t.grad_fn) t.grad_fn->retained_output = impl_;
  t.retains_grad = true;
}

void Tensor::backward(const Tensor& grad, bool retain_graph, bool create_graph) const {
  autograd::run_backward(*this, grad, retain_graph, create_graph);
}

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
  t->storage = std::make_shared<Storage>(size_t(n) * dtype_size(o.dtype_), o.device_);
  t->shape = shape;
  t->strides = contiguous_strides(shape);
  t->dtype = o.dtype_;
  t->device = o.device_;
  Tensor out(t);
  if (o.requires_grad_) out.requires_grad_(true);
  return out;
}

Tensor full(const Shape& shape, double value, TensorOptions o) {
  const bool rg = o.requires_grad_;
  o.requires_grad_ = false;
  Tensor t = empty(shape, o);
  backend_for(o.device_).fill(detail::ktensor(t), value);
  if (rg) t.requires_grad_(true);
  return t;
}

Tensor zeros(const Shape& shape, TensorOptions o) { return full(shape, 0.0, o); }
Tensor ones(const Shape& shape, TensorOptions o) { return full(shape, 1.0, o); }
Tensor scalar_tensor(double value, TensorOptions o) { return full({}, value, o); }

static TensorOptions like(const Tensor& t) {
  return TensorOptions(t.dtype()).device(t.device());
}
Tensor zeros_like(const Tensor& t) { return zeros(t.shape(), like(t)); }
Tensor ones_like(const Tensor& t) { return ones(t.shape(), like(t)); }
Tensor full_like(const Tensor& t, double v) { return full(t.shape(), v, like(t)); }
Tensor empty_like(const Tensor& t) { return empty(t.shape(), like(t)); }

// Builds a tensor on the host from generated values, then moves it to the device.
template <class Gen>
static Tensor host_generated(const Shape& shape, TensorOptions o, Gen&& gen) {
  TensorOptions host = o;
  host.device_ = Device::CPU;
  host.requires_grad_ = false;
  Tensor t = empty(shape, host);
  dispatch_dtype(o.dtype_, [&](auto z) {
    using T = decltype(z);
    T* p = t.data_ptr<T>();
    for (int64_t i = 0; i < t.numel(); ++i) p[i] = T(gen(i));
  });
  t = t.to(o.device_);
  if (o.requires_grad_) t.requires_grad_(true);
  return t;
}

Tensor arange(double end, TensorOptions o) { return arange(0.0, end, 1.0, o); }

Tensor arange(double start, double end, double step, TensorOptions o) {
  ATTIC_CHECK(step != 0, "arange: step must be nonzero");
  ATTIC_CHECK((end - start) / step >= 0, "arange: start ", start, ", end ", end,
              " and step ", step, " give no elements");
  const int64_t n = int64_t(std::ceil((end - start) / step));
  return host_generated({n}, o, [&](int64_t i) { return start + double(i) * step; });
}

Tensor randn(const Shape& shape, TensorOptions o) {
  ATTIC_CHECK(is_floating(o.dtype_), "randn: needs a floating dtype, got ", dtype_name(o.dtype_));
  Generator& g = default_generator();
  return host_generated(shape, o, [&](int64_t) { return g.normal(); });
}

Tensor rand(const Shape& shape, TensorOptions o) {
  ATTIC_CHECK(is_floating(o.dtype_), "rand: needs a floating dtype, got ", dtype_name(o.dtype_));
  Generator& g = default_generator();
  return host_generated(shape, o, [&](int64_t) { return g.uniform(); });
}

Tensor randint(int64_t low, int64_t high, const Shape& shape, TensorOptions o) {
  ATTIC_CHECK(low < high, "randint: low ", low, " must be below high ", high);
  Generator& g = default_generator();
  return host_generated(shape, o, [&](int64_t) { return double(g.randint(low, high)); });
}

template <class T>
Tensor from_vector(const std::vector<T>& data) {
  return from_vector(data, Shape{int64_t(data.size())});
}

template <class T>
Tensor from_vector(const std::vector<T>& data, const Shape& s, TensorOptions o) {
  ATTIC_CHECK(numel_of(s) == int64_t(data.size()), "from_vector: ", data.size(),
              " values do not fill shape ", attic::str(s));
  // std::vector<bool> packs its values into bits, so it has no data() to copy from.
  if constexpr (!std::is_same_v<T, bool>) {
    if (o.dtype_ == dtype_of<T>::value) {  // same type: copy exactly (int64 beyond 2^53 too)
      TensorOptions host = o;
      host.device_ = Device::CPU;
      host.requires_grad_ = false;
      Tensor t = empty(s, host);
      if (!data.empty()) std::memcpy(t.raw_data(), data.data(), data.size() * sizeof(T));
      t = t.to(o.device_);
      if (o.requires_grad_) t.requires_grad_(true);
      return t;
    }
  }
  return host_generated(s, o, [&](int64_t i) { return double(data[size_t(i)]); });
}
template Tensor from_vector<float>(const std::vector<float>&);
template Tensor from_vector<double>(const std::vector<double>&);
template Tensor from_vector<int64_t>(const std::vector<int64_t>&);
template Tensor from_vector<bool>(const std::vector<bool>&);
template Tensor from_vector<float>(const std::vector<float>&, const Shape&, TensorOptions);
template Tensor from_vector<double>(const std::vector<double>&, const Shape&, TensorOptions);
template Tensor from_vector<int64_t>(const std::vector<int64_t>&, const Shape&, TensorOptions);
template Tensor from_vector<bool>(const std::vector<bool>&, const Shape&, TensorOptions);

NestedList::NestedList(std::initializer_list<NestedList> rows) {
  shape = {int64_t(rows.size())};
  const NestedList* first = rows.size() ? rows.begin() : nullptr;
  for (const NestedList& r : rows) {
    ATTIC_CHECK(r.shape == first->shape, "tensor: ragged nested list (a row of shape ",
                attic::str(r.shape), " beside one of shape ", attic::str(first->shape), ")");
    values.insert(values.end(), r.values.begin(), r.values.end());
  }
  if (first) shape.insert(shape.end(), first->shape.begin(), first->shape.end());
}

Tensor tensor(NestedList v, TensorOptions o) {
  return host_generated(v.shape, o, [&](int64_t i) { return v.values[size_t(i)]; });
}

}  // namespace attic
