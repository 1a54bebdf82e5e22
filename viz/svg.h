// What every SVG writer in attic shares (viz/line_plot, viz/heatmap, autograd/graph_svg).
#pragma once

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

}  // namespace attic::viz
