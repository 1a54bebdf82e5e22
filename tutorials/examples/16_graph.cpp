// Chapter 16: the graph behind a loss, printed as a tree, as DOT, and drawn as an SVG.
//   h = tanh(x W + b),  loss = mean((h - y)²)
#include <fstream>
#include <iostream>

#include "viz/graph_svg.h"
#include "ops/ops.h"

using namespace attic;

int main() {
  manual_seed(0);
  Tensor x = randn({4, 3});                      // a batch: no gradient needed
  Tensor W = randn({3, 2}).requires_grad_();
  Tensor b = zeros({2}).requires_grad_();
  Tensor y = randn({4, 2});
  Tensor h = tanh(matmul(x, W) + b);
  Tensor loss = mean(pow(h - y, 2));

  autograd::print_graph(loss, {{"W", W}, {"b", b}});
  std::cout << "\n" << autograd::to_dot(loss, {{"W", W}, {"b", b}});
  // attic's own layout (viz::to_svg), the same picture on every machine. write_graph_svg
  // would use Graphviz's `dot` where it is installed, whose layout crosses fewer edges.
  std::ofstream("16_graph.svg") << viz::to_svg(loss, {{"W", W}, {"b", b}});
  std::cout << "\nwrote 16_graph.svg\n";
  return 0;
}
