// SVG line plots: well-formed documents with one polyline per series.
#include "tests/catch.h"

#include <cmath>
#include <string>

#include "helpers.h"
#include "viz/line_plot.h"

using attic::viz::line_plot_svg;
using attic::viz::Series;
using attic::testing::count;

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

TEST_CASE("panels sit side by side, each with its own axes, and a dashed series is dashed", "[viz]") {
  using attic::viz::Panel;
  const Series train{"softmax train", "#1f77b4", {{0, 4.0}, {100, 2.5}}, /*dashed=*/true};
  const Series val{"softmax val", "#1f77b4", {{0, 4.1}, {100, 2.6}}};
  const std::string svg = attic::viz::panels_svg(
      {Panel{{train, val}, "by iteration", "iteration", "loss"},
       Panel{{train, val}, "by time", "training time (s)", "loss"}},
      "attic compare", 500, 300);
  CHECK(svg.find("width=\"1000\"") != std::string::npos);  // two panels of 500
  CHECK(count(svg, "<polyline") == 4);
  CHECK(count(svg, "<rect x=") == 2);                       // two axes boxes
  CHECK(count(svg, "stroke-dasharray") == 4);               // the train line and its legend key, twice
  CHECK(svg.find(">training time (s)</text>") != std::string::npos);
  CHECK(svg.find(">attic compare</text>") != std::string::npos);
  CHECK(count(svg, ">softmax val</text>") == 2);
}

TEST_CASE("a series with no name draws its line but stays out of the legend", "[viz]") {
  const std::string svg = line_plot_svg({{"", "gray", {{0, 1}, {1, 2}}}, {"kept", "red", {{0, 2}}}},
                                        "t", "x", "y");
  CHECK(count(svg, "<polyline") == 2);
  CHECK(count(svg, "stroke-width=\"2\"") == 1);  // one legend key
  CHECK(svg.find(">kept</text>") != std::string::npos);
}
