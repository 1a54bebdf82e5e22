// Chapter 4: gradcheck on library ops. Inputs are float64 (finite differences in float32
// are too coarse); broadcasting and non-contiguous inputs take their own code paths, so
// they get their own checks.
#include <iostream>

#include "autograd/gradcheck.h"
#include "ops/ops.h"

using namespace attic;

using Inputs = std::vector<Tensor>;

int main() {
  std::cout << std::boolalpha;
  manual_seed(7);
  auto leaf = [](const Shape& shape) { return randn(shape, kFloat64).requires_grad_(); };

  // matmul: [2, 3] @ [3, 4]
  std::cout << "matmul: "
            << autograd::gradcheck([](const Inputs& in) { return matmul(in[0], in[1]); },
                                   {leaf({2, 3}), leaf({3, 4})})
            << "\n";

  // mul with broadcasting: [2, 3] * [3]; b's gradient is summed over the rows.
  std::cout << "mul, broadcast [2, 3] * [3]: "
            << autograd::gradcheck([](const Inputs& in) { return in[0] * in[1]; },
                                   {leaf({2, 3}), leaf({3})})
            << "\n";

  // A non-contiguous input: the transpose of a [4, 2] leaf has strides [1, 2].
  Tensor t = randn({4, 2}, kFloat64).t().requires_grad_();
  std::cout << "t is contiguous: " << t.is_contiguous() << "\n";
  std::cout << "matmul, non-contiguous [2, 4] @ [4, 3]: "
            << autograd::gradcheck([](const Inputs& in) { return matmul(in[0], in[1]); },
                                   {t, leaf({4, 3})})
            << "\n";

  // Reductions and a chain of ops: mean over dim 1 of tanh(x) / (1 + x^2).
  std::cout << "mean(tanh(x) / (1 + x^2), {1}): "
            << autograd::gradcheck(
                   [](const Inputs& in) {
                     return mean(tanh(in[0]) / (1 + in[0] * in[0]), {1});
                   },
                   {leaf({3, 5})})
            << "\n";

  // A view inside the function: sum of the second column of x^T x.
  std::cout << "sum(matmul(x.t(), x).select(1, 1)): "
            << autograd::gradcheck(
                   [](const Inputs& in) { return sum(matmul(in[0].t(), in[0]).select(1, 1)); },
                   {leaf({3, 2})})
            << "\n";

  // float32 inputs are refused.
  try {
    autograd::gradcheck([](const Inputs& in) { return in[0] * 2; },
                        {randn({2}).requires_grad_()});
  } catch (const Error& e) {
    std::cout << e.what() << "\n";
  }
  return 0;
}
