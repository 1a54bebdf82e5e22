// add, sub, mul, div, neg with broadcasting.
#include "helpers.h"

using namespace attic;
using attic::testing::ApproxValues;
using attic::testing::error_message;
using attic::testing::gradcheck;
using attic::testing::leaf64;
using attic::testing::noncontiguous_leaf64;
using attic::testing::values;

using Inputs = std::vector<Tensor>;

TEST_CASE("add, sub, mul, div: values by hand", "[arith]") {
  Tensor a = tensor({{1, 2}, {3, 4}});
  Tensor b = tensor({{0.5, -1}, {2, 8}});
  CHECK(values(a + b) == std::vector<double>{1.5, 1, 5, 12});
  CHECK(values(a - b) == std::vector<double>{0.5, 3, 1, -4});
  CHECK(values(a * b) == std::vector<double>{0.5, -2, 6, 32});
  CHECK(values(a / b) == std::vector<double>{2, -2, 1.5, 0.5});
  CHECK(values(-a) == std::vector<double>{-1, -2, -3, -4});
}

TEST_CASE("scalar operands on either side", "[arith]") {
  Tensor a = tensor({1, 2, 4});
  CHECK(values(a + 1.0) == std::vector<double>{2, 3, 5});
  CHECK(values(2.0 - a) == std::vector<double>{1, 0, -2});
  CHECK(values(a * 3.0) == std::vector<double>{3, 6, 12});
  CHECK(values(1.0 / a) == std::vector<double>{1, 0.5, 0.25});
  CHECK(values(a / 2.0) == std::vector<double>{0.5, 1, 2});
}

TEST_CASE("broadcasting aligns shapes at the right", "[arith][broadcast]") {
  // [2, 1] + [3] -> [2, 3]: row i, column j holds a[i] + b[j]
  Tensor a = tensor({{10}, {20}});
  Tensor b = tensor({1, 2, 3});
  Tensor c = a + b;
  CHECK(c.shape() == Shape{2, 3});
  CHECK(values(c) == std::vector<double>{11, 12, 13, 21, 22, 23});
  CHECK((zeros({4, 1, 3}) * zeros({2, 1})).shape() == Shape{4, 2, 3});
  CHECK((zeros({}) + zeros({2})).shape() == Shape{2});
}

TEST_CASE("broadcast and dtype errors name the op and the shapes", "[arith][errors]") {
  CHECK(error_message([] { zeros({2, 3}) + zeros({4}); }) ==
        "add: shapes [2, 3] and [4] cannot broadcast (3 vs 4 in dim 1)");
  CHECK(error_message([] { zeros({2}) * zeros({2}, kFloat64); }) ==
        "mul: dtypes differ (float32 and float64); convert one with .to(dtype)");
  CHECK(error_message([] { neg(zeros({2}, kInt64)); }) == "neg: needs a floating tensor, got int64");
  CHECK(error_message([] { add(Tensor(), zeros({1})); }) == "add: got an undefined tensor");
}

TEST_CASE("a bool operand takes the other's dtype, float32 beside a scalar", "[arith][bool]") {
  Tensor m = tensor({1, 0, 1}, kBool);
  Tensor x = tensor({2.0, 3.0, 4.0}, kFloat64);
  // beside a tensor: PyTorch's x + m and x * m keep x's dtype
  CHECK((x + m).dtype() == kFloat64);
  CHECK(values(x + m) == std::vector<double>{3, 3, 5});
  CHECK(values(m * x) == std::vector<double>{2, 0, 4});
  CHECK(values(x - m) == std::vector<double>{1, 3, 3});
  CHECK(values(m / x) == std::vector<double>{0.5, 0, 0.25});
  Tensor i = tensor({5, 6, 7}, kInt64);
  CHECK((i * m).to_vector<int64_t>() == std::vector<int64_t>{5, 0, 7});
  // beside a scalar (Python's float): float32
  CHECK((m * 0.5).dtype() == kFloat32);
  CHECK(values(m * 0.5) == std::vector<double>{0.5, 0, 0.5});
  CHECK(values(m + 2.0) == std::vector<double>{3, 2, 3});
  CHECK(values(m - 1.0) == std::vector<double>{0, -1, 0});
  CHECK(values(1.0 - m) == std::vector<double>{0, 1, 0});
  CHECK(values(m / 2.0) == std::vector<double>{0.5, 0, 0.5});
  CHECK((2.0 / (m + 1.0)).dtype() == kFloat32);
  // the gradient reaches the float operand only
  Tensor a = tensor({2.0, 3.0, 4.0}, kFloat64).requires_grad_();
  sum(a * m).backward();
  CHECK(values(a.grad()) == std::vector<double>{1, 0, 1});
  CHECK(gradcheck([&](const Inputs& v) { return v[0] * m + m; }, {leaf64({2, 3})}));
}

TEST_CASE("two bool tensors: add is OR, mul is AND, sub, div and neg are refused", "[arith][bool]") {
  Tensor p = tensor({0, 0, 1, 1}, kBool), q = tensor({0, 1, 0, 1}, kBool);
  CHECK((p + q).dtype() == kBool);
  CHECK((p + q).to_vector<bool>() == std::vector<bool>{false, true, true, true});
  CHECK((p * q).to_vector<bool>() == std::vector<bool>{false, false, false, true});
  CHECK(maximum(p, q).to_vector<bool>() == std::vector<bool>{false, true, true, true});
  CHECK(minimum(p, q).to_vector<bool>() == std::vector<bool>{false, false, false, true});
  CHECK(error_message([&] { p - q; }) ==
        "sub: cannot subtract two bool tensors; use logical_xor(a, b), or convert one with "
        ".to(dtype)");
  CHECK(error_message([&] { p / q; }) == "div: needs a floating tensor, got bool");
  CHECK(error_message([&] { -p; }) == "neg: needs a floating tensor, got bool");
}

TEST_CASE("int64 tensors add and multiply exactly", "[arith]") {
  Tensor a = tensor({3000000000, 2}, kInt64);
  CHECK((a + a).to_vector<int64_t>() == std::vector<int64_t>{6000000000, 4});
  CHECK((a * tensor({2, 3}, kInt64)).to_vector<int64_t>() == std::vector<int64_t>{6000000000, 6});
}

TEST_CASE("arithmetic on strided views", "[arith]") {
  Tensor a = arange(6).view({2, 3});
  CHECK(values(a.t() + a.t()) == std::vector<double>{0, 6, 2, 8, 4, 10});
  CHECK(values(a.slice(1, 0, 3, 2) * 10.0) == std::vector<double>{0, 20, 30, 50});
}

TEST_CASE("gradients of add, sub, mul, div", "[arith][grad]") {
  Tensor a = leaf64({3, 4});
  Tensor b = leaf64({3, 4});
  Tensor pos = (rand({3, 4}, kFloat64) + 0.5).requires_grad_();  // keep divisors away from 0
  CHECK(gradcheck([](const Inputs& v) { return v[0] + v[1]; }, {a, b}));
  CHECK(gradcheck([](const Inputs& v) { return v[0] - v[1]; }, {a, b}));
  CHECK(gradcheck([](const Inputs& v) { return v[0] * v[1]; }, {a, b}));
  CHECK(gradcheck([](const Inputs& v) { return v[0] / v[1]; }, {a, pos}));
  CHECK(gradcheck([](const Inputs& v) { return -v[0]; }, {a}));
  CHECK(gradcheck([](const Inputs& v) { return 3.0 - v[0] * 2.0 + 1.0 / v[1]; }, {a, pos}));
}

TEST_CASE("gradients sum over broadcast dims", "[arith][grad][broadcast]") {
  Tensor a = leaf64({2, 1, 4});
  Tensor b = leaf64({3, 1});
  Tensor s = leaf64({});
  CHECK(gradcheck([](const Inputs& v) { return v[0] * v[1]; }, {a, b}));
  CHECK(gradcheck([](const Inputs& v) { return v[0] - v[1]; }, {a, b}));
  CHECK(gradcheck([](const Inputs& v) { return v[0] / (v[1] * v[1] + 1.0); }, {a, b}));
  CHECK(gradcheck([](const Inputs& v) { return v[0] + v[1]; }, {a, s}));
}

TEST_CASE("gradients with non-contiguous inputs", "[arith][grad]") {
  Tensor a = noncontiguous_leaf64({3, 4});
  Tensor b = noncontiguous_leaf64({3, 4});
  CHECK(gradcheck([](const Inputs& v) { return v[0] * v[1] + v[0]; }, {a, b}));
  CHECK(gradcheck([](const Inputs& v) { return v[0] / (v[1] * v[1] + 1.0); }, {a, b}));
}

TEST_CASE("broadcast gradient by hand", "[arith][grad]") {
  // y = sum(a * b) with a [2, 2], b [2] broadcast over rows: db_j = a_0j + a_1j
  Tensor a = tensor({{1, 2}, {3, 4}}).requires_grad_();
  Tensor b = tensor({10, 20}).requires_grad_();
  sum(a * b).backward();
  CHECK(values(b.grad()) == std::vector<double>{4, 6});
  CHECK(values(a.grad()) == std::vector<double>{10, 20, 10, 20});
}
