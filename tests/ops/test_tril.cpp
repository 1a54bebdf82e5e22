// tril and triu: hand-worked masks for several diagonals, batches, gradients, errors.
#include "helpers.h"

using namespace attic;
using namespace attic::testing;

namespace {
Tensor m33() { return tensor({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}); }
}  // namespace

TEST_CASE("tril keeps j - i <= diagonal", "[ops][tril]") {
  CHECK_THAT(values(tril(m33())), ApproxValues({1, 0, 0, 4, 5, 0, 7, 8, 9}));
  CHECK_THAT(values(tril(m33(), -1)), ApproxValues({0, 0, 0, 4, 0, 0, 7, 8, 0}));
  CHECK_THAT(values(tril(m33(), 1)), ApproxValues({1, 2, 0, 4, 5, 6, 7, 8, 9}));
  CHECK_THAT(values(tril(m33(), -3)), ApproxValues({0, 0, 0, 0, 0, 0, 0, 0, 0}));
}

TEST_CASE("triu keeps j - i >= diagonal", "[ops][tril]") {
  CHECK_THAT(values(triu(m33())), ApproxValues({1, 2, 3, 0, 5, 6, 0, 0, 9}));
  CHECK_THAT(values(triu(m33(), 1)), ApproxValues({0, 2, 3, 0, 0, 6, 0, 0, 0}));
  CHECK_THAT(values(triu(m33(), -1)), ApproxValues({1, 2, 3, 4, 5, 6, 0, 8, 9}));
}

TEST_CASE("tril of a batch of non-square, non-contiguous matrices", "[ops][tril]") {
  // x[b] = (b + 1) * ones(2, 3), viewed through a transpose of [2, 3, 2]
  Tensor x = (arange(1, 3).view({2, 1, 1}) * ones({2, 3, 2})).transpose(1, 2);
  REQUIRE_FALSE(x.is_contiguous());
  Tensor y = tril(x);
  CHECK(y.shape() == Shape{2, 2, 3});
  CHECK_THAT(values(y), ApproxValues({1, 0, 0, 1, 1, 0, 2, 0, 0, 2, 2, 0}));
}

TEST_CASE("tril of int64 ones is the causal mask", "[ops][tril]") {
  Tensor mask = tril(ones({3, 3}, kInt64));
  CHECK(mask.dtype() == kInt64);
  CHECK(mask.to_vector<int64_t>() == std::vector<int64_t>{1, 0, 0, 1, 1, 0, 1, 1, 1});
}

TEST_CASE("tril and triu of bool ones are bool causal masks", "[ops][tril][bool]") {
  Tensor keep = tril(ones({3, 3}, kBool));  // true where key j <= query i
  CHECK(keep.dtype() == kBool);
  CHECK(keep.to_vector<bool>() ==
        std::vector<bool>{true, false, false, true, true, false, true, true, true});
  Tensor future = triu(ones({2, 3}, kBool), 1);  // true where j > i
  CHECK(future.to_vector<bool>() == std::vector<bool>{false, true, true, false, false, true});
  // a batch, through a transposed view
  Tensor b = ones({2, 3, 2}, kBool).transpose(1, 2);
  CHECK(tril(b, -1).to_vector<bool>() ==
        std::vector<bool>{false, false, false, true, false, false,
                          false, false, false, true, false, false});
  // as masked_fill's mask
  Tensor att = masked_fill(zeros({2, 2}), triu(ones({2, 2}, kBool), 1), -1.0);
  CHECK(values(att) == std::vector<double>{0, -1, 0, 0});
}

TEST_CASE("tril passes the gradient through the kept triangle only", "[ops][tril]") {
  Tensor x = zeros({2, 2}).requires_grad_();
  tril(x).backward(tensor({{1, 2}, {3, 4}}));
  CHECK_THAT(values(x.grad()), ApproxValues({1, 0, 3, 4}));
}

TEST_CASE("tril and triu gradcheck", "[ops][tril][gradcheck]") {
  SECTION("tril, batched, non-contiguous") {
    Tensor x = noncontiguous_leaf64({2, 3, 4});
    CHECK(gradcheck([](const std::vector<Tensor>& v) { return tril(v[0], 1); }, {x}));
  }
  SECTION("triu, square") {
    Tensor x = leaf64({3, 3});
    CHECK(gradcheck([](const std::vector<Tensor>& v) { return triu(v[0], -1); }, {x}));
  }
}

TEST_CASE("tril and triu need at least 2 dims", "[ops][tril][errors]") {
  CHECK(error_message([] { tril(zeros({3})); }) ==
        "tril: needs a tensor of at least 2 dims, got shape [3]");
  CHECK(error_message([] { triu(scalar_tensor(1)); }) ==
        "triu: needs a tensor of at least 2 dims, got shape []");
}
