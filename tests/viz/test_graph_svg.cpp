// viz/graph_svg: the autograd graph drawn as an SVG, by attic's own layered layout.
#include "tests/catch.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "ops/ops.h"
#include "viz/graph_svg.h"

using namespace attic;

TEST_CASE("graph: the own SVG layout puts leaves left of the ops that use them", "[graph]") {
  Tensor a = tensor({1, 2}).requires_grad_();
  Tensor loss = sum(a * 3.0);
  const std::string svg = viz::to_svg(loss, {{"a", a}});
  CHECK(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) == 0);
  CHECK(svg.find(">a</text>") != std::string::npos);
  CHECK(svg.find(">MulBackward</text>") != std::string::npos);
  // Three columns (a, Mul, Sum): the leaf box starts at x = 10, and the two edges are drawn.
  CHECK(svg.find("<rect x=\"10\" y=\"10\"") != std::string::npos);
  size_t edges = 0;
  for (size_t at = svg.find("marker-end"); at != std::string::npos; at = svg.find("marker-end", at + 1))
    ++edges;
  CHECK(edges == 2);

  const std::string path = (std::filesystem::temp_directory_path() /
                            ("attic_test_graph_" + std::to_string(std::random_device{}()) + ".svg")).string();
  viz::write_graph_svg(loss, path, {{"a", a}});
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  CHECK(s.str().find("<svg") != std::string::npos);
  std::remove(path.c_str());
}

TEST_CASE("graph: GraphStyle::values writes each tensor's data and grad into its box", "[graph]") {
  Tensor a = scalar_tensor(2).requires_grad_();
  Tensor b = scalar_tensor(-3).requires_grad_();
  Tensor e = a * b;
  e.retain_grad();
  const autograd::LeafNames names{{"a", a}, {"b", b}, {"e", e}};
  auto has = [](const std::string& svg, const std::string& text) {
    return svg.find(">" + text + "</text>") != std::string::npos;
  };

  // Before backward: the values, no grads; the default style draws neither.
  std::string svg = viz::to_svg(e, names, {.values = true});
  CHECK(has(svg, "data 2.0000"));
  CHECK(has(svg, "data -3.0000"));
  CHECK(has(svg, "data -6.0000"));
  CHECK(has(svg, "e: MulBackward"));  // a named non-leaf
  CHECK(svg.find(">grad ") == std::string::npos);
  const std::string plain = viz::to_svg(e, names);
  CHECK(plain.find(">data ") == std::string::npos);
  CHECK(plain.find("<line") == std::string::npos);
  CHECK(has(plain, "MulBackward"));

  e.backward(Tensor(), /*retain_graph=*/true);
  svg = viz::to_svg(e, names, {.values = true});
  CHECK(has(svg, "grad -3.0000"));  // de/da = b
  CHECK(has(svg, "grad 2.0000"));   // de/db = a
  CHECK(has(svg, "grad 1.0000"));   // de/de, kept by retain_grad
  // The two cells of each of the three boxes are divided from the label by a line.
  size_t lines = 0;
  for (size_t at = svg.find("<line"); at != std::string::npos; at = svg.find("<line", at + 1)) ++lines;
  CHECK(lines == 6);

  // A few elements in brackets, more than max_elements counted; an unretained node shows none.
  Tensor v = tensor({1, 2}).requires_grad_();
  Tensor big = ones({5}).requires_grad_();
  svg = viz::to_svg(sum(v * 3.0) + sum(big), {}, {.values = true});
  CHECK(has(svg, "data [1.0000, 2.0000]"));
  CHECK(has(svg, "data (5 values)"));
  CHECK(has(svg, "data 14.0000"));  // the root: 3 + 6 + 5
  CHECK(has(svg, "MulBackward"));   // not retained: its box has the label cell only
}
