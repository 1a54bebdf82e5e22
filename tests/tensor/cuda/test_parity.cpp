// Every op, forward and backward, on the GPU against the CPU (tests/tensor/cuda/parity.h).
// ATTIC_PARITY_ON_CPU=1 runs it CPU against CPU (parity.h), to test the suite itself.
// float32 tolerances: 1e-5 where each output is one rounding of the same formula, 1e-4
// where sums run in a different order (reductions, matmul, softmax, layer norm).
#include <memory>

#include "optim/adam.h"
#include "optim/clip_grad.h"
#include "parity.h"

using namespace attic;
using namespace attic::testing;

namespace {

Tensor positive(const Shape& s) { return (abs(randn(s)) + 0.5).detach().requires_grad_(); }

}  // namespace

TEST_CASE("parity: binary ops with broadcasting, forward and backward", "[cuda][parity]") {
  if (skip_parity()) return;
  manual_seed(1);
  const Tensor a = leaf32({4, 1, 5}), b = leaf32({3, 5}), p = positive({3, 5});
  auto ab = [](auto op) { return [op](const std::vector<Tensor>& v) { return op(v[0], v[1]); }; };
  check_parity("add", ab([](const Tensor& x, const Tensor& y) { return x + y; }), {a, b}, 1e-5);
  check_parity("sub", ab([](const Tensor& x, const Tensor& y) { return x - y; }), {a, b}, 1e-5);
  check_parity("mul", ab([](const Tensor& x, const Tensor& y) { return x * y; }), {a, b}, 1e-5);
  check_parity("div", ab([](const Tensor& x, const Tensor& y) { return x / y; }), {a, p}, 1e-5);
  check_parity("pow", ab([](const Tensor& x, const Tensor& y) { return pow(x, y); }),
               {p, b}, 1e-5);
  check_parity("maximum", ab([](const Tensor& x, const Tensor& y) { return maximum(x, y); }),
               {a, b}, 1e-5);
  check_parity("minimum", ab([](const Tensor& x, const Tensor& y) { return minimum(x, y); }),
               {a, b}, 1e-5);
  check_parity("where/gt", ab([](const Tensor& x, const Tensor& y) { return where(gt(x, y), x, y * 2.0); }),
               {a, b}, 1e-5);
  check_parity("masked_fill", ab([](const Tensor& x, const Tensor& y) { return masked_fill(x, lt(y.narrow(0, 0, 1), 0.0), -1e9); }),
               {a, b}, 1e-5);
  using Cmp = Tensor (*)(const Tensor&, const Tensor&);
  for (Cmp cmp : std::vector<Cmp>{gt, lt, ge, le, eq, ne}) {
    const ParityFn f = [cmp](const std::vector<Tensor>& v) { return cmp(v[0], v[1].detach()); };
    check_parity("comparison", f, {a.detach(), b.detach()}, 0);
  }
}

TEST_CASE("parity: unary ops on a transposed view, forward and backward", "[cuda][parity]") {
  if (skip_parity()) return;
  manual_seed(2);
  const Tensor x = randn({6, 7}).t().detach().requires_grad_();  // not contiguous
  const Tensor p = positive({7, 6});
  using U = Tensor (*)(const Tensor&);
  const std::vector<std::pair<const char*, U>> ops = {
      {"neg", neg}, {"exp", exp}, {"abs", abs}, {"tanh", tanh}, {"sigmoid", sigmoid},
      {"sin", sin}, {"cos", cos}, {"relu", relu}, {"silu", silu}};
  for (auto [name, op] : ops)
    check_parity(name, [op](const std::vector<Tensor>& v) { return op(v[0]); }, {x}, 1e-5);
  for (auto [name, op] : std::vector<std::pair<const char*, U>>{{"log", log}, {"sqrt", sqrt},
                                                                 {"rsqrt", rsqrt}})
    check_parity(name, [op](const std::vector<Tensor>& v) { return op(v[0]); }, {p}, 1e-5);
  check_parity("gelu", [](const std::vector<Tensor>& v) { return gelu(v[0]); }, {x}, 1e-5);
  check_parity("gelu tanh", [](const std::vector<Tensor>& v) { return gelu(v[0], "tanh"); },
               {x}, 1e-5);
  check_parity("elu", [](const std::vector<Tensor>& v) { return elu(v[0], 0.7); }, {x}, 1e-5);
  check_parity("clamp", [](const std::vector<Tensor>& v) { return clamp(v[0], -0.5, 0.8); },
               {x}, 1e-5);
  check_parity("pow scalar", [](const std::vector<Tensor>& v) { return pow(v[0], 2.5); }, {p},
               1e-5);
  check_parity("scalar ops", [](const std::vector<Tensor>& v) { return (2.0 - v[0]) / 3.0 + 1.0; },
               {x}, 1e-5);
}

TEST_CASE("parity: reductions, forward and backward", "[cuda][parity]") {
  if (skip_parity()) return;
  manual_seed(3);
  const Tensor x = leaf32({3, 4, 300});
  check_parity("sum all", [](const std::vector<Tensor>& v) { return sum(v[0]); }, {x}, 1e-4);
  check_parity("sum dims 0 2", [](const std::vector<Tensor>& v) { return sum(v[0], {0, 2}); },
               {x}, 1e-4);
  check_parity("mean keepdim", [](const std::vector<Tensor>& v) { return mean(v[0], {-1}, true); },
               {x}, 1e-4);
  check_parity("var", [](const std::vector<Tensor>& v) { return var(v[0], {1}); }, {x}, 1e-4);
  check_parity("max all", [](const std::vector<Tensor>& v) { return max(v[0]); }, {x}, 1e-5);
  check_parity("min all", [](const std::vector<Tensor>& v) { return min(v[0]); }, {x}, 1e-5);
  check_parity("max dim", [](const std::vector<Tensor>& v) { return max(v[0], 2).values; }, {x},
               1e-5);
  check_parity("min dim", [](const std::vector<Tensor>& v) { return min(v[0], 1, true).values; },
               {x}, 1e-5);
  check_parity("argmax", [](const std::vector<Tensor>& v) { return argmax(v[0], 2); },
               {x.detach()}, 0);
  check_parity("cumsum", [](const std::vector<Tensor>& v) { return cumsum(v[0], 1); }, {x}, 1e-4);
  for (int64_t dim = 0; dim < 3; ++dim)
    check_parity("running_max", [dim](const std::vector<Tensor>& v) { return running_max(v[0], dim); },
                 {x.detach()}, 0);
  check_parity("running_max of a transposed view",
               [](const std::vector<Tensor>& v) { return running_max(v[0].transpose(0, 2), 1); }, {x.detach()}, 0);
  check_parity("sum of a permuted view",
               [](const std::vector<Tensor>& v) { return sum(v[0].permute({2, 0, 1}), {1}); }, {x},
               1e-4);
  check_parity("int64 sum", [](const std::vector<Tensor>& v) { return sum(v[0], {0}); },
               {randint(-50, 50, {40, 3})}, 0);
}

TEST_CASE("parity: matmul shapes, layouts and broadcasts, forward and backward",
          "[cuda][parity]") {
  if (skip_parity()) return;
  manual_seed(4);
  auto mm = [](const std::vector<Tensor>& v) { return matmul(v[0], v[1]); };
  check_parity("2-D", mm, {leaf32({33, 17}), leaf32({17, 29})}, 1e-4);
  check_parity("vector @ matrix", mm, {leaf32({17}), leaf32({17, 5})}, 1e-4);
  check_parity("matrix @ vector", mm, {leaf32({5, 17}), leaf32({17})}, 1e-4);
  check_parity("batched", mm, {leaf32({2, 3, 8, 16}), leaf32({2, 3, 16, 8})}, 1e-4);
  check_parity("broadcast batch", mm, {leaf32({4, 8, 16}), leaf32({16, 8})}, 1e-4);
  check_parity("both transposed",
               [](const std::vector<Tensor>& v) { return matmul(v[0].t(), v[1].t()); },
               {leaf32({16, 8}), leaf32({9, 16})}, 1e-4);
  check_parity("permuted batch (a copy first)",
               [](const std::vector<Tensor>& v) { return matmul(v[0].permute({1, 0, 2}), v[1]); },
               {leaf32({8, 3, 16}), leaf32({3, 16, 5})}, 1e-4);
  check_parity("expanded rows (a copy first)",
               [](const std::vector<Tensor>& v) { return matmul(v[0].expand({6, 16}), v[1]); },
               {leaf32({1, 16}), leaf32({16, 5})}, 1e-4);
  check_parity("K = 0", mm, {zeros({3, 0}), zeros({0, 4})}, 0);
  check_parity("float64", mm, {leaf64({20, 30}), leaf64({30, 10})}, 1e-12);
}

TEST_CASE("parity: softmax, log_softmax and the attention mask, forward and backward",
          "[cuda][parity]") {
  if (skip_parity()) return;
  manual_seed(5);
  const Tensor x = leaf32({2, 3, 65});
  check_parity("softmax", [](const std::vector<Tensor>& v) { return softmax(v[0], -1); }, {x},
               1e-5);
  check_parity("log_softmax", [](const std::vector<Tensor>& v) { return log_softmax(v[0], -1); },
               {x}, 1e-5);
  check_parity("softmax over dim 1",
               [](const std::vector<Tensor>& v) { return softmax(v[0], 1); }, {x}, 1e-5);
  check_parity("long rows", [](const std::vector<Tensor>& v) { return softmax(v[0], -1); },
               {leaf32({3, 3000})}, 1e-5);
  // the causal mask: tril of ones, masked_fill with -inf above the diagonal, softmax
  check_parity("causal attention weights",
               [](const std::vector<Tensor>& v) {
                 const Tensor mask = tril(ones({7, 7}).to(v[0].device()));
                 return softmax(masked_fill(v[0], eq(mask, 0.0), -INFINITY), -1);
               },
               {leaf32({2, 7, 7})}, 1e-5);
  check_parity("triu", [](const std::vector<Tensor>& v) { return triu(v[0], 1); },
               {leaf32({2, 5, 6})}, 0);
  check_parity("tril -1", [](const std::vector<Tensor>& v) { return tril(v[0], -1); },
               {leaf32({6, 5})}, 0);
}

TEST_CASE("parity: layer_norm and cross_entropy, forward and backward", "[cuda][parity]") {
  if (skip_parity()) return;
  manual_seed(6);
  const Tensor x = leaf32({4, 7, 384}), w = leaf32({384}), b = leaf32({384});
  check_parity("layer_norm", [](const std::vector<Tensor>& v) { return layer_norm(v[0], v[1], v[2]); },
               {x, w, b}, 1e-4);
  check_parity("layer_norm without affine",
               [](const std::vector<Tensor>& v) { return layer_norm(v[0], Tensor(), Tensor()); },
               {x}, 1e-4);
  check_parity("layer_norm, large mean",
               [](const std::vector<Tensor>& v) { return layer_norm(v[0] + 1000.0, v[1], Tensor()); },
               {leaf32({3, 50}), w.detach().narrow(0, 0, 50).requires_grad_()}, 1e-3);
  const Tensor targets = from_vector<int64_t>({0, 5, 64, -100, 3, 7});
  check_parity("cross_entropy",
               [targets](const std::vector<Tensor>& v) {
                 return cross_entropy(v[0], targets.to(v[0].device()));
               },
               {leaf32({6, 65})}, 1e-5);
}

TEST_CASE("parity: indexing ops, forward and backward", "[cuda][parity]") {
  if (skip_parity()) return;
  manual_seed(7);
  const Tensor idx = from_vector<int64_t>({3, 0, 3, 1, 3});
  auto on = [](const Tensor& t, const std::vector<Tensor>& v) { return t.to(v[0].device()); };
  check_parity("index_select dim 0",
               [&](const std::vector<Tensor>& v) { return index_select(v[0], 0, on(idx, v)); },
               {leaf32({4, 6})}, 1e-5);
  check_parity("index_select dim 1",
               [&](const std::vector<Tensor>& v) { return index_select(v[0], 1, on(idx, v)); },
               {leaf32({2, 5, 3})}, 1e-5);
  check_parity("index_add",
               [&](const std::vector<Tensor>& v) { return index_add(v[0], 0, on(idx, v), v[1]); },
               {leaf32({4, 3}), leaf32({5, 3})}, 1e-5);
  check_parity("embedding",
               [&](const std::vector<Tensor>& v) {
                 return embedding(v[0], on(from_vector<int64_t>({1, 2, 1, 0, 2, 2}, {2, 3}), v));
               },
               {leaf32({3, 8})}, 1e-5);
  const Tensor gidx = randint(0, 4, {3, 5});
  check_parity("gather",
               [&](const std::vector<Tensor>& v) { return gather(v[0], 1, on(gidx, v)); },
               {leaf32({3, 4})}, 1e-5);
  check_parity("scatter_add",
               [&](const std::vector<Tensor>& v) { return scatter_add(v[0], 1, on(gidx, v), v[1]); },
               {leaf32({3, 4}), leaf32({3, 5})}, 1e-5);
  check_parity("cat", [](const std::vector<Tensor>& v) { return cat({v[0], v[1].t()}, 1); },
               {leaf32({3, 2}), leaf32({4, 3})}, 1e-5);
  check_parity("stack", [](const std::vector<Tensor>& v) { return stack({v[0], v[1]}, 1); },
               {leaf32({3, 2}), leaf32({3, 2})}, 1e-5);
}

TEST_CASE("parity: copies, dtype conversions and dropout", "[cuda][parity]") {
  if (skip_parity()) return;
  manual_seed(8);
  const Tensor x = leaf32({5, 6});
  check_parity("contiguous of a permuted view",
               [](const std::vector<Tensor>& v) { return v[0].t().contiguous() * 1.0; }, {x}, 0);
  check_parity("to float64 and back",
               [](const std::vector<Tensor>& v) { return v[0].to(kFloat64).to(kFloat32); }, {x},
               0);
  check_parity("to int64", [](const std::vector<Tensor>& v) { return (v[0] * 10.0).to(kInt64); },
               {x.detach()}, 0);
  // the mask is drawn on the host from the seed, so both devices drop the same elements
  check_parity("dropout", [](const std::vector<Tensor>& v) { return dropout(v[0], 0.3, true); },
               {x}, 1e-6);
}

TEST_CASE("parity: bfloat16 and float16 conversions, bit for bit", "[cuda][parity][half]") {
  if (skip_parity()) return;
  manual_seed(9);
  // Values of every magnitude, with ties and values beyond float16's range.
  const Tensor x = (randn({7, 9}) * 1e3).detach();
  for (DType dt : {kBFloat16, kFloat16}) {
    check_parity(std::string("to ") + dtype_name(dt) + " and back",
                 [dt](const std::vector<Tensor>& v) { return v[0].to(dt).to(kFloat32); }, {x}, 0);
    check_parity(std::string("to ") + dtype_name(dt) + " of a transposed view",
                 [dt](const std::vector<Tensor>& v) { return v[0].t().to(dt); }, {x}, 0);
  }
}

TEST_CASE("parity: matmul under autocast (bfloat16 products), forward and backward",
          "[cuda][parity][autocast]") {
  if (skip_parity()) return;
  manual_seed(10);
  // Each side rounds the same operands to bfloat16 and sums exact products in float32, in
  // its own order: the difference is float32 rounding over K terms.
  auto mm = [](const std::vector<Tensor>& v) {
    AutocastGuard cast(kBFloat16);
    return matmul(v[0], v[1]);
  };
  check_parity("2-D", mm, {leaf32({33, 70}), leaf32({70, 29})}, 1e-4);
  check_parity("batched, broadcast", mm, {leaf32({2, 3, 8, 64}), leaf32({64, 40})}, 1e-4);
  check_parity("transposed (a Linear's x Wt)",
               [](const std::vector<Tensor>& v) {
                 AutocastGuard cast(kBFloat16);
                 return matmul(v[0], v[1].t());
               },
               {leaf32({48, 96}), leaf32({80, 96})}, 1e-4);
}

TEST_CASE("parity: fused scaled_dot_product_attention, causal and not, forward and backward",
          "[cuda][parity][attention]") {
  if (skip_parity()) return;
  manual_seed(9);
  auto sdpa = [](bool causal) {
    return [causal](const std::vector<Tensor>& v) {
      return scaled_dot_product_attention(v[0], v[1], v[2], {.is_causal = causal});
    };
  };
  // [*, T, hs] contiguous: the heads collapse into one cuBLAS batch
  const Tensor q3 = leaf32({3, 7, 8}), k3 = leaf32({3, 7, 8}), v3 = leaf32({3, 7, 5});
  check_parity("3-d", sdpa(false), {q3, k3, v3}, 1e-4);
  check_parity("3-d causal", sdpa(true), {q3, k3, v3}, 1e-4);
  // GPT's layout: [B, NH, T, hs] transposed views of [B, T, NH, hs], whose head dims do not
  // collapse into one stride (a loop over B, a batch of NH heads each)
  auto gpt = [](bool causal) {
    return [causal](const std::vector<Tensor>& v) {
      auto heads = [](const Tensor& x) { return x.reshape({2, 9, 3, 4}).transpose(1, 2); };
      return scaled_dot_product_attention(heads(v[0]), heads(v[1]), heads(v[2]), {.is_causal = causal});
    };
  };
  const Tensor q = leaf32({2, 9, 12}), k = leaf32({2, 9, 12}), v = leaf32({2, 9, 12});
  check_parity("split heads", gpt(false), {q, k, v}, 1e-4);
  check_parity("split heads causal", gpt(true), {q, k, v}, 1e-4);
  // more keys than queries (the causal mask stays top-left aligned), and keys and values
  // broadcast over the heads (stride 0)
  auto cross = [](bool causal) {
    return [causal](const std::vector<Tensor>& v) {
      return scaled_dot_product_attention(v[0], v[1].expand({2, 3, 6, 8}),
                                          v[2].expand({2, 3, 6, 5}), {.is_causal = causal});
    };
  };
  const Tensor qc = leaf32({2, 3, 4, 8}), kc = leaf32({2, 1, 6, 8}), vc = leaf32({2, 1, 6, 5});
  check_parity("4 queries, 6 broadcast keys", cross(false), {qc, kc, vc}, 1e-4);
  check_parity("4 queries, 6 broadcast keys, causal", cross(true), {qc, kc, vc}, 1e-4);
  check_parity("float64 causal", sdpa(true), {leaf64({2, 6, 4}), leaf64({2, 6, 4}),
                                              leaf64({2, 6, 3})}, 1e-12);
}

TEST_CASE("parity: the fused adam_step_ through three optim::Adam and AdamW steps",
          "[cuda][parity][optim]") {
  if (skip_parity()) return;
  manual_seed(10);
  // v[0] the initial parameter, v[1] a gradient; step t uses the gradient v[1] · t + p, so
  // that it depends on where the parameter has moved
  auto steps = [](bool decoupled) {
    return [decoupled](const std::vector<Tensor>& v) {
      const Tensor p = v[0].clone().requires_grad_();
      std::unique_ptr<optim::Optimizer> opt;
      if (decoupled)
        opt = std::make_unique<optim::AdamW>(std::vector<Tensor>{p},
                                             optim::AdamWOptions(1e-2).weight_decay(0.1));
      else
        opt = std::make_unique<optim::Adam>(std::vector<Tensor>{p},
                                            optim::AdamOptions(1e-2).weight_decay(0.1));
      for (int t = 1; t <= 3; ++t) {
        p.set_grad(v[1] * double(t) + p.detach());
        opt->step();
      }
      p.set_grad(Tensor());
      return p.detach();
    };
  };
  const Tensor p0 = randn({300, 7}), g = randn({300, 7});
  check_parity("AdamW", steps(true), {p0, g}, 1e-5);
  check_parity("Adam (L2)", steps(false), {p0, g}, 1e-5);
  check_parity("AdamW float64", steps(true), {randn({40}, kFloat64), randn({40}, kFloat64)},
               1e-12);
}

TEST_CASE("parity: sum_squares and clip_grad_norm_", "[cuda][parity][optim]") {
  if (skip_parity()) return;
  manual_seed(11);
  auto ssq = [](const std::vector<Tensor>& v) {
    return full({1}, sum_squares(v[0]), TensorOptions(kFloat64).device(v[0].device()));
  };
  // 360 000 elements: more than one pass of the capped grid
  check_parity("sum_squares", ssq, {randn({600, 600})}, 1e-12);
  check_parity("sum_squares of a permuted view",
               [&](const std::vector<Tensor>& v) { return ssq({v[0].permute({2, 0, 1})}); },
               {randn({3, 5, 7})}, 1e-12);
  check_parity("sum_squares float64", ssq, {randn({1000}, kFloat64)}, 1e-12);
  check_parity("sum_squares of nothing", ssq, {zeros({0, 3})}, 0);
  check_parity("clip_grad_norm_",
               [](const std::vector<Tensor>& v) {
                 const Tensor p = v[0].clone().requires_grad_();
                 p.set_grad(v[1].clone());
                 optim::clip_grad_norm_({p}, 1.0);
                 const Tensor g = p.grad();
                 p.set_grad(Tensor());
                 return g;
               },
               {randn({30, 4}), randn({30, 4})}, 1e-6);
}
