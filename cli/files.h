// Reading the small text files the commands take: config files, a prompt file, a table.
#pragma once

#include <string>

namespace attic::cli {

// The file's bytes, exactly. Throws attic::Error "cannot read WHAT 'PATH': why" when the
// path is empty, missing, a folder or unreadable (on Linux a folder opens as a stream and
// reads as nothing, or fails deep inside the stream library; both are refused here).
std::string read_text_file(const std::string& path, const std::string& what);

}  // namespace attic::cli
