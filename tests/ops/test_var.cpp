// var: sum((x - mean)^2) / (n - correction).
#include <cmath>

#include "helpers.h"

using namespace attic;
using attic::testing::ApproxValues;
using attic::testing::error_message;
using attic::testing::gradcheck;
using attic::testing::leaf64;
using attic::testing::noncontiguous_leaf64;
using attic::testing::values;

using Inputs = std::vector<Tensor>;

TEST_CASE("var of everything, with and without Bessel's correction", "[ops][var]") {
  // mean 2.5; squared deviations 2.25 + 0.25 + 0.25 + 2.25 = 5
  Tensor x = tensor({1, 2, 3, 4}, kFloat64);
  Tensor v = var(x);
  CHECK(v.dim() == 0);
  CHECK(v.item<double>() == Approx(5.0 / 3));
  CHECK(var(x, 0).item<double>() == Approx(1.25));  // 5 / 4
  CHECK(var(x, 2).item<double>() == Approx(2.5));   // 5 / 2
}

TEST_CASE("var over chosen dims", "[ops][var]") {
  Tensor x = tensor({{1, 2, 3}, {2, 4, 6}}, kFloat64);
  // rows: mean 2, deviations² 1 + 0 + 1 = 2 -> 2 / 2; mean 4, 4 + 0 + 4 = 8 -> 8 / 2
  CHECK_THAT(values(var(x, {1})), ApproxValues({1, 4}));
  CHECK_THAT(values(var(x, {-1})), ApproxValues({1, 4}));
  // columns (1, 2), (2, 4), (3, 6): deviations² 0.5, 2, 4.5, divided by 2 - 1
  CHECK_THAT(values(var(x, {0})), ApproxValues({0.5, 2, 4.5}));
  Tensor k = var(x, {1}, 0, /*keepdim=*/true);  // population variance: 2 / 3, 8 / 3
  CHECK(k.shape() == Shape{2, 1});
  CHECK_THAT(values(k), ApproxValues({2.0 / 3, 8.0 / 3}));
  // all six: mean 3, deviations² 4 + 1 + 0 + 1 + 1 + 9 = 16 -> 16 / 5
  CHECK(var(x, {0, 1}).item<double>() == Approx(3.2));
  CHECK(var(x.t(), {0}).shape() == Shape{2});  // non-contiguous
  CHECK_THAT(values(var(x.t(), {0})), ApproxValues({1, 4}));
}

TEST_CASE("var subtracts the mean first, so a large mean costs no precision", "[ops][var]") {
  // In float32, E[x²] − E[x]² for 10001..10004 would subtract two numbers near 1e8 whose
  // rounding error (~8) swamps the answer 5/3. The two-pass form keeps every digit.
  Tensor x = tensor({10001, 10002, 10003, 10004});
  CHECK(var(x).item<double>() == Approx(5.0 / 3).epsilon(1e-6));
}

TEST_CASE("var with n - correction <= 0 gives nan or inf, as in PyTorch", "[ops][var]") {
  CHECK(std::isnan(var(tensor({5.0})).item<double>()));  // 0 / 0
  CHECK(std::isinf(var(tensor({1, 2}), 2).item<double>()));  // 0.5 / 0
  CHECK(std::isinf(var(tensor({1, 2}), 3).item<double>()));  // divisor clamped to 0
  CHECK(std::isnan(var(scalar_tensor(3.0), {0}).item<double>()));  // one element, 0 / 0
  Tensor cols = var(tensor({{1, 2}}), {0});  // each column holds one element
  CHECK(std::isnan(cols[0].item<double>()));
  CHECK(std::isnan(cols[1].item<double>()));
}

TEST_CASE("var gradient: 2 (x - mean) / (n - correction)", "[ops][var][grad]") {
  Tensor x = tensor({1, 2, 3, 4}, kFloat64).requires_grad_();
  var(x).backward();  // 2 (x - 2.5) / 3
  CHECK_THAT(values(x.grad()), ApproxValues({-1, -1.0 / 3, 1.0 / 3, 1}));

  Tensor y = leaf64({3, 4, 5});
  CHECK(gradcheck([](const Inputs& v) { return var(v[0]); }, {y}));
  CHECK(gradcheck([](const Inputs& v) { return var(v[0], 0); }, {y}));
  CHECK(gradcheck([](const Inputs& v) { return var(v[0], {1}); }, {y}));
  CHECK(gradcheck([](const Inputs& v) { return var(v[0], {0, -1}, 1, true); }, {y}));
  Tensor nc = noncontiguous_leaf64({4, 5});
  CHECK(gradcheck([](const Inputs& v) { return var(v[0], {1}, 0); }, {nc}));
}

TEST_CASE("var(x, {d}) reduces over dim d, var(x, c) is a correction", "[ops][var]") {
  // A braced list must mean dims, never the correction (an easy mix-up in C++ overloading).
  Tensor x = tensor({{1, 2, 3}, {2, 4, 6}}, kFloat64);
  CHECK(var(x, {1}).shape() == Shape{2});
  CHECK(var(x, {}).dim() == 0);  // all dims
  CHECK(var(x, {}).item<double>() == Approx(3.2));
  CHECK(var(x, 1).item<double>() == Approx(3.2));
  CHECK(var(x, 0).item<double>() == Approx(16.0 / 6));
  const std::vector<int64_t> dims{0};
  CHECK_THAT(values(var(x, dims)), ApproxValues({0.5, 2, 4.5}));
}

TEST_CASE("var errors name var", "[ops][var][errors]") {
  CHECK(error_message([] { var(zeros({3}, kInt64)); }) ==
        "var: needs a floating tensor, got int64");
  CHECK(error_message([] { var(zeros({2, 3}), {1, -1}); }) == "var: dim -1 appears twice");
  CHECK(error_message([] { var(zeros({2, 3}), {3}); }) ==
        "var: dim 3 is out of range for a tensor of 2 dims (expected -2 to 1)");
  CHECK(error_message([] { var(Tensor()); }) == "var: got an undefined tensor");
}
