// Chapter 14: the loop nest of BLIS (Van Zee & van de Geijn, "BLIS: A Framework for Rapidly
// Instantiating BLAS Functionality", 2015), drawn: the five loops around the micro-kernel,
// the packed block Ã and panel B̃, and the micro-tile of C in registers. Writes
// 14_blis_loops.svg.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "viz/svg.h"

int main() {
  // The rectangles: x, y, width, height, fill (0 grey, then C, A, B, the tile), and lines every
  // `step` px, vertical if `cols`. Top: C, A, B and the pieces loops 5, 4 and 3 pick (the same
  // rows of C and A, columns of C and B, k of A and B); bottom: Ã, B̃ and the micro-kernel.
  struct Box { int x, y, w, h, fill, step; bool cols; };
  const Box boxes[] = {{20, 50, 160, 160, 0, 0, 0},   {80, 100, 50, 40, 1, 0, 0},
                       {230, 50, 130, 160, 0, 0, 0},  {270, 100, 60, 40, 2, 0, 0},
                       {410, 60, 160, 130, 0, 0, 0},  {470, 100, 50, 60, 3, 0, 0},
                       {20, 270, 180, 120, 2, 20, 0}, {260, 260, 150, 130, 3, 25, 1},
                       {505, 290, 90, 20, 2, 0, 0},   {615, 260, 25, 90, 3, 0, 0},
                       {615, 290, 25, 20, 4, 0, 0}};
  struct Label { int x, y; const char* s; };  // '|' starts a new line
  const Label labels[] = {
      {20, 24, "C += A B: loop 5 (jc) takes nc columns, loop 4 (pc) kc of k, loop 3 (ic) mc rows"},
      {75, 95, "mc x nc"}, {270, 95, "mc x kc"}, {470, 95, "kc x nc"},
      {75, 228, "C  [M, N]"}, {270, 228, "A  [M, K]"}, {465, 228, "B  [K, N]"},
      {20, 410, "Ã: A's block packed, mc x kc, L2|strips of MR rows (loop 1, ir)"},
      {260, 410, "B̃: B's panel packed, kc x nc, L3|strips of NR columns (loop 2, jr)"},
      {505, 374, "micro-kernel: MR x kc by kc x NR|into an MR x NR tile of C,|"
                 "held in registers; the strip|of B̃ stays in L1"}};
  const auto n = [](int v) { return std::to_string(v); };
  std::string svg = "<svg xmlns='http://www.w3.org/2000/svg' width='740' height='450' "
                    "font-family='sans-serif' font-size='13'>\n"
                    "<rect width='740' height='450' fill='white'/>\n";
  for (const Box& b : boxes) {
    svg += "<rect x='" + n(b.x) + "' y='" + n(b.y) + "' width='" + n(b.w) + "' height='" +
           n(b.h) + "' fill='" + (b.fill ? attic::viz::series_color(size_t(b.fill - 1)) : "#eee") +
           "' stroke='#333'/>\n";
    for (int t = b.step; b.step > 0 && t < (b.cols ? b.w : b.h); t += b.step) {
      const int x = b.cols ? b.x + t : b.x, y = b.cols ? b.y : b.y + t;
      svg += "<line x1='" + n(x) + "' y1='" + n(y) + "' x2='" + n(b.cols ? x : x + b.w) +
             "' y2='" + n(b.cols ? y + b.h : y) + "' stroke='#555'/>\n";
    }
  }
  for (const Label& l : labels) {
    std::istringstream in(l.s);
    int y = l.y;
    for (std::string line; std::getline(in, line, '|'); y += 18)
      svg += "<text x='" + n(l.x) + "' y='" + n(y) + "'>" + attic::viz::svg_escape(line) +
             "</text>\n";
  }
  std::ofstream("14_blis_loops.svg") << svg << "</svg>\n";
  std::printf("wrote 14_blis_loops.svg\n");
  return 0;
}
