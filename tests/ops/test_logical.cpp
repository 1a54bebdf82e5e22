// logical_not, logical_and, logical_or, logical_xor: truth tables by hand, any dtype in.
#include "helpers.h"

using namespace attic;
using attic::testing::error_message;

namespace {
std::vector<bool> bools(const Tensor& t) {
  REQUIRE(t.dtype() == kBool);
  return t.to_vector<bool>();
}
using B = std::vector<bool>;
}  // namespace

TEST_CASE("logical ops: truth tables on bool tensors", "[ops][logical]") {
  Tensor p = tensor({0, 0, 1, 1}, kBool), q = tensor({0, 1, 0, 1}, kBool);
  CHECK(bools(logical_not(p)) == B{true, true, false, false});
  CHECK(bools(logical_and(p, q)) == B{false, false, false, true});
  CHECK(bools(logical_or(p, q)) == B{false, true, true, true});
  CHECK(bools(logical_xor(p, q)) == B{false, true, true, false});
}

TEST_CASE("logical ops: any dtype, nonzero is true, with broadcasting", "[ops][logical]") {
  // NaN and -0.5 are nonzero, so true; -0.0 is zero
  Tensor x = tensor({0.0, -0.0, -0.5, NAN});
  CHECK(bools(logical_not(x)) == B{true, true, false, false});
  Tensor i = tensor({{0}, {7}}, kInt64);  // [2, 1] against [4] -> [2, 4]
  CHECK(logical_and(i, x).shape() == Shape{2, 4});
  CHECK(bools(logical_and(i, x)) == B{false, false, false, false, false, false, true, true});
  CHECK(bools(logical_or(i, x)) == B{false, false, true, true, true, true, true, true});
  CHECK(bools(logical_xor(i, tensor({1, 0}, kBool))) == B{true, false, false, true});
}

TEST_CASE("logical ops: no gradient, and errors name the op", "[ops][logical][errors]") {
  Tensor a = tensor({1.0, 0.0}, kFloat64).requires_grad_();
  CHECK_FALSE(logical_not(a).requires_grad());
  CHECK_FALSE(logical_or(a, a).requires_grad());
  CHECK(error_message([] { logical_not(Tensor()); }) == "logical_not: got an undefined tensor");
  CHECK(error_message([] { logical_and(zeros({2}, kBool), zeros({3}, kBool)); }) ==
        "logical_and: shapes [2] and [3] cannot broadcast (2 vs 3 in dim 0)");
}
