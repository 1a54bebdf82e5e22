// routed_sum: hand-worked values, the fused kernel against routed_sum_math forward and
// backward (sources as the split_heads views route attention gives it), gradcheck to the
// second order, and errors.
#include "autograd/grad_mode.h"
#include "helpers.h"

using namespace attic;
using namespace attic::testing;

TEST_CASE("routed_sum by hand", "[ops][routed_sum]") {
  // B 1, NH 2, T 1, hs 2, two sources; router [l·NH + h] = [1, 2 | 10, -1]
  //   head 0: 1·[1, 2] + 10·[5, 6] = [51, 62];  head 1: 2·[3, 4] − 1·[7, 8] = [-1, 0]
  const Tensor x0 = tensor({1, 2, 3, 4}, kFloat64).view({1, 2, 1, 2});
  const Tensor x1 = tensor({5, 6, 7, 8}, kFloat64).view({1, 2, 1, 2});
  const Tensor w = tensor({1, 2, 10, -1}, kFloat64);
  CHECK_THAT(values(routed_sum(w, {x0, x1})), ApproxValues({51, 62, -1, 0}, 1e-12));
  CHECK_THAT(values(routed_sum_math(w, {x0, x1})), ApproxValues({51, 62, -1, 0}, 1e-12));
  // dw[l·NH + h] = Σ x_l over head h (g = 1): [1 + 2, 3 + 4 | 5 + 6, 7 + 8]
  const Tensor wl = w.detach().requires_grad_();
  sum(routed_sum(wl, {x0, x1})).backward();
  CHECK_THAT(values(wl.grad()), ApproxValues({3, 7, 11, 15}, 1e-12));
}

TEST_CASE("routed_sum equals routed_sum_math on split_heads views, with every gradient",
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
      const Tensor y = fused ? routed_sum(router, parts) : routed_sum_math(router, parts);
      sum(y * g).backward();
      std::vector<std::vector<double>> out = {values(y)};
      for (const Tensor& t : {router, qkv, kv0, kv1}) {
        out.push_back(values(t.grad()));
        t.set_grad({});
      }
      return out;
    };
    const auto fused = run(true), math = run(false);
    const double tol = dt == kFloat32 ? 1e-5 : 1e-12;
    for (size_t i = 0; i < fused.size(); ++i) {
      INFO("dtype " << dtype_name(dt) << ", output " << i << " (y, router, qkv, kv0, kv1)");
      CHECK_THAT(fused[i], ApproxValues(math[i], tol));
    }
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
