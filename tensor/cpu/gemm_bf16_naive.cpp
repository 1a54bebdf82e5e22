#include "tensor/cpu/gemm_bf16.h"

namespace attic::cpu {
namespace {

// x rounded to bfloat16 and widened back: the value a bf16 product sees.
inline float as_bf16(float x) { return bfloat16_bits_to_float(float_to_bfloat16_bits(x)); }
inline float as_bf16(bfloat16 x) { return to_float(x); }

}  // namespace

// C(i, j) = Σ_k bf16(A(i, k)) · bf16(B(k, j)), each product and sum in float32.
template <class TA, class TB>
void gemm_bf16_naive(int64_t M, int64_t N, int64_t K, const TA* A, int64_t rsa, int64_t csa,
                     const TB* B, int64_t rsb, int64_t csb, float* C, int64_t ldc) {
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      float acc = 0;
      for (int64_t k = 0; k < K; ++k) acc += as_bf16(A[i * rsa + k * csa]) * as_bf16(B[k * rsb + j * csb]);
      C[i * ldc + j] = acc;
    }
}

#define ATTIC_GEMM_BF16_NAIVE(TA, TB)                                                         \
  template void gemm_bf16_naive<TA, TB>(int64_t, int64_t, int64_t, const TA*, int64_t, int64_t, \
                                        const TB*, int64_t, int64_t, float*, int64_t);
ATTIC_GEMM_BF16_NAIVE(float, float)
ATTIC_GEMM_BF16_NAIVE(bfloat16, bfloat16)
ATTIC_GEMM_BF16_NAIVE(float, bfloat16)
ATTIC_GEMM_BF16_NAIVE(bfloat16, float)
#undef ATTIC_GEMM_BF16_NAIVE

}  // namespace attic::cpu
