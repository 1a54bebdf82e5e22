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
  if (v == 0) v = 0;  // -0.0 (a tick at lo + 0·step below zero) prints as "0", not "-0"
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

// Draws one panel into the W x H box whose top-left corner is (ox, oy): its title, grid,
// ticks, axis labels, series and legend.
void draw_panel(std::ostringstream& os, const Panel& panel, double ox, double oy, int W, int H) {
  double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
  for (const Series& s : panel.series)
    for (size_t i = 0; i < s.points.size(); ++i) {
      const auto [x, y] = s.points[i];
      if (!std::isfinite(x) || !std::isfinite(y)) continue;
      x0 = std::min(x0, x); x1 = std::max(x1, x);
      y0 = std::min(y0, y); y1 = std::max(y1, y);
      if (i < s.band.size() && std::isfinite(s.band[i].first) && std::isfinite(s.band[i].second)) {
        y0 = std::min(y0, s.band[i].first);
        y1 = std::max(y1, s.band[i].second);
      }
    }
  if (!(x0 <= x1)) { x0 = 0; x1 = 1; y0 = 0; y1 = 1; }  // no finite points: empty axes
  if (x1 == x0) x1 = x0 + 1;
  if (y1 == y0) { y0 -= 0.5; y1 += 0.5; }
  const double pad = 0.05 * (y1 - y0);
  y0 -= pad;
  y1 += pad;

  const double L = ox + 64, R = ox + W - 16, T = oy + 36, B = oy + H - 48;  // the axes' box
  auto px = [&](double x) { return L + (x - x0) / (x1 - x0) * (R - L); };
  auto py = [&](double y) { return B - (y - y0) / (y1 - y0) * (B - T); };

  if (!panel.title.empty())
    os << "<text x=\"" << num((L + R) / 2) << "\" y=\"" << num(T - 10)
       << "\" text-anchor=\"middle\" font-size=\"13\">" << svg_escape(panel.title) << "</text>\n";
  const double xs = nice_step(x0, x1, 6), ys = nice_step(y0, y1, 6);
  for (double x = std::ceil(x0 / xs) * xs; x <= x1 + 1e-9 * xs; x += xs) {
    os << "<line x1=\"" << num(px(x)) << "\" y1=\"" << num(T) << "\" x2=\"" << num(px(x))
       << "\" y2=\"" << num(B) << "\" stroke=\"#e5e5e5\"/>\n";
    os << "<text x=\"" << num(px(x)) << "\" y=\"" << num(B + 16) << "\" text-anchor=\"middle\">"
       << num(x) << "</text>\n";
  }
  for (double y = std::ceil(y0 / ys) * ys; y <= y1 + 1e-9 * ys; y += ys) {
    os << "<line x1=\"" << num(L) << "\" y1=\"" << num(py(y)) << "\" x2=\"" << num(R)
       << "\" y2=\"" << num(py(y)) << "\" stroke=\"#e5e5e5\"/>\n";
    os << "<text x=\"" << num(L - 6) << "\" y=\"" << num(py(y) + 4) << "\" text-anchor=\"end\">"
       << num(y) << "</text>\n";
  }
  os << "<rect x=\"" << num(L) << "\" y=\"" << num(T) << "\" width=\"" << num(R - L)
     << "\" height=\"" << num(B - T) << "\" fill=\"none\" stroke=\"black\"/>\n";
  os << "<text x=\"" << num((L + R) / 2) << "\" y=\"" << num(oy + H - 10)
     << "\" text-anchor=\"middle\">" << svg_escape(panel.xlabel) << "</text>\n";
  const double mid = (T + B) / 2, lx = ox + 14;
  os << "<text x=\"" << num(lx) << "\" y=\"" << num(mid) << "\" text-anchor=\"middle\" transform=\"rotate(-90 "
     << num(lx) << " " << num(mid) << ")\">" << svg_escape(panel.ylabel) << "</text>\n";

  // Bands first, so that every line is drawn over them: the lows left to right, then the
  // highs right to left, as one closed polygon.
  for (const Series& s : panel.series) {
    if (s.band.size() != s.points.size() || s.band.empty()) continue;
    os << "<polygon fill=\"" << svg_escape(s.color) << "\" fill-opacity=\"0.18\" stroke=\"none\" points=\"";
    for (size_t i = 0; i < s.points.size(); ++i)
      if (std::isfinite(s.points[i].first) && std::isfinite(s.band[i].first))
        os << num(px(s.points[i].first)) << "," << num(py(s.band[i].first)) << " ";
    for (size_t i = s.points.size(); i-- > 0;)
      if (std::isfinite(s.points[i].first) && std::isfinite(s.band[i].second))
        os << num(px(s.points[i].first)) << "," << num(py(s.band[i].second)) << " ";
    os << "\"/>\n";
  }
  int row = 0;
  for (const Series& s : panel.series) {
    const char* dash = s.dashed ? "\" stroke-dasharray=\"6 4" : "";
    os << "<polyline fill=\"none\" stroke=\"" << svg_escape(s.color) << dash
       << "\" stroke-width=\"1.5\" points=\"";
    for (auto [x, y] : s.points)
      if (std::isfinite(x) && std::isfinite(y)) os << num(px(x)) << "," << num(py(y)) << " ";
    os << "\"/>\n";
    if (s.name.empty()) continue;
    const double ly = T + 16 + 18 * row++;  // legend rows, top right inside the axes
    os << "<line x1=\"" << num(R - 170) << "\" y1=\"" << num(ly - 4) << "\" x2=\"" << num(R - 146)
       << "\" y2=\"" << num(ly - 4) << "\" stroke=\"" << svg_escape(s.color) << dash
       << "\" stroke-width=\"2\"/>\n";
    os << "<text x=\"" << num(R - 140) << "\" y=\"" << num(ly) << "\">" << svg_escape(s.name)
       << "</text>\n";
  }
}

std::string svg_open(int W, int H) {
  std::ostringstream os;
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << W << "\" height=\"" << H
     << "\" viewBox=\"0 0 " << W << " " << H << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  os << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  return os.str();
}

}  // namespace

std::string line_plot_svg(const std::vector<Series>& series, const std::string& title,
                          const std::string& xlabel, const std::string& ylabel, int W, int H) {
  std::ostringstream os;
  os << svg_open(W, H);
  os << "<text x=\"" << W / 2 << "\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">"
     << svg_escape(title) << "</text>\n";
  draw_panel(os, {series, "", xlabel, ylabel}, 0, 0, W, H);
  os << "</svg>\n";
  return os.str();
}

std::string panels_svg(const std::vector<Panel>& panels, const std::string& title,
                       int panel_width, int H) {
  const int top = 24;  // room for the overall title above the panels' own
  const int W = panel_width * int(std::max<size_t>(panels.size(), 1));
  std::ostringstream os;
  os << svg_open(W, H + top);
  os << "<text x=\"" << W / 2 << "\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">"
     << svg_escape(title) << "</text>\n";
  for (size_t i = 0; i < panels.size(); ++i)
    draw_panel(os, panels[i], double(i) * panel_width, top, panel_width, H);
  os << "</svg>\n";
  return os.str();
}

}  // namespace attic::viz
