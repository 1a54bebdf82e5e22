// Diagram: each method appends one SVG element (or a few) to the body; svg() puts the
// header in front. Attribute values are quoted with ' so that the C++ strings that build
// them need no escapes.
#include "viz/diagram.h"

#include "util/atomic_file.h"
#include "viz/svg.h"

namespace attic::viz {

Diagram::Diagram(int width, int height) : width_(width), height_(height) {}

void Diagram::text(int x, int y, const std::string& s, int size, const std::string& fill,
                   const std::string& anchor) {
  body_ << "<text x='" << x << "' y='" << y << "' font-size='" << size << "'";
  if (!fill.empty()) body_ << " fill='" << fill << "'";
  if (!anchor.empty()) body_ << " text-anchor='" << anchor << "'";
  body_ << ">" << svg_escape(s) << "</text>\n";
}

void Diagram::rect(int x, int y, int w, int h, const std::string& fill, double opacity,
                   const std::string& stroke, const std::string& dash, int rx) {
  body_ << "<rect x='" << x << "' y='" << y << "' width='" << w << "' height='" << h << "'";
  if (rx > 0) body_ << " rx='" << rx << "'";
  body_ << " fill='" << fill << "'";
  if (opacity != 1) body_ << " fill-opacity='" << opacity << "'";
  body_ << " stroke='" << stroke << "'";
  if (!dash.empty()) body_ << " stroke-dasharray='" << dash << "'";
  body_ << "/>\n";
}

void Diagram::cell(int x, int y, int w, int h, const std::string& fill, const std::string& label,
                   int size) {
  rect(x, y, w, h, fill, 0.3);
  text(x + w / 2, y + h / 2 + size / 3, label, size);
}

void Diagram::line(int x1, int y1, int x2, int y2, const std::string& stroke, double width,
                   bool head) {
  body_ << "<line x1='" << x1 << "' y1='" << y1 << "' x2='" << x2 << "' y2='" << y2
        << "' stroke='" << stroke << "' stroke-width='" << width << "'";
  if (head) body_ << " marker-end='url(#arrow)'";
  body_ << "/>\n";
}

void Diagram::arrow(int x1, int y1, int x2, int y2, const std::string& label, int dx) {
  line(x1, y1, x2, y2);
  if (!label.empty())
    text((x1 + x2) / 2 + dx, (y1 + y2) / 2 + 4, label, 11, "#1f77b4", dx < 0 ? "end" : "start");
}

void Diagram::polyline(const std::vector<std::pair<int, int>>& points, const std::string& stroke,
                       bool head, const std::string& dash) {
  body_ << "<polyline points='";
  for (size_t i = 0; i < points.size(); ++i)
    body_ << (i ? " " : "") << points[i].first << "," << points[i].second;
  body_ << "' fill='none' stroke='" << stroke << "' stroke-width='1.5'";
  if (!dash.empty()) body_ << " stroke-dasharray='" << dash << "'";
  if (head) body_ << " marker-end='url(#arrow)'";
  body_ << "/>\n";
}

void Diagram::box(int x, int y, int w, const std::string& name, const std::string& note,
                  const std::string& fill) {
  rect(x - w / 2, y - 17, w, 34, fill, 1, "#333", "", 5);
  text(x, y - 1, name, 14);
  text(x, y + 12, note, 10, "#555");
}

void Diagram::plus(int x, int y) {
  body_ << "<circle cx='" << x << "' cy='" << y << "' r='11' fill='white' stroke='#333'/>\n";
  text(x, y + 5, "+", 16);
}

void Diagram::begin_group(int dx, int dy) {
  body_ << "<g transform='translate(" << dx << "," << dy << ")'>\n";
  ++open_groups_;
}

void Diagram::end_group() {
  if (open_groups_ == 0) return;
  body_ << "</g>\n";
  --open_groups_;
}

std::string Diagram::svg() const {
  std::ostringstream os;
  os << "<svg xmlns='http://www.w3.org/2000/svg' width='" << width_ << "' height='" << height_
     << "' font-family='sans-serif' text-anchor='middle'>\n"
     << "<defs><marker id='arrow' viewBox='0 0 10 10' refX='10' refY='5' markerWidth='7' "
        "markerHeight='7' orient='auto'><path d='M0,0 L10,5 L0,10 z' fill='#333'/></marker>"
        "</defs>\n"
     << "<rect width='" << width_ << "' height='" << height_ << "' fill='white'/>\n"
     << body_.str();
  for (int i = 0; i < open_groups_; ++i) os << "</g>\n";
  os << "</svg>\n";
  return os.str();
}

void Diagram::write(const std::string& path) const { util::write_file_atomic(path, svg()); }

}  // namespace attic::viz
