#include <cmath>

#include "helpers.h"

using namespace attic;
using namespace attic::testing;

// Each comparison gives a bool tensor, as in PyTorch: one byte per element, 0 or 1.
std::vector<bool> bools(const Tensor& t) {
  REQUIRE(t.dtype() == kBool);
  return t.to_vector<bool>();
}

using B = std::vector<bool>;

TEST_CASE("comparisons: tensor against tensor", "[ops][compare]") {
  Tensor a = tensor({1.0, 2.0, 3.0});
  Tensor b = tensor({3.0, 2.0, 1.0});
  CHECK(bools(gt(a, b)) == B{false, false, true});
  CHECK(bools(lt(a, b)) == B{true, false, false});
  CHECK(bools(ge(a, b)) == B{false, true, true});
  CHECK(bools(le(a, b)) == B{true, true, false});
  CHECK(bools(eq(a, b)) == B{false, true, false});
  CHECK(bools(ne(a, b)) == B{true, false, true});
  // the bytes themselves are 0 and 1
  Tensor g = gt(a, b);
  const auto* bytes = static_cast<const unsigned char*>(g.raw_data());
  CHECK((int(bytes[0]) == 0 && int(bytes[1]) == 0 && int(bytes[2]) == 1));
}

TEST_CASE("comparisons: tensor against scalar", "[ops][compare]") {
  Tensor a = tensor({{3.0, 2.0}, {1.0, 2.5}}, kFloat64);
  CHECK(bools(gt(a, 2.0)) == B{true, false, false, true});
  CHECK(bools(lt(a, 2.0)) == B{false, false, true, false});
  CHECK(bools(ge(a, 2.0)) == B{true, true, false, true});
  CHECK(bools(le(a, 2.0)) == B{false, true, true, false});
  CHECK(bools(eq(a, 3.0)) == B{true, false, false, false});
  CHECK(bools(ne(a, 3.0)) == B{false, true, true, true});
  CHECK(gt(a, 2.0).shape() == Shape{2, 2});
}

TEST_CASE("comparisons: broadcasting and non-contiguous inputs", "[ops][compare]") {
  // [2, 1] against [3] -> [2, 3]
  Tensor a = tensor({{1.0}, {2.0}});
  Tensor b = tensor({0.0, 1.0, 2.0});
  Tensor y = ge(a, b);
  CHECK(y.shape() == Shape{2, 3});
  CHECK(bools(y) == B{true, true, false, true, true, true});
  // t = [[0, 1], [2, 3]] transposed: [[0, 2], [1, 3]]
  Tensor t = arange(4.0).view({2, 2}).t();
  REQUIRE_FALSE(t.is_contiguous());
  CHECK(bools(gt(t, 1.5)) == B{false, true, false, true});
  CHECK(bools(eq(t, t.contiguous())) == B{true, true, true, true});
}

TEST_CASE("comparisons: int64 compares fractional scalars exactly", "[ops][compare]") {
  Tensor i = tensor({0, 1, 2}, kInt64);
  CHECK(bools(gt(i, 1.0)) == B{false, false, true});
  // 0.5 must not truncate to 0: 0 > 0.5 is false, 1 > 0.5 true
  CHECK(bools(gt(i, 0.5)) == B{false, true, true});
  CHECK(bools(le(i, 1.5)) == B{true, true, false});
  CHECK(bools(eq(i, 0.5)) == B{false, false, false});
  CHECK(bools(ne(i, 0.5)) == B{true, true, true});
  CHECK(bools(lt(i, -0.5)) == B{false, false, false});
  // far outside int64's range
  CHECK(bools(lt(i, 1e30)) == B{true, true, true});
  CHECK(bools(ge(i, -1e30)) == B{true, true, true});
  CHECK(bools(eq(i, tensor({0, 5, 2}, kInt64))) == B{true, false, true});
}

TEST_CASE("comparisons: bool against bool, scalars and other dtypes", "[ops][compare]") {
  Tensor m = tensor({1, 0, 1}, kBool);
  // false < true, as in PyTorch
  CHECK(bools(gt(m, tensor({0, 0, 1}, kBool))) == B{true, false, false});
  CHECK(bools(eq(m, 1.0)) == B{true, false, true});
  CHECK(bools(eq(m, 0.0)) == B{false, true, false});
  // a scalar that is neither 0 nor 1 is not turned into true
  CHECK(bools(eq(m, 2.0)) == B{false, false, false});
  CHECK(bools(lt(m, 0.5)) == B{false, true, false});
  // beside another dtype the bool tensor takes it: [1, 0, 1] against [1, 0.5, 2]
  CHECK(bools(eq(m, tensor({1.0, 0.5, 2.0}))) == B{true, false, false});
  CHECK(bools(lt(tensor({0, 5, 0}, kInt64), m)) == B{true, false, true});
}

TEST_CASE("comparisons: NaN is unequal to everything", "[ops][compare]") {
  Tensor n = tensor({NAN, 1.0});
  CHECK(bools(eq(n, n)) == B{false, true});
  CHECK(bools(ne(n, n)) == B{true, false});
  CHECK(bools(gt(n, 0.0)) == B{false, true});
  CHECK(bools(le(n, 0.0)) == B{false, false});
}

TEST_CASE("comparisons: never require grad", "[ops][compare]") {
  Tensor x = leaf64({2, 3});
  for (Tensor y : {gt(x, 0.0), lt(x, x), ge(x, 0.0), le(x, x), eq(x, 0.0), ne(x, x)}) {
    CHECK_FALSE(y.requires_grad());
    CHECK(y.grad_fn() == nullptr);
  }
  // a bool mask multiplies straight into the graph, taking a's dtype: d(x [x > 0]) = [x > 0]
  Tensor a = tensor({-1.0, 2.0}, kFloat64).requires_grad_();
  Tensor y = a * gt(a, 0.0);
  CHECK(y.dtype() == kFloat64);
  sum(y).backward();
  CHECK(values(a.grad()) == std::vector<double>{0, 1});
}

TEST_CASE("comparisons: errors", "[ops][compare][errors]") {
  CHECK(error_message([] { gt(zeros({2}), zeros({2}, kInt64)); }) ==
        "gt: dtypes differ (float32 and int64); convert one with .to(dtype)");
  CHECK(error_message([] { eq(zeros({2, 3}), zeros({2})); }) ==
        "eq: shapes [2, 3] and [2] cannot broadcast (3 vs 2 in dim 1)");
  CHECK(error_message([] { le(Tensor(), 1.0); }) == "le: got an undefined tensor");
}
