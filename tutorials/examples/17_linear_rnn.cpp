// Chapter 17: linear attention three ways (explicit kernel matrix, prefix sums, an RNN
// step by step) give the same outputs, and the RNN's state does not grow with the sequence.
#include <cstdio>
#include <iostream>

#include "nn/attention/linear_attention.h"
#include "tensor/threads.h"

using namespace attic;

double max_diff(const Tensor& a, const Tensor& b) { return max(abs(a - b)).item<double>(); }

int main() {
  std::cout << std::boolalpha;
  set_num_threads(1);
  manual_seed(10);
  nn::AttentionOptions o;
  o.dim_q = o.dim_k = o.dim_v = 8;  // d = 8, two heads of 4
  o.num_heads = 2;
  for (nn::FeatureMap fm : {nn::FeatureMap::EluPlusOne, nn::FeatureMap::Exp}) {
    nn::LinearAttention la(o, fm);
    std::cout << (fm == nn::FeatureMap::EluPlusOne ? "phi = elu + 1" : "phi = exp") << "\n";
    Tensor x = randn({1, 6, 8});  // B = 1, T = 6

    // 1. non-causal: phi(Q) (phi(K)^T V) / phi(Q) (phi(K)^T 1) against the n x n kernel matrix
    Tensor fast = la.forward(x, x, x);
    Tensor slow = la.forward_naive(x, x, x);
    std::cout << "  O(n) form == kernel form: " << (max_diff(fast, slow) < 1e-5) << "\n";

    // 2. causal: prefix sums S_t = sum_{j<=t} phi(k_j) v_j^T against the masked kernel matrix
    Tensor causal = la.forward(x, x, x, Tensor(), true);
    Tensor masked = la.forward_naive(x, x, x, Tensor(), true);
    std::cout << "  prefix-sum form == lower-triangular kernel form: "
              << (max_diff(causal, masked) < 1e-5) << "\n";

    // 3. the RNN: one token at a time, state (S, z) updated in place
    nn::LinearAttention::State state;
    double worst = 0;
    for (int64_t t = 0; t < 6; ++t) {
      Tensor xt = x.select(1, t);  // [1, 8]
      Tensor yt = la.step(state, xt, xt, xt);
      worst = std::max(worst, max_diff(yt, causal.select(1, t)));
    }
    std::cout << "  step() x 6 == prefix-sum form: " << (worst < 1e-5) << "\n";
    std::cout << "  state S " << str(state.S.shape()) << ", z " << str(state.z.shape())
              << " after 6 tokens\n";
  }

  // The state after 1000 tokens is just as big: generation costs O(1) memory per token.
  nn::LinearAttention la(o, nn::FeatureMap::EluPlusOne);
  nn::LinearAttention::State state;
  NoGradGuard no_grad;
  for (int t = 0; t < 1000; ++t) {
    Tensor xt = randn({1, 8});
    la.step(state, xt, xt, xt);
  }
  std::cout << "after 1000 tokens: S " << str(state.S.shape()) << ", z " << str(state.z.shape())
            << "\n";
  return 0;
}
