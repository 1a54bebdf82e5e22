// The CUDA backend's entry points: is a device there, backend_for(), host <-> device copies.
#include "tensor/cuda/cuda_backend.h"

#include <cuda_runtime.h>

#include <string>

#include "tensor/cpu/cpu_backend.h"
#include "tensor/cuda/check.h"

namespace attic {

namespace {

// Why CUDA cannot be used here ("" when it can). Asked once: cudaGetDeviceCount loads the
// driver, and its answer does not change while the process runs.
const std::string& cuda_unavailable_reason() {
  static const std::string reason = [] {
    int n = 0;
    const cudaError_t err = cudaGetDeviceCount(&n);
    if (err != cudaSuccess) {
      cudaGetLastError();  // clear the sticky error so later calls do not report it
      return std::string("cuda: no CUDA device is available (") + cudaGetErrorString(err) + ")";
    }
    if (n == 0) return std::string("cuda: no CUDA device is available (the driver found none)");
    return std::string();
  }();
  return reason;
}

}  // namespace

bool cuda_available() { return cuda_unavailable_reason().empty(); }

// Never destroyed, for the reason given in tensor/cpu/cpu_backend.cpp.
Backend& backend_for(Device device) {
  if (device == Device::CPU) return cpu::cpu_backend();
  ATTIC_CHECK(cuda_available(), cuda_unavailable_reason());
  static cuda::CudaBackend* cuda_backend = new cuda::CudaBackend;
  return *cuda_backend;
}

namespace cuda {

// Both copies are synchronous: copy_to_host returns after every kernel queued before it has
// finished and the bytes have arrived, which is what item() and to_vector() need.
void CudaBackend::copy_from_host(void* dst, const void* src, size_t n) {
  if (n) ATTIC_CUDA_CHECK(cudaMemcpy(dst, src, n, cudaMemcpyHostToDevice));
}

void CudaBackend::copy_to_host(void* dst, const void* src, size_t n) {
  if (n) ATTIC_CUDA_CHECK(cudaMemcpy(dst, src, n, cudaMemcpyDeviceToHost));
}

}  // namespace cuda

}  // namespace attic
