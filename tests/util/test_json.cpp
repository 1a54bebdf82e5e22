#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "helpers.h"
#include "util/json.h"

using namespace attic;
using attic::testing::error_message;

TEST_CASE("json: parses literals, numbers, arrays and objects", "[json]") {
  json::Value v = json::parse(R"( {"a": [1, -2.5, true, false, null], "b": {"c": "d"}, "e": []} )");
  REQUIRE(v.is_object());
  const json::Value::Array& a = v.at("a").as_array();
  REQUIRE(a.size() == 5);
  CHECK(a[0].as_int() == 1);
  CHECK(a[1].as_double() == -2.5);
  CHECK(a[2].as_bool() == true);
  CHECK(a[3].as_bool() == false);
  CHECK(a[4].is_null());
  CHECK(v.at("b").at("c").as_string() == "d");
  CHECK(v.at("e").as_array().empty());
  CHECK(json::parse("{}").as_object().empty());
  CHECK(json::parse(" \t\r\n 7 \n").as_int() == 7);
  CHECK(json::parse("1.5e3").as_double() == 1500.0);
  CHECK(json::parse("-0.25E-2").as_double() == -0.0025);
}

TEST_CASE("json: integers without fraction or exponent stay exact int64", "[json]") {
  CHECK(json::parse("9223372036854775807").as_int() == std::numeric_limits<int64_t>::max());
  CHECK(json::parse("-9223372036854775808").as_int() == std::numeric_limits<int64_t>::min());
  // 2^53 + 1 is not a double; as an int64 it survives.
  CHECK(json::parse("9007199254740993").as_int() == 9007199254740993);
  // One past int64 max is still a number, but only as a double.
  json::Value big = json::parse("9223372036854775808");
  CHECK_FALSE(big.is_int());
  CHECK(big.as_double() == 9223372036854775808.0);
  CHECK_FALSE(json::parse("1.0").is_int());
  CHECK_FALSE(json::parse("1e2").is_int());
  CHECK(json::parse("1e2").as_double() == 100.0);
  CHECK(json::parse("-0").as_int() == 0);
  CHECK(error_message([] { json::parse("1.5").as_int(); }) == "json: expected an integer, got 1.5");
}

TEST_CASE("json: string escapes decode to UTF-8", "[json]") {
  CHECK(json::parse(R"("\"\\\/\b\f\n\r\t")").as_string() == "\"\\/\b\f\n\r\t");
  // U+0041 'A' is 1 byte; U+00E9 'é' is C3 A9; U+20AC '€' is E2 82 AC.
  CHECK(json::parse(R"("\u0041\u00e9\u20AC")").as_string() == "A\xC3\xA9\xE2\x82\xAC");
  // U+1F600 as the surrogate pair D83D DE00: 0x10000 + ((0xD83D - 0xD800) << 10) +
  // (0xDE00 - 0xDC00) = 0x1F600, which is F0 9F 98 80 in UTF-8.
  CHECK(json::parse(R"("\ud83d\ude00")").as_string() == "\xF0\x9F\x98\x80");
  CHECK(json::parse(R"("\u0000")").as_string() == std::string(1, '\0'));
  // Raw UTF-8, 2 to 4 bytes, passes as is; U+10FFFF (F4 8F BF BF) is the largest.
  const std::string raw = "h\xC3\xA9llo \xE2\x98\x83 \xF0\x9F\x98\x80 \xF4\x8F\xBF\xBF";
  CHECK(json::parse("\"" + raw + "\"").as_string() == raw);
}

TEST_CASE("json: malformed text is rejected with the byte offset", "[json]") {
  CHECK(error_message([] { json::parse(""); }) == "json: unexpected end of input at byte 0");
  CHECK(error_message([] { json::parse("[1,]"); }) == "json: unexpected ']' at byte 3");
  CHECK(error_message([] { json::parse(R"({"a" 1})"); }) == "json: unexpected '1' at byte 5");
  CHECK(error_message([] { json::parse("01"); }) == "json: unexpected '1' at byte 1");
  CHECK(error_message([] { json::parse("[1] x"); }) == "json: unexpected 'x' at byte 4");
  CHECK(error_message([] { json::parse(R"("abc)"); }) == "json: unterminated string at byte 0");
  CHECK(error_message([] { json::parse(R"({"a":1,"a":2})"); }) ==
        R"(json: duplicate key "a" at byte 7)");
  CHECK(error_message([] { json::parse(R"("\x")"); }) == "json: invalid escape at byte 1");
  CHECK(error_message([] { json::parse("1e999"); }) ==
        "json: number out of the range of double at byte 0");
  CHECK(error_message([] { json::parse("\x01"); }) == "json: unexpected byte 0x01 at byte 0");
  CHECK(error_message([] { json::parse(R"("\uD800")"); }) ==
        "json: unpaired UTF-16 surrogate at byte 1");

  const std::vector<std::string> bad = {
      "+1", ".5", "1.", "1e", "-", "--1", "0x10", "tru", "nul", "True", "[1 2]", "{,}",
      R"({"a":})", R"({"a":1,})", R"({a:1})", "'a'", "NaN", "Infinity", "[1,2", "{\"a\":1",
      "/*c*/1", "1 // c", "\"\t\"", "\"a\nb\"", R"("\u12")", R"("\uDC00")", R"("\uD800\u0041")",
      R"("\uD800x")", "\xEF\xBB\xBF{}", "\f1", "[]]", "1 2"};
  for (const std::string& text : bad) {
    INFO(text);
    CHECK_THROWS_AS(json::parse(text), Error);
  }
}

TEST_CASE("json: invalid UTF-8 in strings is rejected", "[json]") {
  CHECK(error_message([] { json::parse("\"\xC0\x80\""); }) ==
        "json: invalid UTF-8 in a string at byte 1");
  const std::vector<std::string> bad = {
      "\x80",              // a continuation byte alone
      "\xC1\xBF",          // overlong 2-byte form of U+007F
      "\xE0\x80\x80",      // overlong 3-byte form of U+0000
      "\xED\xA0\x80",      // U+D800, a surrogate
      "\xF0\x80\x80\x80",  // overlong 4-byte form
      "\xF4\x90\x80\x80",  // U+110000, past the last code point
      "\xF5\x80\x80\x80",  // a lead byte that never occurs
      "\xE2\x82",          // cut short
      "\xFF"};
  for (const std::string& s : bad) CHECK_THROWS_AS(json::parse("\"" + s + "\""), Error);
}

TEST_CASE("json: nesting deeper than 64 is rejected without overflowing the stack", "[json]") {
  CHECK(json::parse(std::string(64, '[') + std::string(64, ']')).is_array());
  CHECK(error_message([] { json::parse(std::string(65, '[') + std::string(65, ']')); }) ==
        "json: nesting deeper than 64 at byte 64");
  CHECK_THROWS_AS(json::parse(std::string(1000000, '[')), Error);
  std::string objects;
  for (int i = 0; i < 100000; ++i) objects += R"({"a":)";
  CHECK_THROWS_AS(json::parse(objects), Error);
}

TEST_CASE("json: quote escapes quotes, backslashes and control characters", "[json]") {
  CHECK(json::quote("a\"b\\c") == R"("a\"b\\c")");
  CHECK(json::quote("\b\f\n\r\t") == R"("\b\f\n\r\t")");
  CHECK(json::quote(std::string("\x01\x1f\0", 3)) == R"("\u0001\u001f\u0000")");
  CHECK(json::quote("/ \x7f") == "\"/ \x7f\"");
  CHECK(json::quote("h\xC3\xA9 \xF0\x9F\x98\x80") == "\"h\xC3\xA9 \xF0\x9F\x98\x80\"");
}

TEST_CASE("json: dump is compact with sorted keys", "[json]") {
  json::Value v = json::Value::Object{
      {"z", json::Value::Array{1, 2.5, "s", true, nullptr}}, {"a", json::Value::Object{}}};
  CHECK(json::dump(v) == R"({"a":{},"z":[1,2.5,"s",true,null]})");
  CHECK(json::dump(json::Value(int64_t(-9223372036854775807 - 1))) == "-9223372036854775808");
  CHECK(json::dump(0.1) == "0.1");
  CHECK(json::dump(1e300) == "1e+300");
}

TEST_CASE("json: dump then parse gives back the same value", "[json]") {
  std::string every_byte;
  for (int c = 1; c < 128; ++c) every_byte += char(c);
  json::Value v = json::Value::Object{
      {"ascii", every_byte},
      {"unicode", "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80"},
      {"numbers", json::Value::Array{0.1, -2.5e-300, 1.7976931348623157e308,
                                     std::numeric_limits<int64_t>::max(), int64_t(-1)}},
      {"nested", json::Value::Array{json::Value::Array{json::Value::Object{{"k", nullptr}}}}}};
  const json::Value back = json::parse(json::dump(v));
  CHECK(back == v);
  CHECK(back.at("ascii").as_string() == every_byte);
  CHECK(back.at("numbers").as_array()[1].as_double() == -2.5e-300);
}

TEST_CASE("json: dump refuses NaN and infinity", "[json]") {
  CHECK(error_message([] { json::dump(std::nan("")); }) ==
        "json: cannot write nan: JSON has no NaN or infinity");
  CHECK_THROWS_AS(json::dump(json::Value::Array{std::numeric_limits<double>::infinity()}), Error);
}

TEST_CASE("json: accessors check the type", "[json]") {
  json::Value v = json::parse(R"({"n": 1})");
  CHECK(error_message([&] { v.at("n").as_string(); }) == "json: expected a string, got a number");
  CHECK(error_message([&] { v.at("m"); }) == R"(json: no key "m" in this object)");
  CHECK_THROWS_AS(v.as_array(), Error);
  CHECK(v.find("m") == nullptr);
  CHECK(json::Value(3).find("n") == nullptr);
}
