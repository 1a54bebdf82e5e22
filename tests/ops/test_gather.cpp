// gather and scatter_add: hand-worked forwards, gradients, gradcheck, and index errors.
#include "helpers.h"

using namespace attic;
using namespace attic::testing;

namespace {
Tensor idx(const std::vector<int64_t>& v, const Shape& shape) { return from_vector(v, shape); }
}  // namespace

TEST_CASE("gather along dim 1 picks one column per element", "[ops][gather]") {
  Tensor x = tensor({{1, 2, 3}, {4, 5, 6}});
  Tensor y = gather(x, 1, idx({2, 0, 1, 1}, {2, 2}));
  // y[i][j] = x[i][index[i][j]]: [[x02, x00], [x11, x11]] = [[3, 1], [5, 5]]
  CHECK(y.shape() == Shape{2, 2});
  CHECK_THAT(values(y), ApproxValues({3, 1, 5, 5}));
}

TEST_CASE("gather along dim 0 with an index smaller than x", "[ops][gather]") {
  Tensor x = tensor({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}});
  Tensor y = gather(x, 0, idx({2, 0}, {1, 2}));
  // y[0][j] = x[index[0][j]][j]: x[2][0] = 7, x[0][1] = 2
  CHECK(y.shape() == Shape{1, 2});
  CHECK_THAT(values(y), ApproxValues({7, 2}));
}

TEST_CASE("gather picks log-probabilities of targets (the cross-entropy pattern)", "[ops][gather]") {
  Tensor logp = tensor({{-0.5, -1.5, -2.5}, {-3.0, -0.25, -1.0}});
  Tensor y = gather(logp, -1, idx({1, 0}, {2, 1}));
  CHECK_THAT(values(y), ApproxValues({-1.5, -3.0}));
}

TEST_CASE("gather: an element picked twice gets the gradient twice", "[ops][gather]") {
  Tensor x = zeros({2, 3}).requires_grad_();
  sum(gather(x, 1, idx({0, 0, 2, 1}, {2, 2}))).backward();
  // row 0 picks column 0 twice; row 1 picks columns 2 and 1
  CHECK_THAT(values(x.grad()), ApproxValues({2, 0, 0, 0, 1, 1}));
}

TEST_CASE("gather gradcheck", "[ops][gather][gradcheck]") {
  SECTION("dim 1, repeated indices") {
    Tensor index = idx({0, 0, 3, 2, 1, 2}, {2, 3});
    Tensor x = leaf64({2, 4});
    CHECK(gradcheck([&](const std::vector<Tensor>& v) { return gather(v[0], 1, index); }, {x}));
  }
  SECTION("dim 0 of a non-contiguous input, index smaller than x") {
    Tensor index = idx({2, 2, 0, 1}, {2, 2});
    Tensor x = noncontiguous_leaf64({3, 3});
    CHECK(gradcheck([&](const std::vector<Tensor>& v) { return gather(v[0], 0, index); }, {x}));
  }
  SECTION("3-D, middle dim") {
    Tensor index = randint(0, 3, {2, 4, 2});
    Tensor x = leaf64({2, 3, 2});
    CHECK(gradcheck([&](const std::vector<Tensor>& v) { return gather(v[0], 1, index); }, {x}));
  }
}

TEST_CASE("scatter_add adds src into a copy of x at the indexed positions", "[ops][gather]") {
  Tensor x = ones({2, 3});
  Tensor src = tensor({{10, 20}, {30, 40}});
  Tensor y = scatter_add(x, 1, idx({2, 2, 0, 1}, {2, 2}), src);
  // row 0: column 2 gets 10 + 20; row 1: column 0 gets 30, column 1 gets 40
  CHECK_THAT(values(y), ApproxValues({1, 1, 31, 31, 41, 1}));
  CHECK_THAT(values(x), ApproxValues({1, 1, 1, 1, 1, 1}));
}

TEST_CASE("scatter_add along dim 0 with src larger than index", "[ops][gather]") {
  Tensor x = zeros({3, 2});
  Tensor src = tensor({{1, 2}, {3, 4}});
  Tensor y = scatter_add(x, 0, idx({2, 0}, {1, 2}), src);
  // only src[0] is used: y[2][0] += 1, y[0][1] += 2
  CHECK_THAT(values(y), ApproxValues({0, 2, 0, 0, 1, 0}));
}

TEST_CASE("scatter_add gradcheck for x and src", "[ops][gather][gradcheck]") {
  SECTION("dim 1, repeated indices") {
    Tensor index = idx({1, 1, 0, 3, 3, 3}, {2, 3});
    Tensor x = leaf64({2, 4}), src = leaf64({2, 3});
    CHECK(gradcheck([&](const std::vector<Tensor>& v) { return scatter_add(v[0], 1, index, v[1]); },
                    {x, src}));
  }
  SECTION("dim 0, non-contiguous x and src, src larger than index") {
    Tensor index = idx({2, 0, 2}, {1, 3});
    Tensor x = noncontiguous_leaf64({3, 3}), src = noncontiguous_leaf64({2, 4});
    CHECK(gradcheck([&](const std::vector<Tensor>& v) { return scatter_add(v[0], 0, index, v[1]); },
                    {x, src}));
  }
}

TEST_CASE("gather and scatter_add reject bad indices", "[ops][gather][errors]") {
  Tensor x = zeros({2, 5});
  CHECK(error_message([&] { gather(x, 1, idx({0, 7}, {2, 1})); }) ==
        "gather: index 7 is out of range for dim 1 of size 5");
  CHECK(error_message([&] { gather(x, 0, idx({-1}, {1, 1})); }) ==
        "gather: index -1 is out of range for dim 0 of size 2");
  CHECK(error_message([&] { gather(x, 1, idx({0, 1}, {2})); }) ==
        "gather: index of shape [2] must have the same number of dims as the input's shape [2, 5]");
  CHECK(error_message([&] { gather(x, 1, zeros({3, 1}, kInt64)); }) ==
        "gather: index of shape [3, 1] is larger than the input's shape [2, 5] at dim 0");
  CHECK(error_message([&] { gather(x, 1, zeros({2, 1})); }) ==
        "gather: indices must be int64, got float32");
  CHECK(error_message([&] { scatter_add(x, 1, idx({5}, {1, 1}), zeros({1, 1})); }) ==
        "scatter_add: index 5 is out of range for dim 1 of size 5");
  CHECK(error_message([&] { scatter_add(x, 1, zeros({1, 3}, kInt64), zeros({1, 2})); }) ==
        "scatter_add: index of shape [1, 3] is larger than src [1, 2] at dim 1");
}
