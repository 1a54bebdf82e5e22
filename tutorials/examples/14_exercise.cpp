// Chapter 14 exercise, solved: GELU's backward fused into one loop, checked against autograd.
//   gelu(x) = x Φ(x),  Φ(x) = (1 + erf(x / √2)) / 2,  φ(x) = e^(-x²/2) / √(2π)
//   dx = g · (Φ(x) + x φ(x))
// Composed from ops, that is erf, +, ·, ·, exp, ·, ·, +, · : nine passes and eight
// temporaries; fused, it is one pass that reads g and x and writes dx.
#include <cmath>
#include <cstdio>
#include <vector>

#include "ops/ops.h"

using namespace attic;

// g, x, dx: [n] contiguous.
void gelu_backward(const float* g, const float* x, float* dx, int64_t n) {
  const float inv_sqrt2 = 0.70710678f, inv_sqrt_2pi = 0.39894228f;
  for (int64_t i = 0; i < n; ++i) {
    const float cdf = 0.5f * (1.0f + std::erf(x[i] * inv_sqrt2));
    const float pdf = inv_sqrt_2pi * std::exp(-0.5f * x[i] * x[i]);
    dx[i] = g[i] * (cdf + x[i] * pdf);
  }
}

int main() {
  manual_seed(3);
  const Tensor x = (randn({4096}) * 3.0).requires_grad_();
  const Tensor g = randn({4096});
  gelu(x).backward(g);  // autograd: x.grad = g · gelu'(x)

  const std::vector<float> xs = x.to_vector<float>(), gs = g.to_vector<float>();
  std::vector<float> dx(xs.size());
  gelu_backward(gs.data(), xs.data(), dx.data(), int64_t(xs.size()));

  const std::vector<float> want = x.grad().to_vector<float>();
  double worst = 0;
  for (size_t i = 0; i < dx.size(); ++i)
    worst = std::max(worst, double(std::fabs(dx[i] - want[i])) / (1.0 + std::fabs(want[i])));
  std::printf("fused loop matches autograd to 1e-5: %s\n", worst < 1e-5 ? "yes" : "no");
  // At the tails gelu' is 0 (x -> -inf) or 1 (x -> +inf).
  float tails[2], g1[2] = {1, 1}, xt[2] = {-12, 12};
  gelu_backward(g1, xt, tails, 2);
  std::printf("gelu'(-12) is 0 and gelu'(12) is 1, to 1e-6: %s\n",
              std::fabs(tails[0]) < 1e-6f && std::fabs(tails[1] - 1) < 1e-6f ? "yes" : "no");
  return 0;
}
