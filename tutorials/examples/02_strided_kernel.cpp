// Chapter 2: what the CPU kernel is handed. An op gives the backend one KTensor per operand,
// all of the output's shape; a broadcast input has stride 0 along the dims it repeats.
#include <iostream>

#include "ops/helpers.h"
#include "ops/ops.h"

using namespace attic;

// The strides the kernel walks when t is read as a tensor of the broadcast shape.
void kernel_strides(const char* name, const Tensor& t, const Shape& shape) {
  const KTensor k = detail::ktensor_as(t, shape);
  std::cout << name << " " << str(t.shape()) << " strides " << str(t.strides()) << ", read as "
            << str(shape) << ": strides " << str(k.strides) << "\n";
}

int main() {
  std::cout << std::boolalpha;
  Tensor x = arange(6).view({2, 3});
  Tensor row = tensor({10, 20, 30});
  Tensor col = tensor({{100}, {200}});
  kernel_strides("x", x, {2, 3});
  kernel_strides("row", row, {2, 3});
  kernel_strides("col", col, {2, 3});
  kernel_strides("row", row, {4, 2, 3});
  kernel_strides("x.t()", x.t(), {3, 2});

  // The backend called directly, as ops/helpers.cpp's binary_kernel does:
  // out [3, 2] = x.t() [3, 2] + col.t() [1, 2], on a fresh contiguous out.
  const Shape shape{3, 2};
  Tensor out = empty(shape);
  backend_for(Device::CPU).binary(BinaryOp::Add, detail::ktensor(out),
                                  detail::ktensor_as(x.t(), shape),
                                  detail::ktensor_as(col.t(), shape));
  std::cout << out << "\n";
  std::cout << "equals add(x.t(), col.t()): "
            << (out.to_vector<float>() == add(x.t(), col.t()).to_vector<float>()) << "\n";
  return 0;
}
