// Reading the small text files the commands take: config files, a prompt file, a table.
#pragma once

#include <cstddef>
#include <string>

namespace attic::util {

// The most a text file read whole may hold: 1 GiB.
constexpr size_t kMaxTextFileBytes = size_t(1) << 30;

// The file's bytes, exactly. Throws attic::Error "cannot read WHAT 'PATH': why" when the
// path is empty, missing, a folder, a device (/dev/zero would never end), unreadable or
// larger than kMaxTextFileBytes (on Linux a folder opens as a stream and reads as nothing,
// or fails deep inside the stream library; both are refused here).
std::string read_text_file(const std::string& path, const std::string& what);

// Throws "cannot write WHAT 'PATH': why" unless path names a regular file or nothing yet. The
// atomic write renames a new file onto the path, which would put a plain file in the place of
// a folder, a pipe or a device (/dev/null, for root).
void check_output_file(const std::string& path, const std::string& what);

}  // namespace attic::util
