// Chapter 3: micrograd's first expression, backpropagated, then drawn as micrograd's draw_dot
// draws it: each box holds its value and, after backward, its gradient dL/d(box).
//   a = 2, b = -3, c = 10, f = -2:  e = a b = -6,  d = e + c = 4,  L = d f = -8
#include <cstdio>
#include <fstream>

#include "ops/ops.h"
#include "viz/graph_svg.h"

using namespace attic;

int main() {
  Tensor a = scalar_tensor(2).requires_grad_();
  Tensor b = scalar_tensor(-3).requires_grad_();
  Tensor c = scalar_tensor(10).requires_grad_();
  Tensor f = scalar_tensor(-2).requires_grad_();
  Tensor e = a * b;
  Tensor d = e + c;
  Tensor L = d * f;
  for (const Tensor& t : {e, d, L}) t.retain_grad();  // non-leaves keep their .grad too
  L.backward(Tensor(), /*retain_graph=*/true);         // keep the graph, to draw it after

  const autograd::LeafNames names{{"a", a}, {"b", b}, {"c", c}, {"f", f},
                                  {"e", e}, {"d", d}, {"L", L}};
  for (const auto& [name, t] : names)
    std::printf("%s  data %8.4f  grad %8.4f\n", name.c_str(), t.item<double>(),
                t.grad().item<double>());
  // viz::to_svg is attic's own layout: the same picture on every machine.
  std::ofstream("03_graph_values.svg") << viz::to_svg(L, names, {.values = true});
  return 0;
}
