// GEMM on the CPU: C[M, N] = A[M, K] @ B[K, N].
//
// A and B are read through (row stride, column stride) pairs, so a transposed operand
// (a view from .transpose()) costs nothing: A(i, k) = A[i * rsa + k * csa].
// C is row-major with leading dimension ldc and is overwritten, or added to (accumulate:
// C += A @ B).
#pragma once

#include <cstdint>

namespace attic::cpu {

// The reference: three loops, the definition of matrix product. Slow and obviously right.
template <class T>
void gemm_naive(int64_t M, int64_t N, int64_t K, const T* A, int64_t rsa, int64_t csa,
                const T* B, int64_t rsb, int64_t csb, T* C, int64_t ldc);

// A triangle of a product that causal attention knows to be zero, or not to be wanted, with
// i the row of C (and of A), j the column of C, k the summed index, all from 0:
enum class Triangle {
  kNone,
  kLowerC,  // only C(i, j) with j <= i is wanted (S = q kᵀ, dP = dout vᵀ); tiles of C wholly
            // above the diagonal are neither computed nor written
  kLowerA,  // A(i, k) = 0 for k > i (out = P v, dq = dS k): row i sums only k <= i
  kUpperA,  // A(i, k) = 0 for k < i (dv = Pᵀ dout, dk = dSᵀ q): row i sums only k >= i
};

// The fast one (gemm.cpp): packed, register-blocked, multithreaded. Same contract; with a
// triangle it skips the work the triangle names, in whole micro-tiles and k ranges, so
// kLowerA and kUpperA give what gemm_naive gives on A with that triangle zeroed.
template <class T>
void gemm(int64_t M, int64_t N, int64_t K, const T* A, int64_t rsa, int64_t csa,
          const T* B, int64_t rsb, int64_t csb, T* C, int64_t ldc,
          Triangle tri = Triangle::kNone, bool accumulate = false);

// One call of gemm<float>(M, N, K, A, rsa, csa, B, rsb, csb, C, ldc, tri, accumulate): its
// sizes and layout, not its data. nested: it ran inside a parallel_for's chunk (attention's
// products run per head that way), so on one thread while other chunks ran beside it.
struct GemmCall {
  int64_t M = 0, N = 0, K = 0, rsa = 0, csa = 0, rsb = 0, csb = 0, ldc = 0;
  Triangle tri = Triangle::kNone;
  bool accumulate = false;
  bool nested = false;
};

// A function that sees each gemm<float> call before it runs, from whichever thread makes it,
// or null: measurement code (lab/gemm_trace.h) sets one and clears it; the kernel itself
// records nothing, and with no observer a call costs one atomic load.
using GemmObserver = void (*)(const GemmCall&);
void set_gemm_observer(GemmObserver observer);
GemmObserver gemm_observer();

}  // namespace attic::cpu
