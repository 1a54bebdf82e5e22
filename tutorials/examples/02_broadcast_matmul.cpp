// Chapter 2: elementwise arithmetic with broadcasting, reductions and matmul.
#include <iostream>

#include "ops/ops.h"

using namespace attic;

int main() {
  Tensor x = tensor({{1, 2, 3}, {4, 5, 6}});  // [2, 3]
  Tensor row = tensor({10, 20, 30});          // [3]
  Tensor col = tensor({{100}, {200}});        // [2, 1]

  // Same shapes: element by element.
  std::cout << x * x << "\n";
  // A number applies to every element.
  std::cout << x * 2 + 1 << "\n";

  // Broadcasting lines the shapes up at the right. [3] acts as [1, 3]; the size-1 dim
  // is repeated to 2 rows: [2, 3] + [1, 3] -> [2, 3].
  std::cout << x + row << "\n";
  // [2, 1] is repeated along the columns: [2, 3] + [2, 1] -> [2, 3].
  std::cout << x + col << "\n";
  // Both grow: [2, 1] + [3] -> [2, 3].
  std::cout << col + row << "\n";

  // Reductions: over everything, or over chosen dims.
  std::cout << sum(x) << " " << mean(x) << "\n";
  std::cout << sum(x, {0}) << "\n" << sum(x, {1}, /*keepdim=*/true) << "\n";

  // matmul: [2, 3] @ [3, 2] -> [2, 2]; out[i, j] = sum_k x[i, k] w[k, j].
  Tensor w = tensor({{1, 0}, {0, 1}, {1, 1}});
  std::cout << matmul(x, w) << "\n";

  // Batched: [4, 2, 3] @ [3, 2] -> [4, 2, 2]; w is shared by every batch entry.
  Tensor batch = x.unsqueeze(0).expand({4, 2, 3});
  std::cout << "batched shape " << str(matmul(batch, w).shape()) << "\n";

  // 1-D operands: [3] @ [3] is a dot product with shape [].
  std::cout << matmul(row, row) << "\n";
  return 0;
}
