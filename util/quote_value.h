// A value quoted for an error message: whatever a file or a flag held, the message stays one
// short line.
#pragma once

#include <string>

namespace attic::util {

// 'text' with control bytes, and bytes that are not UTF-8, written as \n, \t, \r or \xNN; a text longer than max_bytes is
// cut there and shown as 'first max_bytes...' (N bytes), so that a 1 MB value cannot fill
// a terminal.
std::string quote_value(const std::string& text, size_t max_bytes = 80);

}  // namespace attic::util
