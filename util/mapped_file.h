// A file mapped read-only into memory (POSIX mmap), as NumPy's memmap maps nanoGPT's
// train.bin: the pages are read when touched, so a file larger than memory can be drawn from.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace attic::util {

class MappedFile {
 public:
  // Maps path whole; throws attic::Error naming it if it is missing, no regular file or
  // cannot be mapped. An empty file maps to size() 0.
  explicit MappedFile(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const unsigned char* data() const { return data_; }
  size_t size() const { return size_; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  const unsigned char* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace attic::util
