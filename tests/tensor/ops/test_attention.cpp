// The fused scaled_dot_product_attention against attention worked out by hand and against
// the same attention composed of separate ops (its reference), forward and backward.
#include <cmath>
#include <limits>

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
  CHECK_THAT(values(scaled_dot_product_attention(q, k, v, false, 1.0)),
             ApproxValues({3, 1, 2, 2}, 1e-12));
  // Causal: query 0 sees key 0 only -> [4, 0]; query 1 sees both -> [2, 2].
  CHECK_THAT(values(scaled_dot_product_attention(q, k, v, true, 1.0)),
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
      const Tensor fused = scaled_dot_product_attention(heads(0), heads(1), heads(2), causal);
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
    return scaled_dot_product_attention(x[0], x[1], x[2], true, 0.7);
  }, {q, k, v}));
  // 4-d, causal, non-contiguous q.
  const Tensor q4 = leaf64({1, 2, 4, 3}).transpose(2, 3).detach().transpose(2, 3).requires_grad_();
  const Tensor k4 = leaf64({1, 2, 4, 3}), v4 = leaf64({1, 2, 4, 3});
  CHECK(gradcheck([](const Inputs& x) {
    return scaled_dot_product_attention(x[0], x[1], x[2], true);
  }, {q4, k4, v4}));
}

TEST_CASE("fused attention: the causal mask hides the future exactly", "[ops][attention]") {
  // Changing key/value t' > t must not change output t.
  manual_seed(13);
  Tensor q = randn({1, 4, 2}), k = randn({1, 4, 2}), v = randn({1, 4, 2});
  const Tensor before = scaled_dot_product_attention(q, k, v, true);
  Tensor k2 = k.clone(), v2 = v.clone();
  {
    NoGradGuard g;
    k2.narrow(1, 3, 1).fill_(100.0);
    v2.narrow(1, 3, 1).fill_(-100.0);
  }
  const Tensor after = scaled_dot_product_attention(q, k2, v2, true);
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
  // qkv [B, T, 3C] -> y [B, T, C]: the GPT's fused path against the unpacked op.
  manual_seed(14);
  const int64_t B = 2, T = 5, NH = 3, hs = 4, C = NH * hs;
  for (const bool causal : {true, false}) {
    const Tensor qkv = randn({B, T, 3 * C}, kFloat64).requires_grad_();
    auto heads = [&](int64_t i) {
      return qkv.narrow(2, i * C, C).view({B, T, NH, hs}).transpose(1, 2);
    };
    const Tensor ref = scaled_dot_product_attention(heads(0), heads(1), heads(2), causal)
                           .transpose(1, 2).contiguous().view({B, T, C});
    const Tensor packed = scaled_dot_product_attention_packed(qkv, NH, causal);
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
  CHECK(gradcheck([](const Inputs& v) { return scaled_dot_product_attention_packed(v[0], 2, true); },
                  {x}));
  CHECK(error_message([] { scaled_dot_product_attention_packed(zeros({2, 3, 12}), 5); }) ==
        "scaled_dot_product_attention_packed: C = 4 is not divisible by n_head = 5");
}
