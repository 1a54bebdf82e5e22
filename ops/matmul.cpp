// matmul: a [..., M, K] @ b [..., K, N] -> [..., M, N], batch dims broadcast.
// 1-D operands follow NumPy: a [K] acts as [1, K], b [K] as [K, 1], and the added dim is
// dropped from the result (so [K] @ [K] is a 0-d dot product).
#include "ops/helpers.h"

namespace attic {

namespace {

// out = a @ b  =>  da = g @ bᵀ,  db = aᵀ @ g   (then summed over broadcast batch dims)
// A product that ran under autocast has its backward's products run so too.
struct MatmulBackward final : autograd::Node {
  Tensor a, b;  // [..., M, K], [..., K, N]
  DType compute = kFloat32;  // or the autocast dtype the forward ran in
  const char* name() const override { return "MatmulBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override {  // g: [..., M, N]
    const AutocastGuard cast(compute);
    Tensor da, db;
    if (needs_grad(0)) da = sum_to(matmul(g, b.transpose(-1, -2)), a.shape());
    if (needs_grad(1)) {
      if (a.dim() == 2 && b.dim() == 2 && !b.is_contiguous() && b.t().is_contiguous())
        // b is a transposed matrix (a Linear's Wᵀ): dbᵀ = gᵀ a is made in W's own layout,
        // so W's gradient arrives contiguous and becomes W.grad without a copy.
        db = matmul(g.t(), a).t();
      else
        db = sum_to(matmul(a.transpose(-1, -2), g), b.shape());
    }
    return {da, db};
  }
};

// Both operands have at least 2 dims here.
Tensor matmul_nd(const Tensor& a, const Tensor& b) {
  const int64_t M = a.size(-2), K = a.size(-1), K2 = b.size(-2), N = b.size(-1);
  ATTIC_CHECK(K == K2, "matmul: ", str(a.shape()), " @ ", str(b.shape()),
              ": inner dimensions ", K, " and ", K2, " differ");
  const Shape a_batch(a.shape().begin(), a.shape().end() - 2);
  const Shape b_batch(b.shape().begin(), b.shape().end() - 2);
  Shape out_shape = detail::broadcast_shapes(a_batch, b_batch, "matmul");
  Shape a_full = out_shape, b_full = out_shape;
  a_full.insert(a_full.end(), {M, K});
  b_full.insert(b_full.end(), {K, N});
  out_shape.insert(out_shape.end(), {M, N});

  Backend& be = detail::backend_of("matmul", {a, b});
  Tensor out = empty(out_shape, TensorOptions(a.dtype()).device(a.device()));
  // Under autocast a float32 product rounds its operands to the autocast dtype and sums in
  // float32; the graph keeps the float32 operands, and the kernel rounds them each time it
  // reads them (the CPU's AVX512_BF16 kernel as it packs them).
  const DType compute = Autocast::is_enabled() && a.dtype() == kFloat32 ? Autocast::dtype()
                                                                         : kFloat32;
  if (compute == kFloat32)
    be.matmul(detail::ktensor(out), detail::ktensor_as(a, a_full), detail::ktensor_as(b, b_full));
  else
    be.matmul_reduced(detail::ktensor(out), detail::ktensor_as(a, a_full),
                      detail::ktensor_as(b, b_full), compute);

  if (autograd::needs_grad({a, b})) {
    auto node = std::make_shared<MatmulBackward>();
    node->a = a;
    node->b = b;
    node->compute = compute;
    autograd::connect(out, node, {a, b});
  }
  return out;
}

}  // namespace

Tensor matmul(const Tensor& a, const Tensor& b) {
  detail::check_defined("matmul", a);
  detail::check_defined("matmul", b);
  ATTIC_CHECK(a.dim() >= 1 && b.dim() >= 1, "matmul: both operands need at least 1 dim, got ",
              str(a.shape()), " @ ", str(b.shape()));
  detail::check_same_dtype("matmul", a, b);
  detail::check_floating("matmul", a);
  if (a.dim() == 1 && b.dim() == 1) {
    ATTIC_CHECK(a.size(0) == b.size(0), "matmul: ", str(a.shape()), " @ ", str(b.shape()),
                ": inner dimensions ", a.size(0), " and ", b.size(0), " differ");
    return matmul_nd(a.unsqueeze(0), b.unsqueeze(1)).reshape({});
  }
  if (a.dim() == 1) return matmul_nd(a.unsqueeze(0), b).squeeze(-2);
  if (b.dim() == 1) return matmul_nd(a, b.unsqueeze(1)).squeeze(-1);
  if (a.dim() > 2 && b.dim() == 2) {
    // [..., M, K] @ [K, N]: fold the batch into the rows (as PyTorch does), one GEMM of
    // (... M) rows instead of one per batch element. The matrix is then packed once, not
    // once per batch element, and the backward's bᵀ-side product is one GEMM over every
    // row, with no sum over the batch afterwards.
    Shape out_shape = a.shape();
    out_shape.back() = b.size(-1);
    return matmul_nd(a.reshape({-1, a.size(-1)}), b).view(out_shape);
  }
  if (a.dim() == 2 && b.dim() > 2) {
    // [M, K] @ [..., K, N] = ([..., N, K] @ [K, M])ᵀ, the batch folded into rows as above.
    // A matrix times a batch (a Linformer projection E [k, n] @ K [B, n, d]) then gets a's
    // gradient from one GEMM over every row, instead of a [batch, M, K] stack of products
    // summed over the batch.
    return matmul(b.transpose(-1, -2), a.t()).transpose(-1, -2);
  }
  return matmul_nd(a, b);
}

}  // namespace attic
