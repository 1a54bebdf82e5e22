// The caching device allocator: freed blocks wait in free lists, one per size class, for
// the next allocation of that class. Like PyTorch's CUDA caching allocator, minus streams
// (attic uses one) and block splitting (size classes bound the waste instead).
#include <cuda_runtime.h>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstring>
#include <mutex>
#include <new>
#include <unordered_map>
#include <vector>

#include "tensor/cuda/check.h"
#include "tensor/cuda/cuda_backend.h"

namespace attic::cuda {

namespace {

constexpr unsigned char kCanary = 0xA5;

// The block size that serves n bytes: a multiple of 512 up to 1 MiB (cudaMalloc aligns to
// 256 anyway), above that a multiple of an eighth of n's power of two (at most 12.5% unused).
size_t size_class(size_t n) {
  if (n <= (size_t(1) << 20)) return n == 0 ? 512 : (n + 511) / 512 * 512;
  const size_t step = std::bit_floor(n) / 8;
  return (n + step - 1) / step * step;
}

struct Pool {
  std::mutex mu;
  std::unordered_map<size_t, std::vector<void*>> free;  // size class -> freed blocks
  AllocatorStats stats;
  size_t guard = 0;                                      // guard bytes on each side; 0: off
  std::unordered_map<void*, size_t> guarded;             // live guarded block -> its nbytes
  int64_t violations = 0;                                // damaged guards found at free

  // True when both guards of the block at p (user pointer) of n bytes are intact. Holds mu.
  bool guards_intact(void* p, size_t n) {
    std::vector<unsigned char> host(guard);
    auto* base = static_cast<unsigned char*>(p);
    for (unsigned char* side : {base - guard, base + n}) {
      check_cuda(cudaMemcpy(host.data(), side, guard, cudaMemcpyDeviceToHost), "guard check");
      for (unsigned char c : host)
        if (c != kCanary) return false;
    }
    return true;
  }
};

// Never destroyed: tensors in static objects free their blocks after other statics are gone.
Pool& pool() {
  static Pool* p = new Pool;
  return *p;
}

}  // namespace

void* CudaBackend::allocate(size_t nbytes) {
  // No device holds more than PTRDIFF_MAX bytes; above it size_class would overflow.
  if (nbytes > size_t(PTRDIFF_MAX))
    throw OutOfMemory("cuda: out of device memory allocating " + str_bytes(nbytes));
  Pool& p = pool();
  std::lock_guard<std::mutex> lock(p.mu);
  const size_t cls = size_class(nbytes);
  if (p.guard) {
    void* base = nullptr;
    // The canaries hug the requested bytes exactly: one byte past nbytes is caught too.
    check_cuda(cudaMalloc(&base, nbytes + 2 * p.guard), "cudaMalloc");
    check_cuda(cudaMemset(base, kCanary, nbytes + 2 * p.guard), "cudaMemset");
    ++p.stats.device_mallocs;
    void* user = static_cast<char*>(base) + p.guard;
    p.guarded[user] = nbytes;
    p.stats.in_use_bytes += cls;
    p.stats.peak_bytes = std::max(p.stats.peak_bytes, p.stats.in_use_bytes);
    return user;
  }
  {
    auto it = p.free.find(cls);
    void* block = nullptr;
    if (it != p.free.end() && !it->second.empty()) {
      block = it->second.back();
      it->second.pop_back();
      p.stats.cached_bytes -= cls;
      ++p.stats.cache_hits;
    } else {
      cudaError_t err = cudaMalloc(&block, cls);
      if (err == cudaErrorMemoryAllocation) {
        // Out of memory: give the cache back to the device and try once more.
        cudaGetLastError();
        for (auto& [c, blocks] : p.free)
          for (void* b : blocks) cudaFree(b);
        p.free.clear();
        p.stats.cached_bytes = 0;
        err = cudaMalloc(&block, cls);
      }
      if (err != cudaSuccess)
        throw OutOfMemory("cuda: out of device memory allocating " + str_bytes(nbytes) + " (" +
                          str_bytes(p.stats.in_use_bytes) + " in use): " + cudaGetErrorString(err));
      ++p.stats.device_mallocs;
    }
    p.stats.in_use_bytes += cls;
    p.stats.peak_bytes = std::max(p.stats.peak_bytes, p.stats.in_use_bytes);
    return block;
  }
}

// Runs in destructors, often while an exception unwinds, so it must not throw: where the
// cache cannot grow its list, the block goes back to the device.
void CudaBackend::deallocate(void* ptr, size_t nbytes) noexcept {
  Pool& p = pool();
  std::lock_guard<std::mutex> lock(p.mu);
  const size_t cls = size_class(nbytes);
  p.stats.in_use_bytes -= cls;
  auto g = p.guarded.find(ptr);
  if (g != p.guarded.end()) {
    // A destructor must not throw: a damaged guard is counted, not reported here, and so is
    // a guard that cannot be read back (a sticky CUDA error, no host memory for the copy).
    bool intact = false;
    try {
      intact = p.guards_intact(ptr, g->second);
    } catch (...) {
    }
    if (!intact) ++p.violations;
    p.guarded.erase(g);
    cudaFree(static_cast<char*>(ptr) - p.guard);
    return;
  }
  try {
    p.free[cls].push_back(ptr);
    p.stats.cached_bytes += cls;
  } catch (const std::bad_alloc&) {
    cudaFree(ptr);
  }
}

AllocatorStats allocator_stats() {
  Pool& p = pool();
  std::lock_guard<std::mutex> lock(p.mu);
  return p.stats;
}

void reset_peak_bytes() {
  Pool& p = pool();
  std::lock_guard<std::mutex> lock(p.mu);
  p.stats.peak_bytes = p.stats.in_use_bytes;
}

void empty_cache() {
  Pool& p = pool();
  std::lock_guard<std::mutex> lock(p.mu);
  for (auto& [cls, blocks] : p.free)
    for (void* b : blocks) cudaFree(b);
  p.free.clear();
  p.stats.cached_bytes = 0;
}

void set_guard_bytes(size_t n) {
  Pool& p = pool();
  std::lock_guard<std::mutex> lock(p.mu);
  ATTIC_CHECK(p.guarded.empty(), "set_guard_bytes: ", p.guarded.size(),
              " guarded blocks are still alive; free them first");
  p.guard = n;
}

int64_t guard_violations() {
  Pool& p = pool();
  std::lock_guard<std::mutex> lock(p.mu);
  check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  int64_t bad = p.violations;
  for (auto& [ptr, n] : p.guarded)
    if (!p.guards_intact(ptr, n)) ++bad;
  return bad;
}

}  // namespace attic::cuda
