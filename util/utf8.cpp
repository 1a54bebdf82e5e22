#include "util/utf8.h"

namespace attic::util {

size_t utf8_sequence_length(std::string_view s, size_t pos) {
  auto byte = [&](size_t i) -> unsigned {
    return pos + i < s.size() ? static_cast<unsigned char>(s[pos + i]) : 0u;
  };
  const unsigned b0 = byte(0);
  if (pos < s.size() && b0 < 0x80) return 1;
  unsigned lo = 0x80, hi = 0xBF;  // the second byte's range, narrowed below
  size_t n = 0;
  if (b0 >= 0xC2 && b0 <= 0xDF) n = 2;
  if (b0 >= 0xE0 && b0 <= 0xEF) n = 3;
  if (b0 >= 0xF0 && b0 <= 0xF4) n = 4;
  if (n == 0) return 0;
  if (b0 == 0xE0) lo = 0xA0;  // no overlong 3-byte forms
  if (b0 == 0xED) hi = 0x9F;  // no surrogates
  if (b0 == 0xF0) lo = 0x90;  // no overlong 4-byte forms
  if (b0 == 0xF4) hi = 0x8F;  // nothing above U+10FFFF
  if (byte(1) < lo || byte(1) > hi) return 0;
  for (size_t i = 2; i < n; ++i)
    if (byte(i) < 0x80 || byte(i) > 0xBF) return 0;
  return n;
}

size_t first_invalid_utf8(std::string_view s) {
  for (size_t pos = 0; pos < s.size();) {
    const size_t n = utf8_sequence_length(s, pos);
    if (n == 0) return pos;
    pos += n;
  }
  return std::string_view::npos;
}

// b < 0x80: itself; else 110000bb 10bbbbbb (two bytes, as U+0080..U+00FF encode).
std::string bytes_as_utf8(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (char c : bytes) {
    const unsigned b = static_cast<unsigned char>(c);
    if (b < 0x80) {
      out += c;
    } else {
      out += static_cast<char>(0xC0 | (b >> 6));
      out += static_cast<char>(0x80 | (b & 0x3F));
    }
  }
  return out;
}

std::optional<std::string> utf8_as_bytes(std::string_view text) {
  std::string out;
  for (size_t pos = 0; pos < text.size();) {
    const size_t n = utf8_sequence_length(text, pos);
    const unsigned b0 = static_cast<unsigned char>(text[pos]);
    if (n == 1) {
      out += text[pos];
    } else if (n == 2 && b0 <= 0xC3) {  // C2 and C3 lead U+0080..U+00FF
      out += static_cast<char>(((b0 & 0x1F) << 6) | (static_cast<unsigned char>(text[pos + 1]) & 0x3F));
    } else {
      return std::nullopt;
    }
    pos += n;
  }
  return out;
}

}  // namespace attic::util
