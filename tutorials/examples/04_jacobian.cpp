// Chapter 4: what backward computes, in Jacobian terms. For out = f(x) with x [n], out [m]:
//   J[i, j] = d out_i / d x_j  [m, n],   backward(g) = dx,  dx_j = Σ_i g_i J[i, j]
// f(x) = [x0 x1, x0 + x1] at x = [2, 3]:  J = [[x1, x0], [1, 1]] = [[3, 2], [1, 1]]
//   g = [1, 10]:  dx = [1*3 + 10*1, 1*2 + 10*1] = [13, 12]
// An elementwise op has a diagonal Jacobian: out = x * x has J[i, j] = 2 x_i δ_ij.
#include <iostream>

#include "ops/ops.h"

using namespace attic;

// x [2] -> [2]: [x0 x1, x0 + x1]
Tensor f(const Tensor& x) { return stack({x[0] * x[1], x[0] + x[1]}); }

int main() {
  // 1. One backward with the upstream gradient g = [1, 10]: gᵀ J, never J itself.
  Tensor x = tensor({2, 3}).requires_grad_();
  f(x).backward(tensor({1, 10}));
  std::cout << "g = [1, 10]:  dx = " << x.grad() << "\n";

  // 2. With g = e_i (1 at i, 0 elsewhere), gᵀ J is row i of J: m backwards give all of J.
  for (int i = 0; i < 2; ++i) {
    x.set_grad({});
    f(x).backward(i == 0 ? tensor({1, 0}) : tensor({0, 1}));
    std::cout << "row " << i << " of J: " << x.grad() << "\n";
  }

  // 3. Elementwise: J = diag(2 x), so gᵀ J = g * 2x, one product per element.
  x.set_grad({});
  (x * x).backward(tensor({1, 10}));
  std::cout << "x * x, g = [1, 10]:  dx = " << x.grad() << "\n";
  return 0;
}
