// print_graph and to_dot: the recorded graph as text (tests/viz/test_graph_svg.cpp draws it).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "autograd/graph.h"
#include "helpers.h"

using namespace attic;

TEST_CASE("graph: print_graph shows the tree with shapes, names and shared nodes",
          "[graph]") {
  Tensor x = tensor({{1, 2, 3}, {4, 5, 6}}).requires_grad_();
  Tensor w = tensor({{1}, {2}, {3}}).requires_grad_();
  Tensor h = exp(matmul(x, w));          // [2, 1]
  Tensor loss = sum(h * h + sum(x, {1}, true));
  CHECK(autograd::graph_string(loss, {{"x", x}, {"w", w}}) ==
        "SumBackward []\n"
        "└─ AddBackward [2, 1]\n"
        "   ├─ MulBackward [2, 1]\n"
        "   │  ├─ ExpBackward [2, 1]\n"
        "   │  │  └─ MatmulBackward [2, 1]\n"
        "   │  │     ├─ x [2, 3]\n"
        "   │  │     └─ w [3, 1]\n"
        "   │  └─ ExpBackward [2, 1] (above)\n"
        "   └─ SumBackward [2, 1]\n"
        "      └─ x [2, 3]\n");
  // Unnamed leaves print as "leaf"; a leaf alone is its own graph.
  CHECK(autograd::graph_string(sum(w)) == "SumBackward []\n└─ leaf [3, 1]\n");
  CHECK(autograd::graph_string(w) == "leaf [3, 1]\n");
  std::ostringstream os;
  autograd::print_graph(sum(w), os, {{"w", w}});
  CHECK(os.str() == "SumBackward []\n└─ w [3, 1]\n");
}

TEST_CASE("graph: a chain of 20000 ops prints without recursion", "[graph]") {
  Tensor x = scalar_tensor(1.0).requires_grad_();
  Tensor y = x;
  for (int i = 0; i < 20000; ++i) y = y * 1.0;
  const autograd::GraphListing g = autograd::list_graph(y);
  CHECK(g.items.size() == 20001);
  CHECK(autograd::to_dot(y).size() > 100000);
}

TEST_CASE("graph: to_dot writes one node per op and leaf, edges along the data flow",
          "[graph]") {
  Tensor a = tensor({1, 2}).requires_grad_();
  Tensor loss = sum(a * 3.0);
  CHECK(autograd::to_dot(loss, {{"a", a}}) ==
        "digraph attic {\n"
        "  rankdir=LR;\n"
        "  node [fontname=\"monospace\", fontsize=10];\n"
        "  n0 [label=\"SumBackward\\n[]\", shape=box];\n"
        "  n1 [label=\"MulBackward\\n[2]\", shape=box];\n"
        "  n2 [label=\"a\\n[2]\", shape=ellipse];\n"
        "  n1 -> n0;\n"
        "  n2 -> n1;\n"
        "}\n");
}

