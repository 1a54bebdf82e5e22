// Chapter 14's exercise: make a slow GEMM fast.
#pragma once

// C[M, N] = A[M, K] B[K, N]: float32, row-major (A(i, k) = A[i * K + k]), C overwritten:
//   C(i, j) = Σ_k A(i, k) B(k, j)
// Any M, N, K >= 1, not only multiples of a tile size.
void my_gemm(int M, int N, int K, const float* A, const float* B, float* C);
