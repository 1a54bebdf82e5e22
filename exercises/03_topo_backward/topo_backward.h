// Chapter 3's exercise: backward written by you, in the style of micrograd's
// Value.backward(): order the nodes with a depth-first search, then walk them from the root
// to the leaves, calling each node's backward once.
#pragma once

#include <vector>

#include "autograd/node.h"

namespace exercise {

// root: a tensor made by ops (root.grad_fn() is set). The nodes reachable from
// root.grad_fn() through the edges' fn pointers, each once, in DFS post-order: a node comes
// after every node that one of its edges leads to (after the nodes that made its inputs),
// so root.grad_fn() comes last. This is micrograd's build_topo.
std::vector<attic::autograd::Node*> topo_order(const attic::Tensor& root);

// root: a one-element tensor made by ops. Backpropagates d root / d root = 1:
//   1. grad[root.grad_fn()] = ones_like(root);
//   2. for each node n in reversed topo_order(root): grads = n->backward(grad[n]); the
//      gradient grads[i] goes where n->inputs[i] leads: summed into grad[e.fn] for a node,
//      ADDED into the leaf's .grad for a leaf (e.leaf), dropped for an input that needs none.
// Does not record the gradients (NoGradGuard) and does not free the graph, so attic's own
// backward() can run on the same graph afterwards.
void my_backward(const attic::Tensor& root);

}  // namespace exercise
