// Chapter 1: a tensor is a view (shape, strides, offset) into a block of memory (Storage).
#include <iostream>

#include "ops/ops.h"

using namespace attic;

// Prints what a Tensor handle knows about its view of the storage.
void describe(const char* name, const Tensor& t) {
  std::cout << name << ": shape " << str(t.shape()) << ", strides " << str(t.strides())
            << ", offset " << t.storage_offset() << ", dtype " << dtype_name(t.dtype())
            << ", device " << device_name(t.device()) << "\n";
}

int main() {
  std::cout << std::boolalpha;
  // Nested braces give the shape: 2 rows of 3.
  Tensor a = tensor({{1, 2, 3}, {4, 5, 6}});
  std::cout << a << "\n";
  describe("a", a);

  // Element [i, j] sits at storage index offset + i * strides[0] + j * strides[1].
  // For a: 0 + 1 * 3 + 2 * 1 = 5, the sixth number stored.
  const float* p = a.data_ptr<float>();
  std::cout << "a[1, 2] = " << p[1 * a.stride(0) + 2 * a.stride(1)] << "\n";

  // The four dtypes. Float32 computes, float64 makes gradcheck exact, int64 indexes,
  // bool masks: a comparison gives one byte per element, true or false.
  Tensor d = tensor({{1.5, 2.5}}, kFloat64);
  Tensor i = tensor({7, 8, 9}, kInt64);
  Tensor m = gt(i, 7.5);
  std::cout << d << "\n" << i << "\n" << m << "\n";
  describe("d", d);
  describe("i", i);
  describe("m", m);

  // Copying a Tensor copies the handle, not the numbers: b and a are one tensor.
  Tensor b = a;
  std::cout << "b.is_same(a): " << b.is_same(a) << ", numel " << b.numel()
            << ", bytes in storage " << b.impl()->storage->nbytes << "\n";

  // item() reads a one-element tensor; to_vector() reads them all, row-major.
  std::cout << "i[1].item<int64_t>() = " << i[1].item<int64_t>() << "\n";
  std::cout << "to_vector:";
  for (float v : a.to_vector<float>()) std::cout << " " << v;
  std::cout << "\n";
  return 0;
}
