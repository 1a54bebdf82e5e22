// index_select and index_add: hand-worked forwards, gradients (repeated indices add up),
// gradcheck, and the errors for bad indices.
#include "helpers.h"

using namespace attic;
using namespace attic::testing;

namespace {
Tensor idx(const std::vector<int64_t>& v) { return from_vector(v); }
}  // namespace

TEST_CASE("index_select picks rows along dim 0, repeating as asked", "[ops][index]") {
  Tensor x = tensor({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}});
  Tensor y = index_select(x, 0, idx({2, 0, 2}));
  // rows 2, 0, 2 of x
  CHECK(y.shape() == Shape{3, 3});
  CHECK_THAT(values(y), ApproxValues({7, 8, 9, 1, 2, 3, 7, 8, 9}));
}

TEST_CASE("index_select along the last dim with a negative dim", "[ops][index]") {
  Tensor x = tensor({{1, 2, 3}, {4, 5, 6}});
  Tensor y = index_select(x, -1, idx({1, 1, 0}));
  // columns 1, 1, 0: [[2, 2, 1], [5, 5, 4]]
  CHECK(y.shape() == Shape{2, 3});
  CHECK_THAT(values(y), ApproxValues({2, 2, 1, 5, 5, 4}));
}

TEST_CASE("index_select of a non-contiguous input and index", "[ops][index]") {
  // x.t() = [[1, 4], [2, 5], [3, 6]]; [2, 0, 1, 9] read with stride 2 is [2, 1]
  Tensor x = tensor({{1, 2, 3}, {4, 5, 6}}).t();
  Tensor index = idx({2, 0, 1, 9}).slice(0, 0, 4, 2);
  REQUIRE_FALSE(index.is_contiguous());
  Tensor y = index_select(x, 0, index);
  CHECK_THAT(values(y), ApproxValues({3, 6, 2, 5}));
}

TEST_CASE("index_select: a row picked twice gets the gradient twice", "[ops][index]") {
  Tensor x = ones({3, 2}).requires_grad_();
  sum(index_select(x, 0, idx({0, 0, 2}))).backward();
  // row 0 was picked twice, row 1 never, row 2 once
  CHECK_THAT(values(x.grad()), ApproxValues({2, 2, 0, 0, 1, 1}));
}

TEST_CASE("index_select gradcheck", "[ops][index][gradcheck]") {
  Tensor index = idx({1, 0, 1, 3});
  SECTION("dim 0, repeated indices") {
    Tensor x = leaf64({4, 3});
    CHECK(gradcheck([&](const std::vector<Tensor>& v) { return index_select(v[0], 0, index); },
                    {x}));
  }
  SECTION("dim 1 of a non-contiguous input") {
    Tensor x = noncontiguous_leaf64({2, 4});
    CHECK(gradcheck([&](const std::vector<Tensor>& v) { return index_select(v[0], 1, index); },
                    {x}));
  }
  SECTION("the middle dim of a 3-D input") {
    Tensor x = leaf64({2, 4, 2});
    CHECK(gradcheck([&](const std::vector<Tensor>& v) { return index_select(v[0], 1, index); },
                    {x}));
  }
}

TEST_CASE("index_add adds src slices into a copy of x", "[ops][index]") {
  Tensor x = tensor({{1, 1}, {1, 1}, {1, 1}});
  Tensor src = tensor({{10, 20}, {30, 40}, {50, 60}});
  Tensor y = index_add(x, 0, idx({2, 0, 2}), src);
  // row 0: 1 + [30, 40]; row 1: 1; row 2: 1 + [10, 20] + [50, 60]
  CHECK_THAT(values(y), ApproxValues({31, 41, 1, 1, 61, 81}));
  CHECK_THAT(values(x), ApproxValues({1, 1, 1, 1, 1, 1}));  // x is untouched
}

TEST_CASE("index_add along dim 1", "[ops][index]") {
  Tensor x = zeros({2, 3});
  Tensor src = tensor({{1, 2}, {3, 4}});
  Tensor y = index_add(x, 1, idx({2, 2}), src);
  // column 2 gets both columns of src: 1 + 2 = 3, 3 + 4 = 7
  CHECK_THAT(values(y), ApproxValues({0, 0, 3, 0, 0, 7}));
}

TEST_CASE("index_add gradcheck for x and src", "[ops][index][gradcheck]") {
  Tensor index = idx({3, 0, 3});
  SECTION("dim 0") {
    Tensor x = leaf64({4, 2}), src = leaf64({3, 2});
    CHECK(gradcheck([&](const std::vector<Tensor>& v) { return index_add(v[0], 0, index, v[1]); },
                    {x, src}));
  }
  SECTION("dim 1, non-contiguous x and src") {
    Tensor x = noncontiguous_leaf64({2, 4}), src = noncontiguous_leaf64({2, 3});
    CHECK(gradcheck([&](const std::vector<Tensor>& v) { return index_add(v[0], 1, index, v[1]); },
                    {x, src}));
  }
}

TEST_CASE("index_select and index_add: whole rows and slice by slice agree bit for bit",
          "[ops][index]") {
  // Dim 0 of contiguous tensors moves whole rows in one loop (the embedding's case); the same
  // values laid out transposed take the slice-by-slice path. Random float32 rows, repeated
  // indices, so the sums' order shows in the last bits.
  manual_seed(7);
  const Tensor index = idx({4, 1, 4, 0, 4, 2});
  const Tensor x = randn({5, 37}), src = randn({6, 37});
  const Tensor x_t = x.t().contiguous().t(), src_t = src.t().contiguous().t();
  REQUIRE_FALSE(x_t.is_contiguous());
  CHECK(values(index_select(x, 0, index)) == values(index_select(x_t, 0, index)));
  CHECK(values(index_add(x, 0, index, src)) == values(index_add(x_t, 0, index, src_t)));
  const Tensor xi = from_vector(std::vector<int64_t>{1, 2, 3, 4, 5, 6}).view({3, 2});
  const Tensor si = from_vector(std::vector<int64_t>{10, 20, 30, 40}).view({2, 2});
  CHECK(values(index_add(xi, 0, idx({2, 2}), si)) == std::vector<double>{1, 2, 3, 4, 45, 66});
}

TEST_CASE("index_select backward is itself differentiable", "[ops][index]") {
  // s = Σ index_select(x)², index [0, 2, 0]: row r appears c_r = 2, 0, 1 times, so
  // ds/dx_r = 2 c_r x_r = [4, 0, 2] x_r, and d(Σ ds/dx)/dx_r = 2 c_r = 4, 0, 2 again.
  Tensor x = ones({3, 2}, kFloat64).requires_grad_();
  Tensor y = index_select(x, 0, idx({0, 2, 0}));
  sum(y * y).backward(Tensor(), /*retain_graph=*/true, /*create_graph=*/true);
  Tensor gx = x.grad();
  CHECK_THAT(values(gx), ApproxValues({4, 4, 0, 0, 2, 2}));
  REQUIRE(gx.requires_grad());
  x.set_grad(Tensor());
  sum(gx).backward();
  CHECK_THAT(values(x.grad()), ApproxValues({4, 4, 0, 0, 2, 2}));
}

TEST_CASE("index_select and index_add reject bad indices", "[ops][index][errors]") {
  Tensor x = zeros({5, 2});
  CHECK(error_message([&] { index_select(x, 0, idx({1, 7})); }) ==
        "index_select: index 7 is out of range for dim 0 of size 5");
  CHECK(error_message([&] { index_select(x, 1, idx({-1})); }) ==
        "index_select: index -1 is out of range for dim 1 of size 2");
  CHECK(error_message([&] { index_select(x, 0, tensor({1})); }) ==
        "index_select: indices must be int64, got float32");
  CHECK(error_message([&] { index_select(x, 0, zeros({1, 1}, kInt64)); }) ==
        "index_select: index must be 1-D, got shape [1, 1]");
  CHECK(error_message([&] { index_select(x, 2, idx({0})); }) ==
        "index_select: dim 2 is out of range for a tensor of 2 dims (expected -2 to 1)");
  CHECK(error_message([&] { index_add(x, 0, idx({5}), zeros({1, 2})); }) ==
        "index_add: index 5 is out of range for dim 0 of size 5");
  CHECK(error_message([&] { index_add(x, 0, idx({0, 1}), zeros({2, 3})); }) ==
        "index_add: src has shape [2, 3] but x [5, 2] with 2 indices at dim 0 needs [2, 2]");
  CHECK(error_message([&] { index_add(x, 0, idx({0}), zeros({1, 2}, kFloat64)); }) ==
        "index_add: dtypes differ (float32 and float64); convert one with .to(dtype)");
}
