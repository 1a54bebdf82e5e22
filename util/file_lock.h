// An exclusive lock on a file, as one writer of a folder takes it (attic train on its
// out_dir): flock(2) on a lock file that holds the owner's process id.
//
//   util::FileLock lock(out_dir + "/train.lock", "out_dir '" + out_dir + "'");
//
// The kernel drops a flock when its process ends, however it ends (kill -9 included), so a
// lock file left behind never blocks the next run: only a live owner does. The file itself
// is never removed, as removing it would let two processes lock two different files.
#pragma once

#include <string>

namespace attic::util {

class FileLock {
 public:
  // Creates path if needed and locks it at once, writing this process's id into it. If
  // another process holds it, throws attic::Error naming `what`, that process's id and path.
  FileLock(const std::string& path, const std::string& what);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace attic::util
