// cat, stack, split, chunk: hand-worked forwards, gradients, views, and errors.
#include "helpers.h"

using namespace attic;
using namespace attic::testing;

TEST_CASE("cat along dim 0 stacks rows", "[ops][cat]") {
  Tensor a = tensor({{1, 2}}), b = tensor({{3, 4}, {5, 6}});
  Tensor y = cat({a, b});
  CHECK(y.shape() == Shape{3, 2});
  CHECK_THAT(values(y), ApproxValues({1, 2, 3, 4, 5, 6}));
}

TEST_CASE("cat along the last dim, three inputs, one empty", "[ops][cat]") {
  Tensor a = tensor({{1}, {2}}), b = zeros({2, 0}), c = tensor({{3, 4}, {5, 6}});
  Tensor y = cat({a, b, c}, -1);
  // rows: [1 | | 3, 4] and [2 | | 5, 6]
  CHECK(y.shape() == Shape{2, 3});
  CHECK_THAT(values(y), ApproxValues({1, 3, 4, 2, 5, 6}));
}

TEST_CASE("cat of non-contiguous inputs", "[ops][cat]") {
  // a.t() = [[1, 3], [2, 4]]
  Tensor a = tensor({{1, 2}, {3, 4}}).t(), b = tensor({{9, 8}});
  Tensor y = cat({a, b}, 0);
  CHECK_THAT(values(y), ApproxValues({1, 3, 2, 4, 9, 8}));
}

TEST_CASE("cat of int64 tensors", "[ops][cat]") {
  Tensor y = cat({from_vector<int64_t>({1, 2}), from_vector<int64_t>({3})});
  CHECK(y.dtype() == kInt64);
  CHECK(y.to_vector<int64_t>() == std::vector<int64_t>{1, 2, 3});
}

TEST_CASE("cat sends each input its slice of the gradient", "[ops][cat]") {
  Tensor a = zeros({1, 2}).requires_grad_(), b = zeros({2, 2}).requires_grad_();
  Tensor g = tensor({{1, 2}, {3, 4}, {5, 6}});
  cat({a, b}).backward(g);
  CHECK_THAT(values(a.grad()), ApproxValues({1, 2}));
  CHECK_THAT(values(b.grad()), ApproxValues({3, 4, 5, 6}));
}

TEST_CASE("cat gradcheck", "[ops][cat][gradcheck]") {
  SECTION("dim 1, one non-contiguous input, one constant") {
    Tensor a = leaf64({3, 2}), b = noncontiguous_leaf64({3, 4}), c = randn({3, 1}, kFloat64);
    CHECK(gradcheck([](const std::vector<Tensor>& v) { return cat({v[0], v[1], v[2]}, 1); },
                    {a, b, c}));
  }
  SECTION("3-D, dim 0, the same tensor twice") {
    Tensor a = leaf64({1, 2, 2}), b = leaf64({2, 2, 2});
    CHECK(gradcheck([](const std::vector<Tensor>& v) { return cat({v[0], v[1], v[0]}, 0); },
                    {a, b}));
  }
}

TEST_CASE("stack adds a new dim", "[ops][cat]") {
  Tensor a = tensor({1, 2, 3}), b = tensor({4, 5, 6});
  Tensor y0 = stack({a, b});
  CHECK(y0.shape() == Shape{2, 3});
  CHECK_THAT(values(y0), ApproxValues({1, 2, 3, 4, 5, 6}));
  Tensor y1 = stack({a, b}, -1);
  // y1[i] = [a[i], b[i]]
  CHECK(y1.shape() == Shape{3, 2});
  CHECK_THAT(values(y1), ApproxValues({1, 4, 2, 5, 3, 6}));
}

TEST_CASE("stack gradcheck", "[ops][cat][gradcheck]") {
  Tensor a = leaf64({2, 3}), b = noncontiguous_leaf64({2, 3});
  CHECK(gradcheck([](const std::vector<Tensor>& v) { return stack({v[0], v[1]}, 1); }, {a, b}));
}

TEST_CASE("split returns views of split_size, the last holding the rest", "[ops][cat]") {
  Tensor x = arange(10).view({5, 2});
  std::vector<Tensor> parts = split(x, 2);
  REQUIRE(parts.size() == 3);
  CHECK(parts[0].shape() == Shape{2, 2});
  CHECK(parts[2].shape() == Shape{1, 2});
  CHECK_THAT(values(parts[1]), ApproxValues({4, 5, 6, 7}));
  CHECK_THAT(values(parts[2]), ApproxValues({8, 9}));
  CHECK(parts[1].shares_storage(x));
  std::vector<Tensor> cols = split(x, 1, -1);
  REQUIRE(cols.size() == 2);
  CHECK_THAT(values(cols[1]), ApproxValues({1, 3, 5, 7, 9}));
}

TEST_CASE("chunk follows PyTorch's sizes", "[ops][cat]") {
  Tensor x = arange(5);
  // ceil(5 / 4) = 2, so sizes 2, 2, 1: three chunks, not four
  std::vector<Tensor> parts = chunk(x, 4);
  REQUIRE(parts.size() == 3);
  CHECK(parts[0].numel() == 2);
  CHECK(parts[1].numel() == 2);
  CHECK(parts[2].numel() == 1);
  CHECK(chunk(x, 5).size() == 5);
  CHECK(chunk(x, 1).size() == 1);
  CHECK(chunk(zeros({0, 2}), 3).size() == 3);
}

TEST_CASE("split and chunk carry the gradient back to x", "[ops][cat][gradcheck]") {
  Tensor x = noncontiguous_leaf64({3, 5});
  // q, k, v = chunk(x, 3, 1) as in attention; a weighted sum uses every chunk
  CHECK(gradcheck([](const std::vector<Tensor>& v) {
    std::vector<Tensor> p = chunk(v[0], 3, 1);  // widths 2, 2, 1
    return p[0] * p[1] + p[2] * 3.0;
  }, {x}));
  CHECK(gradcheck([](const std::vector<Tensor>& v) {
    std::vector<Tensor> p = split(v[0], 2, 0);  // heights 2, 1
    return cat({p[1], p[0]}, 0);
  }, {x}));
}

TEST_CASE("cat, stack, split and chunk reject bad arguments", "[ops][cat][errors]") {
  Tensor a = zeros({2, 3});
  CHECK(error_message([] { cat({}); }) == "cat: expects a non-empty list of tensors");
  CHECK(error_message([&] { cat({a, zeros({4, 2})}, 1); }) ==
        "cat: tensor 1 has shape [4, 2] but tensor 0 has shape [2, 3]; sizes must match "
        "except at dim 1");
  CHECK(error_message([&] { cat({a, zeros({2, 3}), zeros({3})}); }) ==
        "cat: tensor 2 has shape [3] but tensor 0 has shape [2, 3] (a different number of dims)");
  CHECK(error_message([&] { cat({a, zeros({2, 3}, kFloat64)}); }) ==
        "cat: tensor 1 has dtype float64 but tensor 0 has dtype float32");
  CHECK(error_message([&] { cat({scalar_tensor(1), scalar_tensor(2)}); }) ==
        "cat: cannot concatenate 0-d tensors; unsqueeze them or use stack");
  CHECK(error_message([&] { stack({a, zeros({3, 2})}); }) ==
        "stack: tensor 1 has shape [3, 2] but tensor 0 has shape [2, 3]; all must have the "
        "same shape");
  CHECK(error_message([&] { split(a, 0); }) == "split: split_size must be positive, got 0");
  CHECK(error_message([&] { chunk(a, -1); }) == "chunk: chunks must be positive, got -1");
}
