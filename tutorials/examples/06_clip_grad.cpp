// Chapter 6: clipping gradients by their global norm (nanoGPT clips at 1.0).
#include <cstdio>
#include <iostream>

#include "nn/nn.h"
#include "optim/optim.h"

using namespace attic;

int main() {
  // Two gradients, [3, 4] and [12]: as one vector their norm is √(9 + 16 + 144) = 13.
  Tensor a = zeros({2}).requires_grad_(), b = zeros({1}).requires_grad_();
  a.set_grad(tensor({3, 4}));
  b.set_grad(tensor({12}));
  double norm = optim::clip_grad_norm_({a, b}, 1.0);
  std::printf("norm before clipping: %.4f\n", norm);
  std::cout << "a.grad " << a.grad() << "\nb.grad " << b.grad() << "\n";  // each * 1/13
  std::printf("norm after clipping: %.4f\n", optim::clip_grad_norm_({a, b}, 1.0));
  // Below max_norm nothing changes.
  optim::clip_grad_norm_({a, b}, 5.0);
  std::cout << "after clipping at 5: a.grad " << a.grad() << "\n";

  // In a training loop it goes between backward and step.
  manual_seed(0);
  nn::Linear model(3, 1);
  optim::AdamW opt(model.parameters(), optim::AdamWOptions(1e-3));
  Tensor x = randn({4, 3}) * 100;  // large inputs: large gradients
  opt.zero_grad();
  mean(pow(model(x), 2)).backward();
  norm = optim::clip_grad_norm_(model.parameters(), 1.0);
  std::printf("model gradient norm %.3g, clipped to %.4f\n", norm,
              optim::clip_grad_norm_(model.parameters(), 1.0));
  opt.step();
  return 0;
}
