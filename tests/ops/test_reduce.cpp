// sum, mean and sum_to.
#include <cmath>

#include "helpers.h"
#include "tensor/threads.h"

using namespace attic;
using attic::testing::ApproxValues;
using attic::testing::error_message;
using attic::testing::gradcheck;
using attic::testing::leaf64;
using attic::testing::noncontiguous_leaf64;
using attic::testing::values;

using Inputs = std::vector<Tensor>;

TEST_CASE("sum over everything and over chosen dims", "[ops][reduce]") {
  Tensor x = tensor({{1, 2, 3}, {4, 5, 6}});
  Tensor all = sum(x);  // 1 + 2 + 3 + 4 + 5 + 6 = 21
  CHECK(all.dim() == 0);
  CHECK(all.item<double>() == 21);
  Tensor cols = sum(x, {0});  // [1+4, 2+5, 3+6]
  CHECK(cols.shape() == Shape{3});
  CHECK(values(cols) == std::vector<double>{5, 7, 9});
  CHECK(values(sum(x, {1})) == std::vector<double>{6, 15});  // [1+2+3, 4+5+6]
  CHECK(values(sum(x, {-1})) == std::vector<double>{6, 15});
  Tensor both = sum(x, {1, 0});
  CHECK(both.dim() == 0);
  CHECK(both.item<double>() == 21);
}

TEST_CASE("sum keepdim leaves size-1 dims", "[ops][reduce]") {
  Tensor x = tensor({{1, 2, 3}, {4, 5, 6}});
  Tensor rows = sum(x, {-1}, /*keepdim=*/true);
  CHECK(rows.shape() == Shape{2, 1});
  CHECK(values(rows) == std::vector<double>{6, 15});
  CHECK(sum(x, {0, 1}, true).shape() == Shape{1, 1});
  // x[i][j][k] = 12 i + 4 j + k; summing over i and k: Σ_i Σ_k (12 i + 4 j + k)
  //   = 4 (0 + 12) + 8 (4 j) + 2 (0 + 1 + 2 + 3) = 60 + 32 j
  Tensor y = arange(24, kFloat64).view({2, 3, 4});
  Tensor s = sum(y, {0, 2}, true);
  CHECK(s.shape() == Shape{1, 3, 1});
  CHECK(values(s) == std::vector<double>{60, 92, 124});
}

TEST_CASE("mean divides the sum by the count reduced", "[ops][reduce]") {
  Tensor x = tensor({{1, 2, 3}, {4, 5, 6}});
  CHECK(mean(x).item<double>() == 3.5);  // 21 / 6
  CHECK(values(mean(x, {0})) == std::vector<double>{2.5, 3.5, 4.5});  // [5, 7, 9] / 2
  Tensor m = mean(x, {-1}, true);  // [6, 15] / 3
  CHECK(m.shape() == Shape{2, 1});
  CHECK(values(m) == std::vector<double>{2, 5});
}

TEST_CASE("sum and mean of non-contiguous inputs", "[ops][reduce]") {
  Tensor x = tensor({{1, 2, 3}, {4, 5, 6}});
  Tensor xt = x.t();  // [[1, 4], [2, 5], [3, 6]]
  REQUIRE_FALSE(xt.is_contiguous());
  CHECK(values(sum(xt, {0})) == std::vector<double>{6, 15});
  CHECK(values(sum(xt, {1})) == std::vector<double>{5, 7, 9});
  Tensor every_other = x.slice(1, 0, 3, 2);  // [[1, 3], [4, 6]]
  CHECK(values(sum(every_other, {1})) == std::vector<double>{4, 10});
  CHECK(values(mean(every_other, {0})) == std::vector<double>{2.5, 4.5});
}

TEST_CASE("sum of int64 is exact, sums of empty tensors are 0", "[ops][reduce]") {
  Tensor big = tensor({3000000000, 3000000001, 5}, kInt64);
  CHECK(sum(big).dtype() == kInt64);
  CHECK(sum(big).item<int64_t>() == 6000000006);
  CHECK(sum(zeros({0, 3})).item<double>() == 0);
  CHECK(values(sum(zeros({0, 3}), {0})) == std::vector<double>{0, 0, 0});
  CHECK(std::isnan(mean(zeros({0})).item<double>()));  // 0 / 0
}

TEST_CASE("sum of a bool tensor counts its trues in int64, mean refuses bool", "[ops][reduce][bool]") {
  Tensor m = tensor({{1, 0, 1}, {1, 1, 1}}, kBool);
  CHECK(sum(m).dtype() == kInt64);
  CHECK(sum(m).item<int64_t>() == 5);
  CHECK(sum(m, {1}).to_vector<int64_t>() == std::vector<int64_t>{2, 3});
  CHECK(sum(m.t(), {1}, true).to_vector<int64_t>() == std::vector<int64_t>{2, 1, 2});
  // 300 trues: more than a byte could count
  CHECK(sum(ones({300}, kBool)).item<int64_t>() == 300);
  CHECK(error_message([&] { mean(m); }) == "mean: needs a floating tensor, got bool");
}

TEST_CASE("a 0-d tensor reduces over dim 0 or -1 to itself", "[ops][reduce]") {
  Tensor s = scalar_tensor(2.5, kFloat64).requires_grad_();
  CHECK(sum(s, {0}).dim() == 0);
  CHECK(sum(s, {0}).item<double>() == 2.5);
  CHECK(sum(s, {-1}, true).dim() == 0);
  CHECK(mean(s, {0}).item<double>() == 2.5);
  sum(s, {0}).backward();
  CHECK(s.grad().item<double>() == 1);
  CHECK(error_message([&] { sum(s, {1}); }) ==
        "sum: dim 1 is out of range for a tensor of 0 dims (expected -1 to 0)");
}

TEST_CASE("sum and mean reject repeated and out-of-range dims", "[ops][reduce][errors]") {
  Tensor x = zeros({2, 3});
  CHECK(error_message([&] { sum(x, {1, -1}); }) == "sum: dim -1 appears twice");
  CHECK(error_message([&] { sum(x, {2}); }) ==
        "sum: dim 2 is out of range for a tensor of 2 dims (expected -2 to 1)");
  CHECK(error_message([&] { mean(x, {0, 0}); }) == "mean: dim 0 appears twice");
  CHECK(error_message([&] { mean(zeros({2}, kInt64)); }) ==
        "mean: needs a floating tensor, got int64");
}

TEST_CASE("sum and mean gradients", "[ops][reduce][grad]") {
  // By hand: d sum(x) / dx = 1 everywhere; d mean(x) / dx = 1 / 6.
  Tensor x = leaf64({2, 3});
  sum(x).backward();
  CHECK(values(x.grad()) == std::vector<double>(6, 1.0));
  x.set_grad(Tensor());
  mean(x).backward();
  CHECK_THAT(values(x.grad()), ApproxValues(std::vector<double>(6, 1.0 / 6)));

  Tensor y = leaf64({2, 3, 4});
  CHECK(gradcheck([](const Inputs& v) { return sum(v[0]); }, {y}));
  CHECK(gradcheck([](const Inputs& v) { return sum(v[0], {0, 2}); }, {y}));
  CHECK(gradcheck([](const Inputs& v) { return sum(v[0], {-2}, true); }, {y}));
  CHECK(gradcheck([](const Inputs& v) { return mean(v[0], {1}); }, {y}));
  CHECK(gradcheck([](const Inputs& v) { return mean(v[0], {0, 1}, true); }, {y}));
  Tensor nc = noncontiguous_leaf64({3, 4});
  CHECK(gradcheck([](const Inputs& v) { return sum(v[0], {1}); }, {nc}));
  CHECK(gradcheck([](const Inputs& v) { return mean(v[0], {0}); }, {nc}));
}

TEST_CASE("sum_to sums a broadcast result back down to a shape", "[ops][reduce]") {
  // x[i][j][k] = 12 i + 4 j + k.
  Tensor x = arange(24, kFloat64).view({2, 3, 4});
  // To [3, 1]: Σ_i Σ_k = 60 + 32 j (see above).
  Tensor a = sum_to(x, {3, 1});
  CHECK(a.shape() == Shape{3, 1});
  CHECK(values(a) == std::vector<double>{60, 92, 124});
  // To [4]: Σ_i Σ_j (12 i + 4 j + k) = 3 · 12 + 2 · 4 (0 + 1 + 2) + 6 k = 60 + 6 k
  CHECK(values(sum_to(x, {4})) == std::vector<double>{60, 66, 72, 78});
  CHECK(sum_to(x, {}).item<double>() == 276);  // 0 + 1 + ... + 23
  CHECK(sum_to(x, {2, 3, 4}).is_same(x));  // nothing to sum: the same tensor
  CHECK(error_message([&] { sum_to(x, {5}); }) ==
        "sum_to: shape [2, 3, 4] does not broadcast from [5]");
  CHECK(error_message([] { sum_to(zeros({3}), {2, 3}); }) ==
        "sum_to: cannot sum shape [3] to the larger rank of [2, 3]");
  Tensor y = leaf64({2, 3, 4});
  CHECK(gradcheck([](const Inputs& v) { return sum_to(v[0], {3, 1}); }, {y}));
  CHECK(gradcheck([](const Inputs& v) { return sum_to(v[0], {1, 4}); }, {y}));
}

TEST_CASE("sums over a contiguous block of dims agree with the general strided loop", "[ops][reduce]") {
  // A contiguous input whose reduced dims form one block takes the [O, R, Q] fast path of
  // tensor/cpu/reduce.cpp; the same values laid out non-contiguously take the general loop.
  manual_seed(5);
  for (const DType dt : {kFloat32, kFloat64}) {
    const Tensor x = randn({3, 4, 5, 6}, TensorOptions(dt));
    const Tensor strided = x.transpose(0, 3).contiguous().transpose(0, 3);
    REQUIRE_FALSE(strided.is_contiguous());
    for (const std::vector<int64_t>& dims : std::vector<std::vector<int64_t>>{
             {0}, {3}, {1, 2}, {0, 1}, {2, 3}, {0, 1, 2, 3}, {1}, {0, 2}}) {
      const double tol = dt == kFloat32 ? 1e-6 : 1e-13;
      CHECK_THAT(values(sum(x, dims)), ApproxValues(values(sum(strided, dims)), tol));
    }
  }
}

TEST_CASE("sum_squares sums x squared in double over any layout", "[ops][reduce]") {
  // 1 + 4 + 9 + 16 + 25 + 36 = 91
  const Tensor x = arange(1, 7, 1, kFloat32).view({2, 3});
  CHECK(sum_squares(x) == 91.0);
  CHECK(sum_squares(x.t()) == 91.0);
  CHECK(sum_squares(zeros({0})) == 0.0);
  CHECK(error_message([] { sum_squares(zeros({2}, kInt64)); }).rfind("sum_squares: ", 0) == 0);
}

TEST_CASE("sum_squares of a large tensor is the same total on 1 and 2 threads", "[ops][reduce]") {
  // 100,003 elements: blocks of 16,384 summed on either thread, the last one partial.
  manual_seed(11);
  const Tensor x = randn({100003});
  const float* p = x.data_ptr<float>();
  double want = 0;
  for (int64_t i = 0; i < x.numel(); ++i) want += double(p[i]) * double(p[i]);
  const int saved = num_threads();
  set_num_threads(1);
  const double one = sum_squares(x);
  set_num_threads(2);
  const double two = sum_squares(x);
  set_num_threads(saved);
  CHECK(one == two);
  CHECK(one == Approx(want).epsilon(1e-12));
}
