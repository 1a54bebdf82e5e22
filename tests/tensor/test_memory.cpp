// memory_stats: the bytes attic's allocator holds, and the most it held since a reset.
#include "tests/catch.h"

#include <cstdint>
#include <type_traits>

#include "devices.h"
#include "ops/ops.h"
#include "tensor/cpu/cpu_backend.h"
#include "tensor/memory.h"

using namespace attic;

TEST_CASE("memory_stats counts a tensor's bytes while it lives, and the peak since a reset",
          "[tensor][memory]") {
  const MemoryStats before = memory_stats(Device::CPU);
  reset_peak_memory(Device::CPU);
  CHECK(memory_stats(Device::CPU).peak == before.in_use);
  {
    Tensor a = zeros({256, 256});  // 256 KiB of float32
    CHECK(memory_stats(Device::CPU).in_use == before.in_use + 256 * 256 * 4);
    {
      Tensor b = zeros({128, 128});  // 64 KiB more, freed at once
    }
    CHECK(memory_stats(Device::CPU).in_use == before.in_use + 256 * 256 * 4);
    CHECK(memory_stats(Device::CPU).peak == before.in_use + (256 * 256 + 128 * 128) * 4);
  }
  CHECK(memory_stats(Device::CPU).in_use == before.in_use);
  CHECK(memory_stats(Device::CPU).peak == before.in_use + (256 * 256 + 128 * 128) * 4);
  reset_peak_memory(Device::CPU);
  CHECK(memory_stats(Device::CPU).peak == before.in_use);
}

TEST_CASE("the peak of a matmul holds its inputs and its output", "[tensor][memory]") {
  Tensor a = ones({64, 32}), b = ones({32, 16});
  const size_t held = memory_stats(Device::CPU).in_use;
  reset_peak_memory(Device::CPU);
  Tensor c = matmul(a, b);
  CHECK(memory_stats(Device::CPU).peak >= held + 64 * 16 * 4);
}

TEST_CASE("format_mib writes mebibytes with one decimal", "[tensor][memory]") {
  CHECK(format_mib(0) == "0.0 MiB");
  CHECK(format_mib(1024 * 1024) == "1.0 MiB");
  CHECK(format_mib(5 * 1024 * 1024 + 512 * 1024) == "5.5 MiB");
}

#ifndef ATTIC_WITH_CUDA
TEST_CASE("memory_stats for CUDA in a build without it is an error", "[tensor][memory]") {
  CHECK_THROWS_WITH(memory_stats(Device::CUDA), Catch::Matchers::ContainsSubstring("built without CUDA"));
  CHECK_THROWS_WITH(reset_peak_memory(Device::CUDA), Catch::Matchers::ContainsSubstring("built without CUDA"));
}
#endif

TEST_CASE("str_bytes writes a size in the largest binary unit below it", "[tensor][memory]") {
  CHECK(str_bytes(0) == "0 bytes");
  CHECK(str_bytes(1023) == "1023 bytes");
  CHECK(str_bytes(1536) == "1.5 KiB");
  CHECK(str_bytes(uint64_t(12) << 40) == "12.0 TiB");
}

TEST_CASE("numel_of refuses a shape whose element count overflows int64", "[tensor][memory]") {
  CHECK(numel_of({3, 0, int64_t(1) << 61}) == 0);
  CHECK(numel_of({int64_t(1) << 31, int64_t(1) << 31}) == int64_t(1) << 62);
  // 2^62 * 4 wraps to 0 in int64: a tensor of [64, 4, 2^62] would be allocated empty.
  CHECK_THROWS_AS(numel_of({64, 4, int64_t(1) << 62}), OutOfMemory);
  CHECK_THROWS_WITH(numel_of({64, 4, int64_t(1) << 62}),
                    Catch::Matchers::ContainsSubstring("[64, 4, 4611686018427387904]") &&
                        Catch::Matchers::ContainsSubstring("does not fit in int64"));
  // The nonzero sizes must fit too: contiguous strides multiply them.
  CHECK_THROWS_AS(numel_of({0, int64_t(1) << 62, 8}), OutOfMemory);
  // A negative size is a plain error, not a lack of memory.
  CHECK_THROWS_WITH(numel_of({2, -1}), Catch::Matchers::ContainsSubstring("[2, -1] has a negative size"));
  try {
    numel_of({2, -1});
  } catch (const OutOfMemory&) {
    FAIL("a negative size reported as out of memory");
  } catch (const Error&) {
  }
}

TEST_CASE("empty refuses a tensor whose bytes overflow, naming its shape", "[tensor][memory]") {
  // 2^62 elements fit in int64, but 2^62 float32s are 2^64 bytes.
  CHECK_THROWS_WITH(empty({int64_t(1) << 62}),
                    Catch::Matchers::ContainsSubstring("[4611686018427387904]") && Catch::Matchers::ContainsSubstring("64 bits"));
  // 2^62 - 16 float32s are 2^64 - 64 bytes: the count fits in 64 bits, but no address space
  // holds it, and rounding it up to an allocator's size class would wrap to a tiny block.
  CHECK_THROWS_AS(empty({(int64_t(1) << 62) - 16}), OutOfMemory);
}

TEST_CASE("empty names the shape and the size when the backend has no memory for it",
          "[tensor][memory]") {
  if (attic::testing::skip_under_asan()) return;
  const MemoryStats before = memory_stats(Device::CPU);
  // 2^50 float32s: 4 PiB, more than any machine here can map.
  CHECK_THROWS_AS(empty({int64_t(1) << 25, int64_t(1) << 25}), OutOfMemory);
  CHECK_THROWS_WITH(empty({int64_t(1) << 25, int64_t(1) << 25}),
                    Catch::Matchers::ContainsSubstring("[33554432, 33554432]") && Catch::Matchers::ContainsSubstring("4.0 PiB"));
  // The failed allocation is not counted as held, nor as a peak.
  CHECK(memory_stats(Device::CPU).in_use == before.in_use);
  CHECK(memory_stats(Device::CPU).peak == before.peak);
}

TEST_CASE("a backend frees without throwing, so a destructor can free while unwinding",
          "[tensor][memory]") {
  STATIC_REQUIRE(noexcept(std::declval<cpu::CpuBackend&>().deallocate(nullptr, 0)));
  STATIC_REQUIRE(noexcept(std::declval<Backend&>().deallocate(nullptr, 0)));
}
