// Chapter 4: turning recording off (NoGradGuard), cutting a tensor from the graph
// (detach), and choosing what requires grad (requires_grad_).
#include <iostream>

#include "autograd/grad_mode.h"
#include "ops/ops.h"

using namespace attic;

int main() {
  std::cout << std::boolalpha;
  Tensor w = tensor({1, 2, 3}).requires_grad_();

  Tensor recorded = w * 2;
  std::cout << "recorded: " << recorded << "\n";
  {
    NoGradGuard no_grad;  // until the end of this scope, no op records a node
    Tensor not_recorded = w * 2;
    std::cout << "inside NoGradGuard: " << not_recorded << "\n";
  }

  // detach(): the same numbers in the same storage, with no history and no grad.
  Tensor d = recorded.detach();
  std::cout << "detached: " << d << ", shares storage " << d.shares_storage(recorded) << "\n";

  // An in-place write is not recorded, so attic refuses it on a leaf that requires grad...
  try {
    w.add_(ones({3}));
  } catch (const Error& e) {
    std::cout << "w.add_ outside NoGradGuard: " << e.what() << "\n";
  }
  // ...but allows it under NoGradGuard. This is a gradient-descent step:
  //   loss = sum(w^2), d loss / dw = 2w = [2, 4, 6];  w -= 0.25 * grad -> [0.5, 1, 1.5]
  sum(w * w).backward();
  {
    NoGradGuard no_grad;
    w.add_(w.grad(), -0.25);
  }
  std::cout << "after one step: " << w << "\n";

  // requires_grad_ turns tracking on or off for a leaf; a non-leaf cannot stop requiring
  // grad (detach it instead).
  Tensor frozen = tensor({4, 5});
  std::cout << "frozen: " << frozen << "\n";
  frozen.requires_grad_();
  std::cout << "unfrozen: " << frozen << "\n";
  try {
    recorded.requires_grad_(false);
  } catch (const Error& e) {
    std::cout << "recorded.requires_grad_(false): " << e.what() << "\n";
  }
  return 0;
}
