// add, sub, mul, div, neg — with NumPy broadcasting.
//
// A bool operand is promoted as in PyTorch (detail::promote_bool): mask * x has x's dtype,
// mask * 0.5 is float32. Two bool tensors add as OR and multiply as AND, giving bool;
// they do not subtract, divide or negate (PyTorch refuses those too).
//
// Broadcasting copies an input along the dims where it has size 1, so in backward the
// gradient for that input is summed back over those dims: sum_to(g, input shape).
#include "ops/helpers.h"

namespace attic {

using detail::binary_kernel;
using detail::scalar_like;

namespace {

// d(a + b) = da + db
struct AddBackward final : autograd::Node {
  Shape a_shape, b_shape;
  const char* name() const override { return "AddBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override {
    return {needs_grad(0) ? sum_to(g, a_shape) : Tensor(),
            needs_grad(1) ? sum_to(g, b_shape) : Tensor()};
  }
};

// d(a - b) = da - db
struct SubBackward final : autograd::Node {
  Shape a_shape, b_shape;
  const char* name() const override { return "SubBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override {
    return {needs_grad(0) ? sum_to(g, a_shape) : Tensor(),
            needs_grad(1) ? sum_to(neg(g), b_shape) : Tensor()};
  }
};

// d(a b) = b da + a db
struct MulBackward final : autograd::Node {
  Tensor a, b;
  const char* name() const override { return "MulBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override {
    return {needs_grad(0) ? sum_to(g * b, a.shape()) : Tensor(),
            needs_grad(1) ? sum_to(g * a, b.shape()) : Tensor()};
  }
};

// d(a / b) = da / b - a db / b²
struct DivBackward final : autograd::Node {
  Tensor a, b;
  const char* name() const override { return "DivBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override {
    return {needs_grad(0) ? sum_to(g / b, a.shape()) : Tensor(),
            needs_grad(1) ? sum_to(neg(g) * a / (b * b), b.shape()) : Tensor()};
  }
};

struct NegBackward final : autograd::Node {
  const char* name() const override { return "NegBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override { return {neg(g)}; }
};

}  // namespace

Tensor add(const Tensor& a, const Tensor& b) {
  Tensor out = binary_kernel("add", BinaryOp::Add, a, b);
  if (autograd::needs_grad({a, b})) {
    auto node = std::make_shared<AddBackward>();
    node->a_shape = a.shape();
    node->b_shape = b.shape();
    autograd::connect(out, node, {a, b});
  }
  return out;
}

Tensor autograd::add_gradients(const Tensor& a, const Tensor& b) { return add(a, b); }

Tensor sub(const Tensor& a, const Tensor& b) {
  detail::check_defined("sub", a);
  detail::check_defined("sub", b);
  ATTIC_CHECK(a.dtype() != kBool || b.dtype() != kBool, "sub: cannot subtract two bool "
              "tensors; use logical_xor(a, b), or convert one with .to(dtype)");
  Tensor out = binary_kernel("sub", BinaryOp::Sub, a, b);
  if (autograd::needs_grad({a, b})) {
    auto node = std::make_shared<SubBackward>();
    node->a_shape = a.shape();
    node->b_shape = b.shape();
    autograd::connect(out, node, {a, b});
  }
  return out;
}

Tensor mul(const Tensor& a, const Tensor& b) {
  Tensor out = binary_kernel("mul", BinaryOp::Mul, a, b);
  if (autograd::needs_grad({a, b})) {
    auto node = std::make_shared<MulBackward>();
    node->a = a;
    node->b = b;
    autograd::connect(out, node, {a, b});
  }
  return out;
}

Tensor div(const Tensor& a, const Tensor& b) {
  detail::check_defined("div", a);
  detail::check_defined("div", b);
  // integer division (and its divide-by-zero trap) is not offered
  detail::check_floating("div", detail::promote_bool(a, b));
  Tensor out = binary_kernel("div", BinaryOp::Div, a, b);
  if (autograd::needs_grad({a, b})) {
    auto node = std::make_shared<DivBackward>();
    node->a = a;
    node->b = b;
    autograd::connect(out, node, {a, b});
  }
  return out;
}

Tensor neg(const Tensor& x) {
  Tensor out = detail::unary_kernel("neg", UnaryOp::Neg, x);
  if (autograd::needs_grad({x})) autograd::connect(out, std::make_shared<NegBackward>(), {x});
  return out;
}

// The scalar forms: a bool tensor becomes float32 first (mask + 2.0 is float32 in PyTorch).
Tensor add(const Tensor& a_in, double b) {
  detail::check_defined("add", a_in);
  const Tensor a = detail::promote_bool_scalar(a_in);
  return add(a, scalar_like(a, b));
}
Tensor sub(const Tensor& a_in, double b) {
  detail::check_defined("sub", a_in);
  const Tensor a = detail::promote_bool_scalar(a_in);
  return sub(a, scalar_like(a, b));
}
Tensor mul(const Tensor& a_in, double b) {
  detail::check_defined("mul", a_in);
  const Tensor a = detail::promote_bool_scalar(a_in);
  return mul(a, scalar_like(a, b));
}
Tensor div(const Tensor& a_in, double b) {
  detail::check_defined("div", a_in);
  const Tensor a = detail::promote_bool_scalar(a_in);
  return div(a, scalar_like(a, b));
}
Tensor operator-(double a, const Tensor& b_in) {
  detail::check_defined("sub", b_in);
  const Tensor b = detail::promote_bool_scalar(b_in);
  return add(neg(b), a);
}
Tensor operator/(double a, const Tensor& b_in) {
  detail::check_defined("div", b_in);
  const Tensor b = detail::promote_bool_scalar(b_in);
  return div(scalar_like(b, a), b);
}

}  // namespace attic
