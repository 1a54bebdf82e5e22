// Chapter 6's exercise, solved: the Adam / AdamW update as one loop, in float, with the
// operations in PyTorch's order so that it rounds as attic's fused kernel does.
#include "adam_kernel.h"

#include <cmath>

void my_adam_step(float* p, const float* g, float* m, float* v, int64_t n,
                  const attic::AdamStep& s) {
  const float b1 = float(s.beta1), b2 = float(s.beta2), wd = float(s.weight_decay);
  const float decay = float(1 - s.lr * s.weight_decay), eps = float(s.eps);
  // √(v / bc2) written as √v / √bc2, and lr / bc1 folded into one factor: PyTorch's order.
  const float sqrt_bc2 = float(std::sqrt(s.bias_correction2));
  const float step = float(-s.lr / s.bias_correction1);
  for (int64_t i = 0; i < n; ++i) {
    float x = p[i], gi = g[i];
    if (s.decoupled) x = x * decay;              // AdamW: shrink p, the moments never see wd
    else if (wd != 0) gi = gi + x * wd;          // Adam: L2, the decay goes through m and v
    m[i] = m[i] * b1 + gi * float(1 - s.beta1);
    v[i] = v[i] * b2 + gi * gi * float(1 - s.beta2);
    p[i] = x + m[i] / (std::sqrt(v[i]) / sqrt_bc2 + eps) * step;
  }
}
