#include "util/options.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <ostream>
#include <sstream>

#include "util/files.h"
#include "tensor/error.h"
#include "util/quote_value.h"

namespace attic::util {

using util::quote_value;

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

bool parse_bool(const std::string& key, const std::string& t, const std::string& noun) {
  if (t == "true" || t == "True" || t == "1") return true;
  if (t == "false" || t == "False" || t == "0") return false;
  fail(noun, " '", key, "' expects true or false, got ", quote_value(t));
}

std::string Options::Entry::type() const {
  static const char* names[] = {"int", "float", "bool", "string"};
  return names[var.index()];
}

// Reads text as the entry's type, exactly: no blanks around a number, nothing after it. An
// int must fit int64 and the range; a float must be finite and in its range. strtod sets
// ERANGE for a denormal too (1e-320 is one): that is a number, and only a result of 0 or
// ±HUGE_VAL means the text was beyond what a double holds.
void Options::Entry::parse(const std::string& t) const {
  const bool starts_well = !t.empty() && !std::isspace(static_cast<unsigned char>(t[0]));
  char* end = nullptr;
  if (int64_t* const* iv = std::get_if<int64_t*>(&var)) {
    errno = 0;
    const long long x = std::strtoll(t.c_str(), &end, 10);
    ATTIC_CHECK(starts_well && end == t.c_str() + t.size(), noun, " '", key,
                "' expects an integer, got ", quote_value(t));
    if (errno == ERANGE || x < lo || x > hi) {
      const std::string range =
          lo == INT64_MIN && hi == INT64_MAX ? "an integer that fits 64 bits (" + std::to_string(lo) + ".." +
                                                   std::to_string(hi) + ")"
          : hi == INT64_MAX ? ">= " + std::to_string(lo)
          : lo == INT64_MIN ? "<= " + std::to_string(hi)
                            : "in " + std::to_string(lo) + ".." + std::to_string(hi);
      fail(noun, " '", key, "' must be ", range, ", got ", quote_value(t));
    }
    **iv = x;
  } else if (double* const* dv = std::get_if<double*>(&var)) {
    errno = 0;
    const double x = std::strtod(t.c_str(), &end);
    ATTIC_CHECK(starts_well && end == t.c_str() + t.size(), noun, " '", key,
                "' expects a number, got ", quote_value(t));
    const bool beyond = errno == ERANGE && (x == 0 || std::isinf(x));
    ATTIC_CHECK(!beyond, noun, " '", key, "' is beyond what a double holds (magnitudes 4.9e-324 to "
                "1.8e308, or 0), got ", quote_value(t));
    ATTIC_CHECK(std::isfinite(x), noun, " '", key, "' expects a finite number, got ", quote_value(t));
    // The models compute in float32: a learning rate, a decay or a temperature beyond its
    // largest value would be inf there.
    ATTIC_CHECK(std::fabs(x) <= double(std::numeric_limits<float>::max()), noun, " '", key,
                "' must be at most 3.4e38 in magnitude (the largest float32, as the models compute), got ",
                quote_value(t));
    const bool above_lo = flo_open ? x > flo : x >= flo;
    const bool below_hi = fhi_open ? x < fhi : x <= fhi;
    if (!above_lo || !below_hi) {
      const std::string range =
          std::isinf(fhi) ? (flo_open ? "> " : ">= ") + show_double(flo)
          : std::isinf(flo) ? (fhi_open ? "< " : "<= ") + show_double(fhi)
                            : std::string("in ") + (flo_open ? "(" : "[") + show_double(flo) + ", " +
                                  show_double(fhi) + (fhi_open ? ")" : "]");
      fail(noun, " '", key, "' must be ", range, ", got ", quote_value(t));
    }
    **dv = x;
  } else if (bool* const* bv = std::get_if<bool*>(&var)) {
    **bv = parse_bool(key, t, noun);
  } else {
    ATTIC_CHECK(!non_empty || !t.empty(), noun, " '", key, "' must not be empty");
    *std::get<std::string*>(var) = t;
  }
}

std::string Options::Entry::show() const {
  if (int64_t* const* iv = std::get_if<int64_t*>(&var)) return std::to_string(**iv);
  if (double* const* dv = std::get_if<double*>(&var)) return show_double(**dv);
  if (bool* const* bv = std::get_if<bool*>(&var)) return **bv ? "true" : "false";
  return *std::get<std::string*>(var);
}

Options& Options::add(Entry e) {
  e.noun = noun_;
  entries_.push_back(std::move(e));
  return *this;
}

Options& Options::bind(const std::string& key, int64_t& v, const std::string& help, KeyKind kind) {
  return add({key, help, kind, &v});
}
Options& Options::bind(const std::string& key, double& v, const std::string& help, KeyKind kind) {
  return add({key, help, kind, &v});
}
Options& Options::bind(const std::string& key, bool& v, const std::string& help, KeyKind kind) {
  return add({key, help, kind, &v});
}
Options& Options::bind(const std::string& key, std::string& v, const std::string& help, KeyKind kind) {
  return add({key, help, kind, &v});
}

Options::Entry& Options::last(const std::string& type) {
  ATTIC_CHECK(!entries_.empty() && entries_.back().type() == type, "Options: a ", type,
              " range or check must follow the bind() of a ", type, " key");
  return entries_.back();
}

Options& Options::int_range(int64_t lo, int64_t hi) {
  Entry& e = last("int");
  e.lo = lo;
  e.hi = hi;
  return *this;
}

Options& Options::float_range(double lo, double hi, bool lo_open, bool hi_open) {
  Entry& e = last("float");
  e.flo = lo;
  e.fhi = hi;
  e.flo_open = lo_open;
  e.fhi_open = hi_open;
  return *this;
}

Options& Options::non_empty() {
  last("string").non_empty = true;
  return *this;
}

Options& Options::shown_as(const std::string& type) {
  last("string").shown_type = type;
  return *this;
}

const Options::Entry* Options::find(const std::string& key) const {
  for (const Entry& e : entries_)
    if (e.key == key) return &e;
  return nullptr;
}

const Options::Entry& Options::at(const std::string& key) const {
  const Entry* e = find(key);
  ATTIC_CHECK(e != nullptr, "unknown config key ", quote_value(key), " (--help lists the keys)");
  return *e;
}

bool Options::has(const std::string& key) const { return find(key) != nullptr; }
KeyKind Options::kind(const std::string& key) const { return at(key).kind; }
std::string Options::type(const std::string& key) const { return at(key).type(); }
std::string Options::help(const std::string& key) const { return at(key).help; }
std::string Options::value(const std::string& key) const { return at(key).show(); }

std::vector<std::string> Options::keys() const {
  std::vector<std::string> out;
  for (const Entry& e : entries_) out.push_back(e.key);
  return out;
}

bool Options::given(const std::string& key) const {
  for (const auto& [k, v] : assigned_)
    if (k == key) return true;
  return false;
}

Options Options::only(const std::vector<std::string>& keys) const {
  Options o;
  for (const std::string& k : keys) o.entries_.push_back(at(k));
  return o;
}

void Options::set(const std::string& key, const std::string& value) {
  at(key).parse(value);
  assigned_.emplace_back(key, value);
}

// Where the '#' comment of a "key = value" line starts (npos: it has none). In a value that
// opens with a quote, the closing quote is the first one that only blanks or a comment
// follow, so "a#b" # note and "say "hi"" both keep their quotes' insides whole.
static size_t comment_start(const std::string& line) {
  const size_t eq = line.find('='), hash = line.find('#');
  if (eq == std::string::npos || hash < eq) return hash;
  const size_t v = line.find_first_not_of(" \t", eq + 1);
  if (v == std::string::npos || (line[v] != '"' && line[v] != '\'')) return hash;
  for (size_t q = line.find(line[v], v + 1); q != std::string::npos; q = line.find(line[v], q + 1)) {
    const size_t after = line.find_first_not_of(" \t\r", q + 1);
    if (after == std::string::npos || line[after] == '#') return after;
  }
  return std::string::npos;  // no closing quote: the value reader says so
}

std::string strip_comment(const std::string& line) { return line.substr(0, comment_start(line)); }

std::string config_text(const std::string& text, const std::string& source) {
  const size_t nul = text.find('\0');
  if (nul != std::string::npos) {
    const size_t line = 1 + size_t(std::count(text.begin(), text.begin() + std::ptrdiff_t(nul), '\n'));
    fail(source, ":", line, ": holds a NUL byte; a config file is text (is this a binary file?)");
  }
  return text.rfind("\xEF\xBB\xBF", 0) == 0 ? text.substr(3) : text;
}

// The value of a config line, after '=' and with the comment cut: blanks around it dropped,
// and then the quotes around it, if any, with what is inside taken exactly.
static std::string config_value(const std::string& key, const std::string& raw) {
  const std::string v = trim_blanks(raw);
  if (v.empty() || (v.front() != '"' && v.front() != '\'')) return v;
  const bool closed = v.size() >= 2 && v.back() == v.front();
  ATTIC_CHECK(closed || v.find(v.front(), 1) == std::string::npos, "config key '", key,
              "': text follows the closing quote of ", quote_value(v));
  ATTIC_CHECK(closed, "config key '", key, "': the value's opening ", v.front(),
              " has no closing one: ", quote_value(v));
  return v.substr(1, v.size() - 2);
}

void Options::load_text(const std::string& text, const std::string& source, std::ostream* echo) {
  std::istringstream in(config_text(text, source));
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    line = trim_blanks(strip_comment(line));
    if (line.empty()) continue;
    const size_t eq = line.find('=');
    ATTIC_CHECK(eq != std::string::npos, source, ":", n, ": expected 'key = value', got ",
                quote_value(line));
    const std::string key = trim_blanks(line.substr(0, eq));
    try {
      set(key, config_value(key, line.substr(eq + 1)));
    } catch (const Error& e) {
      fail(source, ":", n, ": ", e.what());
    }
    if (echo) *echo << "  " << key << " = " << value(key) << "\n";
  }
}

void Options::load_file(const std::string& path, std::ostream& echo) {
  const std::string text = read_text_file(path, "config file");
  echo << "Overriding config with " << path << ":\n";
  load_text(text, path, &echo);
}

void Options::apply_flag(const std::string& arg, std::ostream& echo) {
  ATTIC_CHECK(arg.rfind("--", 0) == 0 && arg.size() > 2, "expected --key=value, got ", quote_value(arg));
  const size_t eq = arg.find('=');
  const std::string key = arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
  if (eq == std::string::npos) {
    // A bare --flag is --flag=true, for a bool key only.
    const std::string type = at(key).type();
    ATTIC_CHECK(type == "bool", "config key '", key, "' needs a value: --", key, "=",
                type == "int" ? "N" : type == "float" ? "X" : "TEXT",
                " (only a bool key may be given bare)");
    set(key, "true");
  } else {
    set(key, arg.substr(eq + 1));
  }
  echo << "Overriding: " << key << " = " << value(key) << "\n";
}

// A string goes in double quotes, or in single ones when it holds a double quote: then no
// quote inside can be taken for the closing one.
std::string Options::dump() const {
  std::string s;
  for (const Entry& e : entries_) {
    const std::string v = e.show();
    const char* quote = e.type() != "string" ? "" : v.find('"') == std::string::npos ? "\"" : "'";
    s.append(e.key).append(" = ").append(quote).append(v).append(quote).append("\n");
  }
  return s;
}

std::string Options::usage(const std::string& prefix) const {
  std::string s;
  for (const Entry& e : entries_) {
    std::string left = "  " + prefix + e.key + "=" + e.show();
    if (left.size() < 34) left.resize(34, ' ');
    s += left + " " + (e.shown_type.empty() ? e.type() : e.shown_type) + (e.help.empty() ? "" : ", " + e.help) + "\n";
  }
  return s;
}

}  // namespace attic::util
