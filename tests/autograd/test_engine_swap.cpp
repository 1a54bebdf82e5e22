// The backward engine's swap-in point (autograd/engine_swap.h): Tensor::backward() runs the
// engine installed there, with its arguments, until the guard goes.
#include "autograd/engine_swap.h"
#include "autograd/node.h"
#include "helpers.h"

using namespace attic;
using attic::testing::values;

namespace {

int calls = 0;
bool seen_retain = false;
// Counts, then runs the library's engine with the gradient doubled.
void doubling_engine(const Tensor& root, const Tensor& grad, bool retain_graph,
                     bool create_graph) {
  ++calls;
  seen_retain = retain_graph;
  const Tensor seed = grad.defined() ? grad : ones_like(root);
  autograd::run_backward(root, seed * 2.0, retain_graph, create_graph);
}

}  // namespace

TEST_CASE("Tensor::backward runs the swapped-in engine until its guard goes", "[autograd]") {
  Tensor x = tensor({1, 2}).requires_grad_();
  calls = 0;
  {
    autograd::EngineSwap swap(doubling_engine);
    sum(x * 3.0).backward({}, /*retain_graph=*/true);
  }
  CHECK(calls == 1);
  CHECK(seen_retain);
  CHECK(values(x.grad()) == std::vector<double>{6, 6});
  x.set_grad({});
  sum(x * 3.0).backward();  // the library's engine again
  CHECK(calls == 1);
  CHECK(values(x.grad()) == std::vector<double>{3, 3});
  CHECK(autograd::swap_in_engine(nullptr) == nullptr);
}
