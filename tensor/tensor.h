// Tensor: a cheap handle (shared pointer) to a TensorImpl, which is a view — shape, strides,
// offset — into a shared Storage. Copying a Tensor copies the handle, never the data.
//
// The fields of Storage and TensorImpl are plain on purpose: a debugger printer can read a
// tensor without calling a function (so it also works on a core dump).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "tensor/dtype.h"
#include "tensor/error.h"

namespace attic {

using Shape = std::vector<int64_t>;

// The tensor core knows autograd only by these two names: a tensor holds the node that made
// it (autograd/node.h), and prints its name.
namespace autograd {
class Node;
const char* node_name(const Node& node);  // "MatmulBackward"; defined in autograd/node.cpp
}

// A block of device memory that tensors view; the last view to go frees it. In-place writes
// are refused on tensors that require grad (ops/copy.cpp), so the graph never sees one; the
// version still counts them (fill_, copy_, add_, mul_, optimizer steps), so that whoever
// saved a tensor to use later (autograd::checkpoint recomputes from its inputs) can tell
// that it changed.
struct Storage {
  void* data = nullptr;
  size_t nbytes = 0;
  Device device = Device::CPU;
  uint64_t version = 0;  // in-place writes so far

  Storage(size_t nbytes, Device device);  // allocates through the device's backend
  ~Storage();
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;
};

struct TensorImpl {
  std::shared_ptr<Storage> storage;
  Shape shape;
  Shape strides;       // in elements, one per dim
  int64_t offset = 0;  // in elements, from storage->data
  DType dtype = DType::Float32;
  Device device = Device::CPU;

  // autograd
  bool requires_grad = false;
  bool retains_grad = false;                  // a non-leaf that keeps its .grad (retain_grad())
  std::shared_ptr<TensorImpl> grad;           // accumulated gradient, same shape
  std::shared_ptr<autograd::Node> grad_fn;    // the node that made this tensor; null for leaves

  ~TensorImpl();
};

// How a factory makes its tensor: zeros({2, 3}, TensorOptions().dtype(kFloat64)).
struct TensorOptions {
  DType dtype_ = DType::Float32;
  Device device_ = Device::CPU;
  bool requires_grad_ = false;

  TensorOptions() = default;
  TensorOptions(DType d) : dtype_(d) {}  // NOLINT: zeros({2}, kInt64) reads well
  TensorOptions& dtype(DType d) { dtype_ = d; return *this; }
  TensorOptions& device(Device d) { device_ = d; return *this; }
  TensorOptions& requires_grad(bool r = true) { requires_grad_ = r; return *this; }
};

class Tensor {
 public:
  Tensor() = default;  // an undefined tensor: no storage; defined() is false
  explicit Tensor(std::shared_ptr<TensorImpl> impl) : impl_(std::move(impl)) {}

  bool defined() const { return impl_ != nullptr; }
  TensorImpl* impl() const { return impl_.get(); }
  const std::shared_ptr<TensorImpl>& impl_ptr() const { return impl_; }

  // ---- metadata
  const Shape& shape() const;
  const Shape& sizes() const { return shape(); }  // libtorch's name
  const Shape& strides() const;
  int64_t size(int64_t dim) const;    // dim may be negative
  int64_t stride(int64_t dim) const;
  int64_t dim() const;
  int64_t numel() const;
  int64_t storage_offset() const;
  DType dtype() const;
  Device device() const;
  bool is_contiguous() const;
  bool is_same(const Tensor& other) const { return impl_ == other.impl_; }
  bool shares_storage(const Tensor& other) const;

  // ---- data (CPU only; the dtype must match T: float, double, int64_t or bool)
  template <class T> T* data_ptr() const;   // pointer to element [0, ..., 0]
  void* raw_data() const;                   // same, untyped, on any device
  template <class T> T item() const;        // the one element, converted to T
  template <class T> std::vector<T> to_vector() const;  // all elements in row-major order

  // ---- autograd (see autograd/engine.cpp for the rules)
  bool requires_grad() const;
  Tensor& requires_grad_(bool r = true);
  Tensor grad() const;                       // undefined until a backward reaches this tensor
  void set_grad(const Tensor& g) const;      // replace .grad (undefined clears it)
  const std::shared_ptr<autograd::Node>& grad_fn() const;
  bool is_leaf() const;
  void retain_grad() const;                  // keep .grad on a non-leaf too
  // Backpropagates from this tensor. grad defaults to 1 for a one-element tensor.
  // Gradients ADD into the .grad of leaves; call zero_grad / set_grad({}) between steps.
  // With create_graph, .grad is itself a graph whose nodes may hold this tensor: as in
  // PyTorch that is a reference cycle, so set_grad({}) when done with it.
  void backward(const Tensor& grad = Tensor(), bool retain_graph = false,
                bool create_graph = false) const;
  Tensor detach() const;  // same storage, cut from the graph

  // ---- views: share storage with this tensor (writing through one changes the other)
  Tensor view(const Shape& shape) const;      // needs compatible strides; -1 infers one size
  Tensor reshape(const Shape& shape) const;   // a view when possible, otherwise a copy
  Tensor flatten() const { return reshape({-1}); }
  Tensor transpose(int64_t d0, int64_t d1) const;
  Tensor t() const;                           // transpose of a 2-D tensor
  Tensor permute(const Shape& dims) const;
  Tensor squeeze() const;                     // drop every size-1 dim
  Tensor squeeze(int64_t dim) const;
  Tensor unsqueeze(int64_t dim) const;
  Tensor narrow(int64_t dim, int64_t start, int64_t length) const;
  Tensor slice(int64_t dim, int64_t start, int64_t end, int64_t step = 1) const;
  Tensor select(int64_t dim, int64_t index) const;  // drops dim
  Tensor expand(const Shape& shape) const;    // size-1 dims grow with stride 0; -1 keeps
  Tensor operator[](int64_t index) const { return select(0, index); }

  // ---- copies
  Tensor contiguous() const;   // this tensor if already contiguous, else a row-major copy
  Tensor clone() const;        // always a copy (differentiable)
  Tensor to(Device device) const;
  Tensor to(DType dtype) const;

  // ---- in-place writes; they record nothing, so they refuse a leaf that requires grad
  //      while grad mode is on (wrap an optimizer step in NoGradGuard)
  Tensor& fill_(double value);
  Tensor& zero_() { return fill_(0.0); }
  Tensor& copy_(const Tensor& src);  // src broadcasts to this tensor's shape
  Tensor& add_(const Tensor& other, double alpha = 1.0);  // this += alpha * other
  Tensor& mul_(double value);

  std::string str() const;  // what operator<< prints

 private:
  std::shared_ptr<TensorImpl> impl_;
};

std::ostream& operator<<(std::ostream& os, const Tensor& t);

// ---- factories
Tensor empty(const Shape& shape, TensorOptions options = {});
Tensor zeros(const Shape& shape, TensorOptions options = {});
Tensor ones(const Shape& shape, TensorOptions options = {});
Tensor full(const Shape& shape, double value, TensorOptions options = {});
Tensor zeros_like(const Tensor& t);
Tensor ones_like(const Tensor& t);
Tensor empty_like(const Tensor& t);
// [start, end) in steps of step (float32 unless options say otherwise).
Tensor arange(double end, TensorOptions options = {});
Tensor arange(double start, double end, double step = 1.0, TensorOptions options = {});
Tensor randn(const Shape& shape, TensorOptions options = {});  // N(0, 1)
Tensor rand(const Shape& shape, TensorOptions options = {});   // U[0, 1)
// Integers uniform in [low, high); int64 unless options say otherwise.
Tensor randint(int64_t low, int64_t high, const Shape& shape, TensorOptions options = kInt64);
// A 0-d tensor holding value.
Tensor scalar_tensor(double value, TensorOptions options = {});

// from_vector(v) is 1-D of v.size() elements; from_vector({1, 2, 3, 4, 5, 6}, {2, 3}) fills
// the shape in row-major order, and from_vector(v, {}) is 0-d, v's one value, as
// torch.tensor(3.0) is. The dtype follows T (float, double, int64_t, bool).
template <class T>
Tensor from_vector(const std::vector<T>& data);
template <class T>
Tensor from_vector(const std::vector<T>& data, const Shape& shape,
                   TensorOptions options = TensorOptions(dtype_of<T>::value));

// tensor({{1, 2}, {3, 4}}): nested braces give the shape. float32 unless options say otherwise.
struct NestedList {
  std::vector<double> values;
  Shape shape;
  NestedList(double v) : values{v} {}  // NOLINT: a leaf of the braces
  NestedList(std::initializer_list<NestedList> rows);
};
Tensor tensor(NestedList values, TensorOptions options = {});

// ---- contiguity helpers shared by views, ops and kernels
Shape contiguous_strides(const Shape& shape);
int64_t numel_of(const Shape& shape);
int64_t wrap_dim(int64_t dim, int64_t ndim, const char* op);  // -1 -> ndim-1, checked

}  // namespace attic
