// Chapter 2: sum_to undoes broadcasting. An input repeated along some dims gets, in
// backward, the gradient summed over those dims, back to the input's own shape.
#include <iostream>

#include "ops/ops.h"

using namespace attic;

int main() {
  std::cout << std::boolalpha;
  Tensor g = tensor({{1, 2, 3}, {4, 5, 6}});  // a gradient of shape [2, 3]
  std::cout << sum_to(g, {3}) << "\n";         // [3] was repeated over rows: sum dim 0
  std::cout << sum_to(g, {2, 1}) << "\n";      // [2, 1] over columns: sum dim 1, keep it
  std::cout << sum_to(g, {1, 3}) << "\n";      // [1, 3]: sum dim 0, keep it
  std::cout << sum_to(g, {}) << "\n";          // a number was repeated everywhere
  std::cout << sum_to(g, {2, 3}).is_same(g) << "\n";  // nothing to undo: g itself

  // The same through autograd (chapter 3): loss = Σ (x * b) with b [3] broadcast over
  // x's 2 rows, so dloss/db[j] = Σ_i x[i, j], the column sums of x.
  Tensor x = tensor({{1, 2, 3}, {4, 5, 6}});
  Tensor b = tensor({10, 20, 30}).requires_grad_();
  sum(x * b).backward();
  std::cout << "b.grad() = " << b.grad() << "\n";
  return 0;
}
