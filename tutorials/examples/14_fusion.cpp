// Chapter 14: fusion. Causal attention for one layer of the laptop GPT, written as separate
// ops and as the fused scaled_dot_product_attention: the same numbers, a fraction of the
// graph, and a fraction of the memory.
//   S = q kᵀ / √hs,  S[i][j] = -inf for j > i,  P = softmax(S),  y = P v
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>
#include <vector>

#include "autograd/node.h"
#include "tensor/cpu/cpu_backend.h"
#include "tensor/threads.h"
#include "ops/ops.h"

using namespace attic;

// The autograd nodes behind t: a walk over the grad_fn edges.
int count_nodes(const Tensor& t) {
  std::set<autograd::Node*> seen;
  std::vector<autograd::Node*> todo{t.grad_fn().get()};
  while (!todo.empty()) {
    autograd::Node* n = todo.back();
    todo.pop_back();
    if (n == nullptr || !seen.insert(n).second) continue;
    for (const autograd::Edge& e : n->inputs) todo.push_back(e.fn.get());
  }
  return int(seen.size());
}

// q, k, v [B, NH, T, hs] -> y, as karpathy/nanoGPT's model.py writes it without flash
// attention: five ops, each a pass over [T, T].
Tensor composed(const Tensor& q, const Tensor& k, const Tensor& v) {
  const int64_t T = q.size(2);
  Tensor att = matmul(q, k.transpose(-2, -1)) * (1.0 / std::sqrt(double(q.size(3))));
  att = masked_fill(att, triu(ones({T, T}, kBool), 1), -std::numeric_limits<double>::infinity());
  return matmul(softmax(att, -1), v);
}

int main() {
  // One layer of the laptop recipe: B 12, NH 4 heads, T 64, hs 32. One thread: with two, the
  // fused backward's two scratch buffers (one per thread) may or may not be alive at once.
  set_num_threads(1);
  manual_seed(0);
  const Tensor q = randn({12, 4, 64, 32}).requires_grad_();
  const Tensor k = randn({12, 4, 64, 32}).requires_grad_();
  const Tensor v = randn({12, 4, 64, 32}).requires_grad_();
  const Tensor w = randn({12, 4, 64, 32});  // loss = Σ y ⊙ w

  std::vector<Tensor> grads[2];
  for (int fused = 0; fused < 2; ++fused) {
    // Bytes of storage in use at the peak of forward + backward, beyond the inputs.
    const size_t before = cpu::live_bytes();
    cpu::reset_peak_bytes();
    Tensor y = fused ? scaled_dot_product_attention(q, k, v, {.is_causal = true})
                     : composed(q, k, v);
    const int nodes = count_nodes(y);
    sum(y * w).backward();
    std::printf("%s  %2d autograd nodes, peak %5zu KiB\n",
                fused ? "fused:   " : "composed:", nodes, (cpu::peak_bytes() - before) / 1024);
    grads[fused] = {q.grad(), k.grad(), v.grad()};
    for (const Tensor* t : {&q, &k, &v}) t->set_grad({});
  }
  double worst = 0;
  for (int i = 0; i < 3; ++i)
    worst = std::max(worst, max(abs(grads[0][size_t(i)] - grads[1][size_t(i)])).item<double>());
  std::printf("gradients agree to 1e-5: %s\n", worst < 1e-5 ? "yes" : "no");
  return 0;
}
