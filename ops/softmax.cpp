// softmax and log_softmax along one dim:
//   softmax(x)_i = e^{x_i} / Σ_j e^{x_j},   log_softmax(x)_i = x_i − log Σ_j e^{x_j}.
// The kernel (tensor/cpu/softmax.cpp) subtracts the row max first so e^x cannot overflow.
//
// Both nodes save their output y, detached: a node holding its own output with grad_fn set
// would be a reference cycle. When their backward is itself recorded (create_graph), they
// read y through Node::output_in_graph, so that second derivatives see y depend on x.
#include "ops/helpers.h"

namespace attic {

namespace {

// y = softmax(x): dy_i/dx_k = y_i (δ_ik − y_k), so dx = y ⊙ (g − Σ_dim (g ⊙ y)).
struct SoftmaxBackward final : autograd::Node {
  Tensor y;
  int64_t dim;
  const char* name() const override { return "SoftmaxBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override {
    const Tensor s = autograd::GradMode::is_enabled() ? output_in_graph(y) : y;
    return {s * (g - sum(g * s, {dim}, /*keepdim=*/true))};
  }
};

// y = log_softmax(x): dy_i/dx_k = δ_ik − softmax_k, so dx = g − e^y ⊙ Σ_dim g.
struct LogSoftmaxBackward final : autograd::Node {
  Tensor y;
  int64_t dim;
  const char* name() const override { return "LogSoftmaxBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override {
    const Tensor l = autograd::GradMode::is_enabled() ? output_in_graph(y) : y;
    return {g - exp(l) * sum(g, {dim}, /*keepdim=*/true)};
  }
};

// x [*], dim -> y of x's shape, (log_)softmax along dim. The kernel works on
// the last dim, so another dim is transposed there and back (views, no copies); the
// result then has the transposed strides of the kernel's output.
Tensor softmax_impl(const char* op, const Tensor& x, int64_t dim, bool log) {
  detail::check_defined(op, x);
  detail::check_floating(op, x);
  dim = wrap_dim(dim, x.dim(), op);
  if (x.dim() == 0) return softmax_impl(op, x.reshape({1}), 0, log).reshape({});
  const Tensor xt = x.detach().transpose(dim, -1);
  Tensor out = empty(xt.shape(), TensorOptions(x.dtype()).device(x.device()));
  detail::backend_of(op, {x}).softmax(detail::ktensor(out), detail::ktensor(xt), log);
  out = out.transpose(dim, -1);
  if (autograd::needs_grad({x})) {
    if (log) {
      auto node = std::make_shared<LogSoftmaxBackward>();
      node->y = out.detach();
      node->dim = dim;
      autograd::connect(out, node, {x});
    } else {
      auto node = std::make_shared<SoftmaxBackward>();
      node->y = out.detach();
      node->dim = dim;
      autograd::connect(out, node, {x});
    }
  }
  return out;
}

}  // namespace

Tensor softmax(const Tensor& x, int64_t dim) { return softmax_impl("softmax", x, dim, false); }

Tensor log_softmax(const Tensor& x, int64_t dim) {
  return softmax_impl("log_softmax", x, dim, true);
}

}  // namespace attic
