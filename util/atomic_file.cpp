#include "util/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "tensor/error.h"

namespace attic::util {

void write_file_atomic(const std::string& path, const std::string& bytes) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    ATTIC_CHECK(out.good(), "cannot write '", path, "': cannot create '", tmp, "'");
    out.write(bytes.data(), std::streamsize(bytes.size()));
    out.flush();
    if (!out.good()) {
      out.close();
      std::remove(tmp.c_str());
      fail("cannot write '", path, "': writing '", tmp, "' failed (disk full?)");
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::remove(tmp.c_str());
    fail("cannot write '", path, "': rename failed: ", ec.message());
  }
}

// fsync of a descriptor opened read-only: POSIX leaves it to the system whether that flushes,
// and Linux and macOS do (fsync acts on the file, not on the descriptor's mode).
static void sync_path(const std::string& path, const std::string& what, bool folder) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | (folder ? O_DIRECTORY : 0));
  ATTIC_CHECK(fd >= 0, "cannot sync ", what, " '", path, "': ", std::strerror(errno));
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  ATTIC_CHECK(rc == 0 || (folder && err == EINVAL), "cannot sync ", what, " '", path, "': ",
              std::strerror(err));
}

void sync_file(const std::string& path) { sync_path(path, "file", false); }

void sync_directory_of(const std::string& path) {
  const std::string parent = std::filesystem::path(path).parent_path().string();
  sync_path(parent.empty() ? "." : parent, "folder", true);
}

}  // namespace attic::util
