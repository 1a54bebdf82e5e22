// Unary math: exp, log, sqrt, rsqrt, abs, tanh, sigmoid, sin, cos. Each keeps its input's
// shape: x [*] -> y [*], and needs a floating x.
//
// Some derivatives are cheapest from the output (d e^x = e^x dx). A node must not hold its
// own output with grad_fn set (the output holds the node: a reference cycle), so it saves
// out.detach(). A detached tensor has no graph, so a backward that is itself being recorded
// (create_graph) recomputes the output from x instead, to stay differentiable.
#include "ops/helpers.h"

namespace attic {

using detail::unary_kernel;

namespace {

// Base of every node here: x is the input, y the detached output (when the node saves it).
struct UnaryNode : autograd::Node {
  Tensor x, y;
  // y as the backward should use it: saved, or recomputed by f under create_graph.
  Tensor output(Tensor (*f)(const Tensor&)) const {
    return autograd::GradMode::is_enabled() ? f(x) : y;
  }
};

// x [*], out [*]: makes a NodeT the grad_fn of out when x needs a gradient; saves x, and
// out detached when save_out.
template <class NodeT>
Tensor record(Tensor out, const Tensor& x, bool save_out) {
  if (autograd::needs_grad({x})) {
    auto node = std::make_shared<NodeT>();
    node->x = x;
    if (save_out) node->y = out.detach();
    autograd::connect(out, node, {x});
  }
  return out;
}

// y = e^x: dx = g y
struct ExpBackward final : UnaryNode {
  const char* name() const override { return "ExpBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override { return {g * output(exp)}; }
};

// y = log x: dx = g / x
struct LogBackward final : UnaryNode {
  const char* name() const override { return "LogBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override { return {g / x}; }
};

// y = √x: dx = g / (2 y)
struct SqrtBackward final : UnaryNode {
  const char* name() const override { return "SqrtBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override { return {g / (output(sqrt) * 2.0)}; }
};

// y = x^(-1/2): dx = -g x^(-3/2) / 2 = -g y³ / 2
struct RsqrtBackward final : UnaryNode {
  const char* name() const override { return "RsqrtBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override {
    Tensor r = output(rsqrt);
    return {g * (r * r * r) * -0.5};
  }
};

// y = |x|: dx = g sign(x). sign is flat wherever it is differentiable, so the kernel's
// sign (no graph) is exact even under create_graph; sign(0) = 0 matches PyTorch.
struct AbsBackward final : UnaryNode {
  const char* name() const override { return "AbsBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override {
    return {g * unary_kernel("abs", UnaryOp::Sign, x)};
  }
};

// y = tanh x: dx = g (1 - y²)
struct TanhBackward final : UnaryNode {
  const char* name() const override { return "TanhBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override {
    Tensor t = output(tanh);
    return {g * (1.0 - t * t)};
  }
};

// y = σ(x): dx = g y (1 - y)
struct SigmoidBackward final : UnaryNode {
  const char* name() const override { return "SigmoidBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override {
    Tensor s = output(sigmoid);
    return {g * s * (1.0 - s)};
  }
};

// y = sin x: dx = g cos x
struct SinBackward final : UnaryNode {
  const char* name() const override { return "SinBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override { return {g * cos(x)}; }
};

// y = cos x: dx = -g sin x
struct CosBackward final : UnaryNode {
  const char* name() const override { return "CosBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override { return {neg(g * sin(x))}; }
};

}  // namespace

// x [*] -> [*]: y = e^x
Tensor exp(const Tensor& x) {
  return record<ExpBackward>(unary_kernel("exp", UnaryOp::Exp, x), x, true);
}

// x [*] -> [*]: y = ln x (NaN below 0, -inf at 0)
Tensor log(const Tensor& x) {
  return record<LogBackward>(unary_kernel("log", UnaryOp::Log, x), x, false);
}

// x [*] -> [*]: y = √x
Tensor sqrt(const Tensor& x) {
  return record<SqrtBackward>(unary_kernel("sqrt", UnaryOp::Sqrt, x), x, true);
}

// x [*] -> [*]: y = 1 / √x
Tensor rsqrt(const Tensor& x) {
  return record<RsqrtBackward>(unary_kernel("rsqrt", UnaryOp::Rsqrt, x), x, true);
}

// x [*] -> [*]: y = |x|
Tensor abs(const Tensor& x) {
  return record<AbsBackward>(unary_kernel("abs", UnaryOp::Abs, x), x, false);
}

// x [*] -> [*]: y = tanh x
Tensor tanh(const Tensor& x) {
  return record<TanhBackward>(unary_kernel("tanh", UnaryOp::Tanh, x), x, true);
}

// x [*] -> [*]: y = σ(x) = 1 / (1 + e^-x)
Tensor sigmoid(const Tensor& x) {
  return record<SigmoidBackward>(unary_kernel("sigmoid", UnaryOp::Sigmoid, x), x, true);
}

// x [*] -> [*]: y = sin x
Tensor sin(const Tensor& x) {
  return record<SinBackward>(unary_kernel("sin", UnaryOp::Sin, x), x, false);
}

// x [*] -> [*]: y = cos x
Tensor cos(const Tensor& x) {
  return record<CosBackward>(unary_kernel("cos", UnaryOp::Cos, x), x, false);
}

}  // namespace attic
