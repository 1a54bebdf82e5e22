// Chapter 14, version 3: blocking. v2's loops run tile by tile, so that the tile of B being
// read and the row of C being written stay in cache while they are used.
//   C[M, N] = A[M, K] B[K, N], float32, row-major
#include <cstdlib>

#include "14_gemm.h"

// Tiles: B's [KB, NB] is 128 KiB (L2), the row of C it updates 1 KiB (L1).
constexpr int MB = 64, NB = 256, KB = 128;

// For each tile of C [MB, NB] and block of k [KB]: v2's (i, k, j) loops inside the tile.
[[gnu::noinline]] void gemm_v3(int M, int N, int K, const float* A, const float* B, float* C) {
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

// n = M = N = K: 480, or the first argument.
int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 480;
  Problem p(n, n, n);
  p.run("v3 blocking", gemm_v3);
  return 0;
}
