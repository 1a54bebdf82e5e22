// routed_sum and routed_sum_packed: hand-worked values, the fused kernel against the
// multiply-and-add forms forward and backward (sources as the split_heads views, or the packed
// projections, route attention gives them), gradcheck to the second order, and errors.
#include "autograd/grad_mode.h"
#include "helpers.h"

using namespace attic;
using namespace attic::testing;

namespace {

// y's values, then the gradient of sum(y · g) with respect to each leaf (cleared after).
std::vector<std::vector<double>> values_and_grads(const Tensor& y, const Tensor& g,
                                                  const std::vector<Tensor>& leaves) {
  sum(y * g).backward();
  std::vector<std::vector<double>> out = {values(y)};
  for (const Tensor& t : leaves) {
    out.push_back(values(t.grad()));
    t.set_grad({});
  }
  return out;
}

// The fused op's values and gradients against the reference's, output by output.
void check_same(const std::vector<std::vector<double>>& fused,
                const std::vector<std::vector<double>>& math, DType dt, const char* outputs) {
  const double tol = dt == kFloat32 ? 1e-5 : 1e-12;
  for (size_t i = 0; i < fused.size(); ++i) {
    INFO("dtype " << dtype_name(dt) << ", output " << i << " " << outputs);
    CHECK_THAT(fused[i], ApproxValues(math[i], tol));
  }
}

}  // namespace

TEST_CASE("routed_sum by hand", "[ops][routed_sum]") {
  // B 1, NH 2, T 1, hs 2, two sources; router [l·NH + h] = [1, 2 | 10, -1]
  //   head 0: 1·[1, 2] + 10·[5, 6] = [51, 62];  head 1: 2·[3, 4] − 1·[7, 8] = [-1, 0]
  const Tensor x0 = tensor({1, 2, 3, 4}, kFloat64).view({1, 2, 1, 2});
  const Tensor x1 = tensor({5, 6, 7, 8}, kFloat64).view({1, 2, 1, 2});
  const Tensor w = tensor({1, 2, 10, -1}, kFloat64);
  CHECK_THAT(values(routed_sum(w, {x0, x1})), ApproxValues({51, 62, -1, 0}, 1e-12));
  CHECK_THAT(values(routed_sum_naive(w, {x0, x1})), ApproxValues({51, 62, -1, 0}, 1e-12));
  // dw[l·NH + h] = Σ x_l over head h (g = 1): [1 + 2, 3 + 4 | 5 + 6, 7 + 8]
  const Tensor wl = w.detach().requires_grad_();
  sum(routed_sum(wl, {x0, x1})).backward();
  CHECK_THAT(values(wl.grad()), ApproxValues({3, 7, 11, 15}, 1e-12));
}

TEST_CASE("routed_sum equals routed_sum_naive on split_heads views, with every gradient",
          "[ops][routed_sum]") {
  // The sources as route attention makes them: three [B, T, C] slices of wider projections,
  // split into heads (rows of hs with stride 3C or 2C between positions).
  manual_seed(5);
  const int64_t B = 3, T = 7, C = 12, NH = 4;
  for (const DType dt : {kFloat32, kFloat64}) {
    const Tensor qkv = randn({B, T, 3 * C}, dt).requires_grad_();
    const Tensor kv0 = randn({B, T, 2 * C}, dt).requires_grad_();
    const Tensor kv1 = randn({B, T, 2 * C}, dt).requires_grad_();
    const Tensor router = randn({3 * NH}, dt).requires_grad_();
    const Tensor g = randn({B, NH, T, C / NH}, dt);
    auto run = [&](bool fused) {
      const std::vector<Tensor> parts = {split_heads(kv0.narrow(2, 0, C), NH),
                                         split_heads(kv1.narrow(2, 0, C), NH),
                                         split_heads(qkv.narrow(2, C, C), NH)};
      const Tensor y = fused ? routed_sum(router, parts) : routed_sum_naive(router, parts);
      return values_and_grads(y, g, {router, qkv, kv0, kv1});
    };
    check_same(run(true), run(false), dt, "(y, router, qkv, kv0, kv1)");
  }
}

TEST_CASE("routed_sum gradcheck, first and second order", "[ops][routed_sum][grad]") {
  manual_seed(6);
  const Tensor w = leaf64({6}), a = leaf64({2, 2, 3, 4}), b = leaf64({2, 2, 3, 4}),
               c = leaf64({2, 2, 3, 4});
  CHECK(gradcheck([](const std::vector<Tensor>& v) {
    return routed_sum(v[0], {v[1], v[2], v[3]});
  }, {w, a, b, c}));
  // a source that is a transposed view: strides along hs other than 1
  CHECK(gradcheck([](const std::vector<Tensor>& v) {
    return routed_sum(v[0], {v[1].transpose(2, 3), v[2]});
  }, {leaf64({4}), leaf64({2, 2, 3, 3}), leaf64({2, 2, 3, 3})}));
  // the gradient itself, recorded, checked again
  const Tensor gw = randn({2, 2, 3, 4}, kFloat64);
  CHECK(gradcheck([&](const std::vector<Tensor>& v) {
    autograd::EnableGradGuard on;
    const Tensor r = v[0] * 1.0, x = v[1] * 1.0;
    r.retain_grad();
    x.retain_grad();
    const Tensor y = routed_sum(r, {x, v[2], v[3]});
    sum(y * y * gw).backward(Tensor(), /*retain_graph=*/true, /*create_graph=*/true);
    const Tensor out = sum(r.grad() * r.grad()) + sum(x.grad());
    for (const Tensor& t : {r, x, v[0], v[1], v[2], v[3]}) t.set_grad({});
    return out;
  }, {w, a, b, c}));
}

TEST_CASE("routed_sum rejects sources and routers that do not fit", "[ops][routed_sum][errors]") {
  const Tensor x = zeros({1, 2, 3, 4});
  CHECK(error_message([&] { routed_sum(zeros({4}), {}); }) ==
        "routed_sum: expects at least one source");
  CHECK(error_message([&] { routed_sum(zeros({4}), {x, zeros({1, 2, 3, 5})}); }) ==
        "routed_sum: source 1 has shape [1, 2, 3, 5] but source 0 has [1, 2, 3, 4]");
  CHECK(error_message([&] { routed_sum(zeros({4}), {x, zeros({2, 3, 4})}); }) ==
        "routed_sum: source 1 has shape [2, 3, 4]; sources are [B, NH, T, hs]");
  CHECK(error_message([&] { routed_sum(zeros({6}), {x, x}); }) ==
        "routed_sum: router has shape [6]; 2 sources of 2 heads need [4]");
  CHECK(error_message([&] { routed_sum(zeros({4}, kFloat64), {x, x}); }).find(
            "routed_sum") == 0);
}

TEST_CASE("routed_sum_packed by hand", "[ops][routed_sum]") {
  // B 1, T 1, C 2, NH 2 (hs 1); source 0 kv = [k' | v'] = [7, 8 | 9, 10], source 1 (current)
  // qkv = [q | k | v] = [1, 2 | 3, 4 | 5, 6]; k_router [l·NH + h] = [1, 2 | 10, -1],
  // v_router = [0.5, 1 | 1, 0]:
  //   K: head 0 1·7 + 10·3 = 37, head 1 2·8 − 1·4 = 12;  V: 0.5·9 + 1·5 = 9.5, 1·10 + 0·6 = 10
  const Tensor qkv = tensor({1, 2, 3, 4, 5, 6}, kFloat64).view({1, 1, 6}).requires_grad_();
  const Tensor kv = tensor({7, 8, 9, 10}, kFloat64).view({1, 1, 4}).requires_grad_();
  const Tensor wk = tensor({1, 2, 10, -1}, kFloat64).requires_grad_();
  const Tensor wv = tensor({0.5, 1, 1, 0}, kFloat64).requires_grad_();
  const std::vector<double> want = {1, 2, 37, 12, 9.5, 10};
  CHECK_THAT(values(routed_sum_packed_naive(wk, wv, qkv, {kv}, 2)), ApproxValues(want, 1e-12));
  const Tensor y = routed_sum_packed(wk, wv, qkv, {kv}, 2);
  CHECK_THAT(values(y), ApproxValues(want, 1e-12));
  // g = 1: d router[l·NH + h] = source l's k (or v) of head h; d qkv = [1, 1 | wk_1 | wv_1],
  // d kv = [wk_0 | wv_0]
  sum(y).backward();
  CHECK_THAT(values(wk.grad()), ApproxValues({7, 8, 3, 4}, 1e-12));
  CHECK_THAT(values(wv.grad()), ApproxValues({9, 10, 5, 6}, 1e-12));
  CHECK_THAT(values(qkv.grad()), ApproxValues({1, 1, 10, -1, 1, 0}, 1e-12));
  CHECK_THAT(values(kv.grad()), ApproxValues({1, 2, 0.5, 1}, 1e-12));
}

TEST_CASE("routed_sum_packed equals routed_sum_packed_naive, with every gradient",
          "[ops][routed_sum]") {
  // Route's shapes: the current qkv [B, T, 3C] and two earlier [B, T, 2C], one of them a
  // transposed view (strides other than the packed layout's).
  manual_seed(7);
  const int64_t B = 3, T = 7, C = 12, NH = 4;
  for (const DType dt : {kFloat32, kFloat64}) {
    const Tensor qkv = randn({B, T, 3 * C}, dt).requires_grad_();
    const Tensor kv0 = randn({B, T, 2 * C}, dt).requires_grad_();
    const Tensor kv1_t = randn({T, B, 2 * C}, dt).requires_grad_();
    const Tensor wk = randn({3 * NH}, dt).requires_grad_();
    const Tensor wv = randn({3 * NH}, dt).requires_grad_();
    const Tensor g = randn({B, T, 3 * C}, dt);
    auto run = [&](bool fused) {
      const Tensor kv1 = kv1_t.transpose(0, 1);
      const Tensor y = fused ? routed_sum_packed(wk, wv, qkv, {kv0, kv1}, NH)
                             : routed_sum_packed_naive(wk, wv, qkv, {kv0, kv1}, NH);
      return values_and_grads(y, g, {wk, wv, qkv, kv0, kv1_t});
    };
    check_same(run(true), run(false), dt, "(y, wk, wv, qkv, kv0, kv1)");
  }
}

TEST_CASE("routed_sum_packed gradcheck, first and second order", "[ops][routed_sum][grad]") {
  manual_seed(8);
  const int64_t NH = 2;
  const Tensor wk = leaf64({3 * NH}), wv = leaf64({3 * NH}), qkv = leaf64({2, 3, 12}),
               kv0 = leaf64({2, 3, 8}), kv1 = leaf64({2, 3, 8});
  CHECK(gradcheck([&](const std::vector<Tensor>& v) {
    return routed_sum_packed(v[0], v[1], v[2], {v[3], v[4]}, NH);
  }, {wk, wv, qkv, kv0, kv1}));
  // the gradient itself, recorded, checked again
  const Tensor gw = randn({2, 3, 12}, kFloat64);
  CHECK(gradcheck([&](const std::vector<Tensor>& v) {
    autograd::EnableGradGuard on;
    const Tensor r = v[0] * 1.0, x = v[2] * 1.0, e = v[3] * 1.0;
    for (const Tensor& t : {r, x, e}) t.retain_grad();
    const Tensor y = routed_sum_packed(r, v[1], x, {e, v[4]}, NH);
    sum(y * y * gw).backward(Tensor(), /*retain_graph=*/true, /*create_graph=*/true);
    const Tensor out = sum(r.grad() * r.grad()) + sum(x.grad() * x.grad()) + sum(e.grad());
    for (const Tensor& t : {r, x, e, v[0], v[1], v[2], v[3], v[4]}) t.set_grad({});
    return out;
  }, {wk, wv, qkv, kv0, kv1}));
}

TEST_CASE("routed_sum_packed rejects projections and routers that do not fit",
          "[ops][routed_sum][errors]") {
  const Tensor qkv = zeros({1, 3, 12}), kv = zeros({1, 3, 8}), w = zeros({4});
  CHECK(error_message([&] { routed_sum_packed(w, w, zeros({1, 3, 10}), {kv}, 2); }) ==
        "routed_sum_packed: expected qkv [B, T, 3C], got [1, 3, 10]");
  CHECK(error_message([&] { routed_sum_packed(w, w, qkv, {kv}, 3); }) ==
        "routed_sum_packed: C = 4 is not divisible by n_head = 3");
  CHECK(error_message([&] { routed_sum_packed(w, w, qkv, {zeros({1, 2, 8})}, 2); }) ==
        "routed_sum_packed: kv 0 has shape [1, 2, 8]; with qkv [1, 3, 12] each is [B, T, 2C] = "
        "[1, 3, 8]");
  CHECK(error_message([&] { routed_sum_packed(w, zeros({6}), qkv, {kv}, 2); }) ==
        "routed_sum_packed: router has shape [6]; 2 sources of 2 heads need [4]");
  CHECK(error_message([&] { routed_sum_packed(w, w, qkv, {zeros({1, 3, 8}, kFloat64)}, 2); })
            .find("routed_sum_packed") == 0);
}
