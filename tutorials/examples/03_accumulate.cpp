// Chapter 3: gradients ADD into .grad of leaves; retain_graph keeps a graph for a second
// backward; set_grad({}) clears a gradient.
//   y = 3 x^2 at x = 2:  dy/dx = 6x = 12
#include <iostream>

#include "ops/ops.h"

using namespace attic;

int main() {
  std::cout << std::boolalpha;
  Tensor x = scalar_tensor(2).requires_grad_();
  Tensor y = 3 * x * x;

  y.backward(Tensor(), /*retain_graph=*/true);
  std::cout << "after one backward:  " << x.grad() << "\n";
  y.backward();  // the same graph again; this one frees it
  std::cout << "after two backwards: " << x.grad() << "\n";

  // The first backward kept the graph, the second did not: a third cannot run.
  try {
    y.backward();
  } catch (const Error& e) {
    std::cout << "third backward: " << e.what() << "\n";
  }

  // Clear the gradient, build a fresh graph, and the count starts over.
  x.set_grad({});
  std::cout << "after set_grad({}): defined " << x.grad().defined() << "\n";
  Tensor y2 = 3 * x * x;
  y2.backward();
  std::cout << "fresh graph, one backward: " << x.grad() << "\n";
  return 0;
}
