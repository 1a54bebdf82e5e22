// Batched matmul on the CPU: one GEMM per batch element (tensor/cpu/gemm.cpp does the work,
// or tensor/cpu/gemm_bf16.cpp for autocast's bfloat16 products).
#include "tensor/cpu/cpu_backend.h"
#include "tensor/cpu/gemm.h"
#include "tensor/cpu/gemm_bf16.h"
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

// out [..., M, N] (float32) = a @ b with a and b (float32 or bfloat16) rounded to bfloat16.
void CpuBackend::matmul_reduced(const KTensor& out, const KTensor& a, const KTensor& b,
                                DType compute) {
  ATTIC_CHECK(compute == DType::BFloat16, "matmul: the CPU runs reduced-precision products in "
              "bfloat16 only, not ", dtype_name(compute), " (float16 needs the CUDA backend)");
  const size_t nd = out.shape.size();
  const int64_t M = out.shape[nd - 2], N = out.shape[nd - 1], K = a.shape[nd - 1];
  const std::vector<int64_t> batch(out.shape.begin(), out.shape.end() - 2);
  const std::vector<int64_t> sa(a.strides.begin(), a.strides.end() - 2);
  const std::vector<int64_t> sb(b.strides.begin(), b.strides.end() - 2);
  const std::vector<int64_t> so(out.strides.begin(), out.strides.end() - 2);
  // The operands' element types: float, or bfloat16 already.
  auto operand = [](const KTensor& t, auto&& f) {
    if (t.dtype == DType::BFloat16) return f(t.ptr<bfloat16>());
    return f(t.ptr<float>());
  };
  float* po = out.ptr<float>();
  operand(a, [&](auto pa) {
    operand(b, [&](auto pb) {
      strided_rows<3>(batch, {&so, &sa, &sb}, [&](auto off, int64_t n, auto st) {
        for (int64_t i = 0; i < n; ++i)
          gemm_bf16(M, N, K, pa + off[1] + i * st[1], a.strides[nd - 2], a.strides[nd - 1],
                    pb + off[2] + i * st[2], b.strides[nd - 2], b.strides[nd - 1],
                    po + off[0] + i * st[0], N);
      });
    });
  });
}

}  // namespace attic::cpu
