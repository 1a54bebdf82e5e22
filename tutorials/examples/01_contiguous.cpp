// Chapter 1: contiguous() and clone(), the two ways to get a tensor's own copy of the data.
#include <iostream>

#include "ops/ops.h"

using namespace attic;

int main() {
  std::cout << std::boolalpha;
  Tensor a = arange(6).view({2, 3});
  Tensor t = a.t();  // [3, 2] with strides [1, 3]: columns of a, read across memory
  std::cout << "t strides " << str(t.strides()) << ", contiguous " << t.is_contiguous() << "\n";

  // contiguous() copies into row-major order when the strides are not already row-major.
  Tensor c = t.contiguous();
  std::cout << "c strides " << str(c.strides()) << ", contiguous " << c.is_contiguous()
            << ", shares storage with a " << c.shares_storage(a) << "\n";
  std::cout << c << "\n";

  // On a tensor that is already contiguous it copies nothing and returns the same tensor.
  std::cout << "a.contiguous().is_same(a): " << a.contiguous().is_same(a) << "\n";

  // reshape() is a view when the strides allow one, and a copy when they do not.
  std::cout << "a.reshape({3, 2}) shares storage: " << a.reshape({3, 2}).shares_storage(a)
            << "\n";
  std::cout << "t.reshape({6}) shares storage: " << t.reshape({6}).shares_storage(a) << "\n";
  std::cout << t.reshape({6}) << "\n";

  // clone() always copies: writing into the clone leaves a alone.
  Tensor k = a.clone();
  k.fill_(7);
  std::cout << "k:\n" << k << "\na:\n" << a << "\n";
  return 0;
}
