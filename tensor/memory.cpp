#include "tensor/memory.h"

#include <cstdio>

#include "tensor/cpu/cpu_backend.h"
#include "tensor/error.h"
#ifdef ATTIC_WITH_CUDA
#include "tensor/cuda/cuda_backend.h"
#endif

namespace attic {

MemoryStats memory_stats(Device device) {
  if (device == Device::CPU) return {cpu::live_bytes(), cpu::peak_bytes()};
#ifdef ATTIC_WITH_CUDA
  const cuda::AllocatorStats s = cuda::allocator_stats();
  return {s.in_use_bytes, s.peak_bytes};
#else
  fail("memory_stats: attic was built without CUDA");
#endif
}

void reset_peak_memory(Device device) {
  if (device == Device::CPU) return cpu::reset_peak_bytes();
#ifdef ATTIC_WITH_CUDA
  cuda::reset_peak_bytes();
#else
  fail("reset_peak_memory: attic was built without CUDA");
#endif
}

std::string format_mib(size_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f MiB", double(bytes) / (1024.0 * 1024.0));
  return buf;
}

}  // namespace attic
