// Chapter 16 exercise, solved: find the NaN of a layer-norm-like function written from ops,
//   n = (x - mean(x)) / √var(x),
// on a row whose values are all equal. var = 0, so √var = 0 and n = 0/0 = NaN. Anomaly mode
// names the op; print_graph shows where that op sits. The fix adds eps under the root.
#include <iostream>

#include "autograd/anomaly_mode.h"
#include "autograd/graph.h"
#include "ops/ops.h"

using namespace attic;

// x [N, C] -> [N, C], each row normalized to mean 0 and variance 1.
Tensor normalize(const Tensor& x, double eps) {
  Tensor centered = x - mean(x, {1}, true);
  return centered / sqrt(mean(centered * centered, {1}, true) + eps);
}

int main() {
  Tensor x = tensor({{1, 2, 3}, {5, 5, 5}}).requires_grad_();  // row 1: all equal
  {
    autograd::DetectAnomalyGuard anomaly;
    try {
      Tensor n = normalize(x, 0.0);
      std::cout << "not reached\n";
    } catch (const Error& e) {
      std::cout << e.what() << "\n\n";
    }
  }
  Tensor n = normalize(x, 1e-5);
  autograd::print_graph(n, {{"x", x}});
  std::cout << "with eps: " << n << "\n";
  return 0;
}
