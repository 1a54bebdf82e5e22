// The check of chapter 21's exercise: a Linformer head against full attention (k = n with
// identity projections), against one averaging slot (k = 1), its shape for k < n, and its
// gradients by gradcheck.
#include "tests/catch.h"

#include "autograd/gradcheck.h"
#include "low_rank_head.h"

using namespace attic;

namespace {

double max_abs_diff(const Tensor& a, const Tensor& b) { return max(abs(a - b)).item<double>(); }

// The n×n identity, as a [n, n] float32 tensor.
Tensor identity(int64_t n) { return tril(ones({n, n})) - tril(ones({n, n}), -1); }

}  // namespace

TEST_CASE("k = n with E = F = I is ordinary (non-causal) softmax attention") {
  manual_seed(1);
  const Tensor Q = randn({6, 4}), K = randn({6, 4}), V = randn({6, 4});
  const Tensor y = low_rank_attention(Q, K, V, identity(6), identity(6));
  REQUIRE(y.shape() == Shape{6, 4});
  CHECK(max_abs_diff(y, scaled_dot_product_attention(Q, K, V)) < 1e-5);
}

TEST_CASE("one slot that averages the sequence gives every query the mean value") {
  manual_seed(2);
  const Tensor Q = randn({5, 3}), K = randn({5, 3}), V = randn({5, 3});
  const Tensor avg = ones({1, 5}) / 5.0;
  const Tensor y = low_rank_attention(Q, K, V, avg, avg);
  const Tensor mean_v = mean(V, {0}, true);  // [1, 3]
  CHECK(max_abs_diff(y, mean_v.expand({5, 3})) < 1e-6);
}

TEST_CASE("n = 64 keys through k = 8 slots: the output keeps the queries' shape") {
  manual_seed(3);
  const Tensor Q = randn({64, 16}), K = randn({64, 16}), V = randn({64, 16});
  const Tensor E = randn({8, 64}) / 8.0, F = randn({8, 64}) / 8.0;
  CHECK(low_rank_attention(Q, K, V, E, F).shape() == Shape{64, 16});
}

TEST_CASE("its gradients with respect to Q, K, V, E and F pass gradcheck") {
  manual_seed(4);
  const TensorOptions f64(kFloat64);
  std::vector<Tensor> in = {randn({5, 3}, f64), randn({5, 3}, f64), randn({5, 3}, f64),
                            randn({2, 5}, f64), randn({2, 5}, f64)};
  for (Tensor& t : in) t.requires_grad_();
  CHECK(autograd::gradcheck(
      [](const std::vector<Tensor>& x) { return low_rank_attention(x[0], x[1], x[2], x[3], x[4]); },
      in));
}
