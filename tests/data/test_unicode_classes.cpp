// The character classes of GPT-2's pattern: \p{L}, \p{N} and \s, on ASCII, on a character of
// each category that counts, and on the characters that look close but do not.
#include "tests/catch.h"

#include "data/unicode_classes.h"

using namespace attic;

TEST_CASE("unicode classes: ASCII letters, digits and white space", "[data][bpe]") {
  for (char32_t c = 0; c < 0x80; ++c) {
    const bool letter = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
    const bool digit = c >= '0' && c <= '9';
    const bool space = c == ' ' || (c >= 0x09 && c <= 0x0D);
    CHECK(is_letter(c) == letter);
    CHECK(is_number(c) == digit);
    CHECK(is_whitespace(c) == space);
  }
}

TEST_CASE("unicode classes: each general category of the letters (L) and numbers (N)", "[data][bpe]") {
  // Lu, Ll, Lt, Lm, Lo: E and e with acute, the digraph Dz with caron, modifier h, the
  // feminine ordinal, a Han character, a Hangul syllable, Arabic alef, Devanagari na, and
  // U+20000 in CJK Extension B, beyond the Basic Multilingual Plane.
  for (char32_t c : {0xC9u, 0xE9u, 0x1C5u, 0x2B0u, 0xAAu, 0x4E2Du, 0xAC00u, 0x627u, 0x928u,
                     0x20000u})
    CHECK(is_letter(c));
  // Nd, Nl, No: Arabic-Indic 3, Devanagari 1, fullwidth 1, Roman numeral XII, superscript 2,
  // one half, and the mathematical bold digit zero U+1D7CE.
  for (char32_t c : {0x663u, 0x967u, 0xFF11u, 0x216Bu, 0xB2u, 0xBDu, 0x1D7CEu}) CHECK(is_number(c));
  // Neither: combining acute (Mn), Devanagari virama (Mn) and vowel sign e (Mc), ZWJ (Cf),
  // the multiplication sign, an emoji, a skin-tone modifier (Sk), a surrogate, U+10FFFF.
  for (char32_t c :
       {0x301u, 0x94Du, 0x947u, 0x200Du, 0xD7u, 0x1F600u, 0x1F3FDu, 0xD800u, 0x10FFFFu}) {
    CHECK_FALSE(is_letter(c));
    CHECK_FALSE(is_number(c));
    CHECK_FALSE(is_whitespace(c));
  }
}

TEST_CASE("unicode classes: white space is the White_Space property, 25 code points", "[data][bpe]") {
  int count = 0;
  for (char32_t c = 0; c <= 0x10FFFF; ++c) {
    if (!is_whitespace(c)) continue;
    ++count;
    CHECK_FALSE(is_letter(c));
    CHECK_FALSE(is_number(c));
  }
  CHECK(count == 25);
  for (char32_t c : {0x85u, 0xA0u, 0x1680u, 0x2007u, 0x2028u, 0x202Fu, 0x3000u})
    CHECK(is_whitespace(c));
  // Python's re counts the separators U+001C..U+001F as \s; White_Space, the regex module and
  // Rust's regex do not. The zero-width space U+200B is not white space either.
  for (char32_t c : {0x1Cu, 0x1Fu, 0x200Bu, 0x180Eu}) CHECK_FALSE(is_whitespace(c));
}
