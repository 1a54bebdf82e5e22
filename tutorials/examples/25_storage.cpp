// Chapter 25: bfloat16 and float16 tensors are storage. They are made with to(), printed,
// copied, concatenated, filled, saved and loaded (safetensors' BF16 and F16); an op that
// computes refuses them and says what to do instead.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

#include "nn/safetensors.h"
#include "ops/ops.h"

using namespace attic;

// Runs f, which should throw, and prints what it says.
template <class F>
void refused(const char* what, F f) {
  try {
    f();
    std::printf("%s: no error\n", what);
  } catch (const Error& e) {
    std::printf("%s:\n  %s\n", what, e.what());
  }
}

int main() {
  const Tensor x = from_vector<float>({1.0f, -2.5f, 3.14159265f, 1.0f / 3.0f, 1e-3f, 65504.0f}, {2, 3});
  const Tensor b = x.to(kBFloat16), h = x.to(kFloat16);
  std::cout << x << "\n" << b << "\n" << h << "\n";
  std::printf("bytes per element: float32 %zu, bfloat16 %zu, float16 %zu\n", dtype_size(x.dtype()),
              dtype_size(b.dtype()), dtype_size(h.dtype()));

  // Back to float32, the values the 16 bits hold (printed in full, not to 4 decimals).
  for (const Tensor& t : {b, h}) {
    std::printf("%-8s ->", dtype_name(t.dtype()));
    for (float v : t.to_vector<float>()) std::printf(" %.9g", double(v));
    std::printf("\n");
  }
  // The element itself: a bfloat16 is a struct holding its 16 bits.
  std::printf("b[0, 2] holds the bits 0x%04X\n", unsigned(b.data_ptr<bfloat16>()[2].bits));

  // Moving elements is not computing: fill_, copy_ and cat take the 16-bit dtypes.
  Tensor c = empty({1, 3}, kBFloat16);
  c.fill_(0.1);  // 0.1 rounded to bfloat16
  std::cout << cat({b, c}, 0) << "\n";
  c.copy_(from_vector<float>({7.0f, 8.0f, 9.0f}, {1, 3}));  // converts as it copies
  std::cout << c << "\n";

  // safetensors: the dtype is the header's "BF16" or "F16", each element its 2 bytes.
  const std::string path = "25_half.safetensors";
  nn::save_safetensors(path, {{"b", b}, {"h", h}});
  std::ifstream in(path, std::ios::binary);
  uint64_t n = 0;
  in.read(reinterpret_cast<char*>(&n), 8);  // the header's length, little-endian
  std::string header(size_t(n), ' ');
  in.read(header.data(), std::streamsize(n));
  // The header is padded with spaces to a multiple of 8 bytes, so that the data is aligned.
  header.erase(header.find_last_not_of(' ') + 1);
  std::printf("header, %llu bytes: %s\n", (unsigned long long)n, header.c_str());
  const nn::SafetensorsFile f = nn::load_safetensors(path);
  const Tensor& b2 = f.tensors.at("b");
  bool same = b2.dtype() == kBFloat16;
  for (int64_t i = 0; i < b.numel(); ++i)
    same = same && b2.data_ptr<bfloat16>()[i].bits == b.data_ptr<bfloat16>()[i].bits;
  std::printf("loaded back: b is %s, every bit as saved: %s\n", dtype_name(b2.dtype()), same ? "yes" : "no");

  // Computing in them is refused, with one line that names the op.
  refused("b + b", [&] { (void)(b + b); });
  refused("sum(b)", [&] { (void)sum(b); });
  refused("matmul(b, b.t())", [&] { (void)matmul(b, b.t()); });
  std::cout << "converted first, sum(c.to(kFloat32)): " << sum(c.to(kFloat32)) << "\n";
  return 0;
}
