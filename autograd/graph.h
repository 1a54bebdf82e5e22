// Seeing the graph that backward will walk, in the spirit of micrograd's draw_dot:
//
//   autograd::print_graph(loss);                 // an indented tree on stdout
//   std::string dot = autograd::to_dot(loss);    // Graphviz DOT text
//
// viz/graph_svg.h draws the same listing as a picture (viz::write_graph_svg).
//
// Nodes print as their name and output shape ("MatmulBackward [4, 2]"); leaves as "leaf"
// and their shape, or by name when `names` lists them (model.named_parameters()).
#pragma once

#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include "tensor/tensor.h"

namespace attic::autograd {

using LeafNames = std::vector<std::pair<std::string, Tensor>>;

// The graph below root as plain data: what print_graph, to_dot and viz::to_svg draw.
struct GraphItem {
  std::string label;     // "MatmulBackward" or "leaf" or a leaf's name
  Shape shape;           // the node's output shape, or the leaf's shape
  bool is_leaf = false;
  std::vector<int> inputs;  // items feeding this one, in the node's input order
  // The tensor the item stands for, where the graph can reach it: a leaf, the root, or a
  // node's output kept by retain_grad(). Undefined for other nodes (a node holds no
  // reference to its output).
  Tensor tensor;
};
struct GraphListing {
  std::vector<GraphItem> items;  // items[0] is the root; each item appears once
};
// root: any tensor. A tensor with no grad_fn gives one item (the leaf itself). Iterative:
// a graph of any depth is fine.
GraphListing list_graph(const Tensor& root, const LeafNames& names = {});

// The tree from root down, inputs below their consumer ("├─ ", "└─ "); a node reached a
// second time prints "(above)" instead of its inputs again.
std::string graph_string(const Tensor& root, const LeafNames& names = {});
void print_graph(const Tensor& root, const LeafNames& names = {});  // graph_string to stdout
void print_graph(const Tensor& root, std::ostream& os, const LeafNames& names = {});

// DOT: one box per node, an ellipse per leaf, edges in the direction data flows.
std::string to_dot(const Tensor& root, const LeafNames& names = {});

}  // namespace attic::autograd
