#include "util/files.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tensor/error.h"
#include "util/quote_value.h"

namespace attic::util {

std::string read_text_file(const std::string& path, const std::string& what) {
  namespace fs = std::filesystem;
  ATTIC_CHECK(!path.empty(), "cannot read ", what, ": the path is empty");
  const std::string named = what + " " + util::quote_value(path, 400);
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  ATTIC_CHECK(fs::exists(st), "cannot read ", named, ": no such file");
  ATTIC_CHECK(!fs::is_directory(st), "cannot read ", named, ": it is a folder, not a file");
  // A device never ends (/dev/zero, /dev/urandom); a pipe (a shell's <(...)) does.
  ATTIC_CHECK(fs::is_regular_file(st) || fs::is_fifo(st), "cannot read ", named, ": it is ",
              fs::is_character_file(st) || fs::is_block_file(st) ? "a device" : "not a regular file",
              ", not a file of text");
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  ATTIC_CHECK(in.is_open(), "cannot read ", named, ": ", errno ? std::strerror(errno) : "cannot open it");
  std::string text;
  char buf[1 << 16];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    text.append(buf, size_t(in.gcount()));
    ATTIC_CHECK(text.size() <= kMaxTextFileBytes, "cannot read ", named, ": it holds more than ",
                kMaxTextFileBytes >> 30, " GiB, more than attic reads as text");
  }
  ATTIC_CHECK(!in.bad(), "cannot read ", named, ": reading failed");
  return text;
}

void check_output_file(const std::string& path, const std::string& what) {
  namespace fs = std::filesystem;
  ATTIC_CHECK(!path.empty(), "cannot write ", what, ": the path is empty");
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  ATTIC_CHECK(!fs::exists(st) || fs::is_regular_file(st), "cannot write ", what, " ",
              util::quote_value(path, 400), ": it exists and is ",
              fs::is_directory(st) ? "a folder" : "not a regular file", "; give a file's path");
}

}  // namespace attic::util
