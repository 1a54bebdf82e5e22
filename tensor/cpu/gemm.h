// GEMM on the CPU: C[M, N] = A[M, K] @ B[K, N].
//
// A and B are read through (row stride, column stride) pairs, so a transposed operand
// (a view from .transpose()) costs nothing: A(i, k) = A[i * rsa + k * csa].
// C is row-major with leading dimension ldc and is overwritten, or added to (accumulate:
// C += A @ B).
#pragma once

#include <cstdint>

#include "tensor/cpu/gemm_call.h"

namespace attic::cpu {

// The reference: three loops, the definition of matrix product. Slow and obviously right.
template <class T>
void gemm_naive(int64_t M, int64_t N, int64_t K, const T* A, int64_t rsa, int64_t csa,
                const T* B, int64_t rsb, int64_t csb, T* C, int64_t ldc);

// The fast one (gemm.cpp): packed, register-blocked, multithreaded, at the instruction-set
// level the CPU backend runs (it calls cpu_backend().run_gemm). Same contract; with a
// triangle it skips the work the triangle names, in whole micro-tiles and k ranges, so
// kLowerA and kUpperA give what gemm_naive gives on A with that triangle zeroed.
template <class T>
void gemm(int64_t M, int64_t N, int64_t K, const T* A, int64_t rsa, int64_t csa,
          const T* B, int64_t rsb, int64_t csb, T* C, int64_t ldc,
          Triangle tri = Triangle::kNone, bool accumulate = false);

}  // namespace attic::cpu
