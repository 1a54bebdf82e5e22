#include "util/quote_value.h"

#include <cstdio>

#include "util/utf8.h"

namespace attic::util {

std::string quote_value(const std::string& text, size_t max_bytes) {
  const bool cut = text.size() > max_bytes;
  std::string q = "'";
  const size_t end = cut ? max_bytes : text.size();
  for (size_t i = 0; i < end; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    // A UTF-8 character is shown as it is; a byte that starts none, or one cut off at the
    // end, as \xNN, so that the message itself stays valid text.
    const size_t n = c >= 0x80 ? utf8_sequence_length(text, i) : 1;
    if (c >= 0x80 && n > 0 && i + n <= end) {
      q.append(text, i, n);
      i += n - 1;
      continue;
    }
    if (c == '\n') q += "\\n";
    else if (c == '\t') q += "\\t";
    else if (c == '\r') q += "\\r";
    else if (c < 0x20 || c >= 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      q += hex;
    } else {
      q += char(c);
    }
  }
  if (!cut) return q + "'";
  return q.append("...' (").append(std::to_string(text.size())).append(" bytes)");
}

}  // namespace attic::util
