// list_graph: the recorded graph below a tensor, flattened into plain items (see graph.h).
#include "autograd/graph.h"

#include <unordered_map>

#include "autograd/node.h"

namespace attic::autograd {

GraphListing list_graph(const Tensor& root, const LeafNames& names) {
  GraphListing g;
  ATTIC_CHECK(root.defined(), "list_graph: got an undefined tensor");
  std::unordered_map<const TensorImpl*, std::string> leaf_name;
  for (const auto& [name, t] : names)
    if (t.defined()) leaf_name.emplace(t.impl(), name);
  auto leaf_label = [&](const TensorImpl* impl) {
    auto it = leaf_name.find(impl);
    return it == leaf_name.end() ? std::string("leaf") : it->second;
  };

  if (!root.grad_fn()) {
    g.items.push_back({leaf_label(root.impl()), root.shape(), true, {}, root});
    return g;
  }
  std::unordered_map<const Node*, int> node_id;
  std::unordered_map<const TensorImpl*, int> leaf_id;
  std::vector<std::pair<const Node*, int>> todo;  // nodes whose inputs are not listed yet
  const Node* r = root.grad_fn().get();
  node_id[r] = 0;
  g.items.push_back({r->name(), r->out_shape, false, {}, root});
  todo.push_back({r, 0});
  while (!todo.empty()) {
    auto [n, id] = todo.back();
    todo.pop_back();
    std::vector<int> inputs;
    for (const Edge& e : n->inputs) {
      int in;
      if (e.fn) {
        auto [it, fresh] = node_id.try_emplace(e.fn.get(), int(g.items.size()));
        in = it->second;
        if (fresh) {
          g.items.push_back({e.fn->name(), e.fn->out_shape, false, {},
                             Tensor(e.fn->retained_output.lock())});
          todo.push_back({e.fn.get(), in});
        }
      } else if (auto leaf = e.leaf.lock()) {
        auto [it, fresh] = leaf_id.try_emplace(leaf.get(), int(g.items.size()));
        in = it->second;
        if (fresh) g.items.push_back({leaf_label(leaf.get()), e.shape, true, {}, Tensor(leaf)});
      } else {
        continue;  // an input that needs no gradient is not part of the graph
      }
      inputs.push_back(in);
    }
    g.items[id].inputs = std::move(inputs);
  }
  return g;
}

}  // namespace attic::autograd
