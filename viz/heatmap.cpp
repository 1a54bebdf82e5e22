#include "viz/heatmap.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "tensor/error.h"
#include "viz/svg.h"

namespace attic::viz {

namespace {

constexpr int kLeft = 56, kTop = 40, kGap = 24, kBottom = 40;

void check(const Heatmap& h) {
  ATTIC_CHECK(h.rows > 0 && h.cols > 0 && h.values.size() == size_t(h.rows) * size_t(h.cols),
              "heatmap_svg: ", h.values.size(), " values for ", h.rows, " x ", h.cols, " cells");
  ATTIC_CHECK(h.row_ticks.empty() || h.row_ticks.size() == size_t(h.rows),
              "heatmap_svg: ", h.row_ticks.size(), " row ticks for ", h.rows, " rows");
  ATTIC_CHECK(h.col_ticks.empty() || h.col_ticks.size() == size_t(h.cols),
              "heatmap_svg: ", h.col_ticks.size(), " column ticks for ", h.cols, " columns");
  for (double v : h.values)
    ATTIC_CHECK((v >= 0 || h.diverging) && std::isfinite(v), "heatmap_svg: values must be finite",
                h.diverging ? "" : " and >= 0", ", got ", v);
}

// One heatmap's elements, with its top-left corner at (x0, y0).
void draw(std::ostringstream& os, const Heatmap& h, int x0, int y0, int cell) {
  double vmax = 1e-300;
  for (double v : h.values) vmax = std::max(vmax, std::abs(v));
  const int gx = x0 + kLeft, gy = y0 + kTop;
  os << "<text x=\"" << gx + h.cols * cell / 2 << "\" y=\"" << y0 + 20 << "\" text-anchor=\"middle\" "
     << "font-size=\"14\">" << svg_escape(h.title) << "</text>\n";
  for (int r = 0; r < h.rows; ++r)
    for (int c = 0; c < h.cols; ++c) {
      const double v = h.values[size_t(r) * size_t(h.cols) + size_t(c)];
      os << "<rect x=\"" << gx + c * cell << "\" y=\"" << gy + r * cell << "\" width=\"" << cell
         << "\" height=\"" << cell << "\" fill=\""
         << (h.diverging ? diverging_color(v / vmax) : heat_color(v / vmax)) << "\"/>\n";
      if (h.annotate) {
        char text[32];
        std::snprintf(text, sizeof text, "%.2f", v);
        // Dark cells get white text.
        const bool dark = std::abs(v / vmax) > 0.6;
        os << "<text x=\"" << gx + c * cell + cell / 2 << "\" y=\"" << gy + r * cell + cell / 2 + 4
           << "\" text-anchor=\"middle\" font-size=\"" << std::max(8, cell / 4) << "\" fill=\""
           << (dark ? "white" : "#222") << "\">" << text << "</text>\n";
      }
    }
  os << "<rect x=\"" << gx << "\" y=\"" << gy << "\" width=\"" << h.cols * cell << "\" height=\""
     << h.rows * cell << "\" fill=\"none\" stroke=\"#444\"/>\n";
  for (int r = 0; r < int(h.row_ticks.size()); ++r)
    os << "<text x=\"" << gx - 4 << "\" y=\"" << gy + r * cell + cell / 2 + 4
       << "\" text-anchor=\"end\" font-size=\"11\">" << svg_escape(h.row_ticks[size_t(r)]) << "</text>\n";
  for (int c = 0; c < int(h.col_ticks.size()); ++c)
    os << "<text x=\"" << gx + c * cell + cell / 2 << "\" y=\"" << gy + h.rows * cell + 14
       << "\" text-anchor=\"middle\" font-size=\"11\">" << svg_escape(h.col_ticks[size_t(c)]) << "</text>\n";
  os << "<text x=\"" << gx + h.cols * cell / 2 << "\" y=\"" << gy + h.rows * cell + 32
     << "\" text-anchor=\"middle\" font-size=\"12\">" << svg_escape(h.col_label) << "</text>\n";
  os << "<text x=\"" << x0 + 14 << "\" y=\"" << gy + h.rows * cell / 2
     << "\" text-anchor=\"middle\" font-size=\"12\" transform=\"rotate(-90 " << x0 + 14 << " "
     << gy + h.rows * cell / 2 << ")\">" << svg_escape(h.row_label) << "</text>\n";
}

}  // namespace

std::string heat_color(double v) {
  v = std::clamp(v, 0.0, 1.0);
  // white (255, 255, 255) -> dark blue (8, 48, 107), ColorBrewer's Blues end points
  const int r = int(std::lround(255 + (8 - 255) * v));
  const int g = int(std::lround(255 + (48 - 255) * v));
  const int b = int(std::lround(255 + (107 - 255) * v));
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", r, g, b);
  return buf;
}

std::string diverging_color(double v) {
  v = std::clamp(v, -1.0, 1.0);
  // white -> dark blue (8, 48, 107) for v > 0, white -> dark red (103, 0, 13) for v < 0:
  // the end points of ColorBrewer's Blues and Reds
  const int tr = v >= 0 ? 8 : 103, tg = v >= 0 ? 48 : 0, tb = v >= 0 ? 107 : 13;
  const double a = std::abs(v);
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", int(std::lround(255 + (tr - 255) * a)),
                int(std::lround(255 + (tg - 255) * a)), int(std::lround(255 + (tb - 255) * a)));
  return buf;
}

std::string heatmaps_svg(const std::vector<Heatmap>& maps, int cell) {
  return heatmap_grid_svg(maps, int(maps.size()), cell);
}

// Row r of the grid holds maps r·columns .. r·columns + columns − 1; every cell of the grid
// is as wide as the widest map in its column and as tall as the tallest in its row.
std::string heatmap_grid_svg(const std::vector<Heatmap>& maps, int columns, int cell) {
  ATTIC_CHECK(!maps.empty(), "heatmap_svg: no heatmaps to draw");
  ATTIC_CHECK(cell > 0 && columns > 0, "heatmap_svg: cell and columns must be positive, got ", cell, " and ",
              columns);
  const int rows = (int(maps.size()) + columns - 1) / columns;
  std::vector<int> col_width(size_t(columns), 0), row_height(size_t(rows), 0);
  for (size_t i = 0; i < maps.size(); ++i) {
    const Heatmap& h = maps[i];
    check(h);
    const size_t r = i / size_t(columns), c = i % size_t(columns);
    col_width[c] = std::max(col_width[c], kLeft + h.cols * cell + kGap);
    row_height[r] = std::max(row_height[r], kTop + h.rows * cell + kBottom);
  }
  int width = 0, height = 0;
  for (int w : col_width) width += w;
  for (int h : row_height) height += h;
  std::ostringstream os;
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
     << "\" font-family=\"sans-serif\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  int y0 = 0;
  for (int r = 0; r < rows; ++r) {
    int x0 = 0;
    for (int c = 0; c < columns && size_t(r * columns + c) < maps.size(); ++c) {
      draw(os, maps[size_t(r * columns + c)], x0, y0, cell);
      x0 += col_width[size_t(c)];
    }
    y0 += row_height[size_t(r)];
  }
  os << "</svg>\n";
  return os.str();
}

std::string heatmap_svg(const Heatmap& h, int cell) { return heatmaps_svg({h}, cell); }

}  // namespace attic::viz
