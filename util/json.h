// A small, strict JSON (RFC 8259) value with its parser and writer: enough for checkpoint
// headers and configs, with no third-party library.
//
//   json::Value v = json::parse(R"({"shape": [2, 3], "dtype": "F32"})");
//   int64_t rows = v.at("shape").as_array()[0].as_int();
//   std::string text = json::dump(v);   // {"dtype":"F32","shape":[2,3]}
//
// Strict means: no comments, trailing commas, leading zeros, NaN, single quotes, duplicate
// keys, raw control characters or invalid UTF-8 in strings, or nesting deeper than
// kMaxDepth. Every parse error throws attic::Error("json: ... at byte N").
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "tensor/error.h"

namespace attic::json {

inline constexpr int kMaxDepth = 64;  // arrays and objects nested deeper are rejected

class Value {
 public:
  enum class Type { Null, Bool, Number, String, Array, Object };
  using Array = std::vector<Value>;
  using Object = std::map<std::string, Value>;  // sorted by key; keys are unique

  Value() = default;  // null
  Value(std::nullptr_t) {}  // NOLINT: Value v = nullptr
  Value(bool b) : type_(Type::Bool), bool_(b) {}  // NOLINT
  Value(double d) : type_(Type::Number), double_(d) {}  // NOLINT
  Value(int64_t i) : type_(Type::Number), double_(double(i)), int_(i), is_int_(true) {}  // NOLINT
  Value(int i) : Value(int64_t(i)) {}  // NOLINT
  Value(std::string s) : type_(Type::String), string_(std::move(s)) {}  // NOLINT
  Value(const char* s) : Value(std::string(s)) {}  // NOLINT
  Value(Array a) : type_(Type::Array), array_(std::move(a)) {}  // NOLINT
  Value(Object o) : type_(Type::Object), object_(std::move(o)) {}  // NOLINT

  Type type() const { return type_; }
  bool is_null() const { return type_ == Type::Null; }
  // A number written without fraction or exponent that fits in int64: as_int() is exact.
  bool is_int() const { return type_ == Type::Number && is_int_; }
  bool is_string() const { return type_ == Type::String; }
  bool is_array() const { return type_ == Type::Array; }
  bool is_object() const { return type_ == Type::Object; }

  // Each throws attic::Error when the value has another type (as_int: when !is_int()).
  bool as_bool() const;
  double as_double() const;
  int64_t as_int() const;
  const std::string& as_string() const;
  const Array& as_array() const;
  const Object& as_object() const;
  Array& as_array();
  Object& as_object();

  // Object member by key; find() gives nullptr when absent (or not an object), at() throws.
  const Value* find(const std::string& key) const;
  const Value& at(const std::string& key) const;

  bool operator==(const Value& other) const;

 private:
  Type type_ = Type::Null;
  bool bool_ = false;
  double double_ = 0.0;
  int64_t int_ = 0;
  bool is_int_ = false;
  std::string string_;
  Array array_;
  Object object_;
};

const char* type_name(Value::Type t);  // "null", "bool", "number", ...

// Parses one JSON text; whitespace may surround it, nothing else may follow it.
Value parse(std::string_view text);

// Compact JSON text (no spaces), object keys in sorted order. Throws attic::Error for a
// NaN or infinite number, which JSON cannot express.
std::string dump(const Value& v);

// s as a JSON string literal with its quotes: `"`, `\` and control characters escaped,
// other bytes (UTF-8) copied as they are. Throws attic::Error for s that is not UTF-8.
std::string quote(std::string_view s);

}  // namespace attic::json
