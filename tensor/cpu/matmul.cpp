// Batched matmul on the CPU: one GEMM per batch element (tensor/cpu/gemm.cpp does the work,
// or tensor/cpu/gemm_bf16.cpp for autocast's bfloat16 products).
#include "tensor/cpu/kernels.h"
#include "tensor/cpu/gemm_bf16.h"
#include "tensor/cpu/strided.h"

namespace attic::cpu::ATTIC_CPU_ISA {

namespace {

// Calls product(M, N, K, a_off, b_off, out_off) once per batch element of out [..., M, N] =
// a [..., M, K] @ b [..., K, N], with the element offsets of that element's matrices; batch
// dims of a and b match out's (stride 0 where broadcast).
template <class F>
void for_each_matrix(const KTensor& out, const KTensor& a, const KTensor& b, F&& product) {
  const size_t nd = out.shape.size();
  const int64_t M = out.shape[nd - 2], N = out.shape[nd - 1], K = a.shape[nd - 1];
  const std::vector<int64_t> batch(out.shape.begin(), out.shape.end() - 2);
  const std::vector<int64_t> sa(a.strides.begin(), a.strides.end() - 2);
  const std::vector<int64_t> sb(b.strides.begin(), b.strides.end() - 2);
  const std::vector<int64_t> so(out.strides.begin(), out.strides.end() - 2);
  strided_rows<3>(batch, {&so, &sa, &sb}, [&](auto off, int64_t n, auto st) {
    for (int64_t i = 0; i < n; ++i)
      product(M, N, K, off[1] + i * st[1], off[2] + i * st[2], off[0] + i * st[0]);
  });
}

// The row stride and the column stride of an operand's last two dims.
int64_t row_stride(const KTensor& t) { return t.strides[t.strides.size() - 2]; }
int64_t col_stride(const KTensor& t) { return t.strides.back(); }

}  // namespace

// out [..., M, N] = a [..., M, K] @ b [..., K, N]. out is contiguous.
void Kernels::matmul(const KTensor& out, const KTensor& a, const KTensor& b) {
  dispatch_floating(out.dtype, [&](auto z) {
    using T = decltype(z);
    for_each_matrix(out, a, b, [&](int64_t M, int64_t N, int64_t K, int64_t ao, int64_t bo,
                                   int64_t oo) {
      gemm<T>(M, N, K, a.ptr<T>() + ao, row_stride(a), col_stride(a), b.ptr<T>() + bo,
              row_stride(b), col_stride(b), out.ptr<T>() + oo, N);
    });
  });
}

// out [..., M, N] (float32) = a @ b with a and b (float32 or bfloat16) rounded to bfloat16.
void Kernels::matmul_reduced(const KTensor& out, const KTensor& a, const KTensor& b,
                             DType compute) {
  ATTIC_CHECK(compute == DType::BFloat16, "matmul: the CPU runs reduced-precision products in "
              "bfloat16 only, not ", dtype_name(compute), " (float16 needs the CUDA backend)");
  // The operands' element types: float, or bfloat16 already.
  auto operand = [](const KTensor& t, auto&& f) {
    if (t.dtype == DType::BFloat16) return f(t.ptr<bfloat16>());
    return f(t.ptr<float>());
  };
  operand(a, [&](auto pa) {
    operand(b, [&](auto pb) {
      for_each_matrix(out, a, b, [&](int64_t M, int64_t N, int64_t K, int64_t ao, int64_t bo,
                                     int64_t oo) {
        gemm_bf16(M, N, K, pa + ao, row_stride(a), col_stride(a), pb + bo, row_stride(b),
                  col_stride(b), out.ptr<float>() + oo, N);
      });
    });
  });
}

}  // namespace attic::cpu::ATTIC_CPU_ISA
