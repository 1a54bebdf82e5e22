#include "util/quote_value.h"

#include <cstdio>

namespace attic::util {

std::string quote_value(const std::string& text, size_t max_bytes) {
  const bool cut = text.size() > max_bytes;
  std::string q = "'";
  for (size_t i = 0; i < (cut ? max_bytes : text.size()); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\n') q += "\\n";
    else if (c == '\t') q += "\\t";
    else if (c == '\r') q += "\\r";
    else if (c < 0x20 || c == 0x7f) {
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
