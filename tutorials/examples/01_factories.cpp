// Chapter 1: the factories that make new tensors, and how tensors print.
#include <iostream>

#include "ops/ops.h"

using namespace attic;

int main() {
  std::cout << std::boolalpha;
  std::cout << zeros({2, 3}) << "\n";
  std::cout << ones({3}, kInt64) << "\n";
  std::cout << full({2, 2}, 0.5) << "\n";

  // arange(end) counts from 0; arange(start, end, step) stops before end.
  std::cout << arange(5) << "\n";
  std::cout << arange(0, 1, 0.25) << "\n";

  // from_vector: the dtype comes from the element type; the shape is given.
  std::vector<double> data{1, 2, 3, 4, 5, 6};
  std::cout << from_vector(data, {3, 2}) << "\n";

  // A 0-d tensor holds one number and has shape [].
  Tensor s = scalar_tensor(3.25);
  std::cout << s << " shape " << str(s.shape()) << "\n";

  // randn draws from N(0, 1). Seeding first makes every run print the same numbers.
  manual_seed(1337);
  Tensor r1 = randn({2, 3});
  manual_seed(1337);
  Tensor r2 = randn({2, 3});
  std::cout << r1 << "\n";
  std::cout << "same after reseeding: " << (r1.to_vector<float>() == r2.to_vector<float>())
            << "\n";

  // Printing picks one format for every value: whole numbers print as "2.",
  // others with four decimals, very large or small ones in scientific notation.
  std::cout << tensor({1, 2.5, -3}) << "\n";
  std::cout << tensor({1e-6, 1}) << "\n";
  return 0;
}
