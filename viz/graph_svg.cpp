// to_svg: the graph drawn without Graphviz, a layered layout in three steps.
//   1. Column: a node's column is the length of the longest path from any leaf to it, so
//      every edge runs left to right; a leaf goes just left of its leftmost consumer.
//   2. Row: items of a column stack top to bottom in the order list_graph found them.
//   3. Draw: one box per node, a rounded box per leaf, a cubic curve per edge from the right
//      side of the input to the left side of its consumer. With GraphStyle::values a box is
//      a record of cells, label | data | grad, as in micrograd's draw_dot.
// write_graph_svg prefers Graphviz (`dot -Tsvg`), whose layout crosses fewer edges.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "viz/graph_svg.h"
#include "autograd/grad_mode.h"
#include "util/atomic_file.h"
#include "viz/svg.h"

namespace attic::viz {

using autograd::GraphItem;
using autograd::GraphListing;
using autograd::LeafNames;
using autograd::list_graph;
using autograd::to_dot;

namespace {

// t's elements, 4 decimals each: "2.0000" for a scalar, "[1.0000, -2.0000]" for a few,
// "(12 values)" for more than max_elements.
std::string values_text(const Tensor& t, int64_t max_elements) {
  char buf[32];
  if (t.numel() > max_elements) {
    std::snprintf(buf, sizeof buf, "(%lld values)", (long long)t.numel());
    return buf;
  }
  autograd::NoGradGuard no_grad;
  const bool brackets = t.dim() > 0;
  std::string s = brackets ? "[" : "";
  const std::vector<double> v = t.to_vector<double>();
  for (size_t i = 0; i < v.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%s%.4f", i ? ", " : "", v[i] == 0 ? 0.0 : v[i]);  // no "-0.0000"
    s += buf;
  }
  if (brackets) s += "]";
  return s;
}

// The cells to the right of item's label under style: none, "data ...", or "data ..." and
// "grad ..." once its tensor has a .grad.
std::vector<std::string> value_cells(const GraphItem& item, const GraphStyle& style) {
  if (!style.values || !item.tensor.defined()) return {};
  std::vector<std::string> cells{"data " + values_text(item.tensor, style.max_elements)};
  if (Tensor g = item.tensor.grad(); g.defined())
    cells.push_back("grad " + values_text(g, style.max_elements));
  return cells;
}

}  // namespace

std::string to_svg(const Tensor& root, const LeafNames& names, const GraphStyle& style) {
  GraphListing g = list_graph(root, names);
  const int n = int(g.items.size());
  if (style.values)  // a named non-leaf: "e: MulBackward"
    for (GraphItem& it : g.items)
      for (const auto& [name, t] : names)
        if (!it.is_leaf && it.tensor.defined() && t.impl() == it.tensor.impl())
          it.label = name + ": " + it.label;

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
  std::vector<double> w(n), label_w(n), col_w(ncols, 0);
  std::vector<std::vector<std::string>> cells(n);
  for (int i = n - 1; i >= 0; --i) row[i] = rows_in[col[i]]++;  // leaves-first reading order
  for (int i = 0; i < n; ++i) {
    const size_t chars = std::max(g.items[i].label.size(), str(g.items[i].shape).size());
    w[i] = label_w[i] = double(chars) * char_w + 2 * pad;
    cells[i] = value_cells(g.items[i], style);
    for (const std::string& c : cells[i]) w[i] += double(c.size()) * char_w + 2 * pad;
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
       << "<text x=\"" << x_of(i) + label_w[i] / 2 << "\" y=\"" << y_of(i) + 14
       << "\" text-anchor=\"middle\">" << viz::svg_escape(it.label) << "</text>\n"
       << "<text x=\"" << x_of(i) + label_w[i] / 2 << "\" y=\"" << y_of(i) + 28
       << "\" text-anchor=\"middle\" fill=\"#666\">" << str(it.shape) << "</text>\n";
    double x = x_of(i) + label_w[i];  // each value cell: a divider, then its text
    for (const std::string& c : cells[i]) {
      const double cw = double(c.size()) * char_w + 2 * pad;
      os << "<line x1=\"" << x << "\" y1=\"" << y_of(i) << "\" x2=\"" << x << "\" y2=\""
         << y_of(i) + box_h << "\" stroke=\"#333\"/>\n"
         << "<text x=\"" << x + cw / 2 << "\" y=\"" << y_of(i) + 21
         << "\" text-anchor=\"middle\">" << viz::svg_escape(c) << "</text>\n";
      x += cw;
    }
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
