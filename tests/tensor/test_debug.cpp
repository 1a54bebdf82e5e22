// attic::debug::repr: what gdb's `call attic::debug::repr(t)` prints.
#include "helpers.h"
#include "tensor/debug.h"

using namespace attic;

TEST_CASE("debug: repr gives metadata on one line, then the values", "[debug]") {
  Tensor a = tensor({{1, 2}, {3, 4}}).requires_grad_();
  // a @ a = [[1·1 + 2·3, 1·2 + 2·4], [3·1 + 4·3, 3·2 + 4·4]] = [[7, 10], [15, 22]];
  // .t() is a view with swapped strides, recorded as a PermuteBackward.
  Tensor y = matmul(a, a).t();
  CHECK(debug::repr(y) ==
        "Tensor [2, 2] float32 cpu strides=[1, 2] offset=0 requires_grad=true "
        "grad_fn=PermuteBackward grad=none\n"
        "tensor([[ 7., 15.],\n"
        "        [10., 22.]], grad_fn=<PermuteBackward>)\n");
  sum(y).backward();
  CHECK(debug::repr(a).find("grad_fn=none grad=[2, 2]\n") != std::string::npos);
  CHECK(debug::repr(Tensor()) == "Tensor (undefined)\n");
}
