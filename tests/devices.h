// The devices a test can run on here, and the skip lines for tests that need a GPU or an
// uninstrumented build.
#pragma once

#include <iostream>
#include <vector>

#include "tensor/backend.h"
#include "tensor/dtype.h"
#include "tensor/asan.h"

namespace attic::testing {

// CPU, plus CUDA when attic was built with it and the driver sees a GPU.
inline std::vector<Device> available_devices() {
  std::vector<Device> d{Device::CPU};
  if (cuda_available()) d.push_back(Device::CUDA);
  return d;
}

// In a test that needs a GPU: `if (skip_without_cuda()) return;`. Prints the line that
// tests/CMakeLists.txt's SKIP_REGULAR_EXPRESSION turns into a skipped test (not a pass).
inline bool skip_without_cuda() {
  if (cuda_available()) return false;
  std::cout << "skipped: no CUDA device" << std::endl;
  return true;
}

// AddressSanitizer reserves terabytes of address space for its shadow memory and aborts on
// an allocation it cannot serve instead of reporting it, so tests that limit memory
// (ulimit -v) or ask for an impossible block mean nothing under it. In a test that exhausts
// memory on purpose: `if (skip_under_asan()) return;`.
inline bool skip_under_asan() {
#ifdef ATTIC_ASAN
  std::cout << "skipped: AddressSanitizer cannot run out of memory politely" << std::endl;
  return true;
#else
  return false;
#endif
}

}  // namespace attic::testing
