// Chapter 2 exercise, solved: a multiplication table from broadcasting, a view into it,
// and its row sums computed two ways.
#include <iostream>

#include "ops/ops.h"

using namespace attic;

int main() {
  std::cout << std::boolalpha;
  // 1. table[i, j] = (i + 1) (j + 1): a column [4, 1] times a row [4] broadcasts to [4, 4].
  Tensor n = arange(1, 5);
  Tensor table = n.unsqueeze(1) * n;
  std::cout << table << "\n";

  // 2. The column "times 3" as a view: select dim 1, index 2. Its stride is 4, a row's length.
  Tensor times3 = table.select(1, 2);
  std::cout << times3 << " stride " << str(times3.strides()) << " shares storage "
            << times3.shares_storage(table) << "\n";

  // 3. Row sums: table @ ones([4]) equals sum over dim 1.
  Tensor by_matmul = matmul(table, ones({4}));
  Tensor by_sum = sum(table, {1});
  std::cout << by_matmul << "\n" << by_sum << "\n";
  std::cout << "equal: " << (by_matmul.to_vector<float>() == by_sum.to_vector<float>()) << "\n";
  return 0;
}
