// Chapter 18's exercise: your tiled kernel for C = A Bᵀ (see tiled_matmul.h).
#include <cuda_runtime.h>

#include "tiled_matmul.h"

constexpr int kTile = 16;

// A 16 x 16 block computes the 16 x 16 tile of C at block row blockIdx.y, block column
// blockIdx.x; thread (threadIdx.x, threadIdx.y) owns C(i, j), i = blockIdx.y · 16 + ty,
// j = blockIdx.x · 16 + tx. A [M, K], B [N, K], C [M, N], row-major.
__global__ void matmul_abt_tiled(int M, int N, int K, const float* A, const float* B, float* C) {
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int i = blockIdx.y * kTile + ty, j = blockIdx.x * kTile + tx;
  float acc = 0;
  // TODO: acc = Σ_k A(i, k) · B(j, k) (tiled_matmul.h), the block's threads reading A and B
  // through 16 x 16 tiles in shared memory, 16 values of k at a time; any M, N, K, not only
  // multiples of 16.
  if (i < M && j < N) C[i * N + j] = acc;
}

bool cuda_device_available() {
  int devices = 0;
  return cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0;
}

std::string tiled_matmul_abt(int M, int N, int K, const float* A, const float* B, float* C) {
  float *dA = nullptr, *dB = nullptr, *dC = nullptr;
  cudaMalloc(&dA, size_t(M) * K * sizeof(float));
  cudaMalloc(&dB, size_t(N) * K * sizeof(float));
  cudaMalloc(&dC, size_t(M) * N * sizeof(float));
  cudaMemcpy(dA, A, size_t(M) * K * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dB, B, size_t(N) * K * sizeof(float), cudaMemcpyHostToDevice);
  // TODO: matmul_abt_tiled run on 16 x 16 blocks that cover all of C [M, N].
  cudaMemcpy(C, dC, size_t(M) * N * sizeof(float), cudaMemcpyDeviceToHost);
  const cudaError_t err = cudaGetLastError();
  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dC);
  return err == cudaSuccess ? "" : cudaGetErrorString(err);
}
