// How a chapter's quote of C++ is found in a file: the definition a `<!-- source: FILE:Name -->`
// block names (a type, a function or Class::method, from its first line through its closing
// brace), and the declarations a `<!-- declarations: FILE ... -->` block shows of an exercise.
#pragma once

#include <cctype>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace attic::testing::tutorials {

// s without leading and trailing spaces and tabs.
inline std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") + 1 - b);
}

// True when c can be part of an identifier.
inline bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Where `word` occurs in `line` as a whole identifier (or qualified name), from `from`;
// npos when it does not.
inline size_t find_word(const std::string& line, const std::string& word, size_t from = 0) {
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
inline Stop next_brace_or_semicolon(const std::vector<std::string>& lines, size_t first, size_t col) {
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
inline size_t closing_line(const std::vector<std::string>& lines, size_t line, size_t col) {
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
inline std::optional<Definition> find_in(const std::vector<std::string>& lines, const std::string& name,
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
inline std::optional<Definition> find_definition(const std::vector<std::string>& lines,
                                                 const std::string& name) {
  if (auto d = find_in(lines, name, 0, lines.size())) return d;
  const size_t sep = name.rfind("::");
  if (sep == std::string::npos) return std::nullopt;
  const std::optional<Definition> outer = find_definition(lines, name.substr(0, sep));
  if (!outer) return std::nullopt;
  return find_in(lines, name.substr(sep + 2), outer->begin + 1, outer->end);
}

// ---- an exercise's declarations, as a chapter shows them

// C++ lines as one line: without their // comments, every run of blanks and line breaks one
// space, none just inside parentheses, and attic:: dropped. A declaration then reads the same
// however it is wrapped, and whether it is written inside namespace attic or not.
inline std::string flat_declarations(const std::vector<std::string>& lines) {
  std::string flat;
  for (const std::string& line : lines) {
    for (const char c : line.substr(0, line.find("//")) + " ") {
      const bool blank = c == ' ' || c == '\t';
      if (blank && (flat.empty() || flat.back() == ' ' || flat.back() == '(')) continue;
      if (c == ')' && !flat.empty() && flat.back() == ' ') flat.pop_back();
      flat += blank ? ' ' : c;
    }
  }
  for (size_t at = flat.find("attic::"); at != std::string::npos; at = flat.find("attic::", at))
    flat.erase(at, 7);
  return trim(flat);
}

// The first piece of the block's declarations, cut at every ';', '{' and '}', that does not
// appear in `declared` (the files' flat_declarations); "" when every piece does.
inline std::string first_undeclared(const std::vector<std::string>& block, const std::string& declared) {
  const std::string flat = flat_declarations(block);
  for (size_t from = 0; from < flat.size();) {
    size_t stop = flat.find_first_of(";{}", from);
    if (stop == std::string::npos) stop = flat.size();
    const std::string piece = trim(flat.substr(from, stop - from));
    if (!piece.empty() && declared.find(piece) == std::string::npos) return piece;
    from = stop + 1;
  }
  return "";
}

}  // namespace attic::testing::tutorials
