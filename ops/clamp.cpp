// clamp, maximum, minimum.
//
// At a tie the choice of input is arbitrary, so the gradient is split half and half
// between a and b (PyTorch's convention; also what a central difference measures there).
#include "ops/helpers.h"

namespace attic {

namespace {

// y = min(max(x, lo), hi): dx = g [lo <= x <= hi]. The gradient also passes at the bounds
// themselves (PyTorch's convention).
struct ClampBackward final : autograd::Node {
  Tensor x;
  double lo = 0, hi = 0;
  const char* name() const override { return "ClampBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override {
    return {g * logical_and(ge(x, lo), le(x, hi))};
  }
};

// y = max(a, b) (or min): a's share w of the gradient is 1 where a wins, 1/2 at a tie,
// 0 where b wins; b gets 1 - w. Each is summed back to its input's shape.
struct ExtremumBackward final : autograd::Node {
  Tensor a, b;
  bool is_max = true;
  const char* name() const override { return is_max ? "MaximumBackward" : "MinimumBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override {
    const DType d = g.dtype();
    Tensor w = (is_max ? gt(a, b) : lt(a, b)).to(d) + eq(a, b).to(d) * 0.5;
    return {needs_grad(0) ? sum_to(g * w, a.shape()) : Tensor(),
            needs_grad(1) ? sum_to(g * (1.0 - w), b.shape()) : Tensor()};
  }
};

// a [*], b broadcastable with a -> broadcast shape: out = max(a, b) or min(a, b)
Tensor extremum(const char* name, BinaryOp op, const Tensor& a, const Tensor& b) {
  Tensor out = detail::binary_kernel(name, op, a, b);
  if (autograd::needs_grad({a, b})) {
    auto node = std::make_shared<ExtremumBackward>();
    node->a = a;
    node->b = b;
    node->is_max = op == BinaryOp::Maximum;
    autograd::connect(out, node, {a, b});
  }
  return out;
}

}  // namespace

// x [*] -> [*]: y = min(max(x, min), max); needs min <= max
Tensor clamp(const Tensor& x, double min, double max) {
  ATTIC_CHECK(!(min > max), "clamp: min ", min, " is greater than max ", max);
  Tensor out = detail::unary_kernel("clamp", UnaryOp::Clamp, x, min, max);
  if (autograd::needs_grad({x})) {
    auto node = std::make_shared<ClampBackward>();
    node->x = x;
    node->lo = min;
    node->hi = max;
    autograd::connect(out, node, {x});
  }
  return out;
}

// a [*], b broadcastable with a -> broadcast shape: out = max(a, b); NaN wins
Tensor maximum(const Tensor& a, const Tensor& b) {
  return extremum("maximum", BinaryOp::Maximum, a, b);
}

// a [*], b broadcastable with a -> broadcast shape: out = min(a, b); NaN wins
Tensor minimum(const Tensor& a, const Tensor& b) {
  return extremum("minimum", BinaryOp::Minimum, a, b);
}

}  // namespace attic
