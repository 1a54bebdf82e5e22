// Chapter 4: one LayerNorm, two graphs. attic's layer_norm records one node with a backward
// written by hand; the same computation composed from library ops records a node per op.
// Draws both graphs, by attic's own layout (viz::to_svg): 04_layer_norm_fused.svg and
// 04_layer_norm_composed.svg.
#include <fstream>
#include <iostream>

#include "autograd/graph.h"
#include "ops/ops.h"
#include "viz/graph_svg.h"

using namespace attic;

// x [N, C], w [C], b [C] -> [N, C]: each row normalized to mean 0 and variance 1, then
// scaled by w and shifted by b, with library ops only.
Tensor layer_norm_composed(const Tensor& x, const Tensor& w, const Tensor& b, double eps) {
  Tensor xc = x - mean(x, {-1}, true);
  Tensor var = mean(xc * xc, {-1}, true);
  return xc * rsqrt(var + eps) * w + b;
}

// The nodes of t's graph (list_graph's items that are not leaves), and their names.
int count_nodes(const Tensor& t, std::string& names) {
  int n = 0;
  for (const autograd::GraphItem& item : autograd::list_graph(t).items)
    if (!item.is_leaf) names += " " + item.label, ++n;
  return n;
}

int main() {
  std::cout << std::boolalpha;
  manual_seed(0);
  Tensor x = randn({2, 4}).requires_grad_();
  Tensor w = randn({4}).requires_grad_();
  Tensor b = randn({4}).requires_grad_();
  const autograd::LeafNames names{{"x", x}, {"w", w}, {"b", b}};

  Tensor fused = layer_norm(x, w, b, 1e-5);
  Tensor composed = layer_norm_composed(x, w, b, 1e-5);
  std::string fused_names, composed_names;
  std::cout << "layer_norm: " << count_nodes(fused, fused_names) << " node:" << fused_names
            << "\n";
  std::cout << "composed: " << count_nodes(composed, composed_names) << " nodes:"
            << composed_names << "\n";
  std::cout << "same output, max |difference| < 1e-6: "
            << (max(abs(fused - composed)).item<float>() < 1e-6f) << "\n";

  std::ofstream("04_layer_norm_fused.svg") << viz::to_svg(fused, names);
  std::ofstream("04_layer_norm_composed.svg") << viz::to_svg(composed, names);
  std::cout << "wrote 04_layer_norm_fused.svg and 04_layer_norm_composed.svg\n";
  return 0;
}
