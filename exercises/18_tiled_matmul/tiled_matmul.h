// Chapter 18's exercise: a tiled shared-memory matmul kernel in CUDA, for C = A Bᵀ.
#pragma once

#include <string>

// Is there a CUDA device to run on? (false on a machine without a GPU or a driver.)
bool cuda_device_available();

// C [M, N] = A [M, K] @ B [N, K]ᵀ, all row-major float32 on the host:
//   C(i, j) = Σ_k A(i, k) · B(j, k)
// B is [N, K], the layout of a Linear layer's weight (y = x Wᵀ). Copies A and B to the GPU,
// runs the tiled kernel on a grid of 16 x 16 blocks, copies C back. Returns "" on success,
// else the CUDA error's text.
std::string tiled_matmul_abt(int M, int N, int K, const float* A, const float* B, float* C);
