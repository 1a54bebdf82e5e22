// PLACEHOLDER until the packed GEMM lands: forwards to the reference.
#include "tensor/cpu/gemm.h"

namespace attic::cpu {

template <class T>
void gemm(int64_t M, int64_t N, int64_t K, const T* A, int64_t rsa, int64_t csa, const T* B,
          int64_t rsb, int64_t csb, T* C, int64_t ldc) {
  gemm_naive<T>(M, N, K, A, rsa, csa, B, rsb, csb, C, ldc);
}

template void gemm<float>(int64_t, int64_t, int64_t, const float*, int64_t, int64_t,
                          const float*, int64_t, int64_t, float*, int64_t);
template void gemm<double>(int64_t, int64_t, int64_t, const double*, int64_t, int64_t,
                           const double*, int64_t, int64_t, double*, int64_t);

}  // namespace attic::cpu
