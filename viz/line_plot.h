// Line plots as SVG text, written directly (no plotting library): loss curves.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace attic::viz {

struct Series {
  std::string name;   // legend label
  std::string color;  // any SVG color, e.g. "#1f77b4"
  std::vector<std::pair<double, double>> points;  // (x, y), drawn in order
};

// A complete SVG document: axes with round-number ticks, one polyline per series, a legend.
std::string line_plot_svg(const std::vector<Series>& series, const std::string& title,
                          const std::string& xlabel, const std::string& ylabel,
                          int width = 640, int height = 400);

}  // namespace attic::viz
