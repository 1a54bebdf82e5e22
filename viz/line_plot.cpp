#include "viz/line_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

#include "viz/svg.h"

namespace attic::viz {

namespace {

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// Tick step of 1, 2 or 5 times a power of ten giving about `target` ticks over [lo, hi].
double nice_step(double lo, double hi, int target) {
  const double raw = (hi - lo) / target;
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (raw <= m * p) return m * p;
  return 10 * p;
}

}  // namespace

std::string line_plot_svg(const std::vector<Series>& series, const std::string& title,
                          const std::string& xlabel, const std::string& ylabel, int W, int H) {
  double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
  for (const Series& s : series)
    for (auto [x, y] : s.points) {
      if (!std::isfinite(x) || !std::isfinite(y)) continue;
      x0 = std::min(x0, x); x1 = std::max(x1, x);
      y0 = std::min(y0, y); y1 = std::max(y1, y);
    }
  if (!(x0 <= x1)) { x0 = 0; x1 = 1; y0 = 0; y1 = 1; }  // no finite points: empty axes
  if (x1 == x0) x1 = x0 + 1;
  if (y1 == y0) { y0 -= 0.5; y1 += 0.5; }
  const double pad = 0.05 * (y1 - y0);
  y0 -= pad;
  y1 += pad;

  const double L = 64, R = 16, T = 36, B = 48;  // margins in pixels
  auto px = [&](double x) { return L + (x - x0) / (x1 - x0) * (W - L - R); };
  auto py = [&](double y) { return H - B - (y - y0) / (y1 - y0) * (H - T - B); };

  std::ostringstream os;
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << W << "\" height=\"" << H
     << "\" viewBox=\"0 0 " << W << " " << H << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  os << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  os << "<text x=\"" << W / 2 << "\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">" << svg_escape(title) << "</text>\n";
  // grid and ticks
  const double xs = nice_step(x0, x1, 6), ys = nice_step(y0, y1, 6);
  for (double x = std::ceil(x0 / xs) * xs; x <= x1 + 1e-9 * xs; x += xs) {
    os << "<line x1=\"" << num(px(x)) << "\" y1=\"" << T << "\" x2=\"" << num(px(x)) << "\" y2=\"" << H - B
       << "\" stroke=\"#e5e5e5\"/>\n";
    os << "<text x=\"" << num(px(x)) << "\" y=\"" << H - B + 16 << "\" text-anchor=\"middle\">" << num(x) << "</text>\n";
  }
  for (double y = std::ceil(y0 / ys) * ys; y <= y1 + 1e-9 * ys; y += ys) {
    os << "<line x1=\"" << L << "\" y1=\"" << num(py(y)) << "\" x2=\"" << W - R << "\" y2=\"" << num(py(y))
       << "\" stroke=\"#e5e5e5\"/>\n";
    os << "<text x=\"" << L - 6 << "\" y=\"" << num(py(y) + 4) << "\" text-anchor=\"end\">" << num(y) << "</text>\n";
  }
  os << "<rect x=\"" << L << "\" y=\"" << T << "\" width=\"" << W - L - R << "\" height=\"" << H - T - B
     << "\" fill=\"none\" stroke=\"black\"/>\n";
  os << "<text x=\"" << (L + W - R) / 2 << "\" y=\"" << H - 10 << "\" text-anchor=\"middle\">" << svg_escape(xlabel) << "</text>\n";
  os << "<text x=\"14\" y=\"" << (T + H - B) / 2 << "\" text-anchor=\"middle\" transform=\"rotate(-90 14 "
     << (T + H - B) / 2 << ")\">" << svg_escape(ylabel) << "</text>\n";
  // series and legend
  int row = 0;
  for (const Series& s : series) {
    os << "<polyline fill=\"none\" stroke=\"" << svg_escape(s.color) << "\" stroke-width=\"1.5\" points=\"";
    for (auto [x, y] : s.points)
      if (std::isfinite(x) && std::isfinite(y)) os << num(px(x)) << "," << num(py(y)) << " ";
    os << "\"/>\n";
    const double ly = T + 16 + 18 * row++;  // legend rows, top right inside the axes
    os << "<line x1=\"" << W - R - 170 << "\" y1=\"" << ly - 4 << "\" x2=\"" << W - R - 150 << "\" y2=\""
       << ly - 4 << "\" stroke=\"" << svg_escape(s.color) << "\" stroke-width=\"2\"/>\n";
    os << "<text x=\"" << W - R - 144 << "\" y=\"" << ly << "\">" << svg_escape(s.name) << "</text>\n";
  }
  os << "</svg>\n";
  return os.str();
}

}  // namespace attic::viz
