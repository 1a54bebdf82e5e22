#include "cli/options.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <ostream>
#include <sstream>

#include "tensor/error.h"

namespace attic::cli {

std::string trim_blanks(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t\r");
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(" \t\r") - a + 1);
}

std::string unquote(const std::string& s) {
  if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'') && s.back() == s.front())
    return s.substr(1, s.size() - 2);
  return s;
}

// Formats a double so that it reads back identically ("%.17g" trimmed to what is needed).
static std::string show_double(double v) {
  for (int prec = 6; prec <= 17; ++prec) {
    std::ostringstream os;
    os.precision(prec);
    os << v;
    if (std::strtod(os.str().c_str(), nullptr) == v) return os.str();
  }
  return std::to_string(v);
}

bool parse_bool(const std::string& key, const std::string& t) {
  if (t == "true" || t == "True" || t == "1") return true;
  if (t == "false" || t == "False" || t == "0") return false;
  fail("config key '", key, "' expects true or false, got '", t, "'");
}

void Options::bind(const std::string& key, int64_t& v, const std::string& help, KeyKind kind) {
  entries_.push_back({key, help, "int", kind, [&v, key](const std::string& t) {
    char* end = nullptr;
    errno = 0;
    const long long x = std::strtoll(t.c_str(), &end, 10);
    ATTIC_CHECK(!t.empty() && *end == 0 && errno == 0, "config key '", key,
                "' expects an integer, got '", t, "'");
    v = x;
  }, [&v] { return std::to_string(v); }});
}

void Options::bind(const std::string& key, double& v, const std::string& help, KeyKind kind) {
  entries_.push_back({key, help, "float", kind, [&v, key](const std::string& t) {
    char* end = nullptr;
    errno = 0;
    const double x = std::strtod(t.c_str(), &end);
    ATTIC_CHECK(!t.empty() && *end == 0 && errno == 0 && std::isfinite(x), "config key '", key,
                "' expects a number, got '", t, "'");
    v = x;
  }, [&v] { return show_double(v); }});
}

void Options::bind(const std::string& key, bool& v, const std::string& help, KeyKind kind) {
  entries_.push_back({key, help, "bool", kind,
                      [&v, key](const std::string& t) { v = parse_bool(key, t); },
                      [&v] { return std::string(v ? "true" : "false"); }});
}

void Options::bind(const std::string& key, std::string& v, const std::string& help, KeyKind kind) {
  entries_.push_back({key, help, "string", kind, [&v](const std::string& t) { v = t; },
                      [&v] { return v; }});
}

const Options::Entry* Options::find(const std::string& key) const {
  for (const Entry& e : entries_)
    if (e.key == key) return &e;
  return nullptr;
}

const Options::Entry& Options::at(const std::string& key) const {
  const Entry* e = find(key);
  ATTIC_CHECK(e != nullptr, "unknown config key '", key, "' (--help lists the keys)");
  return *e;
}

bool Options::has(const std::string& key) const { return find(key) != nullptr; }
KeyKind Options::kind(const std::string& key) const { return at(key).kind; }
std::string Options::type(const std::string& key) const { return at(key).type; }
std::string Options::value(const std::string& key) const { return at(key).show(); }

std::vector<std::string> Options::keys() const {
  std::vector<std::string> out;
  for (const Entry& e : entries_) out.push_back(e.key);
  return out;
}

Options Options::only(const std::vector<std::string>& keys) const {
  Options o;
  for (const std::string& k : keys) o.entries_.push_back(at(k));
  return o;
}

void Options::set(const std::string& key, const std::string& value) {
  at(key).parse(unquote(trim_blanks(value)));
  assigned_.emplace_back(key, value);
}

// Cuts a '#' comment off a "key = value" line. A value in quotes may hold '#' (a path):
// there the comment can only start after the last quote of the line.
std::string strip_comment(const std::string& line) {
  const size_t eq = line.find('=');
  size_t from = 0;
  if (eq != std::string::npos && line.find('#') > eq) {
    const size_t v = line.find_first_not_of(" \t", eq + 1);
    if (v != std::string::npos && (line[v] == '"' || line[v] == '\'')) {
      const size_t close = line.rfind(line[v]);
      if (close > v) from = close + 1;
    }
  }
  return line.substr(0, line.find('#', from));
}

void Options::load_text(const std::string& text, const std::string& source, std::ostream* echo) {
  std::istringstream in(text);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    line = trim_blanks(strip_comment(line));
    if (line.empty()) continue;
    const size_t eq = line.find('=');
    ATTIC_CHECK(eq != std::string::npos, source, ":", n, ": expected 'key = value', got '", line, "'");
    const std::string key = trim_blanks(line.substr(0, eq));
    try {
      set(key, line.substr(eq + 1));
    } catch (const Error& e) {
      fail(source, ":", n, ": ", e.what());
    }
    if (echo) *echo << "  " << key << " = " << value(key) << "\n";
  }
}

void Options::load_file(const std::string& path, std::ostream& echo) {
  std::ifstream in(path);
  ATTIC_CHECK(in.good(), "cannot read config file '", path, "'");
  echo << "Overriding config with " << path << ":\n";
  std::ostringstream text;
  text << in.rdbuf();
  load_text(text.str(), path, &echo);
}

void Options::apply_flag(const std::string& arg, std::ostream& echo) {
  ATTIC_CHECK(arg.rfind("--", 0) == 0 && arg.size() > 2, "expected --key=value, got '", arg, "'");
  const size_t eq = arg.find('=');
  const std::string key = arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
  if (eq == std::string::npos) {
    // A bare --flag is --flag=true, for a bool key only.
    ATTIC_CHECK(at(key).type == "bool", "config key '", key, "' needs a value: --", key, "=",
                at(key).type == "int" ? "N" : at(key).type == "float" ? "X" : "TEXT",
                " (only a bool key may be given bare)");
    set(key, "true");
  } else {
    set(key, arg.substr(eq + 1));
  }
  echo << "Overriding: " << key << " = " << value(key) << "\n";
}

std::string Options::dump() const {
  std::string s;
  for (const Entry& e : entries_) {
    const char* quote = e.type == "string" ? "\"" : "";
    s.append(e.key).append(" = ").append(quote).append(e.show()).append(quote).append("\n");
  }
  return s;
}

std::string Options::usage() const {
  std::string s;
  for (const Entry& e : entries_) {
    std::string left = "  --" + e.key + "=" + e.show();
    if (left.size() < 34) left.resize(34, ' ');
    s += left + " " + e.type + (e.help.empty() ? "" : ", " + e.help) + "\n";
  }
  return s;
}

}  // namespace attic::cli
