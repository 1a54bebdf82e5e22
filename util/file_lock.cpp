#include "util/file_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "tensor/error.h"

namespace attic::util {

// The first line of the lock file: the owner's process id, as this constructor wrote it.
static std::string owner_of(int fd) {
  char buf[32] = {};
  const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
  std::string s(buf, n > 0 ? size_t(n) : 0);
  s = s.substr(0, s.find('\n'));
  return s.empty() ? "unknown" : s;
}

FileLock::FileLock(const std::string& path, const std::string& what) {
  // Never through a symbolic link: in a shared folder anyone could plant one at this name.
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
  ATTIC_CHECK(fd_ >= 0 || errno != ELOOP, what, ": the lock file '", path, "' is a symbolic link, "
              "which attic did not make and does not follow; remove it");
  ATTIC_CHECK(fd_ >= 0, what, ": cannot open the lock file '", path, "': ", std::strerror(errno));
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    const std::string owner = owner_of(fd_);
    ::close(fd_);
    fd_ = -1;
    ATTIC_CHECK(err != EWOULDBLOCK, what, " is in use by another process (pid ", owner,
                " holds '", path, "')");
    fail(what, ": cannot lock '", path, "': ", std::strerror(err));
  }
  // Ours now: the id replaces whatever an earlier owner wrote.
  const std::string pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd_, 0) != 0 || ::pwrite(fd_, pid.data(), pid.size(), 0) != ssize_t(pid.size())) {
    const int err = errno;
    ::close(fd_);
    fd_ = -1;
    fail(what, ": cannot write the lock file '", path, "': ", std::strerror(err));
  }
}

FileLock::~FileLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the last descriptor releases the flock
}

}  // namespace attic::util
