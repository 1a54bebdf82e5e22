// GPT-2's pre-tokenizer by hand: each alternative of the pattern, the back-off of \s+(?!\S),
// bytes that are not UTF-8, and pieces that always concatenate back to the text.
#include <random>
#include <string>
#include <vector>

#include "tests/catch.h"

#include "data/gpt2_pretokenize.h"
#include "util/files.h"

using namespace attic;

namespace {

std::vector<std::string> pieces(std::string_view text) {
  std::vector<std::string> out;
  for (std::string_view p : gpt2_pieces(text)) out.emplace_back(p);
  return out;
}

using Pieces = std::vector<std::string>;

}  // namespace

TEST_CASE("gpt2 pieces: words take the space before them", "[data][bpe]") {
  CHECK(pieces("Hello world") == Pieces{"Hello", " world"});
  CHECK(pieces("Hello world's  end\n") == Pieces{"Hello", " world", "'s", " ", " end", "\n"});
  CHECK(pieces("caf\xc3\xa9 na\xc3\xafve") == Pieces{"caf\xc3\xa9", " na\xc3\xafve"});
  CHECK(pieces("").empty());
}

TEST_CASE("gpt2 pieces: the seven contractions, lower case only", "[data][bpe]") {
  CHECK(pieces("it's don't they're we've I'm you'll he'd") ==
        Pieces{"it", "'s", " don", "'t", " they", "'re", " we", "'ve", " I", "'m", " you", "'ll",
               " he", "'d"});
  // "'S" is no contraction: the apostrophe is punctuation ([^\s\p{L}\p{N}]) and S a letter.
  CHECK(pieces("IT'S") == Pieces{"IT", "'", "S"});
  CHECK(pieces("'sup") == Pieces{"'s", "up"});
  CHECK(pieces("'lll") == Pieces{"'ll", "l"});
  // A contraction matches only at the piece's start: " 's" is a space and punctuation first.
  CHECK(pieces(" 's") == Pieces{" '", "s"});
  CHECK(pieces("''s") == Pieces{"''", "s"});
  CHECK(pieces("'") == Pieces{"'"});
}

TEST_CASE("gpt2 pieces: numbers and punctuation runs", "[data][bpe]") {
  CHECK(pieces("abc123def") == Pieces{"abc", "123", "def"});
  CHECK(pieces("pi 3.14159") == Pieces{"pi", " 3", ".", "14159"});
  CHECK(pieces("x \xc2\xbd\xc2\xb2") == Pieces{"x", " \xc2\xbd\xc2\xb2"});  // ½² are \p{N}
  CHECK(pieces("Hi!!! ok...") == Pieces{"Hi", "!!!", " ok", "..."});
  CHECK(pieces("(a) [b]") == Pieces{"(", "a", ")", " [", "b", "]"});
  CHECK(pieces(" !?") == Pieces{" !?"});
}

TEST_CASE("gpt2 pieces: a white-space run leaves its last character to the next word",
          "[data][bpe]") {
  // \s+(?!\S) gives back one character when a non-space follows; a space given back then
  // leads the word, any other white space is a piece of its own (\s+ of length one).
  CHECK(pieces("a  b") == Pieces{"a", " ", " b"});
  CHECK(pieces("a    b") == Pieces{"a", "   ", " b"});
  CHECK(pieces("a\tb") == Pieces{"a", "\t", "b"});
  CHECK(pieces("a \tb") == Pieces{"a", " ", "\t", "b"});
  CHECK(pieces("a\n\n\nb") == Pieces{"a", "\n\n", "\n", "b"});
  CHECK(pieces("line\n  indented") == Pieces{"line", "\n ", " indented"});
  // At the end of the text (?!\S) holds, so the whole run is one piece.
  CHECK(pieces("end   ") == Pieces{"end", "   "});
  CHECK(pieces("   ") == Pieces{"   "});
  CHECK(pieces(" ") == Pieces{" "});
  CHECK(pieces("\n") == Pieces{"\n"});
  // Only U+0020 is the optional space of a word; U+3000 and NBSP are white space of their own,
  // and the character given back is a character, not a byte.
  CHECK(pieces("\xe3\x80\x80x") == Pieces{"\xe3\x80\x80", "x"});
  CHECK(pieces("a \xc2\xa0" "b") == Pieces{"a", " ", "\xc2\xa0", "b"});
  CHECK(pieces("a\xc2\xa0\xc2\xa0 b") == Pieces{"a", "\xc2\xa0\xc2\xa0", " b"});
}

TEST_CASE("gpt2 pieces: emoji, marks and scripts", "[data][bpe]") {
  // An emoji is neither letter nor number: a run of them, modifiers and ZWJ included, is one.
  CHECK(pieces("hi\xf0\x9f\x98\x80there") == Pieces{"hi", "\xf0\x9f\x98\x80", "there"});
  CHECK(pieces("\xf0\x9f\x91\x8d\xf0\x9f\x8f\xbd") == Pieces{"\xf0\x9f\x91\x8d\xf0\x9f\x8f\xbd"});
  // A combining mark is no letter, so it splits a word: e + U+0301 + s.
  CHECK(pieces("e\xcc\x81s") == Pieces{"e", "\xcc\x81", "s"});
  // Devanagari "namaste": na ma sa (letters), virama (Mn), ta, vowel sign e (Mc).
  CHECK(pieces("\xe0\xa4\xa8\xe0\xa4\xae\xe0\xa4\xb8\xe0\xa5\x8d\xe0\xa4\xa4\xe0\xa5\x87") ==
        Pieces{"\xe0\xa4\xa8\xe0\xa4\xae\xe0\xa4\xb8", "\xe0\xa5\x8d", "\xe0\xa4\xa4",
               "\xe0\xa5\x87"});
  // Han and kana are letters: one piece with the space before them.
  CHECK(pieces("x \xe6\xbc\xa2\xe5\xad\x97\xe3\x81\x8b") ==
        Pieces{"x", " \xe6\xbc\xa2\xe5\xad\x97\xe3\x81\x8b"});
}

TEST_CASE("gpt2 pieces: a byte that is not UTF-8 is one character of punctuation", "[data][bpe]") {
  CHECK(pieces("a\xff" "b") == Pieces{"a", "\xff", "b"});
  CHECK(pieces("1\xff" "2") == Pieces{"1", "\xff", "2"});
  CHECK(pieces(" \xff\xfe!") == Pieces{" \xff\xfe!"});
  CHECK(pieces("\xff's") == Pieces{"\xff'", "s"});
  // A cut sequence (E2 82 of the euro sign), a surrogate in UTF-8 (ED A0 80), an overlong
  // form (C0 AF) and lone continuation bytes: each byte a character, so each run one piece.
  CHECK(pieces("x\xe2\x82 y") == Pieces{"x", "\xe2\x82", " y"});
  CHECK(pieces("\xed\xa0\x80\xc0\xaf\x80") == Pieces{"\xed\xa0\x80\xc0\xaf\x80"});
  // A lead byte whose sequence is cut short does not swallow the letter after it.
  CHECK(pieces("\xc3" "a") == Pieces{"\xc3", "a"});
  CHECK(pieces("\xe9t\xe9") == Pieces{"\xe9", "t", "\xe9"});
  CHECK(pieces("\xff") == Pieces{"\xff"});
}

TEST_CASE("gpt2 pieces: concatenate back to any text", "[data][bpe]") {
  std::mt19937 rng(7);
  const std::string fixtures = std::string(ATTIC_SOURCE_DIR) + "/tests/data/fixtures/";
  std::vector<std::string> texts = {
      util::read_text_file(fixtures + "bpe_torture.bin", "fixture"),
      util::read_text_file(fixtures + "bpe_invalid_utf8.bin", "fixture")};
  for (int n : {1, 2, 3, 17, 1000}) {  // random bytes, and random ASCII-heavy text
    std::string bytes, ascii;
    for (int i = 0; i < n; ++i) {
      bytes += char(rng() & 0xFF);
      ascii += " \t\n'sa1!\xc3\xa9"[rng() % 10];
    }
    texts.push_back(bytes);
    texts.push_back(ascii);
  }
  for (const std::string& text : texts) {
    std::string joined;
    for (std::string_view p : gpt2_pieces(text)) {
      CHECK_FALSE(p.empty());
      joined += p;
    }
    CHECK(joined == text);
  }
}
