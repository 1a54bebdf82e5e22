// Chapter 3: a small network's graph, the order backward runs its nodes in, and a picture.
//   x [4, 3], w [3, 2], b [2]:  z = x w + b [4, 2],  loss = sum(relu(z) sigmoid(z)) []
// z is used twice (relu(z) gated by its own sigmoid), so AddBackward gets a gradient from
// two consumers and must run after both.
#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "autograd/node.h"
#include "ops/ops.h"
#include "viz/graph_svg.h"

using namespace attic;
using autograd::Node;

// Every node reachable from root through the edges (fn edges only; leaves are not nodes).
std::vector<Node*> reachable_nodes(const Tensor& root) {
  std::vector<Node*> found{root.grad_fn().get()};
  for (size_t i = 0; i < found.size(); ++i)  // found is also the queue of nodes to visit
    for (const autograd::Edge& e : found[i]->inputs)
      if (e.fn && std::find(found.begin(), found.end(), e.fn.get()) == found.end())
        found.push_back(e.fn.get());
  return found;
}

// A red badge with `number` on the top-left corner of the box labelled `label`, in an SVG
// drawn by viz::to_svg (there, each box is a <rect x=".." y=".."> followed by its label).
std::string badge(const std::string& svg, const std::string& label, int number) {
  const size_t rect = svg.rfind("<rect x=\"", svg.find(">" + label + "</text>"));
  const int x = int(std::stod(svg.substr(rect + 9)));
  const int y = int(std::stod(svg.substr(svg.find("y=\"", rect) + 3)));
  std::ostringstream os;
  os << "<circle cx=\"" << x << "\" cy=\"" << y << "\" r=\"9\" fill=\"#d62728\"/>\n<text x=\""
     << x << "\" y=\"" << y + 4 << "\" text-anchor=\"middle\" fill=\"white\">" << number
     << "</text>\n";
  return os.str();
}

int main() {
  manual_seed(0);
  Tensor x = randn({4, 3}).requires_grad_();
  Tensor w = randn({3, 2}).requires_grad_();
  Tensor b = randn({2}).requires_grad_();

  Tensor z = matmul(x, w) + b;
  Tensor h = relu(z);  // one statement each: C++ leaves the order of a * b's operands open
  Tensor s = sigmoid(z);
  Tensor loss = sum(h * s);

  const autograd::LeafNames names{{"x", x}, {"w", w}, {"b", b}};

  // The engine runs the newest node first among those whose consumers have all run. Every
  // node is created after its inputs, so that is exactly decreasing sequence_nr.
  std::vector<Node*> nodes = reachable_nodes(loss);
  std::sort(nodes.begin(), nodes.end(),
            [](Node* a, Node* c) { return a->sequence_nr > c->sequence_nr; });
  std::cout << nodes.size() << " nodes; backward runs them in this order:\n";
  // viz::to_svg draws without Graphviz, so the picture is the same on every machine.
  std::string svg = viz::to_svg(loss, names), badges;
  for (size_t i = 0; i < nodes.size(); ++i) {
    std::cout << "  " << i + 1 << ". " << nodes[i]->name() << " " << str(nodes[i]->out_shape)
              << "\n";
    badges += badge(svg, nodes[i]->name(), int(i + 1));
  }

  svg.insert(svg.rfind("</svg>"), badges);
  std::ofstream("03_topo_order.svg") << svg;
  return 0;
}
