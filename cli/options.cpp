#include "cli/options.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <ostream>
#include <sstream>

#include "tensor/error.h"

namespace attic::cli {

static std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t\r");
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(" \t\r") - a + 1);
}

static std::string unquote(const std::string& s) {
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

void Options::bind(const std::string& key, int64_t& v, const std::string& help) {
  entries_.push_back({key, help, "int", [&v, key](const std::string& t) {
    char* end = nullptr;
    errno = 0;
    const long long x = std::strtoll(t.c_str(), &end, 10);
    ATTIC_CHECK(!t.empty() && *end == 0 && errno == 0, "config key '", key,
                "' expects an integer, got '", t, "'");
    v = x;
  }, [&v] { return std::to_string(v); }});
}

void Options::bind(const std::string& key, double& v, const std::string& help) {
  entries_.push_back({key, help, "float", [&v, key](const std::string& t) {
    char* end = nullptr;
    errno = 0;
    const double x = std::strtod(t.c_str(), &end);
    ATTIC_CHECK(!t.empty() && *end == 0 && errno == 0 && std::isfinite(x), "config key '", key,
                "' expects a number, got '", t, "'");
    v = x;
  }, [&v] { return show_double(v); }});
}

void Options::bind(const std::string& key, bool& v, const std::string& help) {
  entries_.push_back({key, help, "bool", [&v, key](const std::string& t) { v = parse_bool(key, t); },
                      [&v] { return std::string(v ? "true" : "false"); }});
}

void Options::bind(const std::string& key, std::string& v, const std::string& help) {
  entries_.push_back({key, help, "string", [&v](const std::string& t) { v = t; },
                      [&v] { return v; }});
}

const Options::Entry* Options::find(const std::string& key) const {
  for (const Entry& e : entries_)
    if (e.key == key) return &e;
  return nullptr;
}

bool Options::has(const std::string& key) const { return find(key) != nullptr; }

void Options::set(const std::string& key, const std::string& value) {
  const Entry* e = find(key);
  ATTIC_CHECK(e != nullptr, "unknown config key '", key, "' (--help lists the keys)");
  e->parse(unquote(trim(value)));
}

void Options::load_file(const std::string& path, std::ostream& echo) {
  std::ifstream in(path);
  ATTIC_CHECK(in.good(), "cannot read config file '", path, "'");
  echo << "Overriding config with " << path << ":\n";
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    const size_t hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    line = trim(line);
    if (line.empty()) continue;
    const size_t eq = line.find('=');
    ATTIC_CHECK(eq != std::string::npos, path, ":", n, ": expected 'key = value', got '", line, "'");
    const std::string key = trim(line.substr(0, eq));
    try {
      set(key, line.substr(eq + 1));
    } catch (const Error& e) {
      fail(path, ":", n, ": ", e.what());
    }
    echo << "  " << key << " = " << find(key)->show() << "\n";
  }
}

void Options::apply_flag(const std::string& arg, std::ostream& echo) {
  ATTIC_CHECK(arg.rfind("--", 0) == 0 && arg.find('=') != std::string::npos,
              "expected --key=value, got '", arg, "'");
  const size_t eq = arg.find('=');
  const std::string key = arg.substr(2, eq - 2);
  set(key, arg.substr(eq + 1));
  echo << "Overriding: " << key << " = " << find(key)->show() << "\n";
}

std::string Options::dump() const {
  std::string s;
  for (const Entry& e : entries_) s += e.key + " = " + e.show() + "\n";
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
