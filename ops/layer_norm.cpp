// layer_norm(x [..., C], w [C], b [C]): y = (x - mean) / sqrt(var + eps) * w + b over the last
// dim (Ba, Kiros & Hinton 2016). The forward saves each row's rstd; the backward (derived
// beside LayerNormBackward below) runs as one fused kernel, or, when it is itself recorded
// (create_graph), as a composition of public ops that can be differentiated again.
#include "ops/helpers.h"

namespace attic {

namespace {

KTensor maybe(const Tensor& t) { return t.defined() ? detail::ktensor(t) : KTensor{}; }

// The derivative, per row of C features (N rows in all; x, g, dx [N, C]; w, dw, db [C]):
//   μ = Σ_j x_j / C,  σ² = Σ_j (x_j − μ)² / C,  r = 1 / √(σ² + ε)
//   x̂ = (x − μ) r,   y = x̂ ⊙ w + b,   g = ∂L/∂y
// w and b see each row through y only:
//   db = Σ_rows g,   dw = Σ_rows g ⊙ x̂                                          [C]
// x reaches y through x̂, whose every element depends on the whole row (through μ and r):
//   ∂μ/∂x_i = 1/C,   ∂σ²/∂x_i = 2 (x_i − μ) / C,   ∂r/∂x_i = −r³ (x_i − μ) / C = −r² x̂_i / C
//   ∂x̂_j/∂x_i = r (δ_ij − 1/C) + (x_j − μ) ∂r/∂x_i = r (δ_ij − 1/C − x̂_i x̂_j / C)
// so with dx̂ = g ⊙ w (∂L/∂x̂), dx_i = Σ_j dx̂_j ∂x̂_j/∂x_i is
//   dx = r (dx̂ − mean(dx̂) − x̂ ⊙ mean(dx̂ ⊙ x̂))                              [N, C]
// (means over the row's C features): dx̂ less the part that moves the mean, less the part
// that moves the variance. The kernels (tensor/cpu/layer_norm.cpp, tensor/cuda/layer_norm.cu)
// compute exactly these three lines.
struct LayerNormBackward final : autograd::Node {
  Tensor x;       // [N, C] contiguous, detached: what the kernel reads
  Tensor input;   // x as the op got it, [..., C], still in the graph (create_graph)
  Tensor weight;  // [C] contiguous (undefined: no weight), in the graph
  Tensor rstd;    // [N], r of each row from the forward
  double eps = 0;
  const char* name() const override { return "LayerNormBackward"; }

  std::vector<Tensor> backward(const Tensor& g) override {
    if (autograd::GradMode::is_enabled()) return composed(g);
    const Tensor gc = g.reshape(x.shape()).contiguous();
    const TensorOptions o = TensorOptions(x.dtype()).device(x.device());
    const int64_t C = x.size(-1);
    Tensor dx = needs_grad(0) ? empty(x.shape(), o) : Tensor();
    Tensor dw = needs_grad(1) ? empty({C}, o) : Tensor();
    Tensor db = needs_grad(2) ? empty({C}, o) : Tensor();
    backend_for(x.device()).layer_norm_backward(maybe(dx), maybe(dw), maybe(db),
        detail::ktensor(gc), detail::ktensor(x), detail::ktensor(rstd), maybe(weight));
    return {dx.defined() ? dx.view(input.shape()) : dx, dw, db};
  }

  // The same three lines in public ops, on the inputs as recorded, so that a recorded
  // backward has a derivative of its own (in x, w and g). μ and r are recomputed here rather
  // than read from the forward: saved, they would be constants to the second derivative.
  // g, input [..., C]; weight [C].
  std::vector<Tensor> composed(const Tensor& g) {
    const int64_t C = input.size(-1);
    const Tensor xc = input - mean(input, {-1}, /*keepdim=*/true);
    const Tensor r = rsqrt(mean(xc * xc, {-1}, /*keepdim=*/true) + eps);
    const Tensor xhat = xc * r;
    Tensor dx, dw, db;
    if (needs_grad(0)) {
      const Tensor dxhat = weight.defined() ? g * weight : g;
      dx = r * (dxhat - mean(dxhat, {-1}, /*keepdim=*/true) -
                xhat * mean(dxhat * xhat, {-1}, /*keepdim=*/true));
    }
    if (needs_grad(1)) dw = sum_to(g * xhat, {C});
    if (needs_grad(2)) db = sum_to(g, {C});
    return {dx, dw, db};
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
    node->input = x_in;
    node->weight = w;
    node->rstd = rstd;
    node->eps = eps;
    autograd::connect(out, node, {x_in, weight, bias});
  }
  return out;
}

}  // namespace attic
