// Line plots as SVG text, written directly (no plotting library): loss curves.
//
//   line_plot_svg(series, "loss", "iteration", "loss")          one plot
//   panels_svg({{series, "", "iteration", "loss"},
//               {series2, "", "training time (s)", "loss"}}, "attic compare")
//                                                                plots side by side
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace attic::viz {

struct Series {
  std::string name;   // legend label; an empty name stays out of the legend
  std::string color;  // any SVG color, e.g. "#1f77b4"
  std::vector<std::pair<double, double>> points;  // (x, y), drawn in order
  bool dashed = false;  // a dashed line: two series of one color tell apart this way
  // Empty, or one (low, high) per point: a band shaded in the series' color behind its line
  // (the spread of several seeds around their mean curve).
  std::vector<std::pair<double, double>> band = {};
};

// One plot's content: its series, a title over it and the labels of its axes.
struct Panel {
  std::vector<Series> series;
  std::string title, xlabel, ylabel;
};

// A complete SVG document: axes with round-number ticks, one polyline per series, a legend.
std::string line_plot_svg(const std::vector<Series>& series, const std::string& title,
                          const std::string& xlabel, const std::string& ylabel,
                          int width = 640, int height = 400);

// A complete SVG document with the panels side by side, each panel_width x height pixels,
// under one title. Each panel has its own axes and legend.
std::string panels_svg(const std::vector<Panel>& panels, const std::string& title,
                       int panel_width = 520, int height = 400);

}  // namespace attic::viz
