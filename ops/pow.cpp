// pow: x^p with a scalar or a tensor exponent.
#include "ops/helpers.h"

namespace attic {

using detail::scalar_like;

namespace {

// y = x^p for a scalar p: dx = g p x^(p-1). For p = 0 the gradient is 0 (as in PyTorch)
// rather than 0 · x^-1, which is NaN at x = 0.
struct PowScalarBackward final : autograd::Node {
  Tensor x;
  double p = 0;
  const char* name() const override { return "PowBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override {
    if (p == 0) return {zeros_like(g)};
    return {g * pow(x, p - 1) * p};
  }
};

// y = x^p, both broadcast to y's shape:
//   dx = g p x^(p-1)   (0 where p = 0, as above)
//   dp = g y ln x      (0 where x = 0 and p >= 0: the limit of x^p ln x as x -> 0+ with
//                       p > 0; computed, it is 0 · -inf = NaN)
// y is saved detached (see ops/unary.cpp for why); a recorded backward recomputes it.
struct PowBackward final : autograd::Node {
  Tensor x, p, y;
  const char* name() const override { return "PowBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override {
    Tensor zero = scalar_like(g, 0.0);
    Tensor dx, dp;
    if (needs_grad(0)) dx = sum_to(where(eq(p, 0.0), zero, g * p * pow(x, p - 1.0)), x.shape());
    if (needs_grad(1)) {
      Tensor out = autograd::GradMode::is_enabled() ? pow(x, p) : y;
      dp = sum_to(where(logical_and(eq(x, 0.0), ge(p, 0.0)), zero, g * out * log(x)), p.shape());
    }
    return {dx, dp};
  }
};

}  // namespace

// x [*] -> [*]: y = x^p (NaN for x < 0 and a fractional p)
Tensor pow(const Tensor& x, double exponent) {
  Tensor out = detail::unary_kernel("pow", UnaryOp::PowScalar, x, exponent);
  if (autograd::needs_grad({x})) {
    auto node = std::make_shared<PowScalarBackward>();
    node->x = x;
    node->p = exponent;
    autograd::connect(out, node, {x});
  }
  return out;
}

// x [*], exponent broadcastable with x -> broadcast shape, same dtypes: y = x^p
Tensor pow(const Tensor& x, const Tensor& exponent) {
  Tensor out = detail::binary_kernel("pow", BinaryOp::Pow, x, exponent);
  if (autograd::needs_grad({x, exponent})) {
    auto node = std::make_shared<PowBackward>();
    node->x = x;
    node->p = exponent;
    node->y = out.detach();
    autograd::connect(out, node, {x, exponent});
  }
  return out;
}

}  // namespace attic
