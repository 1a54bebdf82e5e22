// Chapter 16: anomaly mode finds the op that made the first NaN or Inf.
//   1. a forward NaN: a poisoned input reaches an op;
//   2. a backward-only Inf: d√x/dx = 1 / (2√x) is infinite at x = 0, though √0 = 0 is fine.
#include <iostream>
#include <limits>

#include "autograd/anomaly_mode.h"
#include "ops/ops.h"

using namespace attic;

int main() {
  Tensor w = tensor({0.5, -1.0, 2.0}).requires_grad_();
  Tensor poisoned = tensor({1.0, std::numeric_limits<double>::quiet_NaN(), 3.0});

  // Without anomaly mode the NaN spreads silently into the loss and every gradient.
  Tensor loss = sum(w * poisoned);
  loss.backward();
  std::cout << "loss " << loss.item<float>() << ", w.grad " << w.grad() << "\n\n";

  autograd::DetectAnomalyGuard anomaly;
  try {
    Tensor h = exp(w);            // op #1: finite
    Tensor bad = h * poisoned;    // op #2: NaN
    std::cout << "not reached " << bad << "\n";
  } catch (const Error& e) {
    std::cout << e.what() << "\n\n";
  }

  Tensor x = tensor({0.0, 4.0}).requires_grad_();
  Tensor w2 = w.narrow(0, 0, 2);   // op #3
  Tensor r = sum(sqrt(x) * w2);    // finite: √0 = 0
  std::cout << "forward fine: " << r.item<float>() << "\n";
  try {
    r.backward();
  } catch (const Error& e) {
    std::cout << e.what() << "\n";
  }
  return 0;
}
