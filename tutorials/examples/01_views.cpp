// Chapter 1: views. Each one is a new shape, strides and offset over the same storage.
#include <iostream>

#include "ops/ops.h"

using namespace attic;

// Prints a tensor's view metadata and its values.
void show(const char* name, const Tensor& t) {
  std::cout << name << ": shape " << str(t.shape()) << ", strides " << str(t.strides())
            << ", offset " << t.storage_offset() << "\n" << t << "\n";
}

int main() {
  std::cout << std::boolalpha;
  Tensor base = arange(12).view({3, 4});  // 0..11 as 3 rows of 4
  show("base", base);

  // view/reshape: same numbers, new shape. -1 means "whatever fits".
  show("base.view({2, -1})", base.view({2, -1}));

  // transpose swaps two dims by swapping their strides; nothing moves.
  show("base.t()", base.t());

  // permute reorders any number of dims.
  Tensor cube = arange(8).view({2, 2, 2});
  show("cube.permute({2, 0, 1})", cube.permute({2, 0, 1}));

  // unsqueeze adds a size-1 dim; squeeze removes size-1 dims.
  show("base.unsqueeze(0)", base.unsqueeze(0));
  std::cout << "base.unsqueeze(0).squeeze() has shape "
            << str(base.unsqueeze(0).squeeze().shape()) << "\n";

  // narrow(dim, start, length) and slice(dim, start, end, step) move the offset
  // and scale the stride.
  show("base.narrow(1, 1, 2)", base.narrow(1, 1, 2));
  show("base.slice(1, 0, 4, 2)", base.slice(1, 0, 4, 2));

  // select(dim, index) picks one index and drops the dim; base[i] is select(0, i).
  show("base.select(1, 3)", base.select(1, 3));
  show("base[2]", base[2]);

  // expand repeats a size-1 dim with stride 0: four rows, one row of memory.
  Tensor row = tensor({10, 20, 30});
  show("row.unsqueeze(0).expand({4, 3})", row.unsqueeze(0).expand({4, 3}));

  // Every view shares storage with base, so writing through a view changes base.
  Tensor column = base.select(1, 0);
  column.fill_(-1);
  Tensor corner = base.narrow(0, 1, 2).narrow(1, 2, 2);
  corner.mul_(100);
  std::cout << "after column.fill_(-1) and corner.mul_(100):\n" << base << "\n";
  std::cout << "corner.shares_storage(base): " << corner.shares_storage(base) << "\n";
  return 0;
}
