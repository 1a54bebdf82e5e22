// Chapter 9 exercise, solved: the dependence of outputs on inputs, read off the gradient.
//
// The chapter's question: what do you expect D to be, and what would change without the causal
// mask (the masked_fill line of 9.1)?
// Answer: with the mask, the lower triangle with its diagonal: output t depends on the
// inputs 0..t, through its own query and the keys and values it may see. Without the mask
// every entry is 1: each output mixes the values of every position, and its weights depend on
// every key. The check's unmasked head is that case.
#include "dependence_pattern.h"

#include "ops/ops.h"

using namespace attic;

// f: x [1, T, C] -> y [1, T, C'];  returns D [T, T], D[t, u] = 1 where d sum(y[0, t])/dx[0, u] != 0
// One forward; then one backward per output position t, through the same graph.
Tensor dependence_pattern(const std::function<Tensor(const Tensor&)>& f, const Tensor& x) {
  const int64_t T = x.size(1);
  Tensor leaf = x.detach().clone().requires_grad_();
  Tensor y = f(leaf);
  Tensor D = zeros({T, T});
  for (int64_t t = 0; t < T; ++t) {
    leaf.set_grad(Tensor());  // gradients add up across backward calls: start from none
    sum(y.select(1, t)).backward(Tensor(), /*retain_graph=*/true);
    if (!leaf.grad().defined()) continue;  // y[0, t] does not depend on x at all
    // [T]: how many channels of x[0, u] received a nonzero gradient
    Tensor moved = sum(ne(leaf.grad().select(0, 0), 0.0).to(kFloat32), {1});
    D[t].copy_(gt(moved, 0.0).to(kFloat32));
  }
  return D;
}
