// CharTokenizer: nanoGPT's character vocabulary, encode/decode, and its error messages.
#include <fstream>
#include <sstream>

#include "data/data.h"
#include "helpers.h"

using namespace attic;
using attic::testing::error_message;

namespace {

// The Shakespeare corpus, byte for byte.
std::string shakespeare() {
  std::ifstream in(default_dataset_path(), std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("tokenizer: the vocabulary is the sorted distinct characters", "[data]") {
  // "hello" has e, h, l, o; sorted: e=0, h=1, l=2, o=3, so hello -> 1 0 2 2 3.
  CharTokenizer tok = CharTokenizer::from_text("hello");
  CHECK(tok.vocab_size() == 4);
  CHECK(tok.vocabulary() == "ehlo");
  CHECK(tok.encode("hello") == std::vector<int64_t>{1, 0, 2, 2, 3});
  CHECK(tok.encode("") == std::vector<int64_t>{});
  CHECK(tok.decode({3, 2, 0}) == "ole");
  CHECK(tok.decode({}) == "");
}

TEST_CASE("tokenizer: bytes sort by unsigned value so any file works", "[data]") {
  // 0x01 < 'a' (0x61) < 0xe9: a byte >= 0x80 sorts after ASCII although char is signed here.
  const std::string text = std::string("a\xe9") + '\x01' + "a";
  CharTokenizer tok = CharTokenizer::from_text(text);
  CHECK(tok.vocabulary() == std::string("\x01" "a\xe9"));
  CHECK(tok.encode(text) == std::vector<int64_t>{1, 2, 0, 1});

  // All 256 byte values, NUL included, in reverse: ids are byte values, decode inverts.
  std::string all;
  for (int b = 255; b >= 0; --b) all.push_back(static_cast<char>(b));
  CharTokenizer full = CharTokenizer::from_text(all);
  REQUIRE(full.vocab_size() == 256);
  const std::vector<int64_t> ids = full.encode(all);
  CHECK(ids.front() == 255);
  CHECK(ids.back() == 0);
  CHECK(full.decode(ids) == all);
}

TEST_CASE("tokenizer: encode then decode gives the text back", "[data]") {
  const std::string text = "To be, or not to be:\nthat is the question.\n";
  CharTokenizer tok = CharTokenizer::from_text(text);
  CHECK(tok.decode(tok.encode(text)) == text);
  CHECK(tok.decode(tok.encode("be not")) == "be not");
  // decode then encode is the identity on ids too.
  std::vector<int64_t> ids;
  for (int64_t i = 0; i < tok.vocab_size(); ++i) ids.push_back(tok.vocab_size() - 1 - i);
  CHECK(tok.encode(tok.decode(ids)) == ids);
}

TEST_CASE("tokenizer: a saved vocabulary rebuilds the same ids", "[data]") {
  CharTokenizer tok = CharTokenizer::from_text("the quick brown fox");
  CharTokenizer again = CharTokenizer::from_vocabulary(tok.vocabulary());
  CHECK(again.vocabulary() == tok.vocabulary());
  CHECK(again.encode("brown fox") == tok.encode("brown fox"));

  // A vocabulary keeps its order, sorted or not: id i is vocabulary[i].
  CharTokenizer custom = CharTokenizer::from_vocabulary("zyx\n");
  CHECK(custom.vocab_size() == 4);
  CHECK(custom.encode("x\nz") == std::vector<int64_t>{2, 3, 0});
  CHECK(custom.decode({1, 1}) == "yy");
}

TEST_CASE("tokenizer: char_literal escapes what does not print", "[data]") {
  CHECK(char_literal('Z') == "'Z'");
  CHECK(char_literal(' ') == "' '");
  CHECK(char_literal('\n') == "'\\n'");
  CHECK(char_literal('\t') == "'\\t'");
  CHECK(char_literal('\r') == "'\\r'");
  CHECK(char_literal('\\') == "'\\\\'");
  CHECK(char_literal('\'') == "'\\''");
  CHECK(char_literal('\x07') == "'\\x07'");
  CHECK(char_literal('\0') == "'\\x00'");
  CHECK(char_literal('\x7f') == "'\\x7f'");
  CHECK(char_literal(static_cast<char>(0xe9)) == "'\\xe9'");
}

TEST_CASE("tokenizer: an unknown character names itself and its position", "[data]") {
  CharTokenizer tok = CharTokenizer::from_text("abc");
  CHECK(error_message([&] { tok.encode("abZ"); }) ==
        "CharTokenizer::encode: character 'Z' at position 2 is not in the vocabulary of 3 "
        "characters");
  CHECK(error_message([&] { tok.encode(std::string("a\x07")); }) ==
        "CharTokenizer::encode: character '\\x07' at position 1 is not in the vocabulary of 3 "
        "characters");
  CHECK(error_message([&] { tok.encode("\nabc"); }) ==
        "CharTokenizer::encode: character '\\n' at position 0 is not in the vocabulary of 3 "
        "characters");
}

TEST_CASE("tokenizer: an id out of range names the id and the vocab size", "[data]") {
  CharTokenizer tok = CharTokenizer::from_text("abc");
  CHECK(error_message([&] { tok.decode({0, 3}); }) ==
        "CharTokenizer::decode: id 3 at position 1 is out of range for vocab size 3");
  CHECK(error_message([&] { tok.decode({-1}); }) ==
        "CharTokenizer::decode: id -1 at position 0 is out of range for vocab size 3");
}

TEST_CASE("tokenizer: empty text and bad vocabularies are errors", "[data]") {
  CHECK(error_message([] { CharTokenizer::from_text(""); }) ==
        "CharTokenizer: the text is empty; a vocabulary needs at least one character");
  CHECK(error_message([] { CharTokenizer::from_vocabulary(""); }) ==
        "CharTokenizer: the vocabulary is empty");
  CHECK(error_message([] { CharTokenizer::from_vocabulary("ab\nb"); }) ==
        "CharTokenizer: the vocabulary holds 'b' twice, at positions 1 and 3");
}

TEST_CASE("tokenizer: Shakespeare has nanoGPT's 65 characters", "[data]") {
  const std::string text = shakespeare();
  REQUIRE(text.size() == 1115394);
  CharTokenizer tok = CharTokenizer::from_text(text);
  CHECK(tok.vocab_size() == 65);
  CHECK(tok.vocabulary() ==
        "\n !$&',-.3:;?ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz");
  // nanoGPT's stoi: '\n' = 0, ' ' = 1, 'C' = 15, 'F' = 18, 'i' = 47, 'r' = 56, ...
  CHECK(text.substr(0, 15) == "First Citizen:\n");
  CHECK(tok.encode(text.substr(0, 15)) ==
        std::vector<int64_t>{18, 47, 56, 57, 58, 1, 15, 47, 58, 47, 64, 43, 52, 10, 0});
  CHECK(tok.decode(tok.encode(text)) == text);
}
