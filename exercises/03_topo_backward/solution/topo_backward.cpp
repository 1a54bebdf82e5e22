// Chapter 3 exercise, solved: a topological sort by DFS post-order (micrograd's build_topo),
// then one backward call per node, newest first. attic's engine (autograd/engine.cpp) gets
// the same order with Kahn's algorithm and no recursion.
#include "topo_backward.h"

#include <functional>
#include <unordered_map>
#include <unordered_set>

#include "autograd/grad_mode.h"
#include "ops/ops.h"

namespace exercise {

using attic::Tensor;
using attic::autograd::Edge;
using attic::autograd::Node;

// Recursive, as micrograd's is: one stack frame per node on the deepest path, fine for these
// graphs, an overflow for a chain of 100,000 ops.
std::vector<Node*> topo_order(const Tensor& root) {
  std::vector<Node*> order;
  std::unordered_set<Node*> visited;
  std::function<void(Node*)> visit = [&](Node* n) {
    if (!visited.insert(n).second) return;
    for (const Edge& e : n->inputs)
      if (e.fn) visit(e.fn.get());
    order.push_back(n);  // after everything it depends on
  };
  if (root.grad_fn()) visit(root.grad_fn().get());
  return order;
}

// a + b, where an undefined a stands for zero.
static Tensor plus(const Tensor& a, const Tensor& b) { return a.defined() ? a + b : b; }

void my_backward(const Tensor& root) {
  attic::NoGradGuard no_grad;
  const std::vector<Node*> order = topo_order(root);
  std::unordered_map<Node*, Tensor> grad;  // d root / d (the output of each node), summed
  grad[root.grad_fn().get()] = attic::ones_like(root);
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    Node* n = *it;
    const Tensor g = grad[n];  // complete: every consumer of n ran before it
    if (!g.defined()) continue;  // no consumer sent a gradient: nothing flows from here
    const std::vector<Tensor> grads = n->backward(g);
    for (size_t i = 0; i < grads.size(); ++i) {
      const Edge& e = n->inputs[i];
      if (!grads[i].defined()) continue;
      if (e.fn) {
        grad[e.fn.get()] = plus(grad[e.fn.get()], grads[i]);
      } else if (auto impl = e.leaf.lock()) {
        Tensor leaf(impl);
        // The first gradient is copied, so that .grad never aliases a tensor the graph holds.
        leaf.set_grad(leaf.grad().defined() ? leaf.grad() + grads[i] : grads[i].clone());
      }
    }
  }
}

}  // namespace exercise
