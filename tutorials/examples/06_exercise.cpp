// Chapter 6 exercise, solved: llm.c's AdamW update (gpt2_update in train_gpt2.c) as a plain
// loop over floats, run next to optim::AdamW on the same gradients.
//   m = b1 m + (1 - b1) g,  v = b2 v + (1 - b2) g²
//   m̂ = m / (1 - b1^t),  v̂ = v / (1 - b2^t)
//   p -= lr (m̂ / (√v̂ + eps) + wd p)
#include <cmath>
#include <cstdio>
#include <vector>

#include "optim/optim.h"

using namespace attic;

// One AdamW update of params in place; t counts from 1.
void adamw_update(std::vector<float>& params, const std::vector<float>& grads,
                  std::vector<float>& m, std::vector<float>& v, int t, float lr, float b1,
                  float b2, float eps, float wd) {
  for (size_t i = 0; i < params.size(); ++i) {
    const float g = grads[i];
    m[i] = b1 * m[i] + (1 - b1) * g;
    v[i] = b2 * v[i] + (1 - b2) * g * g;
    const float m_hat = m[i] / (1 - std::pow(b1, float(t)));
    const float v_hat = v[i] / (1 - std::pow(b2, float(t)));
    params[i] -= lr * (m_hat / (std::sqrt(v_hat) + eps) + wd * params[i]);
  }
}

int main() {
  manual_seed(5);
  const int64_t n = 6;
  Tensor p = randn({n}).requires_grad_();
  std::vector<float> mine = p.to_vector<float>(), m(n, 0.0f), v(n, 0.0f);
  optim::AdamW opt({p}, optim::AdamWOptions(0.01).betas({0.9, 0.95}).weight_decay(0.1));

  for (int t = 1; t <= 3; ++t) {
    const Tensor g = randn({n});
    p.set_grad(g);
    opt.step();
    adamw_update(mine, g.to_vector<float>(), m, v, t, 0.01f, 0.9f, 0.95f, 1e-8f, 0.1f);
    const std::vector<float> lib = p.to_vector<float>();
    float worst = 0;
    for (int64_t i = 0; i < n; ++i) worst = std::max(worst, std::abs(lib[i] - mine[i]));
    std::printf("step %d: p[0] library %.6f, by hand %.6f; agree to 1e-6: %s\n", t, lib[0],
                mine[0], worst < 1e-6f ? "true" : "false");
  }
  return 0;
}
