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
