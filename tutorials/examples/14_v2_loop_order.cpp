// Chapter 14, version 2: v1's three loops in the order (i, k, j), so that the innermost loop
// walks along rows of B and C, one float after the next.
//   C[M, N] = A[M, K] B[K, N], float32, row-major
#include <cstdlib>

#include "14_gemm.h"

// C(i, :) = Σ_k A(i, k) B(k, :): a row of C built from whole rows of B.
[[gnu::noinline]] void gemm_v2(int M, int N, int K, const float* A, const float* B, float* C) {
  std::fill(C, C + M * N, 0.0f);
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k) {
      const float a = A[i * K + k];
      for (int j = 0; j < N; ++j) C[i * N + j] += a * B[k * N + j];
    }
}

// n = M = N = K: 480, or the first argument.
int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 480;
  Problem p(n, n, n);
  p.run("v2 loop order", gemm_v2);
  return 0;
}
