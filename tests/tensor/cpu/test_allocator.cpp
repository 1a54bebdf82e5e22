#include "tests/catch.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "tensor/backend.h"
#include "tensor/cpu/cpu_backend.h"

using namespace attic;

namespace {

// The backend whose allocator these tests exercise.
Backend& cpu_backend() { return backend_for(Device::CPU); }

// Restores the default cache limit (the high-water mark) and an empty cache when a test ends.
struct CacheReset {
  CacheReset() { cpu::empty_cache(); }
  ~CacheReset() {
    cpu::set_cache_limit(cpu::kCacheLimitAuto);
    cpu::empty_cache();
  }
};

// True when the byte ranges [a, a + na) and [b, b + nb) share a byte.
bool overlap(const void* a, size_t na, const void* b, size_t nb) {
  const auto pa = reinterpret_cast<uintptr_t>(a), pb = reinterpret_cast<uintptr_t>(b);
  return pa < pb + nb && pb < pa + na;
}

}  // namespace

TEST_CASE("allocator: blocks are 64-byte aligned, size 0 included", "[allocator]") {
  CacheReset reset;
  for (size_t n : {size_t(0), size_t(1), size_t(63), size_t(4097), size_t(1) << 20}) {
    void* p = cpu_backend().allocate(n);
    CHECK(reinterpret_cast<uintptr_t>(p) % 64 == 0);
    cpu_backend().deallocate(p, n);
  }
}

TEST_CASE("allocator: a freed block serves the next request of its size class", "[allocator]") {
  CacheReset reset;
  void* a = cpu_backend().allocate(1000);
  cpu_backend().deallocate(a, 1000);
  if (!cpu::caching_allocator()) {
    CHECK(cpu::cached_bytes() == 0);  // AddressSanitizer build: nothing is kept
    return;
  }
  // 1000 bytes and 970 bytes both round up to 1024 (a multiple of 64)
  CHECK(cpu::cached_bytes() == 1024);
  void* b = cpu_backend().allocate(970);
  CHECK(b == a);
  CHECK(cpu::cached_bytes() == 0);
  cpu_backend().deallocate(b, 970);

  // 100000 and 98305 bytes share a class: both lie in [65536, 131072), whose steps are
  // 65536 / 4 = 16384, and both round up to 7 · 16384 = 114688
  void* c = cpu_backend().allocate(100000);
  cpu_backend().deallocate(c, 100000);
  void* d = cpu_backend().allocate(98305);
  CHECK(d == c);
  cpu_backend().deallocate(d, 98305);
}

TEST_CASE("allocator: a block of another size class is not handed out, live blocks never alias",
          "[allocator]") {
  CacheReset reset;
  void* small = cpu_backend().allocate(100);
  cpu_backend().deallocate(small, 100);
  const std::vector<size_t> sizes = {100, 10000, 128, 5000, 100, 1 << 16};
  std::vector<void*> live;
  for (size_t i = 0; i < sizes.size(); ++i) {
    live.push_back(cpu_backend().allocate(sizes[i]));
    std::memset(live.back(), int(i + 1), sizes[i]);
  }
  CHECK(live[1] != small);  // 10000 bytes: a different class from 100
  for (size_t i = 0; i < live.size(); ++i)
    for (size_t j = i + 1; j < live.size(); ++j)
      CHECK_FALSE(overlap(live[i], sizes[i], live[j], sizes[j]));
  // every block still holds its own pattern
  for (size_t i = 0; i < live.size(); ++i) {
    const auto* bytes = static_cast<const unsigned char*>(live[i]);
    CHECK(bytes[0] == i + 1);
    CHECK(bytes[sizes[i] - 1] == i + 1);
  }
  for (size_t i = 0; i < live.size(); ++i) cpu_backend().deallocate(live[i], sizes[i]);
}

TEST_CASE("allocator: empty_cache gives every cached block back", "[allocator]") {
  CacheReset reset;
  const std::vector<size_t> sizes = {64, 4096, size_t(1) << 20};  // each its own class exactly
  std::vector<void*> blocks;
  for (size_t n : sizes) blocks.push_back(cpu_backend().allocate(n));
  for (size_t i = 0; i < sizes.size(); ++i) cpu_backend().deallocate(blocks[i], sizes[i]);
  if (cpu::caching_allocator()) CHECK(cpu::cached_bytes() == 64 + 4096 + (size_t(1) << 20));
  cpu::empty_cache();
  CHECK(cpu::cached_bytes() == 0);
}

TEST_CASE("allocator: the cache never holds more than its limit", "[allocator]") {
  CacheReset reset;
  std::vector<void*> blocks;
  for (int i = 0; i < 3; ++i) blocks.push_back(cpu_backend().allocate(4096));
  cpu::set_cache_limit(8192);
  for (void* p : blocks) cpu_backend().deallocate(p, 4096);
  // two 4096-byte blocks fit under 8192; the third goes back to the system
  CHECK(cpu::cached_bytes() == (cpu::caching_allocator() ? 8192 : 0));

  // lowering the limit frees what is above it at once
  cpu::set_cache_limit(4096);
  CHECK(cpu::cached_bytes() == (cpu::caching_allocator() ? 4096 : 0));
  cpu::set_cache_limit(0);
  CHECK(cpu::cached_bytes() == 0);
}

TEST_CASE("allocator: by default the cache keeps up to the most bytes ever alive at once",
          "[allocator]") {
  CacheReset reset;
  cpu::set_cache_limit(cpu::kCacheLimitAuto);
  // Three blocks of 40 MiB alive at once (above glibc's mmap threshold): the high-water
  // mark is now at least 120 MiB, above the 64 MiB floor, so all three stay cached when
  // freed, and a request of the same size gets one back instead of a fresh mapping.
  const size_t n = size_t(40) << 20;
  std::vector<void*> blocks;
  for (int i = 0; i < 3; ++i) blocks.push_back(cpu_backend().allocate(n));
  CHECK(cpu::cache_limit() >= 3 * n);
  for (void* p : blocks) cpu_backend().deallocate(p, n);
  if (!cpu::caching_allocator()) {
    CHECK(cpu::cached_bytes() == 0);
    return;
  }
  CHECK(cpu::cached_bytes() == 3 * n);
  void* again = cpu_backend().allocate(n);
  CHECK(std::find(blocks.begin(), blocks.end(), again) != blocks.end());
  cpu_backend().deallocate(again, n);
  // A fixed limit replaces the high-water mark; kCacheLimitAuto brings it back.
  cpu::set_cache_limit(n);
  CHECK(cpu::cache_limit() == n);
  CHECK(cpu::cached_bytes() == n);
  cpu::set_cache_limit(cpu::kCacheLimitAuto);
  CHECK(cpu::cache_limit() >= 3 * n);
}

TEST_CASE("allocator: concurrent allocate and deallocate keep the cache consistent",
          "[allocator]") {
  CacheReset reset;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([t] {
      for (int i = 0; i < 1000; ++i) {
        const size_t n = size_t(64 * (1 + (i + t) % 7));
        void* p = cpu_backend().allocate(n);
        std::memset(p, t, n);
        cpu_backend().deallocate(p, n);
      }
    });
  for (std::thread& th : threads) th.join();
  cpu::empty_cache();
  CHECK(cpu::cached_bytes() == 0);
}
