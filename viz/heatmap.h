// Heatmaps as SVG text, written directly: attention weights, one cell per (query, key).
#pragma once

#include <string>
#include <vector>

namespace attic::viz {

struct Heatmap {
  std::vector<double> values;  // rows × cols, row-major, each >= 0 unless diverging
  int rows = 0, cols = 0;
  std::string title;
  std::string row_label = "query", col_label = "key";
  std::vector<std::string> row_ticks, col_ticks;  // empty, or one per row / column
  // Signed values (learned weights, say): colored by diverging_color(value / max |value|),
  // so that 0 is white whatever the range.
  bool diverging = false;
  bool annotate = false;  // print each value in its cell (for small maps)
};

// The color of v in [0, 1]: white (0) to dark blue (1), linear in each channel.
std::string heat_color(double v);
// The color of v in [−1, 1]: dark red (−1) through white (0) to dark blue (1).
std::string diverging_color(double v);

// A complete SVG document: one square cell of `cell` pixels per value, its color
// heat_color(value / max value), tick labels, axis labels and the title. Throws
// attic::Error for mismatched sizes or negative values.
std::string heatmap_svg(const Heatmap& h, int cell = 24);

// Several heatmaps side by side (e.g. one per head), each with its own title.
std::string heatmaps_svg(const std::vector<Heatmap>& maps, int cell = 24);
// The same in a grid of `columns` maps per row (e.g. layers × heads).
std::string heatmap_grid_svg(const std::vector<Heatmap>& maps, int columns, int cell = 24);

}  // namespace attic::viz
