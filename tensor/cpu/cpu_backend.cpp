#include "tensor/cpu/cpu_backend.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <unordered_map>
#include <vector>

#include "tensor/cpu/cpu_features.h"
#include "tensor/cpu/dropout.h"
#include "tensor/error.h"
#include "tensor/asan.h"

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

namespace {

// AddressSanitizer finds a use after free only in memory really given back to it, so its
// builds bypass the cache.
#ifdef ATTIC_ASAN
constexpr bool kCaching = false;
#else
constexpr bool kCaching = true;
#endif

// The block size that serves a request of n bytes: a multiple of 64 up to 4 KiB, above that
// a multiple of a quarter of n's power of two (4 classes per doubling, at most 25% unused).
// Every class is a multiple of 64, as aligned_alloc(64, ...) requires.
size_t size_class(size_t n) {
  if (n <= 4096) return n == 0 ? 64 : (n + 63) / 64 * 64;
  const size_t step = std::bit_floor(n) / 4;
  return (n + step - 1) / step * step;
}

// Freed blocks by size class, kept for the next allocation of that class: a training step
// allocates the same sizes every iteration, and a fresh block costs a system call and page
// faults on first touch. A block above glibc's mmap threshold (32 MiB at most) is its own
// mapping: given back, the next step's block of that size is mapped again and the kernel
// zeroes every page of it on first touch (a [64, 6, 256, 256] float attention matrix is
// 100 MiB, 25600 pages). So the cache's default limit is no fixed size but the most bytes
// the program ever held at once (at least kCacheFloor): a step at steady state then finds
// every block it needs, and live + cached stays within twice that high-water mark.
struct Cache {
  std::mutex mu;
  std::unordered_map<size_t, std::vector<void*>> free;
  size_t cached = 0;                // bytes in `free`
  size_t limit = kCacheLimitAuto;   // beyond this a freed block goes back to the system

  // Gives blocks back to the system until at most `keep` bytes stay cached. Holds mu.
  void trim(size_t keep) {
    for (auto& [cls, blocks] : free) {
      while (cached > keep && !blocks.empty()) {
        std::free(blocks.back());
        blocks.pop_back();
        cached -= cls;
      }
    }
  }
};

// Live and peak bytes of storage, for attic bench's memory figures. Relaxed atomics: the
// counts need no ordering with anything else.
// g_high is the peak since the program started, which reset_peak_bytes leaves alone.
std::atomic<size_t> g_live{0}, g_peak{0}, g_high{0};

void raise_to(std::atomic<size_t>& mark, size_t now) {
  size_t m = mark.load(std::memory_order_relaxed);
  while (now > m && !mark.compare_exchange_weak(m, now, std::memory_order_relaxed)) {
  }
}

void count_alloc(size_t n) {
  const size_t now = g_live.fetch_add(n, std::memory_order_relaxed) + n;
  raise_to(g_peak, now);
  raise_to(g_high, now);
}

// The auto limit's least value: small programs keep their small blocks whatever their peak.
constexpr size_t kCacheFloor = size_t(64) << 20;

// The bytes the cache may hold now. Holds mu.
size_t effective_limit(const Cache& c) {
  if (c.limit != kCacheLimitAuto) return c.limit;
  return std::max(kCacheFloor, g_high.load(std::memory_order_relaxed));
}

// Never destroyed, like the backend: static tensors free their storage after other statics.
Cache& cache() {
  static Cache* c = new Cache;
  return *c;
}

}  // namespace

// 64-byte alignment: one cache line, and the width of an AVX-512 register.
// A request is counted (live, peak, high-water mark) only once it is served: a refused one
// must not raise the peak, nor the cache's limit, which follows the high-water mark.
void* CpuBackend::allocate(size_t nbytes) {
  auto refuse = [&] {
    throw OutOfMemory("cpu: out of memory allocating " + str_bytes(nbytes) + " (" +
                      std::to_string(nbytes) + " bytes)");
  };
  // No address space holds more than PTRDIFF_MAX bytes; above it size_class would overflow.
  if (nbytes > size_t(PTRDIFF_MAX)) refuse();
  const size_t cls = size_class(nbytes);
  if (kCaching) {
    Cache& c = cache();
    std::lock_guard<std::mutex> lock(c.mu);
    auto it = c.free.find(cls);
    if (it != c.free.end() && !it->second.empty()) {
      void* p = it->second.back();
      it->second.pop_back();
      c.cached -= cls;
      count_alloc(nbytes);
      return p;
    }
  }
  void* p = std::aligned_alloc(64, cls);
  if (!p) refuse();
  count_alloc(nbytes);
  return p;
}

// Runs in destructors, often while an exception (out of memory among them) unwinds, so it
// must not throw: where the cache cannot grow its list, the block goes back to the system.
void CpuBackend::deallocate(void* ptr, size_t nbytes) noexcept {
  g_live.fetch_sub(nbytes, std::memory_order_relaxed);
  if (kCaching) {
    const size_t cls = size_class(nbytes);
    Cache& c = cache();
    std::lock_guard<std::mutex> lock(c.mu);
    if (c.cached + cls <= effective_limit(c)) {
      try {
        c.free[cls].push_back(ptr);
        c.cached += cls;
        return;
      } catch (const std::bad_alloc&) {
      }
    }
  }
  std::free(ptr);
}

bool caching_allocator() { return kCaching; }

size_t live_bytes() { return g_live.load(std::memory_order_relaxed); }
size_t peak_bytes() { return g_peak.load(std::memory_order_relaxed); }
void reset_peak_bytes() { g_peak.store(g_live.load(std::memory_order_relaxed), std::memory_order_relaxed); }

size_t cached_bytes() {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mu);
  return c.cached;
}

void set_cache_limit(size_t nbytes) {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mu);
  c.limit = nbytes;
  c.trim(effective_limit(c));
}

size_t cache_limit() {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mu);
  return effective_limit(c);
}

void empty_cache() {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mu);
  c.trim(0);
}

void CpuBackend::copy_from_host(void* dst, const void* src, size_t n) { std::memcpy(dst, src, n); }
void CpuBackend::copy_to_host(void* dst, const void* src, size_t n) { std::memcpy(dst, src, n); }

// Each level's make_kernels() (tensor/cpu/kernels.cpp, compiled once per level).
namespace base { CpuBackend* make_kernels(); }
#if defined(ATTIC_CPU_LEVELS)
namespace avx2 { CpuBackend* make_kernels(); }
namespace avx512 { CpuBackend* make_kernels(); }
#endif

// Never destroyed: a static or thread_local Tensor may free its storage after every other
// static object is gone, and it still needs its backend to do so.
CpuBackend& cpu_backend() {
  static CpuBackend* const backend = [] {
#if defined(ATTIC_CPU_LEVELS)
    switch (cpu_level()) {
      case CpuLevel::Avx512:
      case CpuLevel::Avx512Bf16:
      case CpuLevel::AmxBf16: return avx512::make_kernels();
      case CpuLevel::Avx2: return avx2::make_kernels();
      case CpuLevel::Baseline: break;
    }
#endif
    return base::make_kernels();
  }();
  return *backend;
}

// The observer of gemm<float> calls (set_gemm_observer), or null: one for every level.
namespace {
std::atomic<GemmObserver> g_gemm_observer{nullptr};
}  // namespace
void set_gemm_observer(GemmObserver observer) { g_gemm_observer.store(observer); }
GemmObserver gemm_observer() { return g_gemm_observer.load(std::memory_order_acquire); }

template <class T>
void gemm(int64_t M, int64_t N, int64_t K, const T* A, int64_t rsa, int64_t csa, const T* B,
          int64_t rsb, int64_t csb, T* C, int64_t ldc, Triangle tri, bool accumulate) {
  cpu_backend().run_gemm(M, N, K, A, rsa, csa, B, rsb, csb, C, ldc, tri, accumulate);
}
template void gemm<float>(int64_t, int64_t, int64_t, const float*, int64_t, int64_t,
                          const float*, int64_t, int64_t, float*, int64_t, Triangle, bool);
template void gemm<double>(int64_t, int64_t, int64_t, const double*, int64_t, int64_t,
                           const double*, int64_t, int64_t, double*, int64_t, Triangle, bool);

template <class T>
void dropout_span(T* out, const T* in, int64_t n, uint64_t first, uint64_t key, uint32_t threshold,
                  T scale) {
  cpu_backend().run_dropout_span(out, in, n, first, key, threshold, scale);
}
template void dropout_span<float>(float*, const float*, int64_t, uint64_t, uint64_t, uint32_t,
                                  float);
template void dropout_span<double>(double*, const double*, int64_t, uint64_t, uint64_t, uint32_t,
                                   double);

}  // namespace cpu

#ifndef ATTIC_WITH_CUDA
Backend& backend_for(Device device) {
  if (device == Device::CPU) return cpu::cpu_backend();
  throw Error("attic was built without CUDA");
}

bool cuda_available() { return false; }
#endif  // with CUDA, both live in tensor/cuda/cuda_backend.cpp

}  // namespace attic
