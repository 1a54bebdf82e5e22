// A program outside the attic tree: fit y = 2x - 1 with one Linear layer and SGD.
//   x [N, 1], y [N, 1], model: y_hat = x wᵀ + b, loss = mean((y_hat - y)²)
#include <cstdio>

#include "nn/linear.h"
#include "optim/sgd.h"
#include "ops/ops.h"

using namespace attic;

int main() {
  manual_seed(0);
  Tensor x = tensor({{-1.0}, {0.0}, {1.0}, {2.0}});
  Tensor y = x * 2.0 - 1.0;
  auto fc = std::make_shared<nn::Linear>(1, 1);
  optim::SGD opt(fc->parameters(), optim::SGDOptions(0.1));
  for (int step = 0; step < 200; ++step) {
    Tensor loss = mean(pow(fc->forward(x) - y, 2.0));
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
  std::printf("w = %.3f, b = %.3f\n", fc->weight.item<float>(), fc->bias.item<float>());
}
