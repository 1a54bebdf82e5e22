// Chapter 14, version 4: packing. The loops of BLIS (blis_loops in 14_gemm.h) copy a block
// of A and a panel of B into contiguous buffers, in the order the tile reads them; the tile
// here still updates C in memory at every step of k.
//   C[M, N] = A[M, K] B[K, N], float32, row-major
#include "14_gemm.h"

// C[MR, NR] += Ap[kc, MR]ᵀ Bp[kc, NR], one k (one rank-1 update of the tile) at a time.
void tile_v4(int kc, const float* Ap, const float* Bp, float* C, int ldc) {
  for (int k = 0; k < kc; ++k, Ap += MR, Bp += NR)
    for (int i = 0; i < MR; ++i) {
      const float a = Ap[i];
      for (int j = 0; j < NR; ++j) C[i * ldc + j] += a * Bp[j];
    }
}

[[gnu::noinline]] void gemm_v4(int M, int N, int K, const float* A, const float* B, float* C) {
  blis_loops(M, N, K, A, B, C, tile_v4);
}

int main() {
  Problem p;
  p.run("v4 packing", gemm_v4);
  return 0;
}
