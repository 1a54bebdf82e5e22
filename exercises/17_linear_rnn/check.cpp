// The check of chapter 17's exercise: the RNN loop against LinearAttention's causal forward,
// outputs and gradients with respect to x.
#include "tests/catch.h"

#include "linear_rnn.h"
#include "tensor/threads.h"

using namespace attic;

namespace {

// The largest |a - b| over all elements.
double max_abs_diff(const Tensor& a, const Tensor& b) { return max(abs(a - b)).item<double>(); }

nn::AttentionOptions options(int64_t d, int64_t heads) {
  nn::AttentionOptions o;
  o.dim_q = o.dim_k = o.dim_v = d;
  o.num_heads = heads;
  return o;
}

}  // namespace

TEST_CASE("my_causal_linear_attention equals LinearAttention's causal forward") {
  set_num_threads(1);
  manual_seed(10);
  nn::LinearAttention la(options(12, 3), nn::FeatureMap::EluPlusOne);
  const Tensor x = randn({2, 9, 12});
  const Tensor mine = my_causal_linear_attention(la, x);
  REQUIRE(mine.shape() == x.shape());
  CHECK(max_abs_diff(mine, la.forward(x, x, x, Tensor(), true)) < 1e-5);
}

TEST_CASE("its output at t depends on positions up to t only") {
  manual_seed(11);
  nn::LinearAttention la(options(8, 2), nn::FeatureMap::EluPlusOne);
  Tensor x = randn({1, 6, 8});
  const Tensor before = my_causal_linear_attention(la, x);
  Tensor changed = x.clone();
  changed.narrow(1, 4, 2).fill_(5.0);  // change positions 4 and 5 only
  const Tensor after = my_causal_linear_attention(la, changed);
  CHECK(max_abs_diff(before.narrow(1, 0, 4), after.narrow(1, 0, 4)) < 1e-6);
  CHECK(max_abs_diff(before.narrow(1, 4, 2), after.narrow(1, 4, 2)) > 1e-3);
}

TEST_CASE("its gradients with respect to x equal the library's") {
  manual_seed(12);
  nn::LinearAttention la(options(12, 4), nn::FeatureMap::EluPlusOne);
  const Tensor x = randn({2, 7, 12});
  Tensor xa = x.detach().requires_grad_(), xb = x.detach().requires_grad_();
  sum(my_causal_linear_attention(la, xa)).backward();
  sum(la.forward(xb, xb, xb, Tensor(), true)).backward();
  CHECK(max_abs_diff(xa.grad(), xb.grad()) < 1e-4);
}
