// The devices a test can run on here, and the skip line for tests that need a GPU.
#pragma once

#include <iostream>
#include <vector>

#include "tensor/backend.h"
#include "tensor/dtype.h"

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

}  // namespace attic::testing
