// Chapter 14's exercise: this is v1, the naive (i, j, k) loop nest. Make it at least twice as
// fast (the check measures it against this very loop), keeping the result within tolerance.
#include "my_gemm.h"

void my_gemm(int M, int N, int K, const float* A, const float* B, float* C) {
  // TODO: reorder the loops so that the innermost one walks along a row of B and of C
  // (chapter 14's v2), then block them so that a tile of B stays in cache (v3). A row of C
  // must be zeroed before it is accumulated into.
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float s = 0;
      for (int k = 0; k < K; ++k) s += A[i * K + k] * B[k * N + j];
      C[i * N + j] = s;
    }
}
