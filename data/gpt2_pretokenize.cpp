#include "data/gpt2_pretokenize.h"

#include <initializer_list>

#include "data/unicode_classes.h"
#include "util/utf8.h"

namespace attic {

namespace {

// The pattern's three classes, and the rest ([^\s\p{L}\p{N}]).
enum class Class { Letter, Number, Space, Other };

struct Char {
  size_t size;  // in bytes
  Class cls;
};

Class class_of(char32_t c) {
  if (is_whitespace(c)) return Class::Space;
  if (is_letter(c)) return Class::Letter;
  if (is_number(c)) return Class::Number;
  return Class::Other;
}

// The character at text[pos]: a valid UTF-8 sequence decoded, or one invalid byte as Other.
Char char_at(std::string_view text, size_t pos) {
  const unsigned char lead = static_cast<unsigned char>(text[pos]);
  if (lead < 0x80) return {1, class_of(lead)};
  const size_t n = util::utf8_sequence_length(text, pos);
  if (n == 0) return {1, Class::Other};
  // The lead byte of an n-byte sequence carries 7 - n bits, each later byte 6.
  char32_t c = lead & (0xFF >> (n + 1));
  for (size_t i = 1; i < n; ++i) c = (c << 6) | (static_cast<unsigned char>(text[pos + i]) & 0x3F);
  return {n, class_of(c)};
}

}  // namespace

size_t gpt2_piece_end(std::string_view text, size_t pos) {
  // 's|'t|'re|'ve|'m|'ll|'d: lower case only, so "'S" is not one of them.
  if (text[pos] == '\'')
    for (std::string_view s : {"'s", "'t", "'re", "'ve", "'m", "'ll", "'d"})
      if (text.substr(pos).starts_with(s)) return pos + s.size();

  // ` ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+`: an optional space, then the longest run of the
  // class of the character after it. When that character is white space (or there is none),
  // none of the three matches: the space alone is not a letter, a number or "other".
  size_t end = pos + (text[pos] == ' ' ? 1 : 0);
  if (end < text.size()) {
    const Class cls = char_at(text, end).cls;
    if (cls != Class::Space) {
      for (Char c; end < text.size() && (c = char_at(text, end)).cls == cls;) end += c.size;
      return end;
    }
  }

  // `\s+(?!\S)|\s+`: the run of white space from pos. At the end of the text, or where the run
  // is one character, it is the piece. Otherwise a non-space follows it, so (?!\S) fails after
  // the whole run and the engine backs off one character, leaving the run's last character to
  // the next piece (a space there then leads the word after it: "  hi" is " ", " hi").
  size_t last = pos;  // where the run's last character starts
  end = pos;
  for (Char c; end < text.size() && (c = char_at(text, end)).cls == Class::Space;) {
    last = end;
    end += c.size;
  }
  return end == text.size() || last == pos ? end : last;
}

std::vector<std::string_view> gpt2_pieces(std::string_view text) {
  std::vector<std::string_view> pieces;
  for (size_t pos = 0; pos < text.size();) {
    const size_t end = gpt2_piece_end(text, pos);
    pieces.push_back(text.substr(pos, end - pos));
    pos = end;
  }
  return pieces;
}

}  // namespace attic
