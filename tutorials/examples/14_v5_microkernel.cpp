// Chapter 14, version 5: the register micro-kernel (micro_kernel in 14_gemm.h) in v4's
// loops, beside attic's own GEMM (tensor/cpu/gemm.cpp) on one thread.
//   C[M, N] = A[M, K] B[K, N], float32, row-major
#include "14_gemm.h"
#include "tensor/cpu/gemm.h"
#include "tensor/threads.h"

[[gnu::noinline]] void gemm_v5(int M, int N, int K, const float* A, const float* B, float* C) {
  blis_loops(M, N, K, A, B, C, micro_kernel);
}

// attic::cpu::gemm reads A and B through (row, column) strides; C's row stride is N.
void gemm_attic(int M, int N, int K, const float* A, const float* B, float* C) {
  attic::cpu::gemm<float>(M, N, K, A, K, 1, B, N, 1, C, N);
}

int main() {
  attic::set_num_threads(1);
  Problem p;
  p.run("v5 micro-kernel", gemm_v5);
  p.run("attic's cpu::gemm", gemm_attic);
  return 0;
}
