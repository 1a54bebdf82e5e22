// Batched matmul on the CPU: one GEMM per batch element (tensor/cpu/gemm.cpp does the work).
#include "tensor/cpu/cpu_backend.h"
#include "tensor/cpu/gemm.h"
#include "tensor/cpu/strided.h"

namespace attic::cpu {

// out [..., M, N] = a [..., M, K] @ b [..., K, N]; batch dims of a and b match out's
// (stride 0 where broadcast). out is contiguous.
void CpuBackend::matmul(const KTensor& out, const KTensor& a, const KTensor& b) {
  const size_t nd = out.shape.size();
  const int64_t M = out.shape[nd - 2], N = out.shape[nd - 1], K = a.shape[nd - 1];
  const std::vector<int64_t> batch(out.shape.begin(), out.shape.end() - 2);
  const std::vector<int64_t> sa(a.strides.begin(), a.strides.end() - 2);
  const std::vector<int64_t> sb(b.strides.begin(), b.strides.end() - 2);
  const std::vector<int64_t> so(out.strides.begin(), out.strides.end() - 2);
  dispatch_floating(out.dtype, [&](auto z) {
    using T = decltype(z);
    const T* pa = a.ptr<T>();
    const T* pb = b.ptr<T>();
    T* po = out.ptr<T>();
    strided_rows<3>(batch, {&so, &sa, &sb}, [&](auto off, int64_t n, auto st) {
      for (int64_t i = 0; i < n; ++i)
        gemm<T>(M, N, K, pa + off[1] + i * st[1], a.strides[nd - 2], a.strides[nd - 1],
                pb + off[2] + i * st[2], b.strides[nd - 2], b.strides[nd - 1],
                po + off[0] + i * st[0], N);
    });
  });
}

}  // namespace attic::cpu
