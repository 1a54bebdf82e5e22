// Chapter 18: moving tensors and a module between devices. It runs on any machine: with a
// GPU (and a CUDA build) the work goes there, without one it stays on the CPU, and what it
// prints is the same either way.
#include <iostream>

#include "nn/linear.h"
#include "tensor/backend.h"
#include "ops/ops.h"

using namespace attic;

int main() {
  std::cout << std::boolalpha;
  const Device dev = cuda_available() ? Device::CUDA : Device::CPU;

  // to(dev) copies the tensor into dev's memory (or returns it as it is when it is there).
  Tensor x = tensor({{1, 2}, {3, 4}});
  Tensor xd = x.to(dev);
  std::cout << "xd on dev: " << (xd.device() == dev) << "\n";

  // Every op runs on its inputs' device: the kernels come from backend_for(dev).
  Tensor y = matmul(xd, xd.t()) + 1.0;  // [[1+4, 3+8], [3+8, 9+16]] + 1
  std::cout << "y on dev: " << (y.device() == dev) << "\n";
  std::cout << y.to(Device::CPU) << "\n";  // back to the host to print

  // Gradients live where their tensors live; to() itself is differentiable.
  Tensor w = ones({2}).requires_grad_();
  Tensor loss = sum(xd * w.to(dev));  // w moves; the gradient moves back to the CPU
  loss.backward();
  std::cout << "w.grad on the CPU: " << (w.grad().device() == Device::CPU) << " "
            << w.grad() << "\n";  // column sums of x: 1 + 3, 2 + 4

  // Module::to moves every parameter in place: handles held elsewhere follow the move.
  nn::Linear lin(2, 1);
  Tensor weight = lin.weight;
  lin.to(dev);
  std::cout << "weight handle on dev: " << (weight.device() == dev) << "\n";
  std::cout << "output shape " << str(lin.forward(xd).shape()) << "\n";
  lin.to(Device::CPU);
  std::cout << "back on the CPU: " << (weight.device() == Device::CPU) << "\n";
  return 0;
}
