#include "util/atomic_file.h"

#include <cstdio>
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

}  // namespace attic::util
