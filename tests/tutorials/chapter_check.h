// What the sync test checks a chapter against. A chapter shows its example programs and their
// outputs; ctest runs those programs and compares their output with the .out files
// (tutorials/CMakeLists.txt). These functions close the loop: what a chapter shows must equal
// those files, line for line.
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
// closing brace, optionally with the comment lines directly above it. An exercise's
// declarations, as its section shows them, are
//   <!-- declarations: exercises/11_gpt_forward/gpt_forward.h -->
//   ```cpp
//   ...declarations, each as the file(s) declare or define it; the comments are free...
//   ```
// and a ```cpp block without one of these three markers is an error.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/catch.h"
#include "tutorials/cpp_quote.h"

namespace attic::testing::tutorials {

namespace fs = std::filesystem;

struct Lines {
  std::vector<std::string> lines;  // without '\n' (and without a '\r' before it)
  bool ends_with_newline = true;
};

// The lines of text, and whether its last line ends with a newline.
inline Lines split_lines(const std::string& text) {
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
inline std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// "examples/x.cpp" for the line "<!-- example: examples/x.cpp -->" when kind is "example";
// "" when the line is not such a marker.
inline std::string marker_path(const std::string& line, const std::string& kind) {
  const std::string t = trim(line), open = "<!-- " + kind + ":", close = "-->";
  if (t.size() < open.size() + close.size() || t.compare(0, open.size(), open) != 0 ||
      t.compare(t.size() - close.size(), close.size(), close) != 0)
    return "";
  return trim(t.substr(open.size(), t.size() - open.size() - close.size()));
}

// Where a fenced block's lines and a file's lines first differ; "" when they are equal.
inline std::string first_difference(const std::vector<std::string>& shown,
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

// Checks one chapter's text against the files under tutorials_dir. Appends one message per
// problem to `problems` and the examples the chapter shows to `shown`.
inline void check_chapter(const std::string& chapter, const std::string& text,
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

  // Checks the ```cpp block opening at lines[i] against the files (paths from the repository
  // root, separated by spaces): each of its declarations must be one that the files make, as
  // first_undeclared compares them. Returns the line after the block.
  auto check_declarations = [&](size_t i, const std::string& marker_line_info,
                                const std::string& files) -> size_t {
    if (i >= lines.size() || trim(lines[i]) != "```cpp") {
      problems.push_back(marker_line_info + files + ": the marker is not followed by a ```cpp block");
      return i;
    }
    size_t end = i + 1;
    while (end < lines.size() && trim(lines[end]) != "```") ++end;
    if (end == lines.size()) {
      problems.push_back(where(i) + files + ": the block is never closed with ```");
      return end;
    }
    std::string declared;
    std::istringstream names(files);
    for (std::string file; names >> file;) {
      const fs::path path = tutorials_dir.parent_path() / file;
      if (!fs::is_regular_file(path)) {
        problems.push_back(where(i) + file + ": no such file in " + tutorials_dir.parent_path().string());
        return end + 1;
      }
      declared += flat_declarations(split_lines(read_file(path)).lines) + " ";
    }
    const std::vector<std::string> block(lines.begin() + long(i) + 1, lines.begin() + long(end));
    const std::string missing = first_undeclared(block, declared);
    if (block.empty() || flat_declarations(block).empty())
      problems.push_back(where(i) + files + ": the block declares nothing");
    else if (!missing.empty())
      problems.push_back(where(i) + files + ": the block declares what the files do not: " + missing);
    return end + 1;
  };

  bool has_text = false;
  for (size_t i = 0; i < lines.size();) {
    has_text = has_text || !trim(lines[i]).empty();
    const std::string declared = marker_path(lines[i], "declarations");
    if (!declared.empty()) {
      i = std::max(check_declarations(skip_blank(i + 1), where(i), declared), i + 1);
      continue;
    }
    if (trim(lines[i]) == "```cpp") {
      problems.push_back(where(i) + "a ```cpp block needs a marker above it: <!-- example: FILE -->, "
                         "<!-- source: FILE[:Name] --> or <!-- declarations: FILE ... -->");
      size_t end = i + 1;
      while (end < lines.size() && trim(lines[end]) != "```") ++end;
      i = end + 1;
      continue;
    }
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
inline fs::path tutorials_dir() {
  const char* root = std::getenv("ATTIC_SOURCE_DIR");
  if (root == nullptr || *root == '\0')
    FAIL("ATTIC_SOURCE_DIR is not set; run this test through ctest, or set it to the "
         "repository root (the folder that holds tutorials/)");
  const fs::path dir = fs::path(root) / "tutorials";
  REQUIRE(fs::is_directory(dir));
  return dir;
}

// The files directly in dir whose name ends with ext, sorted.
inline std::vector<fs::path> files_with_extension(const fs::path& dir, const std::string& ext) {
  std::vector<fs::path> out;
  if (fs::is_directory(dir))
    for (const fs::directory_entry& e : fs::directory_iterator(dir))
      if (e.is_regular_file() && e.path().extension() == ext) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// Checks every chapter under dir; fills `shown` with the examples they show.
inline std::vector<std::string> check_all_chapters(const fs::path& dir, std::set<std::string>& shown) {
  std::vector<std::string> problems;
  for (const fs::path& md : files_with_extension(dir, ".md"))
    check_chapter("tutorials/" + md.filename().string(), read_file(md), dir, problems, shown);
  return problems;
}

}  // namespace attic::testing::tutorials
