// viz/heatmap: the SVG heatmap of attention weights.
#include <string>

#include "helpers.h"
#include "viz/heatmap.h"

using namespace attic;
using namespace attic::testing;

TEST_CASE("heat_color runs from white to dark blue", "[viz][heatmap]") {
  CHECK(viz::heat_color(0.0) == "#ffffff");
  CHECK(viz::heat_color(1.0) == "#08306b");
  // halfway: 255 + (8 − 255)/2 = 131.5 -> 132 = 0x84, 255 − 103.5 = 151.5 -> 152 = 0x98,
  // 255 − 74 = 181 = 0xb5
  CHECK(viz::heat_color(0.5) == "#8498b5");
  CHECK(viz::heat_color(7.0) == "#08306b");  // clamped
}

TEST_CASE("heatmap_svg draws one cell per value, scaled by the largest", "[viz][heatmap]") {
  viz::Heatmap h;
  h.values = {0.0, 1.0, 0.5, 2.0, 0.0, 0.0};
  h.rows = 2;
  h.cols = 3;
  h.title = "a < b";
  h.col_ticks = {"x", "y", "z"};
  const std::string svg = viz::heatmap_svg(h, 10);
  CHECK(svg.rfind("<svg", 0) == 0);
  CHECK(svg.find("</svg>") != std::string::npos);
  CHECK(count(svg, "<rect") == 1 + 6 + 1);  // background, cells, frame
  CHECK(count(svg, "fill=\"#08306b\"") == 1);  // only the 2.0 is the darkest
  CHECK(count(svg, "fill=\"#8498b5\"") == 1);  // 1.0 is half of 2.0
  CHECK(svg.find("a &lt; b") != std::string::npos);
  CHECK(viz::heatmaps_svg({h, h}).find("</svg>") != std::string::npos);
}

TEST_CASE("heatmap_svg refuses mismatched sizes and negative values", "[viz][heatmap]") {
  viz::Heatmap h;
  h.values = {1, 2, 3};
  h.rows = 2;
  h.cols = 2;
  CHECK(error_message([&] { viz::heatmap_svg(h); }) == "heatmap_svg: 3 values for 2 x 2 cells");
  h.values = {1, 2, -3, 4};
  CHECK(error_message([&] { viz::heatmap_svg(h); }) ==
        "heatmap_svg: values must be finite and >= 0, got -3");
}

TEST_CASE("heatmap_grid_svg lays maps out in rows of `columns`", "[viz][heatmap]") {
  viz::Heatmap h;
  h.values = {1, 0, 0, 1};
  h.rows = h.cols = 2;
  const std::string one_row = viz::heatmaps_svg({h, h, h, h}, 10);
  const std::string grid = viz::heatmap_grid_svg({h, h, h, h}, 2, 10);
  // the same 4 maps: 2 × 2 is half as wide and twice as tall as 1 × 4
  auto size = [](const std::string& svg, const std::string& key) {
    const size_t at = svg.find(key + "=\"") + key.size() + 2;
    return std::stoi(svg.substr(at, svg.find('"', at) - at));
  };
  CHECK(size(grid, "width") * 2 == size(one_row, "width"));
  CHECK(size(grid, "height") == 2 * size(one_row, "height"));
  CHECK(error_message([&] { viz::heatmap_grid_svg({h}, 0); }) ==
        "heatmap_svg: cell and columns must be positive, got 24 and 0");
}

TEST_CASE("a diverging heatmap draws signed values: red below 0, white at 0, blue above", "[viz][heatmap]") {
  CHECK(viz::diverging_color(0.0) == "#ffffff");
  CHECK(viz::diverging_color(1.0) == "#08306b");
  CHECK(viz::diverging_color(-1.0) == "#67000d");
  CHECK(viz::diverging_color(-0.5) == "#b38086");  // halfway from white to (103, 0, 13)
  viz::Heatmap h;
  h.values = {-2, 0, 1, 2};
  h.rows = h.cols = 2;
  h.diverging = h.annotate = true;
  const std::string svg = viz::heatmap_svg(h, 40);
  // Colors scale by max |v| = 2; each value is written in its cell.
  CHECK(svg.find("fill=\"#67000d\"") != std::string::npos);
  CHECK(svg.find("fill=\"#08306b\"") != std::string::npos);
  CHECK(svg.find(">-2.00<") != std::string::npos);
  CHECK(svg.find(">1.00<") != std::string::npos);
}
