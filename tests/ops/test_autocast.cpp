// Autocast (autograd/autocast_mode.h): inside the guard a float32 matmul rounds its operands to
// bfloat16 and sums in float32, forward and backward; outside it nothing changes.
#include <cmath>

#include "autograd/checkpoint.h"
#include "helpers.h"
#include "nn/linear.h"
#include "tensor/cpu/gemm_bf16.h"

using namespace attic;
using testing::values;

namespace {

// x rounded to bfloat16 and widened again: the operand a bf16 product sees.
Tensor rounded(const Tensor& x) { return x.detach().to(kBFloat16).to(kFloat32); }

// max |a - b| over max |b|.
double rel_err(const Tensor& a, const Tensor& b) {
  const std::vector<double> x = values(a), y = values(b);
  REQUIRE(x.size() == y.size());
  double d = 0, s = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    d = std::max(d, std::abs(x[i] - y[i]));
    s = std::max(s, std::abs(y[i]));
  }
  return d / (s + 1e-30);
}

}  // namespace

TEST_CASE("autocast: the guard sets the mode, nests, and restores it", "[autocast]") {
  CHECK_FALSE(Autocast::is_enabled());
  {
    AutocastGuard outer(kBFloat16);
    CHECK(Autocast::is_enabled());
    CHECK(Autocast::dtype() == kBFloat16);
    {
      AutocastGuard off(kFloat32);  // float32: off inside
      CHECK_FALSE(Autocast::is_enabled());
      CHECK(autocast_dtype() == kFloat32);
    }
    CHECK(Autocast::is_enabled());
    CHECK(autocast_dtype() == kBFloat16);
  }
  CHECK_FALSE(Autocast::is_enabled());
  CHECK_THROWS_WITH(AutocastGuard(kFloat64), "AutocastGuard: autocast runs products in "
                                             "bfloat16 or float16 (or float32: off), not float64");
  CHECK(parse_autocast_dtype("dtype", "bfloat16") == kBFloat16);
  CHECK(parse_autocast_dtype("dtype", "float32") == kFloat32);
  CHECK_THROWS_WITH(parse_autocast_dtype("dtype", "bf16"),
                    "dtype = 'bf16': not a dtype attic trains in (float32, bfloat16, float16)");
}

TEST_CASE("autocast: matmul by hand, each operand rounded to bfloat16", "[autocast]") {
  // 1 + 2^-8 rounds to 1 in bfloat16 (a tie, to even); 3 + 2^-7 to 3 (bfloat16's step
  // between 2 and 4 is 2^-6).
  const Tensor a = from_vector<float>({1.0f + 0x1p-8f, 2.0f}, {1, 2});
  const Tensor b = from_vector<float>({3.0f + 0x1p-7f, 1.0f}, {2, 1});
  CHECK(values(matmul(a, b)) == std::vector<double>{(1.0 + 0x1p-8) * (3.0 + 0x1p-7) + 2.0});
  AutocastGuard cast(kBFloat16);
  const Tensor y = matmul(a, b);
  CHECK(y.dtype() == kFloat32);
  CHECK(values(y) == std::vector<double>{1.0 * 3.0 + 2.0});
}

TEST_CASE("autocast: matmul forward and backward are the products of rounded operands",
          "[autocast]") {
  // Batched, broadcast and transposed operands, through every matmul route.
  const Tensor a = randn({2, 3, 17, 40}).requires_grad_();
  const Tensor b = randn({3, 40, 33}).transpose(-1, -2).contiguous().transpose(-1, -2)
                       .detach().requires_grad_();
  const Tensor g = randn({2, 3, 17, 33});
  Tensor y;
  {
    AutocastGuard cast(kBFloat16);
    y = matmul(a, b);
  }
  // The backward runs after the guard has closed: it still rounds, as its forward did.
  y.backward(g);
  const Tensor want = matmul(rounded(a), rounded(b));
  CHECK(rel_err(y, want) < 1e-5);
  CHECK(rel_err(y, matmul(a, b)) > 1e-4);  // it did round: float32's product differs
  const Tensor want_da = matmul(rounded(g), rounded(b).transpose(-1, -2));
  const Tensor want_db = sum(matmul(rounded(a).transpose(-1, -2), rounded(g)), {0});
  CHECK(rel_err(a.grad(), want_da) < 1e-5);
  CHECK(rel_err(b.grad(), want_db) < 1e-5);
  CHECK(a.grad().dtype() == kFloat32);
  CHECK(b.grad().dtype() == kFloat32);
}

TEST_CASE("autocast: a Linear layer's output and gradients", "[autocast]") {
  manual_seed(3);
  nn::Linear lin(64, 48);
  const Tensor x = randn({5, 7, 64}).requires_grad_();
  Tensor y;
  {
    AutocastGuard cast(kBFloat16);
    y = lin.forward(x);
  }
  sum(y * y).backward();
  const Tensor w = rounded(lin.weight), xr = rounded(x);
  const Tensor want = matmul(xr, w.t()) + lin.bias;
  CHECK(rel_err(y, want) < 1e-5);
  const Tensor gy = rounded(2.0 * y.detach());
  CHECK(rel_err(lin.weight.grad(), matmul(gy.reshape({-1, 48}).t(), xr.reshape({-1, 64}))) < 1e-5);
  CHECK(rel_err(x.grad(), matmul(gy, w)) < 1e-5);
  CHECK(rel_err(lin.bias.grad(), sum(2.0 * y.detach(), {0, 1})) < 1e-6);  // float32: not a product
}

TEST_CASE("autocast: float64 products are left alone, and float16 needs CUDA", "[autocast]") {
  const Tensor a = randn({4, 4}, kFloat64), b = randn({4, 4}, kFloat64);
  const Tensor want = matmul(a, b);
  {
    AutocastGuard cast(kBFloat16);
    CHECK(values(matmul(a, b)) == values(want));
  }
  AutocastGuard cast(kFloat16);
  CHECK_THROWS_WITH(matmul(randn({2, 2}), randn({2, 2})),
                    "matmul: the CPU runs reduced-precision products in bfloat16 only, not "
                    "float16 (float16 needs the CUDA backend)");
}

TEST_CASE("autocast: a float32 product's backward stays float32 inside a guard", "[autocast]") {
  const Tensor a = randn({9, 40}).requires_grad_(), b = randn({40, 7}).requires_grad_();
  const Tensor g = randn({9, 7});
  const Tensor y = matmul(a, b);  // float32
  {
    AutocastGuard cast(kBFloat16);
    y.backward(g);
  }
  CHECK(values(a.grad()) == values(matmul(g, b.detach().t())));
  CHECK(values(b.grad()) == values(matmul(a.detach().t(), g)));
}

TEST_CASE("autocast: a checkpointed block is recomputed in its forward's mode", "[autocast]") {
  manual_seed(5);
  nn::Linear lin(32, 24);
  const Tensor x = randn({6, 32});
  const Tensor g = randn({6, 24});
  auto block = [&](const std::vector<Tensor>& in) { return gelu(lin.forward(in[0])); };
  // Run directly, and through a checkpoint, both under the guard, backward outside it.
  std::vector<std::vector<double>> grads;
  for (bool checkpointed : {false, true}) {
    lin.zero_grad();
    const Tensor xi = x.detach().requires_grad_();
    Tensor y;
    {
      AutocastGuard cast(kBFloat16);
      y = checkpointed ? autograd::checkpoint(block, {xi}) : block({xi});
    }
    y.backward(g);
    grads.push_back(values(lin.weight.grad()));
    grads.push_back(values(xi.grad()));
  }
  CHECK(grads[0] == grads[2]);
  CHECK(grads[1] == grads[3]);
}

TEST_CASE("autocast: the fused attention's products in bfloat16, as the composed path's",
          "[autocast][attention]") {
  // Under the guard the composed attention (matmul, softmax, matmul) rounds its products'
  // operands to bfloat16; the fused kernel does the same inside (Backend::attention's
  // compute), so the two agree to bfloat16's precision, forward and backward, and both stay
  // apart from float32. The backward runs outside the guard: the node keeps the dtype.
  manual_seed(11);
  for (const bool causal : {false, true}) {
    const Tensor q = randn({2, 3, 40, 16}).requires_grad_();
    const Tensor k = randn({2, 3, 40, 16}).requires_grad_();
    const Tensor v = randn({2, 3, 40, 16}).requires_grad_();
    const Tensor g = randn({2, 3, 40, 16});
    struct Run {
      Tensor out, dq, dk, dv;
    };
    const auto run = [&](bool fused, DType dtype) {
      SdpaOptions o;
      o.is_causal = causal;
      o.fused = fused;
      Tensor out;
      {
        AutocastGuard cast(dtype);
        out = scaled_dot_product_attention(q, k, v, o);
      }
      for (const Tensor* t : {&q, &k, &v}) t->set_grad(Tensor());
      out.backward(g);
      return Run{out.detach(), q.grad().clone(), k.grad().clone(), v.grad().clone()};
    };
    const Run fused = run(true, kBFloat16), composed = run(false, kBFloat16),
              f32 = run(true, kFloat32);
    INFO((causal ? "causal" : "not causal"));
    CHECK(rel_err(fused.out, composed.out) < 1e-2);
    CHECK(rel_err(fused.dq, composed.dq) < 2e-2);
    CHECK(rel_err(fused.dk, composed.dk) < 2e-2);
    CHECK(rel_err(fused.dv, composed.dv) < 2e-2);
    CHECK(rel_err(fused.out, f32.out) > 1e-4);  // rounded
    CHECK(rel_err(fused.dq, f32.dq) > 1e-4);
    CHECK(fused.out.dtype() == kFloat32);
    CHECK(fused.dq.dtype() == kFloat32);
  }
}
