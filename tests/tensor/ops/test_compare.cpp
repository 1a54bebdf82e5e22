#include <cmath>

#include "helpers.h"

using namespace attic;
using namespace attic::testing;

TEST_CASE("comparisons: tensor against tensor", "[ops][compare]") {
  Tensor a = tensor({1.0, 2.0, 3.0});
  Tensor b = tensor({3.0, 2.0, 1.0});
  CHECK(values(gt(a, b)) == std::vector<double>{0, 0, 1});
  CHECK(values(lt(a, b)) == std::vector<double>{1, 0, 0});
  CHECK(values(ge(a, b)) == std::vector<double>{0, 1, 1});
  CHECK(values(le(a, b)) == std::vector<double>{1, 1, 0});
  CHECK(values(eq(a, b)) == std::vector<double>{0, 1, 0});
  CHECK(values(ne(a, b)) == std::vector<double>{1, 0, 1});
  CHECK(gt(a, b).dtype() == kFloat32);
}

TEST_CASE("comparisons: tensor against scalar", "[ops][compare]") {
  Tensor a = tensor({{3.0, 2.0}, {1.0, 2.5}}, kFloat64);
  CHECK(values(gt(a, 2.0)) == std::vector<double>{1, 0, 0, 1});
  CHECK(values(lt(a, 2.0)) == std::vector<double>{0, 0, 1, 0});
  CHECK(values(ge(a, 2.0)) == std::vector<double>{1, 1, 0, 1});
  CHECK(values(le(a, 2.0)) == std::vector<double>{0, 1, 1, 0});
  CHECK(values(eq(a, 3.0)) == std::vector<double>{1, 0, 0, 0});
  CHECK(values(ne(a, 3.0)) == std::vector<double>{0, 1, 1, 1});
  CHECK(gt(a, 2.0).dtype() == kFloat64);
  CHECK(gt(a, 2.0).shape() == Shape{2, 2});
}

TEST_CASE("comparisons: broadcasting and non-contiguous inputs", "[ops][compare]") {
  // [2, 1] against [3] -> [2, 3]
  Tensor a = tensor({{1.0}, {2.0}});
  Tensor b = tensor({0.0, 1.0, 2.0});
  Tensor y = ge(a, b);
  CHECK(y.shape() == Shape{2, 3});
  CHECK(values(y) == std::vector<double>{1, 1, 0, 1, 1, 1});
  // t = [[0, 1], [2, 3]] transposed: [[0, 2], [1, 3]]
  Tensor t = arange(4.0).view({2, 2}).t();
  REQUIRE_FALSE(t.is_contiguous());
  CHECK(values(gt(t, 1.5)) == std::vector<double>{0, 1, 0, 1});
  CHECK(values(eq(t, t.contiguous())) == std::vector<double>{1, 1, 1, 1});
}

TEST_CASE("comparisons: int64 stays int64 and compares fractional scalars exactly",
          "[ops][compare]") {
  Tensor i = tensor({0, 1, 2}, kInt64);
  CHECK(gt(i, 1.0).dtype() == kInt64);
  CHECK(gt(i, 1.0).to_vector<int64_t>() == std::vector<int64_t>{0, 0, 1});
  // 0.5 must not truncate to 0: 0 > 0.5 is false, 1 > 0.5 true
  CHECK(gt(i, 0.5).to_vector<int64_t>() == std::vector<int64_t>{0, 1, 1});
  CHECK(le(i, 1.5).to_vector<int64_t>() == std::vector<int64_t>{1, 1, 0});
  CHECK(eq(i, 0.5).to_vector<int64_t>() == std::vector<int64_t>{0, 0, 0});
  CHECK(ne(i, 0.5).to_vector<int64_t>() == std::vector<int64_t>{1, 1, 1});
  CHECK(lt(i, -0.5).to_vector<int64_t>() == std::vector<int64_t>{0, 0, 0});
  // far outside int64's range
  CHECK(lt(i, 1e30).to_vector<int64_t>() == std::vector<int64_t>{1, 1, 1});
  CHECK(ge(i, -1e30).to_vector<int64_t>() == std::vector<int64_t>{1, 1, 1});
  CHECK(eq(i, tensor({0, 5, 2}, kInt64)).to_vector<int64_t>() == std::vector<int64_t>{1, 0, 1});
}

TEST_CASE("comparisons: NaN is unequal to everything", "[ops][compare]") {
  Tensor n = tensor({NAN, 1.0});
  CHECK(values(eq(n, n)) == std::vector<double>{0, 1});
  CHECK(values(ne(n, n)) == std::vector<double>{1, 0});
  CHECK(values(gt(n, 0.0)) == std::vector<double>{0, 1});
  CHECK(values(le(n, 0.0)) == std::vector<double>{0, 0});
}

TEST_CASE("comparisons: never require grad", "[ops][compare]") {
  Tensor x = leaf64({2, 3});
  for (Tensor y : {gt(x, 0.0), lt(x, x), ge(x, 0.0), le(x, x), eq(x, 0.0), ne(x, x)}) {
    CHECK_FALSE(y.requires_grad());
    CHECK(y.grad_fn() == nullptr);
  }
  // a mask from a comparison multiplies straight into the graph: d(x [x > 0]) = [x > 0]
  Tensor a = tensor({-1.0, 2.0}, kFloat64).requires_grad_();
  sum(a * gt(a, 0.0)).backward();
  CHECK(values(a.grad()) == std::vector<double>{0, 1});
}

TEST_CASE("comparisons: errors", "[ops][compare][errors]") {
  CHECK(error_message([] { gt(zeros({2}), zeros({2}, kInt64)); }) ==
        "gt: dtypes differ (float32 and int64); convert one with .to(dtype)");
  CHECK(error_message([] { eq(zeros({2, 3}), zeros({2})); }) ==
        "eq: shapes [2, 3] and [2] cannot broadcast (3 vs 2 in dim 1)");
  CHECK(error_message([] { le(Tensor(), 1.0); }) == "le: got an undefined tensor");
}
