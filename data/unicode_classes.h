// The three character classes of GPT-2's pre-tokenizing pattern: \p{L} (letters), \p{N}
// (numbers) and \s (white space), for any code point. The first two are range tables that
// scripts/make_unicode_tables.py writes into unicode_classes.cpp from Unicode's data.
#pragma once

namespace attic {

// General category Lu, Ll, Lt, Lm or Lo.
bool is_letter(char32_t c);
// General category Nd, Nl or No.
bool is_number(char32_t c);

// Unicode's White_Space property (PropList.txt): these 25 code points, which Rust's regex crate
// (and so tiktoken) and Python's regex module match with \s. (Python's re module also counts
// U+001C..U+001F, the information separators; GPT-2's pattern is compiled by regex, not re.)
inline bool is_whitespace(char32_t c) {
  switch (c) {
    case 0x0009: case 0x000A: case 0x000B: case 0x000C: case 0x000D:  // \t \n \v \f \r
    case 0x0020: case 0x0085: case 0x00A0: case 0x1680:
    case 0x2000: case 0x2001: case 0x2002: case 0x2003: case 0x2004: case 0x2005:
    case 0x2006: case 0x2007: case 0x2008: case 0x2009: case 0x200A:
    case 0x2028: case 0x2029: case 0x202F: case 0x205F: case 0x3000:
      return true;
    default:
      return false;
  }
}

}  // namespace attic
