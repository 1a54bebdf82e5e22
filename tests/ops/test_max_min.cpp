// max, min (over everything and along a dim) and argmax.
#include <cmath>
#include <limits>

#include "helpers.h"

using namespace attic;
using attic::testing::ApproxValues;
using attic::testing::error_message;
using attic::testing::gradcheck;
using attic::testing::leaf64;
using attic::testing::noncontiguous_leaf64;
using attic::testing::values;

using Inputs = std::vector<Tensor>;

TEST_CASE("max and min over everything are 0-d", "[ops][max]") {
  Tensor x = tensor({{1, 5, -2}, {3, 5, 0}});
  Tensor hi = max(x), lo = min(x);
  CHECK(hi.dim() == 0);
  CHECK(hi.item<double>() == 5);
  CHECK(lo.item<double>() == -2);
  CHECK(max(x.t()).item<double>() == 5);  // non-contiguous
  CHECK(max(tensor({7, -3, 2}, kInt64)).item<int64_t>() == 7);
  CHECK(min(scalar_tensor(4.0)).item<double>() == 4);
}

TEST_CASE("max over everything: tied maxima share the gradient evenly", "[ops][max][grad]") {
  // Two elements equal the max 5, so each gets 1/2 (PyTorch does the same).
  Tensor x = tensor({{1, 5, -2}, {3, 5, 0}}, kFloat64).requires_grad_();
  max(x).backward();
  CHECK(values(x.grad()) == std::vector<double>{0, 0.5, 0, 0, 0.5, 0});
  // The min -2 is unique: all of the gradient, times the incoming 3.
  x.set_grad(Tensor());
  (min(x) * 3.0).backward();
  CHECK(values(x.grad()) == std::vector<double>{0, 0, 3, 0, 0, 0});
}

TEST_CASE("max over everything propagates NaN, and its gradient goes to the NaN", "[ops][max]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Tensor x = from_vector(std::vector<double>{1, nan, 3}).requires_grad_();
  Tensor m = max(x);
  CHECK(std::isnan(m.item<double>()));
  m.backward();
  CHECK(values(x.grad()) == std::vector<double>{0, 1, 0});
}

TEST_CASE("max and min along a dim return values and indices", "[ops][max]") {
  Tensor x = tensor({{1, 5, -2}, {3, 0, 7}});
  ValuesIndices r = max(x, 1);  // row maxima 5 at 1, 7 at 2
  CHECK(r.values.shape() == Shape{2});
  CHECK(values(r.values) == std::vector<double>{5, 7});
  CHECK(r.indices.dtype() == kInt64);
  CHECK(r.indices.to_vector<int64_t>() == std::vector<int64_t>{1, 2});
  ValuesIndices c = max(x, 0);  // column maxima: 3 (row 1), 5 (row 0), 7 (row 1)
  CHECK(values(c.values) == std::vector<double>{3, 5, 7});
  CHECK(c.indices.to_vector<int64_t>() == std::vector<int64_t>{1, 0, 1});
  ValuesIndices m = min(x, -1, /*keepdim=*/true);  // row minima -2 at 2, 0 at 1
  CHECK(m.values.shape() == Shape{2, 1});
  CHECK(m.indices.shape() == Shape{2, 1});
  CHECK(values(m.values) == std::vector<double>{-2, 0});
  CHECK(m.indices.to_vector<int64_t>() == std::vector<int64_t>{2, 1});
  // A strided view: x.t() is [[1, 3], [5, 0], [-2, 7]].
  ValuesIndices t = max(x.t(), 1);
  CHECK(values(t.values) == std::vector<double>{3, 5, 7});
  CHECK(t.indices.to_vector<int64_t>() == std::vector<int64_t>{1, 0, 1});
}

TEST_CASE("argmax picks the first of tied maxima", "[ops][max]") {
  Tensor x = tensor({{2, 2, 1}, {0, 4, 4}});
  CHECK(argmax(x, 1).to_vector<int64_t>() == std::vector<int64_t>{0, 1});
  CHECK(argmax(x, 0).to_vector<int64_t>() == std::vector<int64_t>{0, 1, 1});
  CHECK(argmax(x, 0, true).shape() == Shape{1, 3});
  CHECK(argmax(tensor({3, 9, -1}, kInt64), 0).item<int64_t>() == 1);
  Tensor xg = leaf64({2, 3});
  CHECK_FALSE(argmax(xg, 1).requires_grad());
}

TEST_CASE("max and min of bool tensors: any and all", "[ops][max][bool]") {
  Tensor m = tensor({{0, 1, 1}, {0, 0, 0}}, kBool);
  CHECK(max(m).dtype() == kBool);
  CHECK(max(m).item<bool>());
  CHECK_FALSE(min(m).item<bool>());
  ValuesIndices r = max(m, 1);
  CHECK(r.values.to_vector<bool>() == std::vector<bool>{true, false});
  CHECK(r.indices.to_vector<int64_t>() == std::vector<int64_t>{1, 0});
  CHECK(argmax(m, 0).to_vector<int64_t>() == std::vector<int64_t>{0, 0, 0});
}

TEST_CASE("max along a dim: the gradient goes to the chosen position", "[ops][max][grad]") {
  Tensor x = tensor({{1, 5, -2}, {3, 0, 7}}, kFloat64).requires_grad_();
  // L = 10 · max_row0 + 100 · max_row1
  sum(max(x, 1).values * tensor({10, 100}, kFloat64)).backward();
  CHECK(values(x.grad()) == std::vector<double>{0, 10, 0, 0, 0, 100});
  x.set_grad(Tensor());
  sum(min(x, 0, true).values).backward();  // column minima: 1, 0, -2
  CHECK(values(x.grad()) == std::vector<double>{1, 0, 1, 0, 1, 0});
}

TEST_CASE("max and min gradcheck", "[ops][max][grad]") {
  Tensor x = leaf64({3, 4, 5});
  CHECK(gradcheck([](const Inputs& v) { return max(v[0]); }, {x}));
  CHECK(gradcheck([](const Inputs& v) { return min(v[0]); }, {x}));
  CHECK(gradcheck([](const Inputs& v) { return max(v[0], 1).values; }, {x}));
  CHECK(gradcheck([](const Inputs& v) { return min(v[0], -1, true).values; }, {x}));
  CHECK(gradcheck([](const Inputs& v) { return max(v[0], 0).values; }, {x}));
  Tensor nc = noncontiguous_leaf64({4, 5});
  CHECK(gradcheck([](const Inputs& v) { return max(v[0], 1).values; }, {nc}));
  CHECK(gradcheck([](const Inputs& v) { return min(v[0]); }, {nc}));
}

TEST_CASE("max of a 0-d tensor along dim 0 is itself, at index 0", "[ops][max]") {
  Tensor s = scalar_tensor(3.0, kFloat64).requires_grad_();
  ValuesIndices r = max(s, 0);
  CHECK(r.values.dim() == 0);
  CHECK(r.values.item<double>() == 3);
  CHECK(r.indices.item<int64_t>() == 0);
  r.values.backward();
  CHECK(s.grad().item<double>() == 1);
  CHECK(error_message([&] { max(s, 1); }) ==
        "max: dim 1 is out of range for a tensor of 0 dims (expected -1 to 0)");
}

TEST_CASE("max and min reject empty reductions and bad dims", "[ops][max][errors]") {
  CHECK(error_message([] { max(zeros({0, 3})); }) ==
        "max: cannot reduce an empty tensor of shape [0, 3]");
  CHECK(error_message([] { min(zeros({2, 0}), 1); }) ==
        "min: cannot reduce dim 1 of size 0 (shape [2, 0])");
  CHECK(error_message([] { argmax(zeros({0}), 0); }) ==
        "argmax: cannot reduce dim 0 of size 0 (shape [0])");
  CHECK(error_message([] { max(zeros({2, 3}), 2); }) ==
        "max: dim 2 is out of range for a tensor of 2 dims (expected -2 to 1)");
  // Reducing a non-empty dim of an empty tensor is fine: nothing to reduce, nothing out.
  CHECK(max(zeros({0, 3}), 1).values.shape() == Shape{0});
}
