#include "data/base64.h"

#include <algorithm>
#include <cstdint>

namespace attic {

namespace {

constexpr std::string_view kAlphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

}  // namespace

std::string base64_encode(std::string_view bytes) {
  std::string out;
  for (size_t i = 0; i < bytes.size(); i += 3) {
    const size_t n = std::min<size_t>(3, bytes.size() - i);  // bytes in this group
    uint32_t group = 0;  // the group's 24 bits, the first byte highest
    for (size_t k = 0; k < 3; ++k)
      group = group << 8 | (k < n ? static_cast<unsigned char>(bytes[i + k]) : 0u);
    for (size_t k = 0; k < 4; ++k)  // n bytes fill n + 1 characters; '=' pads the rest
      out += k <= n ? kAlphabet[(group >> (18 - 6 * k)) & 63] : '=';
  }
  return out;
}

std::optional<std::string> base64_decode(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  std::string out;
  for (size_t i = 0; i < text.size(); i += 4) {
    const bool last = i + 4 == text.size();
    size_t pad = 0;  // '=' at the end of the last group: 0, 1 or 2
    while (last && pad < 2 && text[i + 3 - pad] == '=') ++pad;
    uint32_t group = 0;
    for (size_t k = 0; k < 4; ++k) {
      const size_t v = k < 4 - pad ? kAlphabet.find(text[i + k]) : 0;
      if (v == std::string_view::npos) return std::nullopt;  // also a misplaced '='
      group = group << 6 | uint32_t(v);
    }
    for (size_t k = 0; k < 3 - pad; ++k) out += char((group >> (16 - 8 * k)) & 0xFF);
  }
  return out;
}

}  // namespace attic
