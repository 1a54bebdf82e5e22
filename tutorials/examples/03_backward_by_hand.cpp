// Chapter 3: y = (a b + c)^2 differentiated on paper, then by attic.
//   u = a b + c = 2 * 3 + 1 = 7,  y = u^2 = 49
//   dy/du = 2u = 14
//   dy/da = dy/du * b = 14 * 3 = 42
//   dy/db = dy/du * a = 14 * 2 = 28
//   dy/dc = dy/du * 1 = 14
#include <iostream>

#include "ops/ops.h"

using namespace attic;

int main() {
  std::cout << std::boolalpha;
  Tensor a = scalar_tensor(2).requires_grad_();
  Tensor b = scalar_tensor(3).requires_grad_();
  Tensor c = scalar_tensor(1).requires_grad_();

  Tensor u = a * b + c;
  u.retain_grad();  // u is not a leaf: without this, its .grad is not kept
  Tensor y = pow(u, 2);
  std::cout << "u = " << u << "\ny = " << y << "\n";

  y.backward();  // y has one element, so the starting gradient dy/dy = 1 is implied
  std::cout << "dy/da = " << a.grad() << "\n";
  std::cout << "dy/db = " << b.grad() << "\n";
  std::cout << "dy/dc = " << c.grad() << "\n";
  std::cout << "dy/du = " << u.grad() << "\n";

  // y itself is neither a leaf nor retained, so it keeps no .grad.
  std::cout << "y.grad() defined: " << y.grad().defined() << "\n";
  return 0;
}
