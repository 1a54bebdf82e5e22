// layer_norm(x [..., C], w [C], b [C]): y = (x - mean) / sqrt(var + eps) * w + b over the last
// dim (Ba, Kiros & Hinton 2016). The forward saves each row's mean and rstd; the backward is
// the fused kernel of tensor/cpu/layer_norm.cpp (its derivation is written there).
//
// That backward is a kernel, not a composition of public ops, so it is not differentiable a
// second time; use the composition (mean, var, rsqrt) where second derivatives are needed.
#include "tensor/ops/helpers.h"

namespace attic {

namespace {

KTensor maybe(const Tensor& t) { return t.defined() ? detail::ktensor(t) : KTensor{}; }

struct LayerNormBackward final : autograd::Node {
  Tensor x, weight, mean, rstd;  // x [N, C] contiguous; mean, rstd [N]
  Shape in_shape;
  const char* name() const override { return "LayerNormBackward"; }
  std::vector<Tensor> backward(const Tensor& g_in) override {
    const Tensor g = g_in.reshape(x.shape()).contiguous();
    const TensorOptions o = TensorOptions(x.dtype()).device(x.device());
    const int64_t C = x.size(-1);
    Tensor dx = needs_grad(0) ? empty(x.shape(), o) : Tensor();
    Tensor dw = needs_grad(1) ? empty({C}, o) : Tensor();
    Tensor db = needs_grad(2) ? empty({C}, o) : Tensor();
    backend_for(x.device()).layer_norm_backward(maybe(dx), maybe(dw), maybe(db),
        detail::ktensor(g), detail::ktensor(x), detail::ktensor(mean), detail::ktensor(rstd),
        maybe(weight));
    return {dx.defined() ? dx.view(in_shape) : dx, dw, db};
  }
};

}  // namespace

Tensor layer_norm(const Tensor& x_in, const Tensor& weight, const Tensor& bias, double eps) {
  detail::check_defined("layer_norm", x_in);
  detail::check_floating("layer_norm", x_in);
  ATTIC_CHECK(x_in.dim() >= 1, "layer_norm: needs at least 1 dim, got a 0-d tensor");
  const int64_t C = x_in.size(-1);
  for (const Tensor* p : {&weight, &bias}) {
    if (!p->defined()) continue;
    ATTIC_CHECK(p->shape() == Shape{C}, "layer_norm: ", p == &weight ? "weight" : "bias",
                " has shape ", str(p->shape()), " but the input's last dim is ", C,
                " (input ", str(x_in.shape()), ")");
    detail::check_same_dtype("layer_norm", x_in, *p);
  }
  ATTIC_CHECK(eps >= 0, "layer_norm: eps must be >= 0, got ", eps);
  Backend& be = detail::backend_of("layer_norm", {x_in, weight, bias});
  // N from the leading dims, not view({-1, C}): -1 cannot be inferred when C = 0.
  const int64_t N = numel_of(Shape(x_in.shape().begin(), x_in.shape().end() - 1));
  const Tensor x = x_in.contiguous().detach().view({N, C});
  const TensorOptions o = TensorOptions(x.dtype()).device(x.device());
  Tensor out = empty(x.shape(), o), mean = empty({N}, o), rstd = empty({N}, o);
  const Tensor w = weight.defined() ? weight.contiguous() : Tensor();
  const Tensor b = bias.defined() ? bias.contiguous() : Tensor();
  be.layer_norm(detail::ktensor(out), detail::ktensor(mean), detail::ktensor(rstd),
                detail::ktensor(x), maybe(w), maybe(b), eps);
  out = out.view(x_in.shape());
  if (autograd::needs_grad({x_in, weight, bias})) {
    auto node = std::make_shared<LayerNormBackward>();
    node->x = x;
    node->weight = w.defined() ? w.detach() : Tensor();
    node->mean = mean;
    node->rstd = rstd;
    node->in_shape = x_in.shape();
    autograd::connect(out, node, {x_in, weight, bias});
  }
  return out;
}

}  // namespace attic
