// What describes one GEMM call: the triangle of C or A that causal attention skips, and the
// call's sizes and layout as an observer sees them. The kernels at each instruction-set level
// (tensor/cpu/kernels.h) include this and not gemm.h, whose cpu::gemm forwards to them:
// seeing both gemms, a call inside a level would be ambiguous (a Triangle argument brings
// attic::cpu's gemm in by argument-dependent lookup).
#pragma once

#include <cstdint>

namespace attic::cpu {

// A triangle of a product that causal attention knows to be zero, or not to be wanted, with
// i the row of C (and of A), j the column of C, k the summed index, all from 0:
enum class Triangle {
  kNone,
  kLowerC,  // only C(i, j) with j <= i is wanted (S = q kᵀ, dP = dout vᵀ); tiles of C wholly
            // above the diagonal are neither computed nor written
  kLowerA,  // A(i, k) = 0 for k > i (out = P v, dq = dS k): row i sums only k <= i
  kUpperA,  // A(i, k) = 0 for k < i (dv = Pᵀ dout, dk = dSᵀ q): row i sums only k >= i
};

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
