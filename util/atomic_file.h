// Writing a file so that a crash never leaves it half-written: write `path.tmp`, flush and
// close it, then rename it over `path` (rename is atomic within one file system).
#pragma once

#include <string>

namespace attic::util {

// Throws attic::Error naming the path when the file cannot be written; the temporary is
// removed on failure.
void write_file_atomic(const std::string& path, const std::string& bytes);

}  // namespace attic::util
