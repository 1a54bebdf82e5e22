// How many bytes of tensor memory a device holds now, and the most it has held at once:
// what `attic train`, `attic bench train` and `attic compare` report as peak memory.
//
//   reset_peak_memory(Device::CPU);
//   ... a training step ...
//   size_t held = memory_stats(Device::CPU).peak;
//
// The counts come from attic's own allocators (tensor/cpu/cpu_backend.cpp,
// tensor/cuda/allocator.cpp), not from the operating system: bytes that live tensors and
// kernel scratch buffers hold. Freed blocks that the caching allocators keep for reuse are
// not counted. On the CPU a block counts the bytes asked for; on CUDA, its size class.
#pragma once

#include <cstddef>
#include <string>

#include "tensor/dtype.h"

namespace attic {

struct MemoryStats {
  size_t in_use = 0;  // bytes held now
  size_t peak = 0;    // the most held at once since the last reset_peak_memory()
};

// Throws attic::Error for Device::CUDA in a build without CUDA.
MemoryStats memory_stats(Device device);
void reset_peak_memory(Device device);  // peak := in_use

// "12.3 MiB": bytes in mebibytes with one decimal.
std::string format_mib(size_t bytes);

}  // namespace attic
