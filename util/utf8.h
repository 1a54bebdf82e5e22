// UTF-8, as far as attic needs it: where text stops being valid UTF-8 (JSON, and so every
// safetensors header, must be), and the one-to-one map between bytes and the code points
// U+0000..U+00FF that lets a byte string travel inside such text.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace attic::util {

// The length of the valid UTF-8 sequence at s[pos], or 0 if it is invalid there. Unicode's
// Table 3-7: overlong forms, UTF-16 surrogates and code points above U+10FFFF are invalid.
size_t utf8_sequence_length(std::string_view s, size_t pos);
// The offset of the first byte that does not start a valid sequence; npos for valid text.
size_t first_invalid_utf8(std::string_view s);

// Each byte b as the UTF-8 of code point U+00b: ASCII stays as it is, 0xE9 becomes C3 A9.
std::string bytes_as_utf8(std::string_view bytes);
// The inverse: nullopt unless text is valid UTF-8 of code points up to U+00FF only.
std::optional<std::string> utf8_as_bytes(std::string_view text);

}  // namespace attic::util
