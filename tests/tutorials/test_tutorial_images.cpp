// The book's pictures: every image a chapter shows exists and is shown, and each is drawn by a
// tested example or by make book-figures (scripts/book_figures.sh).
#include "tests/catch.h"

#include <filesystem>
#include <set>
#include <string>

#include "tutorials/chapter_check.h"

namespace fs = std::filesystem;
using namespace attic::testing::tutorials;

TEST_CASE("tutorial sync: every image a chapter shows exists, and every image in tutorials/img is shown",
          "[tutorials]") {
  // A chapter shows a picture as ![what](img/NAME); the README and BENCHMARKS.md as
  // ![what](tutorials/img/NAME).
  const fs::path dir = tutorials_dir();
  std::set<std::string> shown;
  auto scan = [&](const fs::path& md, const std::string& prefix) {
    const std::string text = read_file(md);
    const std::string open = "](" + prefix;
    for (size_t at = text.find(open); at != std::string::npos; at = text.find(open, at + 1)) {
      const size_t start = at + open.size(), end = text.find(')', start);
      if (end == std::string::npos) continue;
      const std::string name = text.substr(start, end - start);
      shown.insert(name);
      if (!fs::is_regular_file(dir / "img" / name))
        FAIL_CHECK(md.filename().string() + " shows img/" + name + ", which is not in tutorials/img");
    }
  };
  for (const fs::path& md : files_with_extension(dir, ".md")) scan(md, "img/");
  for (const char* top : {"README.md", "BENCHMARKS.md"}) scan(dir.parent_path() / top, "tutorials/img/");
  for (const fs::path& img : files_with_extension(dir / "img", ".svg"))
    if (!shown.count(img.filename().string()))
      FAIL_CHECK("tutorials/img/" + img.filename().string() + " is shown by no chapter, nor README.md or BENCHMARKS.md");
  CHECK(shown.size() > 20);
}

TEST_CASE("tutorial sync: every image in tutorials/img is drawn by an example or by make book-figures",
          "[tutorials]") {
  // An example draws a picture when its source names the file (ctest compares what it
  // draws with tutorials/img/); a run draws one when a chapter's figure block
  //   <!-- figure: attic ... | OUT/FILE.svg -> NAME.svg | table OUT/compare.md -->
  //   ...  ![what](img/NAME.svg)  ...
  //   <!-- /figure -->
  // names it, and scripts/book_figures.sh copies it there from the run.
  const fs::path dir = tutorials_dir();
  std::string examples;
  for (const char* ext : {".cpp", ".cu"})
    for (const fs::path& src : files_with_extension(dir / "examples", ext)) examples += read_file(src);
  std::set<std::string> by_run;
  int blocks = 0;
  for (const fs::path& md : files_with_extension(dir, ".md")) {
    const std::string text = read_file(md), name = md.filename().string();
    const std::string open = "\n<!-- figure: ", close = "\n<!-- /figure -->";
    for (size_t at = text.find(open); at != std::string::npos; at = text.find(open, at + 1)) {
      ++blocks;
      const size_t marker_end = text.find(" -->\n", at + 1);
      const size_t end = text.find(close, at + 1);
      REQUIRE(marker_end != std::string::npos);
      const std::string marker = text.substr(at + open.size(), marker_end - at - open.size());
      INFO(name << ": <!-- figure: " << marker << " -->");
      CHECK(marker.rfind("attic ", 0) == 0);
      const bool closed = end != std::string::npos && end < text.find(open, at + 1);
      CHECK(closed);
      if (!closed) continue;
      const std::string block = text.substr(marker_end, end - marker_end);
      for (size_t arrow = marker.find(" -> "); arrow != std::string::npos;
           arrow = marker.find(" -> ", arrow + 1)) {
        const size_t img_end = marker.find(" |", arrow);
        const std::string img = marker.substr(arrow + 4, img_end == std::string::npos ? std::string::npos
                                                                                         : img_end - arrow - 4);
        by_run.insert(img);
        CHECK(block.find("](img/" + img + ")") != std::string::npos);  // shown inside its block
      }
    }
  }
  for (const fs::path& img : files_with_extension(dir / "img", ".svg")) {
    const std::string name = img.filename().string();
    if (examples.find("\"" + name + "\"") == std::string::npos && !by_run.count(name))
      FAIL_CHECK("tutorials/img/" + name + " is drawn by no example and by no figure block of a chapter");
  }
  CHECK(blocks >= 15);
}
