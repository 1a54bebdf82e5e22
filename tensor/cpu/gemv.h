// The product of one row: C[1, N] (+)= A[1, K] @ B[K, N], for gemm's M = 1 (gemm.h).
//
// Decoding a token multiplies one row by every weight matrix of the model. The packed GEMM
// would first copy all of B into its panels, which for a row is most of the work: a 124M GPT
// reads 500 MB of weights per token. Here B is read once, in place:
//   rsb == 1, csa == 1 (B's columns are contiguous: a Linear's W [N, K] read as Wᵀ, lm_head):
//     C[n] = Σ_k A[k] B[k, n], a dot product per column, four columns sharing each load of A;
//   csb == 1 (B's rows contiguous): C[:] = Σ_k A[k] B[k, :], each row of B added into C.
// Columns are split over threads. The reference is gemm_naive with M = 1.
#pragma once

#include "tensor/cpu/cpu_isa.h"

#include <cstdint>

namespace attic::cpu::ATTIC_CPU_ISA {

// Whether gemv takes these strides (one of the two layouts above).
bool gemv_takes(int64_t csa, int64_t rsb, int64_t csb);

template <class T>
void gemv(int64_t N, int64_t K, const T* A, int64_t csa, const T* B, int64_t rsb, int64_t csb, T* C,
          bool accumulate);

}  // namespace attic::cpu::ATTIC_CPU_ISA
