// Writing a file so that a crash never leaves it half-written: write `path.tmp`, flush and
// close it, then rename it over `path` (rename is atomic within one file system). And the
// two fsyncs that make such a rename survive a power loss as well (sync_file, then
// sync_directory_of), as a checkpoint needs.
#pragma once

#include <string>

namespace attic::util {

// Throws attic::Error naming the path when the file cannot be written; the temporary is
// removed on failure.
void write_file_atomic(const std::string& path, const std::string& bytes);

// Opens path for writing as a file of this call's own, never through a symbolic link and
// never into a file that was there (O_CREAT | O_EXCL | O_NOFOLLOW): in a shared folder such
// as /tmp anyone can plant a link at a temporary's name. A regular file already of that name
// (a temporary that an interrupted run left) is removed first; a symbolic link is refused,
// naming it. Returns the descriptor; any other failure throws attic::Error with the message
// `cannot`.
int create_new_file(const std::string& path, const std::string& cannot);
// Writes n bytes at p to fd, all of them; throws attic::Error naming path.
void write_all(int fd, const char* p, size_t n, const std::string& path);

// fsync(2) of the file at path: its bytes are on the disk when this returns. Throws
// attic::Error naming the path.
void sync_file(const std::string& path);
// fsync(2) of the folder holding path, which makes a rename or a new name in it durable.
// A file system that cannot sync folders (EINVAL) is left as it is.
void sync_directory_of(const std::string& path);

}  // namespace attic::util
