#include <cmath>

#include "helpers.h"

using namespace attic;
using namespace attic::testing;

TEST_CASE("clamp: forward and gradient by hand", "[ops][clamp]") {
  Tensor x = tensor({-2.0, -1.0, 0.0, 0.5, 1.0, 3.0}, kFloat64).requires_grad_();
  Tensor y = clamp(x, -1.0, 1.0);
  CHECK_THAT(values(y), ApproxValues({-1, -1, 0, 0.5, 1, 1}));
  sum(y).backward();
  // the gradient passes where -1 <= x <= 1, bounds included (PyTorch's convention)
  CHECK_THAT(values(x.grad()), ApproxValues({0, 1, 1, 1, 1, 0}));
}

TEST_CASE("clamp: one-sided with infinite bounds, and min == max", "[ops][clamp]") {
  Tensor x = tensor({-2.0, 0.5, 3.0});
  CHECK_THAT(values(clamp(x, 0.0, INFINITY)), ApproxValues({0, 0.5, 3}));
  CHECK_THAT(values(clamp(x, -INFINITY, 1.0)), ApproxValues({-2, 0.5, 1}));
  CHECK_THAT(values(clamp(x, 0.25, 0.25)), ApproxValues({0.25, 0.25, 0.25}));
}

TEST_CASE("clamp: gradcheck, contiguous and non-contiguous", "[ops][clamp][gradcheck]") {
  // randn values land within eps = 1e-6 of a bound with negligible probability
  auto f = [](const std::vector<Tensor>& in) { return clamp(in[0], -0.5, 0.7); };
  CHECK(gradcheck(f, {leaf64({4, 5})}));
  CHECK(gradcheck(f, {noncontiguous_leaf64({3, 4, 5})}));
}

TEST_CASE("clamp: errors", "[ops][clamp][errors]") {
  Tensor x = tensor({1.0});
  CHECK(error_message([&] { clamp(x, 2.0, 1.0); }) == "clamp: min 2 is greater than max 1");
  CHECK(error_message([] { clamp(arange(3.0, kInt64), 0, 1); }) ==
        "clamp: needs a floating tensor, got int64");
}

TEST_CASE("maximum and minimum: forward with broadcasting", "[ops][clamp]") {
  // a [2, 3] against b [3]: b is reused for each row of a
  Tensor a = tensor({{1.0, 5.0, -2.0}, {4.0, 0.0, 3.0}});
  Tensor b = tensor({2.0, 2.0, 2.0});
  CHECK(maximum(a, b).shape() == Shape{2, 3});
  CHECK_THAT(values(maximum(a, b)), ApproxValues({2, 5, 2, 4, 2, 3}));
  CHECK_THAT(values(minimum(a, b)), ApproxValues({1, 2, -2, 2, 0, 2}));
  // [2, 1] against [3] -> [2, 3]
  Tensor c = tensor({{0.0}, {10.0}});
  CHECK_THAT(values(maximum(c, tensor({-1.0, 1.0, 5.0}))), ApproxValues({0, 1, 5, 10, 10, 10}));
  // NaN wins in either position
  Tensor n = tensor({NAN, 1.0});
  Tensor m = tensor({1.0, NAN});
  for (double v : values(maximum(n, m))) CHECK(std::isnan(v));
  for (double v : values(minimum(n, m))) CHECK(std::isnan(v));
}

TEST_CASE("maximum and minimum: gradients by hand, ties split half and half", "[ops][clamp]") {
  Tensor a = tensor({1.0, 2.0, 3.0}, kFloat64).requires_grad_();
  Tensor b = tensor({3.0, 2.0, 1.0}, kFloat64).requires_grad_();
  // max = [3, 2, 3]: b wins, tie, a wins
  sum(maximum(a, b)).backward();
  CHECK_THAT(values(a.grad()), ApproxValues({0, 0.5, 1}));
  CHECK_THAT(values(b.grad()), ApproxValues({1, 0.5, 0}));
  a.set_grad(Tensor());
  b.set_grad(Tensor());
  // min = [1, 2, 1]: a wins, tie, b wins
  sum(minimum(a, b)).backward();
  CHECK_THAT(values(a.grad()), ApproxValues({1, 0.5, 0}));
  CHECK_THAT(values(b.grad()), ApproxValues({0, 0.5, 1}));
}

TEST_CASE("maximum: broadcast gradient sums back to the small input", "[ops][clamp]") {
  // a [2, 2], b [1] = 2: b wins in (0, 0) and (1, 1) (values 1 and 2: 2 ties), a wins in
  // (0, 1) = 5 and (1, 0) = 3. b's gradient: 1 + 0 + 0 + 1/2 = 1.5
  Tensor a = tensor({{1.0, 5.0}, {3.0, 2.0}}, kFloat64).requires_grad_();
  Tensor b = tensor({2.0}, kFloat64).requires_grad_();
  sum(maximum(a, b)).backward();
  CHECK_THAT(values(a.grad()), ApproxValues({0, 1, 1, 0.5}));
  CHECK_THAT(values(b.grad()), ApproxValues({1.5}));
}

TEST_CASE("maximum and minimum: gradcheck with broadcasting and views",
          "[ops][clamp][gradcheck]") {
  for (auto f : {maximum, minimum}) {
    auto g = [f](const std::vector<Tensor>& in) { return f(in[0], in[1]); };
    CHECK(gradcheck(g, {leaf64({3, 4}), leaf64({3, 4})}));
    CHECK(gradcheck(g, {leaf64({3, 4}), leaf64({4})}));
    CHECK(gradcheck(g, {leaf64({3, 1}), leaf64({2, 1, 4})}));
    CHECK(gradcheck(g, {noncontiguous_leaf64({2, 3, 4}), leaf64({3, 1})}));
  }
}

TEST_CASE("maximum: gradcheck at exact ties", "[ops][clamp][gradcheck]") {
  // At a tie the central difference is (eps - 0) / (2 eps) = 1/2 for each input: the
  // half-and-half split is exactly what gradcheck measures there.
  Tensor a = leaf64({5});
  Tensor b = a.detach().clone().requires_grad_();
  CHECK(gradcheck([](const auto& in) { return maximum(in[0], in[1]); }, {a, b}));
  CHECK(gradcheck([](const auto& in) { return minimum(in[0], in[1]); }, {a, b}));
}

TEST_CASE("maximum and minimum: errors", "[ops][clamp][errors]") {
  Tensor a = zeros({2, 3});
  CHECK(error_message([&] { maximum(a, zeros({4})); }) ==
        "maximum: shapes [2, 3] and [4] cannot broadcast (3 vs 4 in dim 1)");
  CHECK(error_message([&] { minimum(a, zeros({2, 3}, kFloat64)); }) ==
        "minimum: dtypes differ (float32 and float64); convert one with .to(dtype)");
}
