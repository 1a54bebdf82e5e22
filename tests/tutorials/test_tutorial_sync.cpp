// The sync test: the chapters show exactly the examples, outputs and source they name
// (tutorials/chapter_check.h), and the checker itself finds what it should.
#include "tests/catch.h"

#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "tutorials/chapter_check.h"

namespace fs = std::filesystem;
using namespace attic::testing::tutorials;

namespace {

// A scratch tutorials/ folder holding examples/x.cpp and examples/x.out, for testing the
// checker itself. The random name keeps test processes that run at once apart.
struct ScratchTutorials {
  fs::path dir = fs::temp_directory_path() /
                 ("attic_test_tutorial_sync_" + std::to_string(std::random_device{}()));
  ScratchTutorials() {
    fs::remove_all(dir);
    fs::create_directories(dir / "examples");
    std::ofstream(dir / "examples" / "x.cpp") << "int main() {\n  return 0;\n}\n";
    std::ofstream(dir / "examples" / "x.out") << "hello\n";
  }
  ~ScratchTutorials() { fs::remove_all(dir); }
  std::vector<std::string> check(const std::string& chapter_text) {
    std::vector<std::string> problems;
    std::set<std::string> shown;
    check_chapter("ch.md", chapter_text, dir, problems, shown);
    return problems;
  }
};

// A chapter that shows x.cpp and x.out exactly; the tests below break it one way at a time.
const std::string kGoodChapter =
    "Text.\n"
    "<!-- example: examples/x.cpp -->\n"
    "\n"
    "```cpp\n"
    "int main() {\n"
    "  return 0;\n"
    "}\n"
    "```\n"
    "<!-- output: examples/x.out -->\n"
    "```text\n"
    "hello\n"
    "```\n"
    "\n"
    "*tutorials/examples/x.cpp: `make example N=x`*\n";

// s with the first occurrence of from replaced by to.
std::string replace(std::string s, const std::string& from, const std::string& to) {
  s.replace(s.find(from), from.size(), to);
  return s;
}

}  // namespace

TEST_CASE("tutorial sync: the checker accepts an exact copy and names the first difference",
          "[tutorials]") {
  ScratchTutorials scratch;
  CHECK(scratch.check(kGoodChapter).empty());

  std::vector<std::string> p = scratch.check(replace(kGoodChapter, "return 0", "return 1"));
  REQUIRE(p.size() == 1);
  CHECK(p[0] == "ch.md:4: examples/x.cpp: the block does not match the file: line 2 differs\n"
                "  file:      return 0;\n"
                "  chapter:   return 1;");

  p = scratch.check(replace(kGoodChapter, "hello\n", "hello\nworld\n"));
  REQUIRE(p.size() == 1);
  CHECK(p[0] == "ch.md:10: examples/x.out: the block does not match the file: the file ends "
                "after line 1; the chapter goes on with\n  world");

  p = scratch.check(replace(kGoodChapter, "}\n```\n", "```\n"));
  REQUIRE(p.size() == 1);
  CHECK(p[0] == "ch.md:4: examples/x.cpp: the block does not match the file: the chapter "
                "stops after line 2; line 3 of the file is\n  }");
}

TEST_CASE("tutorial sync: the checker reports missing blocks, files and stray markers",
          "[tutorials]") {
  ScratchTutorials scratch;
  std::vector<std::string> p = scratch.check(replace(kGoodChapter, "```cpp", "```c++"));
  REQUIRE_FALSE(p.empty());
  CHECK(p[0] == "ch.md:2: examples/x.cpp: the marker is not followed by a ```cpp block");

  p = scratch.check("<!-- example: examples/y.cpp -->\n```cpp\n```\n");
  REQUIRE(p.size() == 1);
  CHECK(p[0] == "ch.md:2: examples/y.cpp: no such file in " + scratch.dir.string());

  p = scratch.check("Text.\n<!-- output: examples/x.out -->\n```\nhello\n```\n");
  REQUIRE(p.size() == 1);
  CHECK(p[0] == "ch.md:2: examples/x.out: an output marker must come right after an "
                "example's code block");

  p = scratch.check(replace(kGoodChapter, "output: examples/x.out", "output: examples/z.out"));
  REQUIRE_FALSE(p.empty());
  CHECK(p[0] == "ch.md:9: examples/z.out: the output shown after examples/x.cpp must be "
                "examples/x.out");

  CHECK(scratch.check(" \n\n") == std::vector<std::string>{"ch.md: the chapter is empty"});

  // The caption under an example names it and the command that runs it.
  p = scratch.check(replace(kGoodChapter, "N=x`", "N=y`"));
  REQUIRE(p.size() == 1);
  CHECK(p[0] == "ch.md:14: examples/x.cpp: the example needs its caption on the next line: "
                "*tutorials/examples/x.cpp: `make example N=x`*");
}

TEST_CASE("tutorial sync: a source excerpt must be consecutive lines of the file", "[tutorials]") {
  ScratchTutorials scratch;
  // The scratch folder stands in for tutorials/, so the root is its parent (the temp folder).
  const std::string rel = "attic_sync_root_test/lib/f.cpp";
  const fs::path root_lib = scratch.dir.parent_path() / "attic_sync_root_test" / "lib";
  fs::create_directories(root_lib);
  std::ofstream(root_lib / "f.cpp") << "int f() {\n  int a = 1;\n  return a;\n}\n";
  CHECK(scratch.check("<!-- source: " + rel + " -->\n```cpp\n  int a = 1;\n  return a;\n```\n").empty());
  std::vector<std::string> p = scratch.check("<!-- source: " + rel + " -->\n```cpp\n  int a = 1;\n}\n```\n");
  REQUIRE(p.size() == 1);
  CHECK(p[0] == "ch.md:2: " + rel + ": the block is not an excerpt of the file (its lines do not appear there "
                "one after another); it begins\n    int a = 1;");
  p = scratch.check("<!-- source: lib/none.cpp -->\n```cpp\nx\n```\n");
  REQUIRE(p.size() == 1);
  CHECK(p[0].find("lib/none.cpp: no such file") != std::string::npos);
  fs::remove_all(scratch.dir.parent_path() / "attic_sync_root_test");
}

TEST_CASE("tutorial sync: a named source quote must be the whole definition", "[tutorials]") {
  ScratchTutorials scratch;
  const std::string rel = "attic_sync_named_test/lib/g.cpp";
  const fs::path root_lib = scratch.dir.parent_path() / "attic_sync_named_test" / "lib";
  fs::create_directories(root_lib);
  std::ofstream(root_lib / "g.cpp")
      << "// x + 1\n"
         "int inc(int x) { return x + 1; }\n"
         "int twice(int x) { return inc(inc(x)); }\n"
         "struct Add;\n"
         "// out = a + b\n"
         "struct Add {\n"
         "  const char* name() const { return \"Add {\"; }\n"
         "  int backward(int g) {\n"
         "    return g;\n"
         "  }\n"
         "};\n"
         "int Add_twice(int g);\n";
  auto check = [&](const std::string& name, const std::string& block) {
    return scratch.check("<!-- source: " + rel + ":" + name + " -->\n```cpp\n" + block + "```\n");
  };
  // a function, with or without its comment; the call inside twice() is not a definition
  CHECK(check("inc", "int inc(int x) { return x + 1; }\n").empty());
  CHECK(check("inc", "// x + 1\nint inc(int x) { return x + 1; }\n").empty());
  // a struct (its forward declaration skipped, the brace in a string ignored), and a method
  // defined in its body
  const std::string add = "struct Add {\n  const char* name() const { return \"Add {\"; }\n"
                          "  int backward(int g) {\n    return g;\n  }\n};\n";
  CHECK(check("Add", add).empty());
  CHECK(check("Add", "// out = a + b\n" + add).empty());
  CHECK(check("Add::backward", "  int backward(int g) {\n    return g;\n  }\n").empty());
  // a part of a definition is not the definition
  std::vector<std::string> p = check("Add::backward", "  int backward(int g) {\n    return g;\n");
  REQUIRE(p.size() == 1);
  CHECK(p[0] == "ch.md:2: " + rel + ":Add::backward: the block is not the definition of "
                "Add::backward (lines 8-10 of the file): the chapter stops after line 2; line 3 "
                "of the file is\n    }");
  // a declaration is not a definition
  p = check("Add_twice", "int Add_twice(int g);\n");
  REQUIRE(p.size() == 1);
  CHECK(p[0] == "ch.md:2: " + rel + ":Add_twice: no definition of Add_twice in " + rel);
  fs::remove_all(scratch.dir.parent_path() / "attic_sync_named_test");
}

TEST_CASE("tutorial sync: an exercise's declarations must be the ones its files make, and every "
          "```cpp block has a marker", "[tutorials]") {
  ScratchTutorials scratch;
  const std::string dir = "attic_sync_declarations_test";
  const fs::path root = scratch.dir.parent_path() / dir;
  fs::create_directories(root);
  std::ofstream(root / "ex.h") << "// the exercise\n#pragma once\n"
                                  "struct Result {\n  float loss;  // the mean\n};\n"
                                  "attic::Tensor f(const attic::Tensor& x,\n"
                                  "                int64_t n = 2);  // x [N]\n";
  std::ofstream(root / "ex.cu") << "__global__ void k(int n, float* y) {\n  y[0] = n;\n}\n";
  auto check = [&](const std::string& files, const std::string& block) {
    return scratch.check("<!-- declarations: " + files + " -->\n```cpp\n" + block + "```\n");
  };
  // the comments are free, the wrapping and attic:: too, and a definition declares
  CHECK(check(dir + "/ex.h", "// f: x -> y\nTensor f(const Tensor& x, int64_t n = 2);\n").empty());
  CHECK(check(dir + "/ex.h", "struct Result {\n  float loss;  // what it is\n};\n").empty());
  CHECK(check(dir + "/ex.h " + dir + "/ex.cu",
              "__global__ void k(int n, float* y);\nattic::Tensor f(\n    const attic::Tensor& x, int64_t n = 2);\n")
            .empty());
  // a parameter, a default or a member that the file does not have
  std::vector<std::string> p = check(dir + "/ex.h", "Tensor f(const Tensor& x, int64_t n = 3);\n");
  REQUIRE(p.size() == 1);
  CHECK(p[0] == "ch.md:2: " + dir + "/ex.h: the block declares what the files do not: "
                "Tensor f(const Tensor& x, int64_t n = 3)");
  p = check(dir + "/ex.h", "struct Result {\n  double loss;\n};\n");
  REQUIRE(p.size() == 1);
  CHECK(p[0] == "ch.md:2: " + dir + "/ex.h: the block declares what the files do not: double loss");
  p = check(dir + "/ex.h", "// only a comment\n");
  REQUIRE(p.size() == 1);
  CHECK(p[0] == "ch.md:2: " + dir + "/ex.h: the block declares nothing");
  p = check(dir + "/none.h", "int g();\n");
  REQUIRE(p.size() == 1);
  CHECK(p[0].find(dir + "/none.h: no such file") != std::string::npos);
  // a ```cpp block with no marker
  p = scratch.check("Text.\n\n```cpp\nint g();\n```\n");
  REQUIRE(p.size() == 1);
  CHECK(p[0] == "ch.md:3: a ```cpp block needs a marker above it: <!-- example: FILE -->, "
                "<!-- source: FILE[:Name] --> or <!-- declarations: FILE ... -->");
  fs::remove_all(root);
}

TEST_CASE("tutorial sync: every chapter shows its examples and outputs exactly",
          "[tutorials]") {
  const fs::path dir = tutorials_dir();
  REQUIRE_FALSE(files_with_extension(dir, ".md").empty());
  std::set<std::string> shown;
  for (const std::string& problem : check_all_chapters(dir, shown)) FAIL_CHECK(problem);
}

TEST_CASE("tutorial sync: every example is shown in some chapter", "[tutorials]") {
  const fs::path dir = tutorials_dir();
  std::set<std::string> shown;
  check_all_chapters(dir, shown);
  // .cu: chapter 18's CUDA programs, built in CUDA builds only but always shown
  for (const std::string ext : {".cpp", ".cu"})
    for (const fs::path& src : files_with_extension(dir / "examples", ext)) {
      const std::string name = "examples/" + src.filename().string();
      if (!shown.count(name)) FAIL_CHECK(name + " is not shown in any tutorials/*.md chapter");
    }
  for (const fs::path& out : files_with_extension(dir / "examples", ".out")) {
    fs::path cpp = out, cu = out;
    cpp.replace_extension(".cpp");
    cu.replace_extension(".cu");
    if (!fs::is_regular_file(cpp) && !fs::is_regular_file(cu))
      FAIL_CHECK("examples/" + out.filename().string() + " has no example program " +
                 cpp.filename().string());
  }
}
