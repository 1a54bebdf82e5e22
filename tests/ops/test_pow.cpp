#include <cmath>
#include <numbers>

#include "autograd/node.h"
#include "helpers.h"

using namespace attic;
using namespace attic::testing;

namespace {

// |randn| + 0.5: a float64 leaf with every element > 0 (x^p for a fractional p and ln x
// need x > 0), optionally transposed to be non-contiguous.
Tensor positive_leaf64(const Shape& shape, bool contiguous = true) {
  Tensor t = contiguous ? leaf64(shape) : noncontiguous_leaf64(shape);
  NoGradGuard no_grad;
  t.copy_(abs(t) + 0.5);
  return t;
}

}  // namespace

TEST_CASE("pow with a scalar exponent: forward values", "[ops][pow]") {
  Tensor x = tensor({1.0, 2.0, 3.0, 4.0}, kFloat64);
  CHECK_THAT(values(pow(x, 2.0)), ApproxValues({1, 4, 9, 16}));
  CHECK_THAT(values(pow(x, 0.5)), ApproxValues({1, std::numbers::sqrt2, std::sqrt(3.0), 2}));
  CHECK_THAT(values(pow(x, -1.0)), ApproxValues({1, 0.5, 1.0 / 3, 0.25}));
  CHECK_THAT(values(pow(x, 0.0)), ApproxValues({1, 1, 1, 1}));
  // a negative base: integer exponents are fine, fractional ones give NaN
  CHECK(pow(tensor({-2.0}), 3.0).item<float>() == -8.0f);
  CHECK(std::isnan(pow(tensor({-8.0}), 1.0 / 3).item<float>()));
}

TEST_CASE("pow with a scalar exponent: gradients by hand", "[ops][pow]") {
  // d x^p = p x^(p-1):  x² at 3: 6;  x^0.5 at 4: 0.5 / 2 = 0.25;  x^-1 at 2: -1/4
  Tensor x = tensor({3.0}, kFloat64).requires_grad_();
  pow(x, 2.0).backward();
  CHECK_THAT(values(x.grad()), ApproxValues({6}));
  Tensor y = tensor({4.0}, kFloat64).requires_grad_();
  pow(y, 0.5).backward();
  CHECK_THAT(values(y.grad()), ApproxValues({0.25}));
  Tensor z = tensor({2.0}, kFloat64).requires_grad_();
  pow(z, -1.0).backward();
  CHECK_THAT(values(z.grad()), ApproxValues({-0.25}));
  // p = 0: the gradient is 0, not 0 · 0^-1 = NaN
  Tensor w = tensor({0.0, 2.0}, kFloat64).requires_grad_();
  sum(pow(w, 0.0)).backward();
  CHECK(values(w.grad()) == std::vector<double>{0, 0});
}

TEST_CASE("pow with a scalar exponent: gradcheck", "[ops][pow][gradcheck]") {
  for (double p : {2.0, 3.0, -1.0}) {
    INFO(p);
    auto f = [p](const std::vector<Tensor>& in) { return pow(in[0], p); };
    CHECK(gradcheck(f, {leaf64({3, 4})}));
    CHECK(gradcheck(f, {noncontiguous_leaf64({2, 3, 4})}));
  }
  for (double p : {0.5, -1.5, 2.7}) {
    INFO(p);
    auto f = [p](const std::vector<Tensor>& in) { return pow(in[0], p); };
    CHECK(gradcheck(f, {positive_leaf64({3, 4})}));
    CHECK(gradcheck(f, {positive_leaf64({2, 3, 4}, false)}));
  }
}

TEST_CASE("pow with a tensor exponent: forward with broadcasting", "[ops][pow]") {
  // x [2, 1] = [[2], [3]], p [3] = [0, 1, 2] -> [[1, 2, 4], [1, 3, 9]]
  Tensor x = tensor({{2.0}, {3.0}});
  Tensor p = tensor({0.0, 1.0, 2.0});
  Tensor y = pow(x, p);
  CHECK(y.shape() == Shape{2, 3});
  CHECK_THAT(values(y), ApproxValues({1, 2, 4, 1, 3, 9}));
  // int64 works too (no gradient)
  CHECK(pow(tensor({2, 3}, kInt64), tensor({3, 2}, kInt64)).to_vector<int64_t>() ==
        std::vector<int64_t>{8, 9});
}

TEST_CASE("pow with a tensor exponent: gradients by hand", "[ops][pow]") {
  // x = 2, p = 3: dx = 3 · 2² = 12, dp = 2³ ln 2 = 5.5451774445
  // x = 0, p = 2: dx = 2 · 0 = 0, dp = 0 (the limit of x² ln x), not 0 · -inf = NaN
  // x = 0, p = 0: dx = 0 (p = 0), dp = 0
  Tensor x = tensor({2.0, 0.0, 0.0}, kFloat64).requires_grad_();
  Tensor p = tensor({3.0, 2.0, 0.0}, kFloat64).requires_grad_();
  sum(pow(x, p)).backward();
  CHECK_THAT(values(x.grad()), ApproxValues({12, 0, 0}));
  CHECK_THAT(values(p.grad()), ApproxValues({8 * std::numbers::ln2, 0, 0}));
}

TEST_CASE("pow with a tensor exponent: broadcast gradient sums back", "[ops][pow]") {
  // x [2] = [2, 3], p 0-d = 2: dp = 2² ln 2 + 3² ln 3 = 4 ln 2 + 9 ln 3
  Tensor x = tensor({2.0, 3.0}, kFloat64).requires_grad_();
  Tensor p = scalar_tensor(2.0, kFloat64).requires_grad_();
  sum(pow(x, p)).backward();
  CHECK_THAT(values(x.grad()), ApproxValues({4, 6}));
  CHECK_THAT(values(p.grad()), ApproxValues({4 * std::log(2.0) + 9 * std::log(3.0)}));
}

TEST_CASE("pow with a tensor exponent: gradcheck with broadcasting and views",
          "[ops][pow][gradcheck]") {
  auto f = [](const std::vector<Tensor>& in) { return pow(in[0], in[1]); };
  CHECK(gradcheck(f, {positive_leaf64({3, 4}), leaf64({3, 4})}));
  CHECK(gradcheck(f, {positive_leaf64({3, 4}), leaf64({4})}));
  CHECK(gradcheck(f, {positive_leaf64({3, 1}), leaf64({2, 1, 4})}));
  CHECK(gradcheck(f, {positive_leaf64({2, 3, 4}, false), noncontiguous_leaf64({3, 4})}));
  // only one side requiring grad
  CHECK(gradcheck(f, {positive_leaf64({3}), leaf64({3}).detach()}));
  CHECK(gradcheck(f, {positive_leaf64({3}).detach(), leaf64({3})}));
}

TEST_CASE("pow: second derivatives through create_graph", "[ops][pow][gradcheck]") {
  // the gradient of sum(x^p) in x (or in p), recorded; gradcheck checks its derivative
  auto dx = [](const std::vector<Tensor>& in) {
    autograd::EnableGradGuard on;
    Tensor x = in[0] * 1.0;
    x.retain_grad();
    sum(pow(x, in[1])).backward(Tensor(), true, true);
    Tensor g = x.grad();
    // the .grad of x and of the inputs hold graphs that refer back to them: drop them
    x.set_grad(Tensor());
    for (const Tensor& t : in) t.set_grad(Tensor());
    return g;
  };
  auto dp = [](const std::vector<Tensor>& in) {
    autograd::EnableGradGuard on;
    Tensor p = in[1] * 1.0;
    p.retain_grad();
    sum(pow(in[0], p)).backward(Tensor(), true, true);
    Tensor g = p.grad();
    p.set_grad(Tensor());
    for (const Tensor& t : in) t.set_grad(Tensor());
    return g;
  };
  CHECK(gradcheck(dx, {positive_leaf64({4}), leaf64({4})}));
  CHECK(gradcheck(dp, {positive_leaf64({4}), leaf64({4})}));
  auto dscalar = [](const std::vector<Tensor>& in) {
    autograd::EnableGradGuard on;
    Tensor x = in[0] * 1.0;
    x.retain_grad();
    sum(pow(x, 2.5)).backward(Tensor(), true, true);
    Tensor g = x.grad();
    x.set_grad(Tensor());
    in[0].set_grad(Tensor());
    return g;
  };
  CHECK(gradcheck(dscalar, {positive_leaf64({4})}));
}

TEST_CASE("pow: errors", "[ops][pow][errors]") {
  CHECK(error_message([] { pow(arange(3.0, kInt64), 2.0); }) ==
        "pow: needs a floating tensor, got int64");
  CHECK(error_message([] { pow(zeros({2}), zeros({2}, kFloat64)); }) ==
        "pow: dtypes differ (float32 and float64); convert one with .to(dtype)");
  CHECK(error_message([] { pow(zeros({2, 3}), zeros({3, 2})); }) ==
        "pow: shapes [2, 3] and [3, 2] cannot broadcast (2 vs 3 in dim 0)");
}
