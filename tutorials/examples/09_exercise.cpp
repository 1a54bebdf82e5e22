// Chapter 9 exercise, solved: causality, seen in the gradient. For CausalSelfAttention with
// x [1, T, C], the output at position t may depend on x[0..t] only, so
//   d sum(y[0, t]) / d x[0, u] = 0 exactly for every u > t,
// and nonzero (almost surely, for random weights) for u <= t. Row t of the printed pattern
// marks the positions u whose gradient is nonzero: a lower triangle.
#include <iostream>

#include "models/gpt.h"

using namespace attic;

int main() {
  manual_seed(42);
  models::GPTConfig cfg;
  cfg.block_size = 8;
  cfg.n_head = 2;
  cfg.n_embd = 8;  // C = 8, hs = 4
  nn::CausalSelfAttention attn(models::mixer_options(cfg));
  const int64_t T = 5;
  Tensor x = randn({1, T, cfg.n_embd}).requires_grad_();
  Tensor y = attn.forward(x);  // [1, T, C]

  std::cout << "row t: which x[u] move sum(y[t])\n";
  for (int64_t t = 0; t < T; ++t) {
    x.set_grad(Tensor());
    sum(y.select(1, t)).backward(Tensor(), /*retain_graph=*/true);
    Tensor moved = sum(ne(x.grad(), 0.0).to(kFloat32), {2});  // [1, T]: nonzero channels
    std::cout << "t = " << t << ":";
    for (int64_t u = 0; u < T; ++u) std::cout << (moved[0][u].item<float>() > 0 ? " x" : " .");
    std::cout << "\n";
  }
  return 0;
}
