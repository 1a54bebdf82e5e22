// Turning CUDA and cuBLAS status codes into attic::Error, for the backend's host code.
#pragma once

#include <cuda_runtime.h>

#include "tensor/error.h"

namespace attic::cuda {

// ATTIC_CUDA_CHECK(cudaMemcpy(...)): throws "cuda: cudaMemcpy(...) failed: <reason>".
inline void check_cuda(cudaError_t err, const char* what) {
  if (err != cudaSuccess) fail("cuda: ", what, " failed: ", cudaGetErrorString(err));
}

// After a kernel launch: a bad launch configuration shows up here, at once; a fault inside
// the kernel shows up at the next synchronizing call (a copy to the host).
inline void check_launch(const char* kernel) { check_cuda(cudaGetLastError(), kernel); }

}  // namespace attic::cuda

#define ATTIC_CUDA_CHECK(call) ::attic::cuda::check_cuda((call), #call)
