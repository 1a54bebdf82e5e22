// Diagrams as SVG text, drawn element by element: the boxes, arrows, grids and labels of the
// book's pictures (tutorials/img/).
//
//   viz::Diagram d(520, 200);
//   d.box(230, 60, 120, "ln_1", "LayerNorm(C)");
//   d.arrow(230, 77, 230, 120, "[B, T, C]");
//   d.write("picture.svg");
//
// x grows to the right and y downwards, in pixels from the top-left corner. Text is centered
// on its x unless an anchor ("start", "end") says otherwise; every string is XML-escaped.
#pragma once

#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace attic::viz {

class Diagram {
 public:
  // An empty width × height picture on a white background.
  Diagram(int width, int height);

  // s with its baseline at y; fill "" is black, anchor "" centers it on x.
  void text(int x, int y, const std::string& s, int size = 12, const std::string& fill = "",
            const std::string& anchor = "");
  // A w × h rectangle with its top-left corner at (x, y). fill "none" leaves it empty,
  // opacity is the fill's, dash ("6,4": 6 px drawn, 4 px not) draws the outline dashed, and
  // rx rounds the corners.
  void rect(int x, int y, int w, int h, const std::string& fill, double opacity = 1,
            const std::string& stroke = "#333", const std::string& dash = "", int rx = 0);
  // One cell of a grid: a w × h rectangle at (x, y), filled with fill at opacity 0.3, with
  // label centered in it.
  void cell(int x, int y, int w, int h, const std::string& fill, const std::string& label,
            int size = 12);
  // A straight line from (x1, y1) to (x2, y2), with an arrow head at (x2, y2) when head.
  void line(int x1, int y1, int x2, int y2, const std::string& stroke = "#333",
            double width = 1.5, bool head = true);
  // An arrow from (x1, y1) to (x2, y2) with label written beside its middle, dx px to the
  // right of it (dx < 0: to the left, ending there).
  void arrow(int x1, int y1, int x2, int y2, const std::string& label = "", int dx = 8);
  // Straight segments through points, in stroke; dash as for rect; an arrow head at the last
  // point when head.
  void polyline(const std::vector<std::pair<int, int>>& points, const std::string& stroke,
                bool head = true, const std::string& dash = "");
  // A module drawn as a w × 34 box centered at (x, y): its name, and a note under it in
  // small grey letters.
  void box(int x, int y, int w, const std::string& name, const std::string& note,
           const std::string& fill = "#dbe8f5");
  // A sum: a circle of radius 11 centered at (x, y), with a plus in it.
  void plus(int x, int y);
  // What follows, up to end_group(), is drawn moved by (dx, dy).
  void begin_group(int dx, int dy);
  void end_group();

  // The complete SVG document: the header, with the arrow head's marker and the white
  // background, then the elements in the order they were added. Closes any open group.
  std::string svg() const;
  // svg() written to path; throws attic::Error naming it when it cannot be written.
  void write(const std::string& path) const;

 private:
  int width_, height_;
  int open_groups_ = 0;
  std::ostringstream body_;
};

}  // namespace attic::viz
