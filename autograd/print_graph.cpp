// print_graph: the graph as an indented tree, the loss at the top, leaves at the bottom.
//
//   SumBackward []
//   └─ MulBackward [2, 3]
//      ├─ ExpBackward [2, 3]
//      │  └─ x [2, 3]
//      └─ x [2, 3]
#include <iostream>
#include <sstream>

#include "autograd/graph.h"

namespace attic::autograd {

std::string graph_string(const Tensor& root, const LeafNames& names) {
  const GraphListing g = list_graph(root, names);
  std::ostringstream os;
  std::vector<bool> shown(g.items.size(), false);
  struct Visit {
    int id;
    std::string prefix;  // drawn before this line's branch
    std::string branch;  // "├─ ", "└─ " or "" for the root
  };
  std::vector<Visit> stack{{0, "", ""}};  // explicit stack: any depth is fine
  while (!stack.empty()) {
    Visit v = std::move(stack.back());
    stack.pop_back();
    const GraphItem& it = g.items[v.id];
    os << v.prefix << v.branch << it.label << " " << str(it.shape);
    // A leaf reached twice is the same tensor used twice: print it again, it has no inputs.
    if (shown[v.id] && !it.is_leaf) {
      os << " (above)\n";
      continue;
    }
    os << "\n";
    shown[v.id] = true;
    const std::string child_prefix =
        v.prefix + (v.branch.empty() ? "" : v.branch == "└─ " ? "   " : "│  ");
    for (size_t k = it.inputs.size(); k-- > 0;)  // pushed last-first: popped in order
      stack.push_back({it.inputs[k], child_prefix, k + 1 == it.inputs.size() ? "└─ " : "├─ "});
  }
  return os.str();
}

void print_graph(const Tensor& root, std::ostream& os, const LeafNames& names) {
  os << graph_string(root, names);
}

void print_graph(const Tensor& root, const LeafNames& names) {
  print_graph(root, std::cout, names);
}

}  // namespace attic::autograd
