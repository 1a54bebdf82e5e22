#include "util/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "tensor/error.h"

namespace attic::util {

int create_new_file(const std::string& path, const std::string& cannot) {
  for (int attempt = 0;; ++attempt) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd >= 0) return fd;
    struct stat st;
    if (errno == EEXIST && ::lstat(path.c_str(), &st) == 0) {
      ATTIC_CHECK(!S_ISLNK(st.st_mode), "refusing to write '", path, "': it is a symbolic link, "
                  "which attic did not make and does not follow; remove it");
      // A leftover of ours: gone, then created anew (once; a race that plants it again fails).
      if (attempt == 0 && S_ISREG(st.st_mode) && ::unlink(path.c_str()) == 0) continue;
    }
    fail(cannot);
  }
}

void write_all(int fd, const char* p, size_t n, const std::string& path) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    ATTIC_CHECK(w > 0, "writing '", path, "' failed: ", w < 0 ? std::strerror(errno) : "no progress",
                " (is the disk full?)");
    p += w;
    n -= size_t(w);
  }
}

void write_file_atomic(const std::string& path, const std::string& bytes) {
  const std::string tmp = path + ".tmp";
  const int fd = create_new_file(tmp, "cannot write '" + path + "': cannot create '" + tmp + "'");
  try {
    write_all(fd, bytes.data(), bytes.size(), tmp);
  } catch (...) {
    ::close(fd);
    std::remove(tmp.c_str());
    throw;
  }
  if (::close(fd) != 0) {
    std::remove(tmp.c_str());
    fail("cannot write '", path, "': closing '", tmp, "' failed: ", std::strerror(errno));
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
