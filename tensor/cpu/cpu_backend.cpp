#include "tensor/cpu/cpu_backend.h"

#include <cstdlib>
#include <cstring>
#include <new>

#include "tensor/error.h"

namespace attic {

int64_t KTensor::numel() const {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return n;
}

bool KTensor::is_contiguous() const {
  int64_t expected = 1;
  for (int64_t d = ndim() - 1; d >= 0; --d) {
    if (shape[size_t(d)] == 1) continue;
    if (strides[size_t(d)] != expected) return false;
    expected *= shape[size_t(d)];
  }
  return true;
}

namespace cpu {

// 64-byte alignment: one cache line, and the width of an AVX-512 register.
void* CpuBackend::allocate(size_t nbytes) {
  const size_t rounded = (nbytes + 63) / 64 * 64;
  void* p = std::aligned_alloc(64, rounded ? rounded : 64);
  if (!p) fail("cpu: out of memory allocating ", nbytes, " bytes");
  return p;
}

void CpuBackend::deallocate(void* ptr, size_t) { std::free(ptr); }

void CpuBackend::copy_from_host(void* dst, const void* src, size_t n) { std::memcpy(dst, src, n); }
void CpuBackend::copy_to_host(void* dst, const void* src, size_t n) { std::memcpy(dst, src, n); }

}  // namespace cpu

#ifndef ATTIC_WITH_CUDA
Backend& backend_for(Device device) {
  // Never destroyed: a static or thread_local Tensor may free its storage after every other
  // static object is gone, and it still needs its backend to do so.
  static cpu::CpuBackend* cpu_backend = new cpu::CpuBackend;
  if (device == Device::CPU) return *cpu_backend;
  throw Error("attic was built without CUDA");
}
#endif

}  // namespace attic
