// Chapter 2: a mistake with shapes, dtypes or indices throws attic::Error, whose message
// names the op and the values involved.
#include <functional>
#include <iostream>

#include "ops/ops.h"

using namespace attic;

// Runs f and prints the message of the attic::Error it throws.
void try_it(const char* what, const std::function<void()>& f) {
  try {
    f();
    std::cout << what << ": no error\n";
  } catch (const Error& e) {
    std::cout << what << ":\n  " << e.what() << "\n";
  }
}

int main() {
  Tensor a = ones({2, 3});
  Tensor b = ones({4, 5});

  try_it("matmul [2, 3] @ [4, 5]", [&] { matmul(a, b); });
  try_it("add [2, 3] + [4, 5]", [&] { add(a, b); });
  try_it("view of a transpose", [&] { a.t().view({6}); });
  try_it("select past the end", [&] { a.select(0, 2); });
  try_it("matmul on int64", [&] { matmul(ones({2, 2}, kInt64), ones({2, 2}, kInt64)); });
  try_it("from_vector too short", [&] { from_vector(std::vector<float>{1, 2, 3}, {2, 2}); });

  // The fix for the view: copy into row-major order first, or let reshape copy.
  try_it("contiguous then view", [&] { a.t().contiguous().view({6}); });
  return 0;
}
