// to_svg: the graph drawn without Graphviz, a layered layout in three steps.
//   1. Column: a node's column is the length of the longest path from any leaf to it, so
//      every edge runs left to right; a leaf goes just left of its leftmost consumer.
//   2. Row: items of a column stack top to bottom in the order list_graph found them.
//   3. Draw: one box per node, a rounded box per leaf, a cubic curve per edge from the right
//      side of the input to the left side of its consumer.
// write_graph_svg prefers Graphviz (`dot -Tsvg`), whose layout crosses fewer edges.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "viz/graph_svg.h"
#include "util/atomic_file.h"
#include "viz/svg.h"

namespace attic::viz {

using autograd::GraphItem;
using autograd::GraphListing;
using autograd::LeafNames;
using autograd::list_graph;
using autograd::to_dot;

std::string to_svg(const Tensor& root, const LeafNames& names) {
  const GraphListing g = list_graph(root, names);
  const int n = int(g.items.size());

  // 1. columns: longest path from a leaf. Items were listed consumers before inputs, so
  //    walking the list backwards visits every input before its consumer.
  std::vector<int> col(n, 0);
  for (int i = n - 1; i >= 0; --i)
    for (int in : g.items[i].inputs) col[i] = std::max(col[i], col[in] + 1);
  // An input may have been listed before its consumer when it feeds two nodes; relax
  // until nothing changes (at most n rounds; a DAG settles).
  for (bool changed = true; changed;) {
    changed = false;
    for (int i = 0; i < n; ++i)
      for (int in : g.items[i].inputs)
        if (col[i] < col[in] + 1) col[i] = col[in] + 1, changed = true;
  }
  // A leaf sits just left of its leftmost consumer, not in column 0, so that its edge
  // does not run across the boxes between.
  for (int i = 0; i < n; ++i)
    for (int in : g.items[i].inputs)
      if (g.items[in].is_leaf) col[in] = -1;
  for (int i = 0; i < n; ++i)
    for (int in : g.items[i].inputs)
      if (g.items[in].is_leaf && (col[in] < 0 || col[in] > col[i] - 1)) col[in] = col[i] - 1;
  const int ncols = n ? *std::max_element(col.begin(), col.end()) + 1 : 0;

  // 2. rows, and the size of each box: 7 px a character of a 12 px monospace font.
  const double char_w = 7.2, box_h = 34, gap_x = 60, gap_y = 18, pad = 10;
  std::vector<int> row(n), rows_in(ncols, 0);
  std::vector<double> w(n), col_w(ncols, 0);
  for (int i = n - 1; i >= 0; --i) row[i] = rows_in[col[i]]++;  // leaves-first reading order
  for (int i = 0; i < n; ++i) {
    const size_t chars = std::max(g.items[i].label.size(), str(g.items[i].shape).size());
    w[i] = double(chars) * char_w + 2 * pad;
    col_w[col[i]] = std::max(col_w[col[i]], w[i]);
  }
  std::vector<double> col_x(ncols, pad);
  for (int c = 1; c < ncols; ++c) col_x[c] = col_x[c - 1] + col_w[c - 1] + gap_x;
  const int max_rows = ncols ? *std::max_element(rows_in.begin(), rows_in.end()) : 0;
  const double width = ncols ? col_x[ncols - 1] + col_w[ncols - 1] + pad : 2 * pad;
  const double height = max_rows * (box_h + gap_y) - gap_y + 2 * pad;
  auto x_of = [&](int i) { return col_x[col[i]] + (col_w[col[i]] - w[i]) / 2; };
  auto y_of = [&](int i) { return pad + row[i] * (box_h + gap_y); };

  // 3. draw
  std::ostringstream os;
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\""
     << height << "\" font-family=\"monospace\" font-size=\"12\">\n"
     << "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" "
        "markerWidth=\"6\" markerHeight=\"6\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\"/>"
        "</marker></defs>\n"
     << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  for (int i = 0; i < n; ++i)
    for (int in : g.items[i].inputs) {
      const double x0 = x_of(in) + w[in], y0 = y_of(in) + box_h / 2;
      const double x1 = x_of(i), y1 = y_of(i) + box_h / 2, mx = (x0 + x1) / 2;
      os << "<path d=\"M" << x0 << "," << y0 << " C" << mx << "," << y0 << " " << mx << ","
         << y1 << " " << x1 << "," << y1 << "\" fill=\"none\" stroke=\"#555\" "
         << "marker-end=\"url(#arrow)\"/>\n";
    }
  for (int i = 0; i < n; ++i) {
    const GraphItem& it = g.items[i];
    os << "<rect x=\"" << x_of(i) << "\" y=\"" << y_of(i) << "\" width=\"" << w[i]
       << "\" height=\"" << box_h << "\" rx=\"" << (it.is_leaf ? 12 : 2) << "\" fill=\""
       << (it.is_leaf ? "#e8f0ff" : "#fff8e0") << "\" stroke=\"#333\"/>\n"
       << "<text x=\"" << x_of(i) + w[i] / 2 << "\" y=\"" << y_of(i) + 14
       << "\" text-anchor=\"middle\">" << viz::svg_escape(it.label) << "</text>\n"
       << "<text x=\"" << x_of(i) + w[i] / 2 << "\" y=\"" << y_of(i) + 28
       << "\" text-anchor=\"middle\" fill=\"#666\">" << str(it.shape) << "</text>\n";
  }
  os << "</svg>\n";
  return os.str();
}

bool write_graph_svg(const Tensor& root, const std::string& path, const LeafNames& names) {
  // Graphviz when it is installed: write the DOT next to the target, let dot draw it.
  // (A path with a quote would break the shell command: such a path skips Graphviz.)
  if (path.find('\'') == std::string::npos &&
      std::system("command -v dot >/dev/null 2>&1") == 0) {
    const std::string dot_path = path + ".dot";
    {
      std::ofstream f(dot_path);
      f << to_dot(root, names);
    }
    const std::string cmd = "dot -Tsvg -o '" + path + "' '" + dot_path + "' 2>/dev/null";
    const bool ok = std::system(cmd.c_str()) == 0;
    std::remove(dot_path.c_str());
    if (ok) return true;
  }
  util::write_file_atomic(path, to_svg(root, names));
  return false;
}

}  // namespace attic::viz
