// The factories that run a kernel: full and its kin fill on the device, and the ones built
// from host values (arange, randn, rand, randint, from_vector, tensor) generate them on the
// host and copy them to the device with to(). empty() is in the tensor core
// (tensor/tensor.cpp): it only allocates.
#include <cmath>
#include <cstring>

#include "ops/helpers.h"
#include "ops/ops.h"

namespace attic {

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

// Builds a tensor on the host from generated values, then moves it to the device.
template <class Gen>
static Tensor host_generated(const Shape& shape, TensorOptions o, Gen&& gen) {
  TensorOptions host = o;
  host.device_ = Device::CPU;
  host.requires_grad_ = false;
  Tensor t = empty(shape, host);
  dispatch_storage(o.dtype_, [&](auto z) {
    using T = decltype(z);
    T* p = t.data_ptr<T>();
    for (int64_t i = 0; i < t.numel(); ++i) p[i] = value_cast<T>(gen(i));
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
