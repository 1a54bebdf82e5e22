// What every SVG writer in attic shares (viz/line_plot, viz/heatmap, viz/graph_svg, viz/diagram).
#pragma once

#include <cstddef>
#include <string>

namespace attic::viz {

// s with the characters XML gives meaning to in text and attributes (< > & ") escaped.
inline std::string svg_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

// The color of line i of a plot: Matplotlib's first eight ("tab10"), distinct in print and
// for most color vision; the ninth line repeats the first.
inline const char* series_color(size_t i) {
  static const char* kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                  "#9467bd", "#8c564b", "#e377c2", "#17becf"};
  return kColors[i % 8];
}

}  // namespace attic::viz
