// Chapter 14, version 7: fusion. The bias and GELU applied to each tile of C just after its
// last micro-kernel call, while it is in L1, instead of in a second pass over all of C.
//   C[M, N] = GELU(A[M, K] B[K, N] + bias[N]), float32, row-major
#include "14_gemm.h"
#include "tensor/cpu/fast_math.h"

// GELU(x) = x/2 (1 + erf(x / √2)) as attic's GPT computes it, with attic's erf_f32, which
// the compiler vectorizes (libm's erf is a call, one element at a time).
float gelu(float x) { return 0.5f * x * (1.0f + attic::cpu::erf_f32(x * 0.70710678f)); }

float bias(int j) { return 0.01f * float(j % 10) - 0.05f; }  // a fixed pattern

// C[rows, cols] = GELU(C + bias), with row stride ldc, from column j0 of the whole C.
void bias_gelu(float* C, int rows, int cols, int ldc, int j0) {
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) C[i * ldc + j] = gelu(C[i * ldc + j] + bias(j0 + j));
}

// Unfused: v5, then one more pass over the whole of C.
[[gnu::noinline]] void unfused(int M, int N, int K, const float* A, const float* B, float* C) {
  blis_loops(M, N, K, A, B, C, micro_kernel);
  bias_gelu(C, M, N, N, 0);
}

// v7: the same work as blis_loops' epilogue, one MR x NR tile at a time.
[[gnu::noinline]] void gemm_v7(int M, int N, int K, const float* A, const float* B, float* C) {
  blis_loops(M, N, K, A, B, C, micro_kernel,
             [](float* c, int ldc, int j0) { bias_gelu(c, MR, NR, ldc, j0); });
}

int main() {
  // The laptop GPT's c_fc: x[B·T = 768, C = 128] W[C, 4C]. GFLOP/s count the GEMM only.
  Problem p(768, 512, 128);
  bias_gelu(p.C1.data(), p.M, p.N, p.N, 0);
  const double t5 = p.run("v5, then bias + GELU", unfused);
  const double t7 = p.run("v7 bias + GELU fused", gemm_v7);
  std::printf("fused vs a separate pass: %.2fx\n", t5 / t7);
  return 0;
}
