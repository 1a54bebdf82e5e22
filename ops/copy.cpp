// Copies: contiguous, clone, to(dtype), to(device), and the in-place writes.
#include "ops/helpers.h"
#include "tensor/swap_in.h"

namespace attic {

using detail::ktensor;

namespace {

// clone and contiguous: the copy passes the gradient straight through.
struct CloneBackward final : autograd::Node {
  const char* name() const override { return "CloneBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override { return {g}; }
};

// to(dtype) and to(device): the gradient goes back to where the input was.
struct ToBackward final : autograd::Node {
  DType in_dtype;
  Device in_device;
  const char* name() const override { return "ToBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override {
    return {g.to(in_dtype).to(in_device)};
  }
};

// In-place writes record nothing, so writing into something autograd tracks would
// silently give wrong gradients. Optimizers write parameters inside NoGradGuard. A write
// that is allowed counts in the storage's version.
void check_writable(const char* op, const Tensor& t) {
  detail::check_defined(op, t);
  ATTIC_CHECK(!(t.requires_grad() && autograd::GradMode::is_enabled()), op,
              ": in-place write to a tensor that requires grad; do it inside NoGradGuard "
              "(as optimizers do) or on a detach()ed tensor");
  ++t.impl()->storage->version;
}

}  // namespace

Tensor Tensor::clone() const {
  detail::check_defined("clone", *this);
  Tensor out = empty_like(*this);
  backend_for(device()).copy(ktensor(out), ktensor(*this));
  if (autograd::needs_grad({*this})) autograd::connect(out, std::make_shared<CloneBackward>(), {*this});
  return out;
}

Tensor Tensor::contiguous() const {
  detail::check_defined("contiguous", *this);
  return is_contiguous() ? *this : clone();
}

Tensor Tensor::to(DType dt) const {
  detail::check_defined("to", *this);
  if (dt == dtype()) return *this;
  Tensor out = empty(shape(), TensorOptions(dt).device(device()));
  backend_for(device()).copy(ktensor(out), ktensor(*this));
  if (is_floating(dt) && autograd::needs_grad({*this})) {
    auto node = std::make_shared<ToBackward>();
    node->in_dtype = dtype();
    node->in_device = device();
    autograd::connect(out, node, {*this});
  }
  return out;
}

Tensor Tensor::to(Device dev) const {
  detail::check_defined("to", *this);
  if (dev == device()) return *this;
  Backend& dst_be = backend_for(dev);  // throws in a build without that device
  Tensor src = contiguous();
  const size_t nbytes = size_t(numel()) * dtype_size(dtype());
  Tensor out = empty(shape(), TensorOptions(dtype()).device(dev));
  if (device() == Device::CPU) {
    dst_be.copy_from_host(out.raw_data(), src.raw_data(), nbytes);
  } else if (dev == Device::CPU) {
    backend_for(device()).copy_to_host(out.raw_data(), src.raw_data(), nbytes);
  } else {
    Tensor host = src.to(Device::CPU);
    dst_be.copy_from_host(out.raw_data(), host.raw_data(), nbytes);
  }
  if (autograd::needs_grad({*this})) {
    auto node = std::make_shared<ToBackward>();
    node->in_dtype = dtype();
    node->in_device = device();
    autograd::connect(out, node, {*this});
  }
  return out;
}

Tensor& Tensor::fill_(double value) {
  check_writable("fill_", *this);
  backend_for(device()).fill(ktensor(*this), value);
  return *this;
}

Tensor& Tensor::copy_(const Tensor& src) {
  check_writable("copy_", *this);
  detail::check_defined("copy_", src);
  Backend& be = detail::backend_of_moves("copy_", {*this, src});
  const Shape b = detail::broadcast_shapes(src.shape(), shape(), "copy_");
  ATTIC_CHECK(b == shape(), "copy_: source of shape ", attic::str(src.shape()),
              " does not broadcast to the destination's shape ", attic::str(shape()));
  // A source that overlaps the destination (x.copy_(x.t())) is copied out first.
  const Tensor from = shares_storage(src) ? src.clone() : src;
  be.copy(ktensor(*this), detail::ktensor_as(from, shape()));
  return *this;
}

Tensor& Tensor::add_(const Tensor& other, double alpha) {
  check_writable("add_", *this);
  detail::check_computes("add_", *this);
  // The kernel writes this += other in place when nothing needs a temporary: alpha 1, one
  // dtype and device, other broadcasting to this's shape, and other in a storage of its own
  // (one that overlaps this, such as this's own transpose, would read elements already
  // written). One pass over this, instead of a sum made elsewhere and copied back.
  if (alpha == 1.0 && other.defined() && other.dtype() == dtype() &&
      other.device() == device() && !other.shares_storage(*this) &&
      detail::broadcast_shapes(shape(), other.shape(), "add_") == shape()) {
    run_binary(backend_for(device()), BinaryOp::Add, ktensor(*this), ktensor(*this),
               detail::ktensor_as(other, shape()));
    return *this;
  }
  Tensor scaled = alpha == 1.0 ? other : mul(other, alpha);
  Tensor sum = detail::binary_kernel("add_", BinaryOp::Add, *this, scaled.detach());
  ATTIC_CHECK(sum.shape() == shape(), "add_: other of shape ", attic::str(other.shape()),
              " does not broadcast to ", attic::str(shape()));
  // A bool tensor beside another dtype is promoted to it, and the sum cannot be written back
  // into bool without losing it (PyTorch refuses the same). bool += bool is OR, and stays.
  ATTIC_CHECK(sum.dtype() == dtype(), "add_: the sum is ", dtype_name(sum.dtype()),
              ", which this ", dtype_name(dtype()), " tensor cannot hold; use logical_or, "
              "or convert with .to(dtype) first");
  backend_for(device()).copy(ktensor(*this), ktensor(sum));
  return *this;
}

Tensor& Tensor::mul_(double value) {
  check_writable("mul_", *this);
  detail::check_computes("mul_", *this);
  ATTIC_CHECK(dtype() != kBool, "mul_: a bool tensor cannot hold a product with a scalar; "
              "use logical_and, or convert with .to(dtype) first");
  const Tensor c = detail::scalar_like(*this, value);
  if (is_contiguous()) {
    // One pass, written where it is read: each element is read once before its own write,
    // which is safe for an elementwise kernel when every element has its own memory.
    run_binary(backend_for(device()), BinaryOp::Mul, ktensor(*this), ktensor(*this),
               detail::ktensor_as(c, shape()));
    return *this;
  }
  Tensor prod = detail::binary_kernel("mul_", BinaryOp::Mul, *this, c);
  backend_for(device()).copy(ktensor(*this), ktensor(prod));
  return *this;
}

}  // namespace attic
