// attic::Error — the one exception type attic throws for bad shapes, dtypes, devices,
// indices, files, configs and flags. The message always names the op and the values.
#pragma once

#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace attic {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A backend could not allocate a tensor's storage. A caller that knows which setting sized
// the tensor (the CLI: n_layer, block_size, batch_size ...) catches it and names the setting.
class OutOfMemory : public Error {
 public:
  using Error::Error;
};

// "[4, 3]": how every message prints a shape.
std::string str(const std::vector<int64_t>& shape);

// "11.2 GiB": how every message prints a size in bytes.
std::string str_bytes(uint64_t n);

namespace detail {
// The stream fail() builds its message in (one per thread, emptied by fail_stream()), and the
// throw. Both are out of line (tensor/error.cpp), and fail holds no object with a destructor,
// so that an instantiation of fail, which every file that reports an error compiles with its
// own flags, is only calls: no landing pad, where GCC puts a vzeroupper when the file is
// built for AVX. The copies of it that a portable build's AVX2 and AVX-512 kernel files
// compile (tensor/cpu/cpu_isa.h), one of which the linker keeps for the whole program, then
// use no instruction the other levels lack.
std::ostream& fail_stream();
[[noreturn]] void fail_raise();  // throws attic::Error with fail_stream()'s message
}  // namespace detail

// fail("matmul: ", str(a), " @ ", str(b), ": inner dimensions ", 3, " and ", 4, " differ")
// streams its arguments into one message and throws attic::Error.
template <class... Args>
[[noreturn]] void fail(const Args&... args) {
  (detail::fail_stream() << ... << args);
  detail::fail_raise();
}

}  // namespace attic

// ATTIC_CHECK(cond, message parts...): throw attic::Error with the parts when cond is false.
#define ATTIC_CHECK(cond, ...)                 \
  do {                                         \
    if (!(cond)) ::attic::fail(__VA_ARGS__);   \
  } while (0)
