// Each tutorial chapter shows its example programs and their outputs; ctest runs those
// programs and compares their output with the .out files (tutorials/CMakeLists.txt). This
// test closes the loop: what a chapter shows must equal those files, line for line.
//
// In a chapter, an example is shown as
//   <!-- example: examples/01_views.cpp -->
//   ```cpp
//   ...the file, exactly...
//   ```
// optionally followed by its output:
//   <!-- output: examples/01_views.out -->
//   ```
//   ...the file, exactly...
//   ```
// and a piece of attic's own source is shown as
//   <!-- source: models/reflex/route_attention.cpp -->
//   ```cpp
//   ...lines that appear in that file (from the repository root) one after another...
//   ```
// so that a quoted passage cannot drift from the code either; and a named definition as
//   <!-- source: ops/matmul.cpp:MatmulBackward -->
//   ```cpp
//   ...the definition of MatmulBackward in that file, exactly...
//   ```
// where the name is a struct or class, a function, or Class::method (defined in the class
// body or outside it), and the block is that definition from its first line through its
// closing brace, optionally with the comment lines directly above it.
#include "tests/catch.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Lines {
  std::vector<std::string> lines;  // without '\n' (and without a '\r' before it)
  bool ends_with_newline = true;
};

// The lines of text, and whether its last line ends with a newline.
Lines split_lines(const std::string& text) {
  Lines out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    out.lines.push_back(line);
  }
  out.ends_with_newline = text.empty() || text.back() == '\n';
  return out;
}

// The whole file, byte for byte ("" when it cannot be read).
std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// s without leading and trailing spaces and tabs.
std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") + 1 - b);
}

// "examples/x.cpp" for the line "<!-- example: examples/x.cpp -->" when kind is "example";
// "" when the line is not such a marker.
std::string marker_path(const std::string& line, const std::string& kind) {
  const std::string t = trim(line), open = "<!-- " + kind + ":", close = "-->";
  if (t.size() < open.size() + close.size() || t.compare(0, open.size(), open) != 0 ||
      t.compare(t.size() - close.size(), close.size(), close) != 0)
    return "";
  return trim(t.substr(open.size(), t.size() - open.size() - close.size()));
}

// Where a fenced block's lines and a file's lines first differ; "" when they are equal.
std::string first_difference(const std::vector<std::string>& shown,
                             const std::vector<std::string>& file) {
  const size_t n = std::min(shown.size(), file.size());
  for (size_t i = 0; i < n; ++i)
    if (shown[i] != file[i])
      return "line " + std::to_string(i + 1) + " differs\n  file:    " + file[i] +
             "\n  chapter: " + shown[i];
  if (shown.size() < file.size())
    return "the chapter stops after line " + std::to_string(n) + "; line " +
           std::to_string(n + 1) + " of the file is\n  " + file[n];
  if (shown.size() > file.size())
    return "the file ends after line " + std::to_string(n) + "; the chapter goes on with\n  " +
           shown[n];
  return "";
}

// ---- finding a named definition in a C++ file

// True when c can be part of an identifier.
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Where `word` occurs in `line` as a whole identifier (or qualified name), from `from`;
// npos when it does not.
size_t find_word(const std::string& line, const std::string& word, size_t from = 0) {
  for (size_t at = line.find(word, from); at != std::string::npos; at = line.find(word, at + 1)) {
    const bool starts = at == 0 || (!ident_char(line[at - 1]) && line[at - 1] != ':' && line[at - 1] != '~');
    const size_t after = at + word.size();
    const bool ends = after == line.size() || !ident_char(line[after]);
    if (starts && ends) return at;
  }
  return std::string::npos;
}

// From lines[first] (at column col), the first '{' or ';' outside parentheses, skipping
// comments and literals: {line, column, the char}; {lines.size(), 0, 0} when there is none.
struct Stop {
  size_t line, col;
  char c;
};
Stop next_brace_or_semicolon(const std::vector<std::string>& lines, size_t first, size_t col) {
  int parens = 0;
  for (size_t i = first; i < lines.size(); ++i, col = 0) {
    const std::string& l = lines[i];
    for (size_t j = col; j < l.size(); ++j) {
      const char c = l[j];
      if (c == '/' && j + 1 < l.size() && l[j + 1] == '/') break;
      if (c == '"' || c == '\'') {  // skip the literal
        for (++j; j < l.size() && l[j] != c; ++j)
          if (l[j] == '\\') ++j;
        continue;
      }
      if (c == '(') ++parens;
      if (c == ')') --parens;
      if (parens == 0 && (c == '{' || c == ';')) return {i, j, c};
    }
  }
  return {lines.size(), 0, 0};
}

// The line that holds the '}' closing the '{' at (line, col), skipping comments and literals;
// lines.size() when it is never closed.
size_t closing_line(const std::vector<std::string>& lines, size_t line, size_t col) {
  int depth = 0;
  for (size_t i = line; i < lines.size(); ++i, col = 0) {
    const std::string& l = lines[i];
    for (size_t j = col; j < l.size(); ++j) {
      const char c = l[j];
      if (c == '/' && j + 1 < l.size() && l[j + 1] == '/') break;
      if (c == '"' || c == '\'') {
        for (++j; j < l.size() && l[j] != c; ++j)
          if (l[j] == '\\') ++j;
        continue;
      }
      if (c == '{') ++depth;
      if (c == '}' && --depth == 0) return i;
    }
  }
  return lines.size();
}

// A definition's lines, [begin, end] with end inclusive, and where the comment directly
// above it begins (== begin when there is none).
struct Definition {
  size_t comment, begin, end;
};

// The first definition of `name` (a type, or a function: not a call, not a declaration)
// within lines [lo, hi); nullopt when there is none.
std::optional<Definition> find_in(const std::vector<std::string>& lines, const std::string& name,
                                  size_t lo, size_t hi) {
  static const std::set<std::string> not_types = {"return", "else", "new", "throw", "case",
                                                  "delete", "co_return", "sizeof"};
  for (size_t i = lo; i < hi; ++i) {
    const std::string t = trim(lines[i]);
    if (t.rfind("//", 0) == 0 || t.rfind("*", 0) == 0 || t.rfind("#", 0) == 0) continue;
    const size_t at = find_word(lines[i], name);
    if (at == std::string::npos) continue;
    const std::string before = trim(lines[i].substr(0, at));
    size_t after = at + name.size();
    while (after < lines[i].size() && lines[i][after] == ' ') ++after;
    const char next = after < lines[i].size() ? lines[i][after] : '\0';
    // a type: "struct Name ...", "class Name ..."
    std::string last_word = before;
    if (const size_t sp = before.find_last_of(" \t"); sp != std::string::npos)
      last_word = before.substr(sp + 1);
    const bool type = last_word == "struct" || last_word == "class" || last_word == "union" ||
                      last_word == "enum";
    // a function: "ReturnType Name(" or "Class::Class(" at the start of a line
    const char prev = before.empty() ? '\0' : before.back();
    const bool function = next == '(' && !not_types.count(last_word) &&
                          (before.empty() || ident_char(prev) || prev == '>' || prev == '&' || prev == '*');
    if (!type && !function) continue;
    const Stop stop = next_brace_or_semicolon(lines, i, after);
    if (stop.c != '{') continue;  // a declaration, or a call
    const size_t end = closing_line(lines, stop.line, stop.col);
    if (end >= lines.size()) continue;
    size_t begin = i;
    if (begin > lo && trim(lines[begin - 1]).rfind("template", 0) == 0) --begin;
    size_t comment = begin;
    while (comment > lo && trim(lines[comment - 1]).rfind("//", 0) == 0) --comment;
    return Definition{comment, begin, end};
  }
  return std::nullopt;
}

// The definition of name ("Node", "backward", "Engine::run", "MatmulBackward::backward"):
// a qualified name is looked for as written (a definition outside its class) and then as
// its last part inside the definition of what qualifies it.
std::optional<Definition> find_definition(const std::vector<std::string>& lines,
                                          const std::string& name) {
  if (auto d = find_in(lines, name, 0, lines.size())) return d;
  const size_t sep = name.rfind("::");
  if (sep == std::string::npos) return std::nullopt;
  const std::optional<Definition> outer = find_definition(lines, name.substr(0, sep));
  if (!outer) return std::nullopt;
  return find_in(lines, name.substr(sep + 2), outer->begin + 1, outer->end);
}

// Checks one chapter's text against the files under tutorials_dir. Appends one message per
// problem to `problems` and the examples the chapter shows to `shown`.
void check_chapter(const std::string& chapter, const std::string& text,
                   const fs::path& tutorials_dir, std::vector<std::string>& problems,
                   std::set<std::string>& shown) {
  const std::vector<std::string> lines = split_lines(text).lines;
  auto where = [&](size_t i) { return chapter + ":" + std::to_string(i + 1) + ": "; };
  auto skip_blank = [&](size_t i) {
    while (i < lines.size() && trim(lines[i]).empty()) ++i;
    return i;
  };

  // Checks the fenced block opening at lines[i] against `file`; returns the line after it.
  // An example (a ```cpp block) or its output (any ``` block) must equal its file under
  // tutorials/; an excerpt (a ```cpp block) must appear in its file, a path from the
  // repository root (tutorials_dir's parent), its lines in order and one after another.
  enum class Kind { Example, Output, Excerpt };
  auto check_block = [&](size_t i, const std::string& marker_line_info, const std::string& file,
                         Kind kind) -> size_t {
    const bool code = kind != Kind::Output;
    const std::string fence = i < lines.size() ? trim(lines[i]) : "";
    const bool opens = code ? fence == "```cpp" : fence.rfind("```", 0) == 0;
    if (!opens) {
      problems.push_back(marker_line_info + file + ": the marker is not followed by a " +
                         (code ? "```cpp" : "```") + " block");
      return i;
    }
    size_t end = i + 1;
    while (end < lines.size() && trim(lines[end]) != "```") ++end;
    if (end == lines.size()) {
      problems.push_back(where(i) + file + ": the block is never closed with ```");
      return end;
    }
    const fs::path root = kind == Kind::Excerpt ? tutorials_dir.parent_path() : tutorials_dir;
    // "path:Name" quotes the definition of Name in path
    const size_t colon = kind == Kind::Excerpt ? file.find(':') : std::string::npos;
    const std::string name = colon == std::string::npos ? "" : file.substr(colon + 1);
    const fs::path path = root / file.substr(0, colon);
    if (!fs::is_regular_file(path)) {
      problems.push_back(where(i) + file + ": no such file in " + root.string());
      return end + 1;
    }
    const Lines disk = split_lines(read_file(path));
    const std::vector<std::string> block(lines.begin() + long(i) + 1, lines.begin() + long(end));
    if (kind == Kind::Excerpt && !name.empty()) {
      const std::optional<Definition> d = find_definition(disk.lines, name);
      if (!d) {
        problems.push_back(where(i) + file + ": no definition of " + name + " in " +
                           file.substr(0, colon));
        return end + 1;
      }
      const auto line = [&](size_t k) { return disk.lines.begin() + long(k); };
      const std::vector<std::string> with_comment(line(d->comment), line(d->end + 1));
      const std::vector<std::string> definition(line(d->begin), line(d->end + 1));
      if (block != with_comment && block != definition) {
        const bool from_comment = !block.empty() && trim(block[0]).rfind("//", 0) == 0;
        problems.push_back(where(i) + file + ": the block is not the definition of " + name +
                           " (lines " + std::to_string(d->begin + 1) + "-" +
                           std::to_string(d->end + 1) + " of the file): " +
                           first_difference(block, from_comment ? with_comment : definition));
      }
      return end + 1;
    }
    if (kind == Kind::Excerpt) {
      if (block.empty()) problems.push_back(where(i) + file + ": the excerpt is empty");
      else if (std::search(disk.lines.begin(), disk.lines.end(), block.begin(), block.end()) == disk.lines.end())
        problems.push_back(where(i) + file + ": the block is not an excerpt of the file (its lines do not "
                           "appear there one after another); it begins\n  " + block[0]);
      return end + 1;
    }
    const std::string diff = first_difference(block, disk.lines);
    if (!diff.empty())
      problems.push_back(where(i) + file + ": the block does not match the file: " + diff);
    else if (!disk.ends_with_newline)
      problems.push_back(where(i) + file + ": the file does not end with a newline, which a "
                         "block cannot show");
    return end + 1;
  };

  bool has_text = false;
  for (size_t i = 0; i < lines.size();) {
    has_text = has_text || !trim(lines[i]).empty();
    const std::string source = marker_path(lines[i], "source");
    if (!source.empty()) {
      i = std::max(check_block(skip_blank(i + 1), where(i), source, Kind::Excerpt), i + 1);
      continue;
    }
    const std::string example = marker_path(lines[i], "example");
    if (!marker_path(lines[i], "output").empty()) {
      problems.push_back(where(i) + marker_path(lines[i], "output") +
                         ": an output marker must come right after an example's code block");
      ++i;
      continue;
    }
    if (example.empty()) {
      ++i;
      continue;
    }
    shown.insert(example);
    const size_t before = problems.size();
    size_t next = check_block(skip_blank(i + 1), where(i), example, Kind::Example);
    const size_t after = skip_blank(next);
    const std::string output = after < lines.size() ? marker_path(lines[after], "output") : "";
    if (!output.empty()) {
      const std::string expected = example.substr(0, example.rfind('.')) + ".out";
      if (output != expected)
        problems.push_back(where(after) + output + ": the output shown after " + example +
                           " must be " + expected);
      next = check_block(skip_blank(after + 1), where(after), output, Kind::Output);
    }
    // Under the example (and its output) a caption names the file and the command that runs
    // it: *tutorials/examples/NN_name.cpp: `make example N=NN_name`*
    const size_t cap = skip_blank(next);
    const std::string stem = example.substr(example.find('/') + 1, example.rfind('.') - example.find('/') - 1);
    const std::string caption = "*tutorials/" + example + ": `make example N=" + stem + "`*";
    if (cap < lines.size() && lines[cap] == caption) next = cap + 1;
    else if (problems.size() == before)
      problems.push_back(where(cap < lines.size() ? cap : lines.size() - 1) + example +
                         ": the example needs its caption on the next line: " + caption);
    i = std::max(next, i + 1);
  }
  if (!has_text) problems.push_back(chapter + ": the chapter is empty");
}

// <repository root>/tutorials, the root coming from ATTIC_SOURCE_DIR (set by ctest).
fs::path tutorials_dir() {
  const char* root = std::getenv("ATTIC_SOURCE_DIR");
  if (root == nullptr || *root == '\0')
    FAIL("ATTIC_SOURCE_DIR is not set; run this test through ctest, or set it to the "
         "repository root (the folder that holds tutorials/)");
  const fs::path dir = fs::path(root) / "tutorials";
  REQUIRE(fs::is_directory(dir));
  return dir;
}

// The files directly in dir whose name ends with ext, sorted.
std::vector<fs::path> files_with_extension(const fs::path& dir, const std::string& ext) {
  std::vector<fs::path> out;
  if (fs::is_directory(dir))
    for (const fs::directory_entry& e : fs::directory_iterator(dir))
      if (e.is_regular_file() && e.path().extension() == ext) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// Checks every chapter under dir; fills `shown` with the examples they show.
std::vector<std::string> check_all_chapters(const fs::path& dir, std::set<std::string>& shown) {
  std::vector<std::string> problems;
  for (const fs::path& md : files_with_extension(dir, ".md"))
    check_chapter("tutorials/" + md.filename().string(), read_file(md), dir, problems, shown);
  return problems;
}

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
