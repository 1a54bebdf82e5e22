// Chapter 9 exercise: dependence_pattern on causal attention, and on maps whose pattern is
// known (so that a hard-coded triangle does not pass).
#include "tests/catch.h"

#include "dependence_pattern.h"
#include "models/gpt.h"

using namespace attic;

namespace {

// D must equal want exactly: every entry is 0 or 1.
void require_pattern(const Tensor& D, const Tensor& want) {
  INFO("got\n" << D << "\nwanted\n" << want);
  REQUIRE(D.shape() == want.shape());
  CHECK(D.to_vector<float>() == want.to_vector<float>());
}

}  // namespace

TEST_CASE("dependence_pattern: causal self-attention depends on the past only") {
  manual_seed(42);
  models::GPTConfig cfg;
  cfg.block_size = 8;
  cfg.n_head = 2;
  cfg.n_embd = 8;
  nn::CausalSelfAttention attn(models::mixer_options(cfg));
  const int64_t T = 5;
  Tensor x = randn({1, T, 8});
  // the lower triangle, diagonal included: y[t] reads x[0..t]
  require_pattern(dependence_pattern([&](const Tensor& in) { return attn.forward(in); }, x),
                  tril(ones({T, T})));
  CHECK_FALSE(x.requires_grad());
}

TEST_CASE("dependence_pattern: attention without the mask depends on every position") {
  manual_seed(7);
  const int64_t T = 4;
  auto full_attention = [](const Tensor& in) {  // one head, q = k = v = in, no mask
    return matmul(softmax(matmul(in, in.transpose(1, 2)), -1), in);
  };
  require_pattern(dependence_pattern(full_attention, randn({1, T, 3})), ones({T, T}));
}

TEST_CASE("dependence_pattern: known patterns") {
  manual_seed(3);
  const int64_t T = 6;
  Tensor x = randn({1, T, 3});
  // y[t] = 2 x[t]: the diagonal
  require_pattern(dependence_pattern([](const Tensor& in) { return in * 2.0; }, x),
                  tril(ones({T, T})) - tril(ones({T, T}), -1));
  // y[t] = x[t + 1], and y[T - 1] = 0: the diagonal above the main one, last row empty
  auto next = [](const Tensor& in) {
    return cat({in.narrow(1, 1, in.size(1) - 1), zeros({1, 1, in.size(2)})}, 1);
  };
  require_pattern(dependence_pattern(next, x), triu(ones({T, T}), 1) - triu(ones({T, T}), 2));
}
