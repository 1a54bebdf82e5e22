// matmul: 1-D, 2-D and batched products with broadcast batch dims.
#include "helpers.h"

using namespace attic;
using attic::testing::error_message;
using attic::testing::gradcheck;
using attic::testing::leaf64;
using attic::testing::noncontiguous_leaf64;
using attic::testing::values;

using Inputs = std::vector<Tensor>;

namespace {
Tensor mm(const Inputs& v) { return matmul(v[0], v[1]); }
}  // namespace

TEST_CASE("matmul of two vectors is their dot product, 0-d", "[ops][matmul]") {
  Tensor d = matmul(tensor({1, 2, 3}), tensor({4, 5, 6}));  // 4 + 10 + 18
  CHECK(d.dim() == 0);
  CHECK(d.item<double>() == 32);
}

TEST_CASE("matmul of a vector and a matrix drops the added dim", "[ops][matmul]") {
  Tensor m = tensor({{1, 2, 3}, {4, 5, 6}});
  // [1, 2] @ m = [1·1 + 2·4, 1·2 + 2·5, 1·3 + 2·6]
  Tensor vm = matmul(tensor({1, 2}), m);
  CHECK(vm.shape() == Shape{3});
  CHECK(values(vm) == std::vector<double>{9, 12, 15});
  // m @ [1, 0, -1] = [1 - 3, 4 - 6]
  Tensor mv = matmul(m, tensor({1, 0, -1}));
  CHECK(mv.shape() == Shape{2});
  CHECK(values(mv) == std::vector<double>{-2, -2});
}

TEST_CASE("matmul of two matrices", "[ops][matmul]") {
  // [[1·5 + 2·7, 1·6 + 2·8], [3·5 + 4·7, 3·6 + 4·8]]
  Tensor c = matmul(tensor({{1, 2}, {3, 4}}), tensor({{5, 6}, {7, 8}}));
  CHECK(c.shape() == Shape{2, 2});
  CHECK(values(c) == std::vector<double>{19, 22, 43, 50});
  // [2, 3] @ [3, 1]: one column, [1 + 2 + 3, 4 + 5 + 6]
  CHECK(values(matmul(tensor({{1, 2, 3}, {4, 5, 6}}), ones({3, 1}))) ==
        std::vector<double>{6, 15});
}

TEST_CASE("batched matmul broadcasts the batch dims", "[ops][matmul]") {
  // a [2, 1, 2, 2] holds I and 2I; b [3, 2, 2] holds (k + 1) B, B = [[1, 2], [3, 4]].
  // out [2, 3, 2, 2]: out[i][k] = (i + 1)(k + 1) B.
  Tensor a = tensor({{{{1, 0}, {0, 1}}}, {{{2, 0}, {0, 2}}}});
  Tensor B = tensor({{1, 2}, {3, 4}});
  Tensor b = stack({B, B * 2.0, B * 3.0});
  Tensor c = matmul(a, b);
  CHECK(c.shape() == Shape{2, 3, 2, 2});
  CHECK(values(c[0][0]) == std::vector<double>{1, 2, 3, 4});
  CHECK(values(c[1][2]) == std::vector<double>{6, 12, 18, 24});  // 2 · 3 · B
  // A matrix against a batch: [2, 2] @ [3, 2, 2] -> [3, 2, 2], each B @ (k + 1) B.
  Tensor d = matmul(B, b);
  CHECK(d.shape() == Shape{3, 2, 2});
  CHECK(values(d[1]) == std::vector<double>{14, 20, 30, 44});  // 2 · [[7, 10], [15, 22]]
}

TEST_CASE("matmul of transposed (non-contiguous) operands", "[ops][matmul]") {
  Tensor a = tensor({{1, 2}, {3, 4}, {5, 6}});  // a.t() = [[1, 3, 5], [2, 4, 6]]
  REQUIRE_FALSE(a.t().is_contiguous());
  CHECK(values(matmul(a.t(), ones({3, 1}))) == std::vector<double>{9, 12});
  // a @ a.t(): entry (i, j) is row i · row j
  CHECK(values(matmul(a, a.t())) == std::vector<double>{5, 11, 17, 11, 25, 39, 17, 39, 61});
  // a.t() @ a = [[1+9+25, 2+12+30], [2+12+30, 4+16+36]]
  CHECK(values(matmul(a.t(), a)) == std::vector<double>{35, 44, 44, 56});
}

TEST_CASE("matmul gradients of every operand form", "[ops][matmul][grad]") {
  CHECK(gradcheck(mm, {leaf64({4}), leaf64({4})}));
  CHECK(gradcheck(mm, {leaf64({3}), leaf64({3, 5})}));
  CHECK(gradcheck(mm, {leaf64({4, 3}), leaf64({3})}));
  CHECK(gradcheck(mm, {leaf64({4, 3}), leaf64({3, 5})}));
  CHECK(gradcheck(mm, {leaf64({2, 1, 3, 4}), leaf64({3, 4, 2})}));  // broadcast batch
  CHECK(gradcheck(mm, {leaf64({3}), leaf64({2, 3, 4})}));
  CHECK(gradcheck(mm, {noncontiguous_leaf64({4, 3}), noncontiguous_leaf64({3, 5})}));
  CHECK(gradcheck(mm, {noncontiguous_leaf64({2, 4, 3}), leaf64({3, 2})}));
  // a matrix times a batch: da folds the batch into one product's inner dimension
  CHECK(gradcheck(mm, {leaf64({4, 3}), leaf64({2, 2, 3, 5})}));
  CHECK(gradcheck(mm, {noncontiguous_leaf64({4, 3}), noncontiguous_leaf64({2, 3, 5})}));
}

TEST_CASE("matmul gradient by hand", "[ops][matmul][grad]") {
  // L = Σ (a @ b): dL/da = 1 @ bᵀ (row sums of b in every row), dL/db = aᵀ @ 1.
  Tensor a = tensor({{1, 2}, {3, 4}}, kFloat64).requires_grad_();
  Tensor b = tensor({{5, 6}, {7, 8}}, kFloat64).requires_grad_();
  sum(matmul(a, b)).backward();
  CHECK(values(a.grad()) == std::vector<double>{11, 15, 11, 15});
  CHECK(values(b.grad()) == std::vector<double>{4, 4, 6, 6});
}

TEST_CASE("matmul errors name both shapes", "[ops][matmul][errors]") {
  CHECK(error_message([] { matmul(zeros({4, 3}), zeros({4, 5})); }) ==
        "matmul: [4, 3] @ [4, 5]: inner dimensions 3 and 4 differ");
  CHECK(error_message([] { matmul(zeros({3}), zeros({4})); }) ==
        "matmul: [3] @ [4]: inner dimensions 3 and 4 differ");
  CHECK(error_message([] { matmul(zeros({}), zeros({3})); }) ==
        "matmul: both operands need at least 1 dim, got [] @ [3]");
  CHECK(error_message([] { matmul(zeros({2, 2, 3}), zeros({3, 3, 4})); }) ==
        "matmul: shapes [2] and [3] cannot broadcast (2 vs 3 in dim 0)");
  CHECK(error_message([] { matmul(zeros({2, 2}), zeros({2, 2}, kFloat64)); }) ==
        "matmul: dtypes differ (float32 and float64); convert one with .to(dtype)");
  CHECK(error_message([] { matmul(zeros({2, 2}, kInt64), zeros({2, 2}, kInt64)); }) ==
        "matmul: needs a floating tensor, got int64");
}
