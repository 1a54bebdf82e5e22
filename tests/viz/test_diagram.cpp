// viz/diagram: the SVG diagrams of the book, built element by element.
#include "tests/catch.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "tensor/error.h"
#include "helpers.h"
#include "viz/diagram.h"

using namespace attic;
using attic::testing::count;

TEST_CASE("diagram: an empty one is the header, the white background and the end",
          "[viz][diagram]") {
  const std::string svg = viz::Diagram(300, 200).svg();
  CHECK(svg.rfind("<svg xmlns='http://www.w3.org/2000/svg' width='300' height='200' ", 0) == 0);
  CHECK(svg.find("<marker id='arrow'") != std::string::npos);
  CHECK(svg.find("<rect width='300' height='200' fill='white'/>\n") != std::string::npos);
  CHECK(svg.size() - svg.rfind("</svg>\n") == 7);
  CHECK(count(svg, "<rect") == 1);
}

TEST_CASE("diagram: text is escaped, and takes its fill and anchor only when given",
          "[viz][diagram]") {
  viz::Diagram d(100, 100);
  d.text(10, 20, "a < b & \"c\"");
  d.text(30, 40, "left", 11, "#555", "start");
  const std::string svg = d.svg();
  CHECK(svg.find("<text x='10' y='20' font-size='12'>a &lt; b &amp; &quot;c&quot;</text>\n") !=
        std::string::npos);
  CHECK(svg.find("<text x='30' y='40' font-size='11' fill='#555' text-anchor='start'>left"
                 "</text>") != std::string::npos);
}

TEST_CASE("diagram: each element appears, in the order it was added", "[viz][diagram]") {
  viz::Diagram d(400, 300);
  d.box(100, 50, 120, "ln_1", "LayerNorm(C)");
  d.arrow(100, 67, 100, 100, "[B, T, C]");
  d.plus(100, 111);
  d.polyline({{100, 20}, {180, 20}, {180, 111}}, "#d62728", false, "4,3");
  d.cell(10, 200, 30, 20, "#1f77b4", "7");
  d.line(0, 0, 5, 5, "#333", 2, false);
  const std::string svg = d.svg();
  // box: a rounded 120 × 34 rectangle centered on (100, 50), its name and note.
  const size_t box = svg.find("<rect x='40' y='33' width='120' height='34' rx='5' fill='#dbe8f5' "
                              "stroke='#333'/>");
  const size_t arrow = svg.find("<line x1='100' y1='67' x2='100' y2='100' stroke='#333' "
                                "stroke-width='1.5' marker-end='url(#arrow)'/>");
  const size_t plus = svg.find("<circle cx='100' cy='111' r='11'");
  const size_t poly = svg.find("<polyline points='100,20 180,20 180,111' fill='none' "
                               "stroke='#d62728' stroke-width='1.5' stroke-dasharray='4,3'/>");
  const size_t cell = svg.find("<rect x='10' y='200' width='30' height='20' fill='#1f77b4' "
                               "fill-opacity='0.3' stroke='#333'/>");
  REQUIRE(box != std::string::npos);
  REQUIRE(arrow != std::string::npos);
  REQUIRE(plus != std::string::npos);
  REQUIRE(poly != std::string::npos);
  REQUIRE(cell != std::string::npos);
  CHECK((box < arrow && arrow < plus && plus < poly && poly < cell));
  CHECK(svg.find(">ln_1</text>") != std::string::npos);
  CHECK(svg.find("fill='#555'>LayerNorm(C)</text>") != std::string::npos);
  // The arrow's label sits 8 px right of its middle, in blue.
  CHECK(svg.find("<text x='108' y='87' font-size='11' fill='#1f77b4' text-anchor='start'>"
                 "[B, T, C]</text>") != std::string::npos);
  CHECK(svg.find("<text x='25' y='214' font-size='12'>7</text>") != std::string::npos);
  CHECK(svg.find("<line x1='0' y1='0' x2='5' y2='5' stroke='#333' stroke-width='2'/>") !=
        std::string::npos);
  CHECK(count(svg, "marker-end") == 1);  // the arrow's; the polyline and line have no head
}

TEST_CASE("diagram: a group moves what it holds and is closed by svg()", "[viz][diagram]") {
  viz::Diagram d(100, 100);
  d.begin_group(0, 24);
  d.text(1, 2, "in");
  d.end_group();
  d.end_group();  // one too many: ignored
  d.begin_group(5, 6);
  d.text(3, 4, "left open");
  const std::string svg = d.svg();
  CHECK(svg.find("<g transform='translate(0,24)'>\n<text x='1' y='2' font-size='12'>in</text>\n"
                 "</g>\n") != std::string::npos);
  CHECK(count(svg, "<g ") == 2);
  CHECK(count(svg, "</g>") == 2);
  CHECK(svg.find("</g>\n</svg>\n") != std::string::npos);
}

TEST_CASE("diagram: write puts svg() in the file, or throws naming the path", "[viz][diagram]") {
  viz::Diagram d(50, 50);
  d.rect(1, 2, 3, 4, "none", 1, "#888", "6,4", 8);
  const std::string path =
      (std::filesystem::temp_directory_path() /
       ("attic_test_diagram_" + std::to_string(std::random_device{}()) + ".svg"))
          .string();
  d.write(path);
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  CHECK(s.str() == d.svg());
  CHECK(s.str().find("<rect x='1' y='2' width='3' height='4' rx='8' fill='none' stroke='#888' "
                     "stroke-dasharray='6,4'/>") != std::string::npos);
  std::remove(path.c_str());
  CHECK_THROWS_AS(d.write("/no/such/folder/d.svg"), Error);
}
