// The autograd graph as a picture, in the spirit of micrograd's draw_dot:
//
//   viz::write_graph_svg(loss, "graph.svg");  // Graphviz's layout if `dot` is on PATH,
//                                             // else attic's own layered layout
//
// The graph comes from autograd::list_graph (autograd/graph.h); this file only draws it.
#pragma once

#include <string>

#include "autograd/graph.h"

namespace attic::viz {

// An SVG drawn by attic itself: columns by distance from the leaves, no Graphviz needed.
std::string to_svg(const Tensor& root, const autograd::LeafNames& names = {});
// Writes path: through Graphviz (`dot -Tsvg`) when it is installed, else to_svg. Returns
// true when Graphviz drew it. Throws attic::Error when the file cannot be written.
bool write_graph_svg(const Tensor& root, const std::string& path,
                     const autograd::LeafNames& names = {});

}  // namespace attic::viz
