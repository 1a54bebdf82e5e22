// Chapter 15: the program we step through in gdb. loss = sum((a @ b) * w), so the gradient
// that reaches the matmul's backward is w itself:
//   d loss / d (a @ b) = w = [[1, -1], [0.5, 2]]
//   d loss / d a = w @ bᵀ,   d loss / d b = aᵀ @ w
#include <iostream>

#include "ops/ops.h"

using namespace attic;

int main() {
  Tensor a = tensor({{1, 2, 3}, {4, 5, 6}}).requires_grad_();     // [2, 3]
  Tensor b = tensor({{1, 0}, {0, 1}, {1, 1}}).requires_grad_();    // [3, 2]
  Tensor w = tensor({{1, -1}, {0.5, 2}});                          // [2, 2]
  Tensor loss = sum(matmul(a, b) * w);
  loss.backward();  // a breakpoint in MatmulBackward::backward stops in here
  std::cout << "a.grad = " << a.grad() << "\n";
  std::cout << "b.grad = " << b.grad() << "\n";
}
