// UTF-8 where attic needs it: where text stops being valid, bytes carried as U+0000..U+00FF,
// and values quoted for messages so that the message itself stays valid text.
#include <string>

#include "tests/catch.h"
#include "util/json.h"
#include "util/quote_value.h"
#include "util/utf8.h"

using namespace attic;

TEST_CASE("first_invalid_utf8 finds the first byte that starts no valid sequence", "[util][utf8]") {
  CHECK(util::first_invalid_utf8("plain ASCII") == std::string::npos);
  CHECK(util::first_invalid_utf8("h\xc3\xa9llo \xe2\x98\x83 \xf0\x9f\x8e\x89") == std::string::npos);  // é ☃ 🎉
  CHECK(util::first_invalid_utf8("caf\xe9") == 3);          // Latin-1 é
  CHECK(util::first_invalid_utf8("\xc0\xaf") == 0);         // an overlong '/'
  CHECK(util::first_invalid_utf8("ab\xed\xa0\x80") == 2);   // a UTF-16 surrogate
  CHECK(util::first_invalid_utf8("\xf4\x90\x80\x80") == 0); // above U+10FFFF
  CHECK(util::first_invalid_utf8("x\xe2\x98") == 1);        // cut short
}

TEST_CASE("bytes travel through UTF-8 text as U+0000..U+00FF and come back", "[util][utf8]") {
  std::string all;
  for (int b = 0; b < 256; ++b) all += static_cast<char>(b);
  const std::string text = util::bytes_as_utf8(all);
  CHECK(util::first_invalid_utf8(text) == std::string::npos);
  CHECK(text.size() == 128 + 2 * 128);
  CHECK(util::utf8_as_bytes(text) == all);
  CHECK(util::bytes_as_utf8("ASCII stays") == "ASCII stays");
  CHECK(util::bytes_as_utf8("\xe9") == "\xc3\xa9");
  CHECK_FALSE(util::utf8_as_bytes("\xe2\x98\x83").has_value());  // ☃ is above U+00FF
  CHECK_FALSE(util::utf8_as_bytes("\xe9").has_value());          // not UTF-8 at all
}

TEST_CASE("the JSON writer refuses what its reader would refuse", "[util][utf8][json]") {
  CHECK(json::quote("h\xc3\xa9") == "\"h\xc3\xa9\"");
  CHECK_THROWS_WITH(json::quote("caf\xe9"), "json: a string to write is not UTF-8 (byte 3 of 4)");
}

TEST_CASE("quote_value keeps UTF-8, escapes the rest and bounds the length", "[util][utf8]") {
  CHECK(util::quote_value("h\xc3\xa9 \xe2\x98\x83") == "'h\xc3\xa9 \xe2\x98\x83'");
  CHECK(util::quote_value("caf\xe9\n") == "'caf\\xe9\\n'");
  CHECK(util::quote_value("\x7f") == "'\\x7f'");
  CHECK(util::quote_value(std::string(3000, 'x')) == "'" + std::string(80, 'x') + "...' (3000 bytes)");
  // A character cut by the bound is shown by its bytes, not half of it raw.
  const std::string cut = util::quote_value(std::string(79, 'a') + "\xe2\x98\x83");
  CHECK(util::first_invalid_utf8(cut) == std::string::npos);
  CHECK(cut.find("\\xe2") != std::string::npos);
}
