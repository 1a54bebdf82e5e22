// SVG line plots: well-formed documents with one polyline per series.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "viz/line_plot.h"

using attic::viz::line_plot_svg;
using attic::viz::Series;

namespace {
int count(const std::string& s, const std::string& what) {
  int n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}
}  // namespace

TEST_CASE("a line plot has one polyline and one legend entry per series", "[viz]") {
  const std::string svg = line_plot_svg({{"train", "#1f77b4", {{0, 4.2}, {250, 2.4}, {500, 2.2}}},
                                         {"val", "#d62728", {{0, 4.2}, {500, 2.3}}}},
                                        "loss", "iteration", "loss");
  CHECK(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) == 0);
  CHECK(svg.find("</svg>") != std::string::npos);
  CHECK(count(svg, "<polyline") == 2);
  CHECK(svg.find(">train</text>") != std::string::npos);
  CHECK(svg.find(">val</text>") != std::string::npos);
  CHECK(svg.find(">iteration</text>") != std::string::npos);
}

TEST_CASE("a line plot escapes text and skips points that are not finite", "[viz]") {
  const std::string svg = line_plot_svg({{"a<b & \"c\"", "red", {{0, 1}, {1, NAN}, {2, INFINITY}, {3, 2}}}},
                                        "t", "x", "y");
  CHECK(svg.find("a&lt;b &amp; &quot;c&quot;") != std::string::npos);
  CHECK(svg.find("nan") == std::string::npos);
  CHECK(svg.find("inf") == std::string::npos);
}

TEST_CASE("a line plot with no points still draws its axes", "[viz]") {
  const std::string svg = line_plot_svg({{"empty", "black", {}}}, "nothing yet", "x", "y");
  CHECK(count(svg, "<polyline") == 1);
  CHECK(svg.find("nothing yet") != std::string::npos);
}
