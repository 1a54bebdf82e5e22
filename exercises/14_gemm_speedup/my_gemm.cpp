// Chapter 14's exercise: this is v1, the naive (i, j, k) loop nest. Make it at least twice as
// fast (the check measures it against this very loop), keeping the result within tolerance.
#include "my_gemm.h"

void my_gemm(int M, int N, int K, const float* A, const float* B, float* C) {
  // TODO: the same C(i, j) = Σ_k A(i, k) B(k, j), C overwritten, for any M, N, K >= 1
  // (my_gemm.h), in at most half the time this loop nest takes.
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float s = 0;
      for (int k = 0; k < K; ++k) s += A[i * K + k] * B[k * N + j];
      C[i * N + j] = s;
    }
}
