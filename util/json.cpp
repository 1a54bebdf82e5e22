#include "util/json.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <system_error>

#include "util/utf8.h"

namespace attic::json {

const char* type_name(Value::Type t) {
  switch (t) {
    case Value::Type::Null: return "null";
    case Value::Type::Bool: return "bool";
    case Value::Type::Number: return "number";
    case Value::Type::String: return "string";
    case Value::Type::Array: return "array";
    case Value::Type::Object: return "object";
  }
  return "?";
}

static void check_type(Value::Type have, Value::Type want) {
  ATTIC_CHECK(have == want, "json: expected a ", type_name(want), ", got a ", type_name(have));
}

bool Value::as_bool() const { check_type(type_, Type::Bool); return bool_; }
double Value::as_double() const { check_type(type_, Type::Number); return double_; }
int64_t Value::as_int() const {
  check_type(type_, Type::Number);
  ATTIC_CHECK(is_int_, "json: expected an integer, got ", double_);
  return int_;
}
const std::string& Value::as_string() const { check_type(type_, Type::String); return string_; }
const Value::Array& Value::as_array() const { check_type(type_, Type::Array); return array_; }
const Value::Object& Value::as_object() const { check_type(type_, Type::Object); return object_; }
Value::Array& Value::as_array() { check_type(type_, Type::Array); return array_; }
Value::Object& Value::as_object() { check_type(type_, Type::Object); return object_; }

const Value* Value::find(const std::string& key) const {
  if (type_ != Type::Object) return nullptr;
  auto it = object_.find(key);
  return it == object_.end() ? nullptr : &it->second;
}

const Value& Value::at(const std::string& key) const {
  const Value* v = find(key);
  ATTIC_CHECK(v != nullptr, "json: no key ", quote(key), " in this ", type_name(type_));
  return *v;
}

bool Value::operator==(const Value& o) const {
  if (type_ != o.type_) return false;
  switch (type_) {
    case Type::Null: return true;
    case Type::Bool: return bool_ == o.bool_;
    case Type::Number: return is_int_ && o.is_int_ ? int_ == o.int_ : double_ == o.double_;
    case Type::String: return string_ == o.string_;
    case Type::Array: return array_ == o.array_;
    case Type::Object: return object_ == o.object_;
  }
  return false;
}

// ---------------------------------------------------------------- parser

namespace {

// A recursive-descent parser over the grammar of RFC 8259. Recursion depth is bounded by
// kMaxDepth, so hostile input cannot overflow the stack.
class Parser {
 public:
  explicit Parser(std::string_view s) : s_(s) {}

  Value document() {
    Value v = value(0);
    skip_ws();
    if (pos_ != s_.size()) unexpected();
    return v;
  }

 private:
  std::string_view s_;
  size_t pos_ = 0;

  [[noreturn]] void error(const std::string& what) const { fail("json: ", what, " at byte ", pos_); }

  [[noreturn]] void unexpected() const {
    if (pos_ >= s_.size()) error("unexpected end of input");
    const unsigned char c = s_[pos_];
    if (c >= 0x20 && c < 0x7F) error(std::string("unexpected '") + char(c) + "'");
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02X", c);
    error(std::string("unexpected byte ") + hex);
  }

  bool at(char c) const { return pos_ < s_.size() && s_[pos_] == c; }
  bool at_digit() const { return pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9'; }
  bool consume(char c) {
    if (!at(c)) return false;
    ++pos_;
    return true;
  }
  void expect(char c) {
    if (!consume(c)) unexpected();
  }
  void skip_ws() {
    while (at(' ') || at('\t') || at('\n') || at('\r')) ++pos_;
  }

  Value value(int depth) {
    skip_ws();
    if (pos_ >= s_.size()) unexpected();
    switch (s_[pos_]) {
      case '{': return object(depth + 1);
      case '[': return array(depth + 1);
      case '"': return string();
      case 't': return literal("true", true);
      case 'f': return literal("false", false);
      case 'n': return literal("null", Value());
      default: return number();
    }
  }

  Value literal(std::string_view word, Value v) {
    if (s_.substr(pos_, word.size()) != word) unexpected();
    pos_ += word.size();
    return v;
  }

  void check_depth(int depth) const {
    if (depth > kMaxDepth) error("nesting deeper than " + std::to_string(kMaxDepth));
  }

  Value array(int depth) {
    check_depth(depth);
    ++pos_;  // '['
    Value::Array out;
    skip_ws();
    if (consume(']')) return out;
    for (;;) {
      out.push_back(value(depth));
      skip_ws();
      if (consume(']')) return out;
      expect(',');
    }
  }

  Value object(int depth) {
    check_depth(depth);
    ++pos_;  // '{'
    Value::Object out;
    skip_ws();
    if (consume('}')) return out;
    for (;;) {
      skip_ws();
      if (!at('"')) unexpected();
      const size_t key_at = pos_;
      std::string key = string();
      skip_ws();
      expect(':');
      Value v = value(depth);
      if (out.count(key)) {
        pos_ = key_at;
        error("duplicate key " + quote(key));
      }
      out.emplace(std::move(key), std::move(v));
      skip_ws();
      if (consume('}')) return out;
      expect(',');
    }
  }

  // -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?; integral literals that fit stay exact.
  Value number() {
    const size_t start = pos_;
    consume('-');
    if (!consume('0')) digits();
    bool integral = true;
    if (consume('.')) {
      integral = false;
      digits();
    }
    if (consume('e') || consume('E')) {
      integral = false;
      if (!consume('+')) consume('-');
      digits();
    }
    const char* first = s_.data() + start;
    const char* last = s_.data() + pos_;
    if (integral) {
      int64_t i = 0;
      if (std::from_chars(first, last, i).ec == std::errc()) return i;
    }
    double d = 0.0;
    if (std::from_chars(first, last, d).ec != std::errc()) {
      pos_ = start;
      error("number out of the range of double");
    }
    return d;
  }

  void digits() {
    if (!at_digit()) unexpected();
    while (at_digit()) ++pos_;
  }

  std::string string() {
    const size_t start = pos_++;  // '"'
    std::string out;
    for (;;) {
      if (pos_ >= s_.size()) {
        pos_ = start;
        error("unterminated string");
      }
      const unsigned char c = s_[pos_];
      if (consume('"')) return out;
      if (c < 0x20) error("control character in a string (it must be escaped)");
      if (c == '\\') {
        escape(out);
        continue;
      }
      const size_t n = c < 0x80 ? 1 : utf8_length();
      if (n == 0) error("invalid UTF-8 in a string");
      out.append(s_.substr(pos_, n));
      pos_ += n;
    }
  }

  size_t utf8_length() const { return util::utf8_sequence_length(s_, pos_); }

  void escape(std::string& out) {
    const size_t start = pos_++;  // '\'
    const char c = pos_ < s_.size() ? s_[pos_++] : '\0';
    switch (c) {
      case '"': out += '"'; return;
      case '\\': out += '\\'; return;
      case '/': out += '/'; return;
      case 'b': out += '\b'; return;
      case 'f': out += '\f'; return;
      case 'n': out += '\n'; return;
      case 'r': out += '\r'; return;
      case 't': out += '\t'; return;
      case 'u': break;
      default: pos_ = start; error("invalid escape");
    }
    uint32_t cp = hex4();
    if (cp >= 0xD800 && cp <= 0xDBFF && s_.substr(pos_, 2) == "\\u") {
      // A UTF-16 surrogate pair: high 0xD800 + (hi 10 bits), low 0xDC00 + (lo 10 bits).
      pos_ += 2;
      const uint32_t low = hex4();
      if (low >= 0xDC00 && low <= 0xDFFF) cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
    }
    if (cp >= 0xD800 && cp <= 0xDFFF) {
      pos_ = start;
      error("unpaired UTF-16 surrogate");
    }
    append_utf8(out, cp);
  }

  uint32_t hex4() {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i, ++pos_) {
      const char c = pos_ < s_.size() ? s_[pos_] : '\0';
      const int d = c >= '0' && c <= '9' ? c - '0'
                    : c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
      if (d < 0) error("expected 4 hex digits after \\u");
      v = v * 16 + uint32_t(d);
    }
    return v;
  }

  // Code point cp (< 0x110000, not a surrogate) as 1 to 4 UTF-8 bytes.
  static void append_utf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
      out += char(cp);
    } else if (cp < 0x800) {
      out += char(0xC0 | (cp >> 6));
      out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += char(0xE0 | (cp >> 12));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    } else {
      out += char(0xF0 | (cp >> 18));
      out += char(0x80 | ((cp >> 12) & 0x3F));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    }
  }
};

}  // namespace

Value parse(std::string_view text) { return Parser(text).document(); }

// ---------------------------------------------------------------- writer

std::string quote(std::string_view s) {
  // A reader refuses invalid UTF-8, so the writer must never produce it.
  const size_t bad = util::first_invalid_utf8(s);
  if (bad != std::string_view::npos)
    fail("json: a string to write is not UTF-8 (byte ", bad, " of ", s.size(), ")");
  std::string out = "\"";
  for (const char ch : s) {
    const unsigned char c = ch;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", unsigned(c));
          out += buf;
        } else {
          out += ch;
        }
    }
  }
  return out + "\"";
}

static void write(const Value& v, std::string& out) {
  switch (v.type()) {
    case Value::Type::Null: out += "null"; return;
    case Value::Type::Bool: out += v.as_bool() ? "true" : "false"; return;
    case Value::Type::String: out += quote(v.as_string()); return;
    case Value::Type::Number: {
      if (v.is_int()) {
        out += std::to_string(v.as_int());
        return;
      }
      const double d = v.as_double();
      ATTIC_CHECK(std::isfinite(d), "json: cannot write ", d, ": JSON has no NaN or infinity");
      // to_chars without a precision gives the shortest text that reads back as d exactly.
      char buf[32];
      out.append(buf, std::to_chars(buf, buf + sizeof buf, d).ptr);
      return;
    }
    case Value::Type::Array: {
      out += '[';
      for (size_t i = 0; i < v.as_array().size(); ++i) {
        if (i) out += ',';
        write(v.as_array()[i], out);
      }
      out += ']';
      return;
    }
    case Value::Type::Object: {
      out += '{';
      bool first = true;
      for (const auto& [key, member] : v.as_object()) {
        if (!first) out += ',';
        first = false;
        out += quote(key);
        out += ':';
        write(member, out);
      }
      out += '}';
      return;
    }
  }
}

std::string dump(const Value& v) {
  std::string out;
  write(v, out);
  return out;
}

}  // namespace attic::json
