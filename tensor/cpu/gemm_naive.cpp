#include "tensor/cpu/gemm.h"

namespace attic::cpu {

// C(i, j) = Σ_k A(i, k) B(k, j), accumulated in the element type.
template <class T>
void gemm_naive(int64_t M, int64_t N, int64_t K, const T* A, int64_t rsa, int64_t csa,
                const T* B, int64_t rsb, int64_t csb, T* C, int64_t ldc) {
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      T acc = 0;
      for (int64_t k = 0; k < K; ++k) acc += A[i * rsa + k * csa] * B[k * rsb + j * csb];
      C[i * ldc + j] = acc;
    }
}

template void gemm_naive<float>(int64_t, int64_t, int64_t, const float*, int64_t, int64_t,
                                const float*, int64_t, int64_t, float*, int64_t);
template void gemm_naive<double>(int64_t, int64_t, int64_t, const double*, int64_t, int64_t,
                                 const double*, int64_t, int64_t, double*, int64_t);

}  // namespace attic::cpu
