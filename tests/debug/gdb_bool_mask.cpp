// A bool tensor and a bfloat16 one for gdb to print through attic's pretty-printers
// (debug/gdb/attic_printers.py): tests/CMakeLists.txt breaks in attic_test_show_mask() and
// prints m, a transposed view of a mask, then in attic_test_show_half() and prints h.
#include "ops/ops.h"

// m [3, 2] bool. gdb stops here; noinline keeps the function (and its argument) there to stop in.
[[gnu::noinline]] int attic_test_show_mask(const attic::Tensor& m) { return int(m.numel()); }
// h [2] bfloat16.
[[gnu::noinline]] int attic_test_show_half(const attic::Tensor& h) { return int(h.numel()); }

int main() {
  attic::Tensor x = attic::tensor({{1, -2, 3}, {-4, 5, 6}});
  attic::Tensor m = attic::gt(x, 0.0).t();  // [[true, false], [false, true], [true, true]]
  attic::Tensor h = attic::tensor({1.5, -3.140625}).to(attic::kBFloat16);
  return attic_test_show_mask(m) == 6 && attic_test_show_half(h) == 2 ? 0 : 1;
}
