// memory_stats: the bytes attic's allocator holds, and the most it held since a reset.
#include <catch2/catch.hpp>

#include "ops/ops.h"
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
  CHECK_THROWS_WITH(memory_stats(Device::CUDA), Catch::Contains("built without CUDA"));
  CHECK_THROWS_WITH(reset_peak_memory(Device::CUDA), Catch::Contains("built without CUDA"));
}
#endif
