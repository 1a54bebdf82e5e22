#include "helpers.h"

using namespace attic;
using namespace attic::testing;

TEST_CASE("where: forward with three-way broadcasting", "[ops][where]") {
  // cond [2, 1] (int64), a [3], b 0-d -> [2, 3]: row 0 takes a, row 1 takes b
  Tensor cond = tensor({{1}, {0}}, kInt64);
  Tensor a = tensor({1.0, 2.0, 3.0});
  Tensor b = scalar_tensor(-1.0);
  Tensor y = where(cond, a, b);
  CHECK(y.shape() == Shape{2, 3});
  CHECK(y.dtype() == kFloat32);
  CHECK_THAT(values(y), ApproxValues({1, 2, 3, -1, -1, -1}));
}

TEST_CASE("where: any nonzero cond counts as true, any dtype", "[ops][where]") {
  Tensor a = tensor({1.0, 2.0, 3.0, 4.0});
  Tensor b = tensor({-1.0, -2.0, -3.0, -4.0});
  // float cond: 0.5 and -2 are true, 0 and -0 are false
  CHECK_THAT(values(where(tensor({0.5, 0.0, -2.0, -0.0}), a, b)), ApproxValues({1, -2, 3, -4}));
  CHECK_THAT(values(where(tensor({0, 7, 0, -1}, kInt64), a, b)), ApproxValues({-1, 2, -3, 4}));
  // a mask from a comparison: relu by hand
  CHECK_THAT(values(where(gt(b + 2.5, 0.0), b + 2.5, zeros({4}))),
             ApproxValues({1.5, 0.5, 0, 0}));
  // int64 values
  Tensor yi = where(tensor({1, 0}, kInt64), tensor({5, 6}, kInt64), tensor({7, 8}, kInt64));
  CHECK(yi.to_vector<int64_t>() == std::vector<int64_t>{5, 8});
}

TEST_CASE("where: gradients by hand, summed back over broadcast dims", "[ops][where]") {
  // cond [2, 3] = [[1, 0, 1], [0, 0, 1]], a [3], b 0-d:
  //   a gets the gradient at each picked position, summed over rows: [1, 0, 2]
  //   b gets the rest: 3 positions
  Tensor cond = tensor({{1.0, 0.0, 1.0}, {0.0, 0.0, 1.0}});
  Tensor a = tensor({1.0, 2.0, 3.0}, kFloat64).requires_grad_();
  Tensor b = scalar_tensor(0.0, kFloat64).requires_grad_();
  sum(where(cond, a, b)).backward();
  CHECK_THAT(values(a.grad()), ApproxValues({1, 0, 2}));
  CHECK_THAT(values(b.grad()), ApproxValues({3}));
}

TEST_CASE("where: cond gets no gradient even if it requires one", "[ops][where]") {
  Tensor cond = tensor({1.0, 0.0}, kFloat64).requires_grad_();
  Tensor a = tensor({1.0, 2.0}, kFloat64).requires_grad_();
  Tensor y = where(cond, a, zeros({2}, kFloat64));
  sum(y).backward();
  CHECK_FALSE(cond.grad().defined());
  CHECK_THAT(values(a.grad()), ApproxValues({1, 0}));
  CHECK_FALSE(where(cond, a.detach(), a.detach()).requires_grad());
}

TEST_CASE("where: gradcheck with broadcasting and views", "[ops][where][gradcheck]") {
  Tensor cond = gt(randn({2, 1, 4}), 0.0);
  auto f = [&](const std::vector<Tensor>& in) { return where(cond, in[0], in[1]); };
  CHECK(gradcheck(f, {leaf64({2, 3, 4}), leaf64({2, 3, 4})}));
  CHECK(gradcheck(f, {noncontiguous_leaf64({3, 4}), leaf64({2, 1, 1})}));
  CHECK(gradcheck(f, {leaf64({4}), noncontiguous_leaf64({2, 3, 4})}));
}

TEST_CASE("where: errors", "[ops][where][errors]") {
  Tensor a = zeros({3});
  CHECK(error_message([&] { where(zeros({2}), a, a); }) ==
        "where: shapes of cond [2], a [3] and b [3] cannot broadcast");
  CHECK(error_message([&] { where(zeros({2, 1}), zeros({2, 3}), zeros({4})); }) ==
        "where: shapes of cond [2, 1], a [2, 3] and b [4] cannot broadcast");
  CHECK(error_message([&] { where(a, a, zeros({3}, kInt64)); }) ==
        "where: dtypes differ (float32 and int64); convert one with .to(dtype)");
  CHECK(error_message([&] { where(Tensor(), a, a); }) == "where: got an undefined tensor");
}

TEST_CASE("masked_fill: forward and gradient by hand", "[ops][where]") {
  // mask [3] broadcasts over the 2 rows of x [2, 3]; masked positions take -inf
  Tensor x = tensor({{1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}}, kFloat64).requires_grad_();
  Tensor mask = tensor({0.0, 1.0, 0.0});
  Tensor y = masked_fill(x, mask.to(kFloat64), -INFINITY);
  CHECK(y.shape() == Shape{2, 3});
  CHECK_THAT(values(y), ApproxValues({1, -INFINITY, 3, 4, -INFINITY, 6}));
  sum(y * 1.0).backward();  // the gradient does not reach the filled positions
  CHECK_THAT(values(x.grad()), ApproxValues({1, 0, 1, 1, 0, 1}));
}

TEST_CASE("masked_fill: mask of another dtype, int64 x", "[ops][where]") {
  Tensor x = arange(4.0, kInt64);
  Tensor mask = tensor({1, 0, 0, 1}, kInt64);
  CHECK(masked_fill(x, mask, 9).to_vector<int64_t>() == std::vector<int64_t>{9, 1, 2, 9});
  CHECK(masked_fill(tensor({1.0, 2.0}), tensor({0, 1}, kInt64), 0.5).to_vector<float>() ==
        std::vector<float>{1.0f, 0.5f});
}

TEST_CASE("masked_fill: gradcheck with a broadcast mask and a view", "[ops][where][gradcheck]") {
  Tensor mask = gt(randn({3, 1}, kFloat64), 0.0);
  auto f = [&](const std::vector<Tensor>& in) { return masked_fill(in[0], mask, 2.0); };
  CHECK(gradcheck(f, {leaf64({3, 4})}));
  CHECK(gradcheck(f, {noncontiguous_leaf64({2, 3, 4})}));
}

TEST_CASE("masked_fill: the mask must not grow x", "[ops][where][errors]") {
  Tensor x = zeros({3});
  CHECK(error_message([&] { masked_fill(x, zeros({2, 3}), 0.0); }) ==
        "masked_fill: mask of shape [2, 3] does not broadcast to x's shape [3]");
  CHECK(error_message([&] { masked_fill(zeros({2, 3}), zeros({2}), 0.0); }) ==
        "masked_fill: mask of shape [2] does not broadcast to x's shape [2, 3]");
  CHECK(masked_fill(zeros({2, 3}), ones({2, 1}), 1.0).shape() == Shape{2, 3});
}
