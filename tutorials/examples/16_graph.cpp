// Chapter 16: the graph behind a loss, printed as a tree, as DOT, and drawn as an SVG.
//   h = tanh(x W + b),  loss = mean((h - y)²)
#include <filesystem>
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
  // Graphviz's layout when `dot` is installed, attic's own otherwise.
  const std::string path =
      (std::filesystem::temp_directory_path() / "attic_chapter9_graph.svg").string();
  viz::write_graph_svg(loss, path, {{"W", W}, {"b", b}});
  std::cout << "\nwrote attic_chapter9_graph.svg in the temporary folder\n";
  return 0;
}
