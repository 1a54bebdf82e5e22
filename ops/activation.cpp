// Activations: relu, gelu (exact erf form and GPT-2's tanh form), silu, elu. Each keeps its
// input's shape: x [*] -> y [*], and needs a floating x.
//
// Each node saves x and writes dy/dx with public ops, so a recorded backward (create_graph)
// is differentiable. Where f' jumps (relu, elu at 0) the jump is taken from a kernel step,
// which has no graph: its derivative is 0 wherever it exists, so that is exact.
#include <limits>
#include <numbers>

#include "ops/helpers.h"

namespace attic {

using detail::unary_kernel;

namespace {

constexpr double kInvSqrt2 = 1.0 / std::numbers::sqrt2;                      // 1/√2
constexpr double kInvSqrt2Pi = std::numbers::inv_sqrtpi / std::numbers::sqrt2;  // 1/√(2π)
constexpr double kSqrt2OverPi = std::numbers::sqrt2 * std::numbers::inv_sqrtpi;  // √(2/π)
constexpr double kGeluC = 0.044715;  // the cubic coefficient of GPT-2's gelu

struct ActivationNode : autograd::Node {
  Tensor x;
};

// x [*], out [*]: makes node the grad_fn of out (saving x) when x needs a gradient.
Tensor record(Tensor out, const Tensor& x, std::shared_ptr<ActivationNode> node) {
  if (autograd::needs_grad({x})) {
    node->x = x;
    autograd::connect(out, std::move(node), {x});
  }
  return out;
}

// y = erf(x): dx = g 2/√π e^(-x²). Not public; gelu's backward needs an erf that has a
// gradient of its own.
struct ErfBackward final : ActivationNode {
  const char* name() const override { return "ErfBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override {
    return {g * exp(neg(x * x)) * (2.0 * std::numbers::inv_sqrtpi)};
  }
};

// x [*] -> [*]: y = erf(x)
Tensor erf(const Tensor& x) {
  return record(unary_kernel("erf", UnaryOp::Erf, x), x, std::make_shared<ErfBackward>());
}

// y = max(x, 0): dx = g [x > 0] (0 at x = 0, as in PyTorch)
struct ReluBackward final : ActivationNode {
  const char* name() const override { return "ReluBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override {
    return {g * unary_kernel("relu", UnaryOp::Step, x)};
  }
};

// y = x Φ(x): dx = g (Φ(x) + x φ(x)), with Φ(x) = (1 + erf(x/√2)) / 2, φ(x) = e^(-x²/2) / √(2π)
// Without create_graph one fused kernel gives Φ(x) + x φ(x); a recorded backward composes
// it from public ops so that it has a derivative of its own.
struct GeluErfBackward final : ActivationNode {
  const char* name() const override { return "GeluBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override {
    if (!autograd::GradMode::is_enabled())
      return {detail::binary_kernel("gelu", BinaryOp::GeluErfBackward, g, x)};
    Tensor cdf = (erf(x * kInvSqrt2) + 1.0) * 0.5;
    Tensor pdf = exp(x * x * -0.5) * kInvSqrt2Pi;
    return {g * (cdf + x * pdf)};
  }
};

// y = x (1 + t) / 2 with t = tanh(u), u = √(2/π) (x + c x³):
//   dx = g ((1 + t) / 2 + x (1 - t²) √(2/π) (1 + 3c x²) / 2)
struct GeluTanhBackward final : ActivationNode {
  const char* name() const override { return "GeluBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override {
    Tensor x2 = x * x;
    Tensor t = tanh((x + x2 * x * kGeluC) * kSqrt2OverPi);
    Tensor du = (x2 * (3.0 * kGeluC) + 1.0) * kSqrt2OverPi;
    return {g * ((t + 1.0) * 0.5 + x * (1.0 - t * t) * du * 0.5)};
  }
};

// y = x σ(x): dx = g σ(x) (1 + x (1 - σ(x)))
struct SiluBackward final : ActivationNode {
  const char* name() const override { return "SiluBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override {
    Tensor s = sigmoid(x);
    return {g * s * (x * (1.0 - s) + 1.0)};
  }
};

// y = x for x > 0, α (e^x - 1) else: dx = g for x > 0, g α e^x else (α at x = 0, as in
// PyTorch). e^x is taken of min(x, 0): for a large positive x it would overflow to inf, and
// a recorded backward would then multiply that inf by the 0 that where sends there: NaN.
struct EluBackward final : ActivationNode {
  double alpha = 1.0;
  const char* name() const override { return "EluBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override {
    Tensor below = exp(clamp(x, -std::numeric_limits<double>::infinity(), 0.0)) * alpha;
    return {g * where(gt(x, 0.0), detail::scalar_like(x, 1.0), below)};
  }
};

}  // namespace

// x [*] -> [*]: y = max(x, 0)
Tensor relu(const Tensor& x) {
  return record(unary_kernel("relu", UnaryOp::Relu, x), x, std::make_shared<ReluBackward>());
}

// x [*] -> [*]: y = x Φ(x) (approximate = "none"), or
//               y = x (1 + tanh(√(2/π) (x + 0.044715 x³))) / 2 (approximate = "tanh")
Tensor gelu(const Tensor& x, const std::string& approximate) {
  ATTIC_CHECK(approximate == "none" || approximate == "tanh",
              "gelu: approximate must be \"none\" or \"tanh\", got \"", approximate, "\"");
  if (approximate == "tanh")
    return record(unary_kernel("gelu", UnaryOp::GeluTanh, x), x,
                  std::make_shared<GeluTanhBackward>());
  return record(unary_kernel("gelu", UnaryOp::GeluErf, x), x,
                std::make_shared<GeluErfBackward>());
}

// x [*] -> [*]: y = x σ(x)
Tensor silu(const Tensor& x) {
  return record(unary_kernel("silu", UnaryOp::Silu, x), x, std::make_shared<SiluBackward>());
}

// x [*] -> [*]: y = x for x > 0, α (e^x - 1) else
Tensor elu(const Tensor& x, double alpha) {
  auto node = std::make_shared<EluBackward>();
  node->alpha = alpha;
  return record(unary_kernel("elu", UnaryOp::Elu, x, alpha), x, std::move(node));
}

}  // namespace attic
