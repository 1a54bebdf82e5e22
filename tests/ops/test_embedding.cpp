// embedding: lookups of any index shape, gradients that add up for repeated tokens, errors.
#include "helpers.h"

using namespace attic;
using namespace attic::testing;

namespace {
// V = 4 tokens, C = 2 channels; row v = [v, 10 v]
Tensor table() { return tensor({{0, 0}, {1, 10}, {2, 20}, {3, 30}}); }
}  // namespace

TEST_CASE("embedding of a (B, T) batch gives (B, T, C)", "[ops][embedding]") {
  Tensor ids = from_vector<int64_t>({3, 1, 1, 0, 2, 3}, {2, 3});
  Tensor y = embedding(table(), ids);
  CHECK(y.shape() == Shape{2, 3, 2});
  CHECK_THAT(values(y), ApproxValues({3, 30, 1, 10, 1, 10, 0, 0, 2, 20, 3, 30}));
}

TEST_CASE("embedding of a 0-d id gives one row (C)", "[ops][embedding]") {
  Tensor y = embedding(table(), scalar_tensor(2, kInt64));
  CHECK(y.shape() == Shape{2});
  CHECK_THAT(values(y), ApproxValues({2, 20}));
}

TEST_CASE("embedding of non-contiguous ids", "[ops][embedding]") {
  // ids.t() of [[0, 1], [2, 3]] is [[0, 2], [1, 3]]
  Tensor ids = from_vector<int64_t>({0, 1, 2, 3}, {2, 2}).t();
  Tensor y = embedding(table(), ids);
  CHECK(y.shape() == Shape{2, 2, 2});
  CHECK_THAT(values(y), ApproxValues({0, 0, 2, 20, 1, 10, 3, 30}));
}

TEST_CASE("embedding: a repeated token gets the sum of its gradients", "[ops][embedding]") {
  Tensor w = zeros({4, 2}).requires_grad_();
  Tensor ids = from_vector<int64_t>({1, 3, 1, 1}, {2, 2});
  Tensor y = embedding(w, ids);
  // weights per position 1, 2, 3, 4 along the flattened ids: token 1 gets 1 + 3 + 4 = 8,
  // token 3 gets 2, tokens 0 and 2 get nothing
  Tensor g = from_vector<float>({1, 1, 2, 2, 3, 3, 4, 4}, {2, 2, 2});
  y.backward(g);
  CHECK_THAT(values(w.grad()), ApproxValues({0, 0, 8, 8, 0, 0, 2, 2}));
}

TEST_CASE("embedding gradcheck", "[ops][embedding][gradcheck]") {
  Tensor ids = from_vector<int64_t>({2, 0, 2, 2, 4, 0}, {2, 3});
  SECTION("repeated tokens") {
    Tensor w = leaf64({5, 3});
    CHECK(gradcheck([&](const std::vector<Tensor>& v) { return embedding(v[0], ids); }, {w}));
  }
  SECTION("non-contiguous weight") {
    Tensor w = noncontiguous_leaf64({5, 3});
    CHECK(gradcheck([&](const std::vector<Tensor>& v) { return embedding(v[0], ids); }, {w}));
  }
}

TEST_CASE("embedding rejects bad ids and weights", "[ops][embedding][errors]") {
  CHECK(error_message([&] { embedding(table(), from_vector<int64_t>({1, 4})); }) ==
        "embedding: token id 4 is out of range for a vocabulary of V = 4 (weight [4, 2])");
  CHECK(error_message([&] { embedding(table(), from_vector<int64_t>({-2})); }) ==
        "embedding: token id -2 is out of range for a vocabulary of V = 4 (weight [4, 2])");
  CHECK(error_message([&] { embedding(table(), tensor({1, 2})); }) ==
        "embedding: indices must be int64, got float32");
  CHECK(error_message([&] { embedding(zeros({4}), from_vector<int64_t>({1})); }) ==
        "embedding: weight must be 2-D [V, C], got shape [4]");
}
