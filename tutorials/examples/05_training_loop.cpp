// Chapter 5: the training loop. Fit y = 2x + 1 with a Linear(1, 1) and SGD:
// zero_grad, forward, loss, backward, step.
#include <cstdio>
#include <iostream>

#include "nn/nn.h"
#include "optim/optim.h"

using namespace attic;

int main() {
  manual_seed(0);
  nn::Linear model(1, 1);
  Tensor x = arange(-1, 1, 0.1).unsqueeze(1);  // [20, 1]: -1.0, -0.9, ..., 0.9
  Tensor y = 2 * x + 1;
  optim::SGD opt(model.parameters(), optim::SGDOptions(0.1));

  std::printf("start: w %.4f, b %.4f\n", model.weight.item<double>(), model.bias.item<double>());
  for (int step = 0; step < 200; ++step) {
    opt.zero_grad();                       // 1. clear last step's gradients
    Tensor pred = model(x);                // 2. forward
    Tensor loss = mean(pow(pred - y, 2));  // 3. loss: mean squared error
    loss.backward();                       // 4. gradients of the loss
    opt.step();                            // 5. update the parameters
    if (step % 20 == 0 && step <= 100)
      std::printf("step %3d  loss %.2e\n", step, loss.item<double>());
  }
  std::printf("end:   w %.4f, b %.4f\n", model.weight.item<double>(), model.bias.item<double>());
  return 0;
}
