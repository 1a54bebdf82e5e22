// cumsum: inclusive prefix sums along one dim.
#include "helpers.h"

using namespace attic;
using attic::testing::error_message;
using attic::testing::gradcheck;
using attic::testing::leaf64;
using attic::testing::noncontiguous_leaf64;
using attic::testing::values;

using Inputs = std::vector<Tensor>;

TEST_CASE("cumsum of a vector", "[ops][cumsum]") {
  // [1, 1 + 2, 1 + 2 + 3, 1 + 2 + 3 + 4]
  CHECK(values(cumsum(tensor({1, 2, 3, 4}), 0)) == std::vector<double>{1, 3, 6, 10});
  CHECK(values(cumsum(tensor({1, 2, 3, 4}), -1)) == std::vector<double>{1, 3, 6, 10});
}

TEST_CASE("cumsum of a matrix along each dim", "[ops][cumsum]") {
  Tensor x = tensor({{1, 2, 3}, {4, 5, 6}});
  // down the columns: row 1 becomes [1 + 4, 2 + 5, 3 + 6]
  CHECK(values(cumsum(x, 0)) == std::vector<double>{1, 2, 3, 5, 7, 9});
  // along the rows: [1, 1 + 2, 1 + 2 + 3], [4, 4 + 5, 4 + 5 + 6]
  CHECK(values(cumsum(x, 1)) == std::vector<double>{1, 3, 6, 4, 9, 15});
  CHECK(values(cumsum(x, -1)) == std::vector<double>{1, 3, 6, 4, 9, 15});
  // x.t() = [[1, 4], [2, 5], [3, 6]] (non-contiguous): rows [1, 5], [2, 7], [3, 9]
  Tensor y = cumsum(x.t(), 1);
  CHECK(y.shape() == Shape{3, 2});
  CHECK(values(y) == std::vector<double>{1, 5, 2, 7, 3, 9});
}

TEST_CASE("cumsum of int64 is exact, of a 0-d tensor is itself", "[ops][cumsum]") {
  Tensor big = tensor({4000000000, 4000000001, -3}, kInt64);
  Tensor c = cumsum(big, 0);
  CHECK(c.dtype() == kInt64);
  CHECK(c.to_vector<int64_t>() == std::vector<int64_t>{4000000000, 8000000001, 7999999998});
  Tensor s = cumsum(scalar_tensor(2.5), 0);
  CHECK(s.dim() == 0);
  CHECK(s.item<double>() == 2.5);
  CHECK(cumsum(zeros({2, 0}), 1).shape() == Shape{2, 0});
}

TEST_CASE("cumsum of a bool tensor counts in int64", "[ops][cumsum][bool]") {
  Tensor c = cumsum(tensor({{1, 0, 1}, {0, 1, 1}}, kBool), 1);
  CHECK(c.dtype() == kInt64);
  CHECK(c.to_vector<int64_t>() == std::vector<int64_t>{1, 1, 2, 0, 1, 2});
}

TEST_CASE("cumsum gradient is the suffix sum of g", "[ops][cumsum][grad]") {
  // y = [a, a + b, a + b + c]; L = 1 y0 + 10 y1 + 100 y2
  // dL/da = 111, dL/db = 110, dL/dc = 100
  Tensor x = tensor({1, 2, 3}, kFloat64).requires_grad_();
  sum(cumsum(x, 0) * tensor({1, 10, 100}, kFloat64)).backward();
  CHECK(values(x.grad()) == std::vector<double>{111, 110, 100});
}

TEST_CASE("cumsum gradient keeps a small suffix next to a large total, in float32",
          "[ops][cumsum][grad]") {
  // g = (1e8, 0, 1): dx = (1e8 + 1, 1, 1). sum(g) − cumsum(g) + g rounds dx_1 to 0, as
  // 1e8 + 1 is 1e8 in float32.
  Tensor x = zeros({3}).requires_grad_();
  sum(cumsum(x, 0) * from_vector<float>({1e8f, 0.0f, 1.0f})).backward();
  const std::vector<float> dx = x.grad().to_vector<float>();
  CHECK(dx[1] == 1.0f);
  CHECK(dx[2] == 1.0f);
  CHECK(dx[0] == 1e8f);
}

TEST_CASE("cumsum gradcheck", "[ops][cumsum][grad]") {
  Tensor x = leaf64({3, 4, 5});
  CHECK(gradcheck([](const Inputs& v) { return cumsum(v[0], 0); }, {x}));
  CHECK(gradcheck([](const Inputs& v) { return cumsum(v[0], 1); }, {x}));
  CHECK(gradcheck([](const Inputs& v) { return cumsum(v[0], -1); }, {x}));
  Tensor nc = noncontiguous_leaf64({4, 5});
  CHECK(gradcheck([](const Inputs& v) { return cumsum(v[0], 1); }, {nc}));
  CHECK(gradcheck([](const Inputs& v) { return cumsum(v[0], 0); }, {nc}));
  Tensor s = scalar_tensor(1.5, kFloat64).requires_grad_();
  CHECK(gradcheck([](const Inputs& v) { return cumsum(v[0], 0); }, {s}));
}

TEST_CASE("cumsum rejects a dim out of range", "[ops][cumsum][errors]") {
  CHECK(error_message([] { cumsum(zeros({2, 3}), 2); }) ==
        "cumsum: dim 2 is out of range for a tensor of 2 dims (expected -2 to 1)");
  CHECK(error_message([] { cumsum(Tensor(), 0); }) == "cumsum: got an undefined tensor");
}
