// Base64 (RFC 4648's standard alphabet, with '=' padding): how tiktoken's rank files, and so
// attic's saved BPE tokenizers, write a token's bytes as text.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace attic {

// bytes -> base64: each 3 bytes as 4 characters of 6 bits, the last group padded with '='.
std::string base64_encode(std::string_view bytes);
// base64 -> bytes; nullopt unless text is whole groups of 4 characters of the alphabet, with
// '=' only as the padding at the end.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace attic
