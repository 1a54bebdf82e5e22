// Chapter 18's exercise, solved: the tiled kernel for C = A Bᵀ, B [N, K].
#include <cuda_runtime.h>

#include "tiled_matmul.h"

constexpr int kTile = 16;

// A 16 x 16 block computes the 16 x 16 tile of C at block row blockIdx.y, block column
// blockIdx.x; thread (threadIdx.x, threadIdx.y) owns C(i, j), i = blockIdx.y · 16 + ty,
// j = blockIdx.x · 16 + tx. A [M, K], B [N, K], C [M, N], row-major.
//   C(i, j) = Σ_k A(i, k) B(j, k),  one 16-wide slice of k per step
// Bs holds the slice of Bᵀ, Bs[k][tx] = B(j0 + tx, k0 + k), so that the inner loop reads it
// as the chapter's kernel does. Thread (tx, ty) fetches B(j0 + ty, k0 + tx) and stores it
// transposed, at Bs[tx][ty]: consecutive threads (tx) then read consecutive addresses of
// B's row, one coalesced read, as they do for A.
__global__ void matmul_abt_tiled(int M, int N, int K, const float* A, const float* B, float* C) {
  __shared__ float As[kTile][kTile];
  // One padding column: the transposed store Bs[tx][ty] then falls in 16 different
  // shared-memory banks for 16 consecutive tx, instead of in the same bank 16 times.
  __shared__ float Bs[kTile][kTile + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int i = blockIdx.y * kTile + ty, j = blockIdx.x * kTile + tx;
  const int jb = blockIdx.x * kTile + ty;  // the row of B this thread fetches
  float acc = 0;
  for (int k0 = 0; k0 < K; k0 += kTile) {
    As[ty][tx] = (i < M && k0 + tx < K) ? A[i * K + k0 + tx] : 0.0f;  // 0 past the edges
    Bs[tx][ty] = (jb < N && k0 + tx < K) ? B[jb * K + k0 + tx] : 0.0f;
    __syncthreads();  // the tiles are complete
    for (int k = 0; k < kTile; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();  // nobody still reads them when the next slice overwrites them
  }
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
  const dim3 block(kTile, kTile), grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
  matmul_abt_tiled<<<grid, block>>>(M, N, K, dA, dB, dC);
  cudaMemcpy(C, dC, size_t(M) * N * sizeof(float), cudaMemcpyDeviceToHost);  // waits for it
  const cudaError_t err = cudaGetLastError();
  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dC);
  return err == cudaSuccess ? "" : cudaGetErrorString(err);
}
