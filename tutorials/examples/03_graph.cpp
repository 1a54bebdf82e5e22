// Chapter 3: every op on a tensor that requires grad records a Node; the nodes and their
// edges form the graph that backward() walks.
#include <iostream>
#include <string>

#include "autograd/node.h"
#include "ops/ops.h"

using namespace attic;

Tensor a, b, k;  // the leaves, global so that print_graph can name them

// Prints node, then, one level deeper, where each of its input edges leads.
void print_graph(const std::shared_ptr<autograd::Node>& node, int depth) {
  const std::string indent(size_t(2 * depth), ' ');
  std::cout << indent << node->name() << "\n";
  for (const autograd::Edge& e : node->inputs) {
    if (e.fn) print_graph(e.fn, depth + 1);
    else if (!e.leaf.expired())  // edges hold leaves weakly: lock() gives the leaf's TensorImpl
      std::cout << indent << "  leaf " << (e.leaf.lock() == a.impl_ptr() ? "a" : "b") << "\n";
    else std::cout << indent << "  (input needs no gradient)\n";
  }
}

int main() {
  std::cout << std::boolalpha;
  a = scalar_tensor(2).requires_grad_();
  b = scalar_tensor(3).requires_grad_();
  k = scalar_tensor(5);  // a constant: requires_grad is false

  Tensor u = a * b;
  Tensor y = u + k;
  std::cout << "a = " << a << "\nk = " << k << "\nu = " << u << "\ny = " << y << "\n";
  std::cout << "a.is_leaf() " << a.is_leaf() << ", u.is_leaf() " << u.is_leaf()
            << ", k.requires_grad() " << k.requires_grad() << "\n";

  // y.grad_fn() is the AddBackward node; its edges lead to u's node and to nothing for k.
  print_graph(y.grad_fn(), 0);

  // The graph is built as the code runs: a branch taken or not changes the graph.
  Tensor z = y.item<float>() > 10 ? y * a : y + a;
  std::cout << "z = " << z << "\n";
  return 0;
}
