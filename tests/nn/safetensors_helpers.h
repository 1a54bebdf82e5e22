// What the safetensors tests share: a scratch directory, raw file bytes, a hand-built file
// from its header and buffer, and exact comparison of tensors.
#pragma once

#include "tests/catch.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "helpers.h"
#include "nn/safetensors.h"

namespace attic::testing::safetensors {

namespace fs = std::filesystem;
using attic::testing::error_message;

// A fresh directory under the system's temp directory, removed with its contents at scope
// exit. Random names keep test cases that ctest runs in parallel apart.
struct TempDir {
  fs::path path;
  TempDir() {
    std::random_device rd;
    path = fs::temp_directory_path() /
           ("attic_safetensors_" + std::to_string(rd()) + "_" + std::to_string(rd()));
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string file(const std::string& name) const { return (path / name).string(); }
};

inline std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), std::streamsize(bytes.size()));
}

// A safetensors file from its header text and buffer: 8-byte little-endian length first.
inline std::string st_bytes(const std::string& header, const std::string& buffer) {
  std::string out;
  for (int i = 0; i < 8; ++i) out += char((uint64_t(header.size()) >> (8 * i)) & 0xFF);
  return out + header + buffer;
}

// The message load_safetensors gives for a file made of header and buffer.
inline std::string load_error(const TempDir& dir, const std::string& header, const std::string& buffer) {
  const std::string path = dir.file("bad.safetensors");
  write_bytes(path, st_bytes(header, buffer));
  return error_message([&] { nn::load_safetensors(path); });
}

inline void check_same(const Tensor& a, const Tensor& b) {
  REQUIRE(a.dtype() == b.dtype());
  REQUIRE(a.shape() == b.shape());
  if (a.dtype() == kInt64) {
    CHECK(a.to_vector<int64_t>() == b.to_vector<int64_t>());
  } else if (a.dtype() == kBool) {
    CHECK(a.to_vector<bool>() == b.to_vector<bool>());
  } else {
    CHECK(a.to_vector<double>() == b.to_vector<double>());  // bit-exact, no tolerance
  }
}

// An int64 tensor holding exactly these values. (from_vector goes through double, which
// would round 2^53 + 1 and cannot hold int64's maximum.)
inline Tensor exact_int64(const std::vector<int64_t>& values, const Shape& shape) {
  Tensor t = empty(shape, kInt64);
  std::copy(values.begin(), values.end(), t.data_ptr<int64_t>());
  return t;
}

// One parameter and one buffer, as a real layer would hold.
struct Tiny : nn::Module {
  Tensor w, steps;
  explicit Tiny(const Shape& w_shape) {
    w = register_parameter("w", randn(w_shape));
    steps = register_buffer("steps", zeros({2}, kInt64));
  }
};


}  // namespace attic::testing::safetensors
