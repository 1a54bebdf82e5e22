// to_dot: the graph as Graphviz DOT text, drawn left to right as data flows (leaves on the
// left, the loss on the right), as micrograd's draw_dot draws it.
#include <sstream>

#include "autograd/graph.h"

namespace attic::autograd {

std::string to_dot(const Tensor& root, const LeafNames& names) {
  const GraphListing g = list_graph(root, names);
  std::ostringstream os;
  os << "digraph attic {\n"
     << "  rankdir=LR;\n"
     << "  node [fontname=\"monospace\", fontsize=10];\n";
  for (size_t i = 0; i < g.items.size(); ++i) {
    const GraphItem& it = g.items[i];
    // Labels hold only op names, leaf names and shapes; quotes are escaped anyway.
    std::string label;
    for (char c : it.label) label += c == '"' ? std::string("\\\"") : std::string(1, c);
    os << "  n" << i << " [label=\"" << label << "\\n" << str(it.shape) << "\", shape="
       << (it.is_leaf ? "ellipse" : "box") << "];\n";
  }
  for (size_t i = 0; i < g.items.size(); ++i)
    for (int in : g.items[i].inputs) os << "  n" << in << " -> n" << i << ";\n";
  os << "}\n";
  return os.str();
}

}  // namespace attic::autograd
