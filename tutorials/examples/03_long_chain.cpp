// Chapter 3: a chain of 100,000 ops. The engine walks the graph with a loop and an explicit
// stack, and frees it the same way, so depth costs heap memory, never call-stack frames.
//   y = x (1 + 1/n)^n with n = 100,000:  dy/dx = (1 + 1/n)^n, close to e = 2.71828...
#include <iostream>

#include "ops/ops.h"

using namespace attic;

int main() {
  const int n = 100000;
  Tensor x = scalar_tensor(1, kFloat64).requires_grad_();
  Tensor y = x;
  for (int i = 0; i < n; ++i) y = y * (1.0 + 1.0 / n);
  std::cout << "y = " << y << "\n";
  y.backward();
  std::cout << "dy/dx = " << x.grad() << "\n";
  return 0;
}
