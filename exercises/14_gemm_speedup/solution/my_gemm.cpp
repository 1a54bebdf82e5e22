// Chapter 14's exercise, solved: v2's (i, k, j) order inside v3's tiles. The innermost loop
// runs along rows of B and C with stride 1, so the compiler vectorizes it, and a [KB, NB]
// tile of B (128 KiB) stays in L2 while the MB rows of A pass over it.
#include "my_gemm.h"

#include <algorithm>

void my_gemm(int M, int N, int K, const float* A, const float* B, float* C) {
  constexpr int MB = 64, NB = 256, KB = 128;
  std::fill(C, C + M * N, 0.0f);
  for (int j0 = 0; j0 < N; j0 += NB)
    for (int k0 = 0; k0 < K; k0 += KB)
      for (int i0 = 0; i0 < M; i0 += MB)
        for (int i = i0; i < std::min(i0 + MB, M); ++i)
          for (int k = k0; k < std::min(k0 + KB, K); ++k) {
            const float a = A[i * K + k];
            for (int j = j0; j < std::min(j0 + NB, N); ++j) C[i * N + j] += a * B[k * N + j];
          }
}
