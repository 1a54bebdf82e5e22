// The autograd graph as a picture, in the spirit of micrograd's draw_dot:
//
//   viz::write_graph_svg(loss, "graph.svg");  // Graphviz's layout if `dot` is on PATH,
//                                             // else attic's own layered layout
//   std::string svg = viz::to_svg(L, names, {.values = true});  // boxes with data and grad
//
// The graph comes from autograd::list_graph (autograd/graph.h); this file only draws it.
#pragma once

#include <cstdint>
#include <string>

#include "autograd/graph.h"

namespace attic::viz {

// What each box shows besides its label and shape.
struct GraphStyle {
  // The item's tensor as micrograd's records ("data 2.0000 | grad -1.5000"): its values
  // and, once a backward has reached it, its .grad. The tensor is known for leaves, the
  // root and outputs that called retain_grad() (autograd::GraphItem::tensor); to draw it
  // after backward, keep the graph (backward(Tensor(), true)). With values, names may
  // also name such a non-leaf tensor: its box reads "e: MulBackward".
  bool values = false;
  int64_t max_elements = 4;  // a larger tensor shows "data (n values)"
};

// An SVG drawn by attic itself: columns by distance from the leaves, no Graphviz needed.
std::string to_svg(const Tensor& root, const autograd::LeafNames& names = {},
                   const GraphStyle& style = {});
// Writes path: through Graphviz (`dot -Tsvg`) when it is installed, else to_svg. Returns
// true when Graphviz drew it. Throws attic::Error when the file cannot be written.
bool write_graph_svg(const Tensor& root, const std::string& path,
                     const autograd::LeafNames& names = {});

}  // namespace attic::viz
