// Chapter 3's exercise: backward written by you, in the style of micrograd's
// Value.backward(): order the nodes, then run each node's backward once. Once it passes, it
// can stand in for attic's own engine (autograd/engine_swap.h).
#pragma once

#include <vector>

#include "autograd/node.h"

namespace exercise {

// root: a tensor made by ops (root.grad_fn() is set). The nodes reachable from
// root.grad_fn() through the edges' fn pointers, each once, in topological order: a node
// comes after every node that one of its edges leads to (after the nodes that made its
// inputs), so root.grad_fn() comes last. This is micrograd's build_topo.
std::vector<attic::autograd::Node*> topo_order(const attic::Tensor& root);

// root: a one-element tensor made by ops. Backpropagates d root / d root = 1: afterwards each
// leaf that requires grad has d root / d leaf ADDED into its .grad (a leaf that needs none
// gets nothing), and each node's backward has run once, on the sum of the gradients that
// its consumers sent it. Records nothing (the gradients need no graph of their own) and
// leaves the graph whole, so that attic's own backward() can run on it afterwards.
// What you work with: Node::backward and Node::inputs, Edge::fn and Edge::leaf
// (autograd/node.h); a leaf's Tensor(impl).grad() and set_grad(); attic::NoGradGuard.
void my_backward(const attic::Tensor& root);

}  // namespace exercise
