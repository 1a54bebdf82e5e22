// The fused scaled_dot_product_attention against attention worked out by hand and against
// the same attention composed of separate ops (its reference), forward and backward.
#include <cmath>
#include <functional>
#include <limits>
#include <string>

#include "autograd/node.h"
#include "tensor/backend.h"
#include "helpers.h"

using namespace attic;
using attic::testing::ApproxValues;
using attic::testing::error_message;
using attic::testing::gradcheck;
using attic::testing::leaf64;
using attic::testing::values;

using Inputs = std::vector<Tensor>;

namespace {

// The composed reference: softmax(q kᵀ · scale, masked) v, in separate ops.
Tensor composed(const Tensor& q, const Tensor& k, const Tensor& v, bool causal, double scale) {
  Tensor att = matmul(q, k.transpose(-2, -1)) * scale;
  if (causal) {
    const Tensor mask = triu(ones({q.size(-2), k.size(-2)}, kBool), 1);
    att = masked_fill(att, mask, -std::numeric_limits<double>::infinity());
  }
  return matmul(softmax(att, -1), v);
}

}  // namespace

TEST_CASE("attention of two queries over two keys by hand", "[ops][attention]") {
  // q = [[ln 3, 0], [0, 0]], k = I, v = [[1, 0], [0, 1]] · 4, scale 1.
  // Query 0 scores [ln 3, 0] -> weights [3/4, 1/4] -> out [3, 1].
  // Query 1 scores [0, 0] -> weights [1/2, 1/2] -> out [2, 2]; causal: only key 0 -> [4, 0].
  const Tensor q = tensor({{std::log(3.0), 0}, {0, 0}}, kFloat64);
  const Tensor k = tensor({{1, 0}, {0, 1}}, kFloat64);
  const Tensor v = tensor({{4, 0}, {0, 4}}, kFloat64);
  CHECK_THAT(values(scaled_dot_product_attention(q, k, v, {.scale = 1.0})),
             ApproxValues({3, 1, 2, 2}, 1e-12));
  // Causal: query 0 sees key 0 only -> [4, 0]; query 1 sees both -> [2, 2].
  CHECK_THAT(values(scaled_dot_product_attention(q, k, v, {.is_causal = true, .scale = 1.0})),
             ApproxValues({4, 0, 2, 2}, 1e-12));
  // The default scale is 1/√hs = 1/√2: query 0 scores [ln 3 / √2, 0].
  const double w = 3.0 / (std::pow(3.0, 1 - M_SQRT1_2) + 3.0);  // 3^(1/√2) / (3^(1/√2) + 1)
  CHECK_THAT(values(scaled_dot_product_attention(q, k, v).narrow(0, 0, 1)),
             ApproxValues({4 * w, 4 * (1 - w)}, 1e-12));
}

TEST_CASE("fused attention equals the composed ops on GPT-shaped strided views", "[ops][attention]") {
  // q, k, v are the views CausalSelfAttention makes: split of [B, T, 3C], then
  // view [B, T, NH, hs] and transpose to [B, NH, T, hs]; nothing is contiguous.
  manual_seed(11);
  const int64_t B = 2, T = 5, NH = 3, hs = 4, C = NH * hs;
  for (const DType dt : {kFloat32, kFloat64}) {
    for (const bool causal : {true, false}) {
      const Tensor qkv = randn({B, T, 3 * C}, TensorOptions(dt)).requires_grad_();
      auto heads = [&](int64_t i) {
        return qkv.narrow(2, i * C, C).view({B, T, NH, hs}).transpose(1, 2);
      };
      const Tensor fused = scaled_dot_product_attention(heads(0), heads(1), heads(2), {.is_causal = causal});
      const Tensor ref = composed(heads(0), heads(1), heads(2), causal, 1 / std::sqrt(4.0));
      const double tol = dt == kFloat32 ? 1e-5 : 1e-12;
      CHECK(fused.shape() == Shape{B, NH, T, hs});
      CHECK_THAT(values(fused), ApproxValues(values(ref), tol));
      // Heads side by side is already contiguous: the output is a [B, T, NH, hs] buffer.
      CHECK(fused.transpose(1, 2).is_contiguous());

      const Tensor w = randn({B, NH, T, hs}, TensorOptions(dt));
      sum(fused * w).backward();
      const Tensor g_fused = qkv.grad();
      qkv.set_grad({});
      sum(ref * w).backward();
      const Tensor g_ref = qkv.grad();
      CHECK_THAT(values(g_fused), ApproxValues(values(g_ref), tol));
    }
  }
}

TEST_CASE("fused attention gradcheck", "[ops][attention][grad]") {
  manual_seed(12);
  // 3-d [heads, T, hs], a query length that differs from the key length, and hv != hs.
  const Tensor q = leaf64({2, 3, 4}), k = leaf64({2, 5, 4}), v = leaf64({2, 5, 6});
  CHECK(gradcheck([](const Inputs& x) { return scaled_dot_product_attention(x[0], x[1], x[2]); },
                  {q, k, v}));
  CHECK(gradcheck([](const Inputs& x) {
    return scaled_dot_product_attention(x[0], x[1], x[2], {.is_causal = true, .scale = 0.7});
  }, {q, k, v}));
  // 4-d, causal, non-contiguous q.
  const Tensor q4 = leaf64({1, 2, 4, 3}).transpose(2, 3).detach().transpose(2, 3).requires_grad_();
  const Tensor k4 = leaf64({1, 2, 4, 3}), v4 = leaf64({1, 2, 4, 3});
  CHECK(gradcheck([](const Inputs& x) {
    return scaled_dot_product_attention(x[0], x[1], x[2], {.is_causal = true});
  }, {q4, k4, v4}));
}

TEST_CASE("fused attention: the causal mask hides the future exactly", "[ops][attention]") {
  // Changing key/value t' > t must not change output t.
  manual_seed(13);
  Tensor q = randn({1, 4, 2}), k = randn({1, 4, 2}), v = randn({1, 4, 2});
  const Tensor before = scaled_dot_product_attention(q, k, v, {.is_causal = true});
  Tensor k2 = k.clone(), v2 = v.clone();
  {
    NoGradGuard g;
    k2.narrow(1, 3, 1).fill_(100.0);
    v2.narrow(1, 3, 1).fill_(-100.0);
  }
  const Tensor after = scaled_dot_product_attention(q, k2, v2, {.is_causal = true});
  CHECK(values(before.narrow(1, 0, 3)) == values(after.narrow(1, 0, 3)));
}

TEST_CASE("scaled_dot_product_attention rejects mismatched shapes", "[ops][attention][errors]") {
  CHECK(error_message([] {
    scaled_dot_product_attention(zeros({2, 3, 4}), zeros({2, 5, 3}), zeros({2, 5, 4}));
  }) == "scaled_dot_product_attention: expected q [*, Tq, hs], k [*, Tk, hs], v [*, Tk, hv] "
        "with the same [*], got q [2, 3, 4], k [2, 5, 3], v [2, 5, 4]");
  CHECK(error_message([] {
    scaled_dot_product_attention(zeros({3}), zeros({3}), zeros({3}));
  }) == "scaled_dot_product_attention: q, k and v need at least 2 dims, got [3]");
}

TEST_CASE("packed attention equals attention on the split views, values and gradient", "[ops][attention]") {
  // qkv [B, T, 3C] -> y [B, T, C]: the GPT's fused path against the unpacked op. At T = 600
  // the weights take 16.5 MiB, and the CPU kernel saves only each row's log-sum-exp.
  manual_seed(14);
  const int64_t B = 2, NH = 3, hs = 4, C = NH * hs;
  for (const int64_t T : {5, 600})
  for (const bool causal : {true, false}) {
    const Tensor qkv = randn({B, T, 3 * C}, kFloat64).requires_grad_();
    auto heads = [&](int64_t i) {
      return qkv.narrow(2, i * C, C).view({B, T, NH, hs}).transpose(1, 2);
    };
    const Tensor ref = scaled_dot_product_attention(heads(0), heads(1), heads(2), {.is_causal = causal})
                           .transpose(1, 2).contiguous().view({B, T, C});
    const Tensor packed = scaled_dot_product_attention_packed(qkv, NH, {.is_causal = causal});
    CHECK(packed.shape() == Shape{B, T, C});
    CHECK_THAT(values(packed), ApproxValues(values(ref), 1e-12));
    const Tensor w = randn({B, T, C}, kFloat64);
    sum(packed * w).backward();
    const Tensor g_packed = qkv.grad();
    qkv.set_grad({});
    sum(ref * w).backward();
    CHECK_THAT(values(g_packed), ApproxValues(values(qkv.grad()), 1e-12));
    qkv.set_grad({});
  }
  const Tensor x = leaf64({1, 4, 6});
  CHECK(gradcheck([](const Inputs& v) { return scaled_dot_product_attention_packed(v[0], 2, {.is_causal = true}); },
                  {x}));
  CHECK(error_message([] { scaled_dot_product_attention_packed(zeros({2, 3, 12}), 5); }) ==
        "scaled_dot_product_attention_packed: C = 4 is not divisible by n_head = 5");
}

namespace {

using Fn = std::function<Tensor(const Inputs&)>;

// With L = Σ f(x) ⊙ w and its gradients g_i = ∂L/∂x_i recorded (create_graph), the
// gradients of Σ_i Σ g_i ⊙ u_i with respect to each x_i: a double backward.
std::vector<std::vector<double>> double_backward(const Fn& f, const Inputs& xs_in, const Tensor& w,
                                                 const Inputs& us) {
  Inputs xs;
  for (const Tensor& x : xs_in) xs.push_back(x.detach().clone().requires_grad_());
  sum(f(xs) * w).backward(Tensor(), /*retain_graph=*/true, /*create_graph=*/true);
  Tensor s;
  for (size_t i = 0; i < xs.size(); ++i) {
    REQUIRE(xs[i].grad().defined());
    const Tensor term = sum(xs[i].grad() * us[i]);
    s = s.defined() ? s + term : term;
  }
  for (const Tensor& x : xs) x.set_grad({});
  REQUIRE(s.requires_grad());  // the first gradients have a graph
  s.backward();
  std::vector<std::vector<double>> out;
  for (const Tensor& x : xs) out.push_back(values(x.grad()));
  return out;
}

// The reference for second derivatives: softmax written as e^(s − max) / Σ e^(s − max).
// Each of those ops records an exact backward, where softmax's own treats its output y as
// a constant (SoftmaxBackward saves y detached), so the composed path's second derivatives
// miss the terms through y.
Tensor reference(const Tensor& q, const Tensor& k, const Tensor& v, bool causal, double scale) {
  Tensor s = matmul(q, k.transpose(-2, -1)) * scale;
  if (causal) {
    const Tensor future = triu(ones({q.size(-2), k.size(-2)}, kBool), 1);
    s = masked_fill(s, future, -std::numeric_limits<double>::infinity());
  }
  const Tensor e = exp(s - max(s.detach(), -1, true).values);
  return matmul(e / sum(e, {-1}, true), v);
}

// The same double backward through the fused op and through the reference.
void check_double_backward(const Fn& fused_fn, const Fn& reference_fn, const Inputs& xs) {
  const Tensor w = randn(fused_fn(xs).shape(), kFloat64);
  Inputs us;
  for (const Tensor& x : xs) us.push_back(randn(x.shape(), kFloat64));
  const auto fused = double_backward(fused_fn, xs, w, us);
  const auto ref = double_backward(reference_fn, xs, w, us);
  for (size_t i = 0; i < xs.size(); ++i) CHECK_THAT(fused[i], ApproxValues(ref[i], 1e-10));
}

}  // namespace

TEST_CASE("fused attention: a recorded backward gives exact second derivatives",
          "[ops][attention][grad]") {
  manual_seed(15);
  // 3-d, more keys than queries, hv != hs
  check_double_backward(
      [](const Inputs& x) { return scaled_dot_product_attention(x[0], x[1], x[2], {.scale = 0.7}); },
      [](const Inputs& x) { return reference(x[0], x[1], x[2], false, 0.7); },
      {leaf64({2, 3, 4}), leaf64({2, 5, 4}), leaf64({2, 5, 6})});
  // 4-d causal on GPT's strided views, and the packed form, causal and not
  auto heads = [](const Tensor& t) { return t.reshape({2, 5, 3, 2}).transpose(1, 2); };
  check_double_backward(
      [&](const Inputs& x) {
        return scaled_dot_product_attention(heads(x[0]), heads(x[1]), heads(x[2]), {.is_causal = true});
      },
      [&](const Inputs& x) { return reference(heads(x[0]), heads(x[1]), heads(x[2]), true, 1 / std::sqrt(2.0)); },
      {leaf64({2, 5, 6}), leaf64({2, 5, 6}), leaf64({2, 5, 6})});
  for (const bool causal : {true, false})
    check_double_backward(
        [causal](const Inputs& x) {
          return scaled_dot_product_attention_packed(x[0], 3, {.is_causal = causal});
        },
        [causal](const Inputs& x) {
          // column block i of x as x E_i, E_i [18, 6] a 0/1 selector: narrow's own backward
          // copies into a slice (SliceBackward) and records no graph
          auto part = [&](int64_t i) {
            const Tensor E = tril(triu(ones({18, 18}, kFloat64))).narrow(1, 6 * i, 6);  // I
            return split_heads(matmul(x[0], E), 3);
          };
          return merge_heads(reference(part(0), part(1), part(2), causal, 1 / std::sqrt(2.0)));
        },
        {leaf64({2, 4, 18})});
  // and gradcheck of the recorded first gradient itself
  const Tensor w = randn({1, 3, 2}, kFloat64);
  CHECK(gradcheck([&](const Inputs& x) {
    autograd::EnableGradGuard on;
    Inputs leaves;
    for (const Tensor& t : x) leaves.push_back(t * 1.0);
    for (const Tensor& t : leaves) t.retain_grad();
    sum(scaled_dot_product_attention(leaves[0], leaves[1], leaves[2], {.is_causal = true}) * w)
        .backward(Tensor(), /*retain_graph=*/true, /*create_graph=*/true);
    Tensor g = leaves[0].grad() + leaves[1].grad() * 2.0 + leaves[2].grad() * 3.0;
    for (const Tensor& t : leaves) t.set_grad({});
    for (const Tensor& t : x) t.set_grad({});
    return g;
  }, {leaf64({1, 3, 2}), leaf64({1, 3, 2}), leaf64({1, 3, 2})}));
}

TEST_CASE("scaled_dot_product_attention: a keep mask and the causal mask, by hand",
          "[ops][attention][mask]") {
  // q = [[ln 3, 0], [0, 0]], k = I, v = 4 I, scale 1 (as the first case).
  const Tensor q = tensor({{std::log(3.0), 0}, {0, 0}}, kFloat64);
  const Tensor k = tensor({{1, 0}, {0, 1}}, kFloat64);
  const Tensor v = tensor({{4, 0}, {0, 4}}, kFloat64);
  // keep key 1 only: every query returns v_1 = [0, 4]
  const Tensor keep = tensor({0, 1}, kBool);
  CHECK_THAT(values(scaled_dot_product_attention(q, k, v, {.attn_mask = keep, .scale = 1.0})),
             ApproxValues({0, 4, 0, 4}, 1e-12));
  // and causal too: query 0 keeps nothing. With -inf its row is NaN; with -65504 it is
  // uniform over both keys, [2, 2].
  const Tensor out = scaled_dot_product_attention(
      q, k, v, {.attn_mask = keep, .is_causal = true, .scale = 1.0, .masked_logit = -65504.0});
  CHECK_THAT(values(out), ApproxValues({2, 2, 0, 4}, 1e-12));
  const Tensor nan_row = scaled_dot_product_attention(
      q, k, v, {.attn_mask = keep, .is_causal = true, .scale = 1.0});
  CHECK(std::isnan(values(nan_row)[0]));
  // the weights come out too: query 0 over keys [3/4, 1/4]
  Tensor w;
  scaled_dot_product_attention(q, k, v, {.scale = 1.0, .weights = &w});
  CHECK_THAT(values(w), ApproxValues({0.75, 0.25, 0.5, 0.5}, 1e-12));
  CHECK(error_message([&] {
    scaled_dot_product_attention(q, k, v, {.attn_mask = ones({3}, kBool)});
  }) == "scaled_dot_product_attention: attn_mask of shape [3] does not broadcast to the scores' "
        "shape [2, 2]");
  CHECK(error_message([&] {
    scaled_dot_product_attention(q, k, v, {.attn_mask = ones({2}, kFloat64)});
  }) == "scaled_dot_product_attention: attn_mask must be bool (true = attend), got float64");
}

TEST_CASE("scaled_dot_product_attention: fused where it applies, the composed ops elsewhere",
          "[ops][attention]") {
  manual_seed(16);
  const Tensor q = leaf64({2, 4, 3}), k = leaf64({2, 4, 3}), v = leaf64({2, 4, 3});
  auto fn = [](const Tensor& y) { return std::string(y.grad_fn()->name()); };
  CHECK(fn(scaled_dot_product_attention(q, k, v, {.is_causal = true})) == "AttentionBackward");
  CHECK(fn(scaled_dot_product_attention(q, k, v, {.fused = false})) != "AttentionBackward");
  CHECK(fn(scaled_dot_product_attention(q, k, v, {.attn_mask = ones({4}, kBool)})) !=
        "AttentionBackward");
  // both give the same numbers and weights
  for (const bool causal : {true, false}) {
    Tensor wf, wm;
    const Tensor f = scaled_dot_product_attention(q, k, v, {.is_causal = causal, .weights = &wf});
    const Tensor m = scaled_dot_product_attention_naive(q, k, v, {.is_causal = causal, .weights = &wm});
    CHECK_THAT(values(f), ApproxValues(values(m), 1e-12));
    CHECK_THAT(values(wf), ApproxValues(values(wm), 1e-12));
  }
  // dropout: the weights dropped with the generator's draws, the rest scaled by 1/(1-p)
  Generator g1(5), g2(5);
  const Tensor d = scaled_dot_product_attention(q, k, v, {.dropout_p = 0.5, .generator = &g1});
  Tensor P;
  scaled_dot_product_attention(q, k, v, {.weights = &P});
  const Tensor ref = matmul(dropout(P, 0.5, true, &g2), v);
  CHECK_THAT(values(d), ApproxValues(values(ref), 1e-12));
  CHECK(fn(d) == "AttentionBackward");  // the CPU kernel drops the weights itself
}

TEST_CASE("scaled_dot_product_attention: causal weights are 0 above the diagonal past the kernel's first block",
          "[ops][attention]") {
  // 400 float64 queries make two of the CPU kernel's blocks of query rows (about 512 KiB of
  // scores each); the kernel leaves the first block's entries right of its diagonal block
  // unwritten, and the weights the caller receives must still hold P's zeros there. The
  // freed junk tensor hands its memory, full of 7s, to att through the allocator's cache,
  // so that entries left as they were would show.
  manual_seed(3);
  const Tensor q = randn({1, 1, 400, 4}, kFloat64), k = randn({1, 1, 400, 4}, kFloat64),
               v = randn({1, 1, 400, 4}, kFloat64);
  { const Tensor junk = full({1, 1, 400, 400}, 7.0, kFloat64); }
  Tensor wf, wm;
  scaled_dot_product_attention(q, k, v, {.is_causal = true, .weights = &wf});
  scaled_dot_product_attention_naive(q, k, v, {.is_causal = true, .weights = &wm});
  CHECK_THAT(values(wf), ApproxValues(values(wm), 1e-12));
}

TEST_CASE("fused attention with dropout: the composed path's mask, and its gradients",
          "[ops][attention][grad]") {
  manual_seed(17);
  // The fused kernel and the composed ops (softmax, dropout, matmul) take one key from
  // equal generators, so they drop the same weights: equal outputs and equal gradients.
  // T = 6 is one block of the CPU kernel's query rows; at 512 a double row is 4 KiB, so the
  // kernel forms the scores in a padded scratch, in blocks of 126 rows, the last partial,
  // and the 4 heads' weights take 8 MiB, so it saves only each row's log-sum-exp and the
  // backward forms the weights, and draws the mask, again.
  REQUIRE(backend_for(Device::CPU).attention_recomputes(4.0 * 512 * 512 * 8));
  for (const int64_t T : {6, 512}) {
  auto heads = [T](const Tensor& t) { return t.reshape({2, T, 2, 3}).transpose(1, 2); };
  const Tensor x = leaf64({3, 2, T, 6});
  for (const bool causal : {true, false}) {
    INFO("T " << T << (causal ? " causal" : ""));
    Generator g1(9), g2(9);
    const SdpaOptions fused{.is_causal = causal, .dropout_p = 0.4, .generator = &g1};
    const SdpaOptions composed{.is_causal = causal, .dropout_p = 0.4, .generator = &g2};
    const Tensor f = scaled_dot_product_attention(heads(x[0]), heads(x[1]), heads(x[2]), fused);
    const Tensor m =
        scaled_dot_product_attention_naive(heads(x[0]), heads(x[1]), heads(x[2]), composed);
    CHECK(std::string(f.grad_fn()->name()) == "AttentionBackward");
    CHECK_THAT(values(f), ApproxValues(values(m), 1e-12));
    CHECK(g1.state() == g2.state());  // one draw each
    const Tensor w = randn(f.shape(), kFloat64);
    sum(f * w).backward();
    const Tensor gf = x.grad();
    x.set_grad({});
    sum(m * w).backward();
    CHECK_THAT(values(gf), ApproxValues(values(x.grad()), 1e-12));
    x.set_grad({});
    // Some weights were dropped and some kept: the mask is neither all nor nothing.
    CHECK(values(f) != values(scaled_dot_product_attention(heads(x[0]), heads(x[1]),
                                                           heads(x[2]), {.is_causal = causal})));
  }
  }
  // gradcheck with the mask held fixed (the generator re-seeded on every call), the plain
  // and the packed form
  const Tensor q = leaf64({2, 5, 4}), k = leaf64({2, 5, 4}), v = leaf64({2, 5, 3});
  CHECK(gradcheck([](const Inputs& in) {
    Generator g(3);
    return scaled_dot_product_attention(in[0], in[1], in[2],
                                        {.is_causal = true, .dropout_p = 0.3, .generator = &g});
  }, {q, k, v}));
  CHECK(gradcheck([](const Inputs& in) {
    Generator g(4);
    return scaled_dot_product_attention_packed(in[0], 2, {.is_causal = true, .dropout_p = 0.3,
                                                          .generator = &g});
  }, {leaf64({1, 5, 12})}));
  // the recorded backward (create_graph) draws the same mask: second derivatives exist
  check_double_backward(
      [](const Inputs& in) {
        Generator g(5);
        return scaled_dot_product_attention(in[0], in[1], in[2], {.dropout_p = 0.5, .generator = &g});
      },
      [](const Inputs& in) {
        Generator g(5);
        return scaled_dot_product_attention_naive(in[0], in[1], in[2],
                                                  {.dropout_p = 0.5, .generator = &g});
      },
      {leaf64({2, 3, 4}), leaf64({2, 5, 4}), leaf64({2, 5, 6})});
}

TEST_CASE("split_heads and merge_heads are each other's inverse", "[ops][attention]") {
  const Tensor x = arange(24, kFloat32).view({1, 2, 12});
  const Tensor h = split_heads(x, 3);  // [1, 3, 2, 4]: head 1 holds columns 4..7
  CHECK(h.shape() == Shape{1, 3, 2, 4});
  CHECK(values(h.select(1, 1).select(1, 0)) == std::vector<double>{4, 5, 6, 7});
  CHECK(h.raw_data() == x.raw_data());  // a view
  CHECK(values(merge_heads(h)) == values(x));
  CHECK(error_message([&] { split_heads(x, 5); }) ==
        "split_heads: expected x [B, T, NH·hs] with NH = 5, got [1, 2, 12]");
}

TEST_CASE("split_qkv gives the head views of q, k and v in place", "[ops][attention]") {
  // qkv [1, 2, 12]: C = 4 over 2 heads; row t holds 12t .. 12t + 11.
  const Tensor qkv = arange(24, kFloat32).view({1, 2, 12});
  const auto [q, k, v] = split_qkv(qkv, 2);
  CHECK(q.shape() == Shape{1, 2, 2, 2});
  CHECK(values(q.select(1, 1).select(1, 0)) == std::vector<double>{2, 3});    // head 1, t 0
  CHECK(values(k.select(1, 0).select(1, 1)) == std::vector<double>{16, 17});  // head 0, t 1
  CHECK(values(v.select(1, 1).select(1, 1)) == std::vector<double>{22, 23});  // head 1, t 1
  CHECK(q.raw_data() == qkv.raw_data());  // views into qkv
  CHECK(v.shares_storage(qkv));
  CHECK(error_message([&] { split_qkv(arange(20, kFloat32).view({1, 2, 10}), 2); }) ==
        "split_qkv: expected qkv [B, T, 3C], got [1, 2, 10]");
  CHECK(error_message([&] { split_qkv(qkv, 3); }) ==
        "split_heads: expected x [B, T, NH·hs] with NH = 3, got [1, 2, 4]");
}
