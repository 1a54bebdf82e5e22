// Chapter 18: matmul on the GPU, naive and tiled, checked against three loops on the CPU.
// C [M, N] = A [M, K] @ B [K, N], all row-major.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

constexpr int kTile = 16;

// One thread per C(i, j), reading a row of A and a column of B from global memory:
// every element of A is read N times and every element of B M times.
__global__ void matmul_naive(int M, int N, int K, const float* A, const float* B, float* C) {
  const int i = blockIdx.y * blockDim.y + threadIdx.y, j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M || j >= N) return;
  float acc = 0;
  for (int k = 0; k < K; ++k) acc += A[i * K + k] * B[k * N + j];
  C[i * N + j] = acc;
}

// A 16 x 16 block computes a 16 x 16 tile of C. For each 16-wide slice of k, each thread
// loads one element of A's tile and one of B's into shared memory (fast, on-chip, seen by
// the whole block); then all threads read from there. Global reads drop 16-fold.
__global__ void matmul_tiled(int M, int N, int K, const float* A, const float* B, float* C) {
  __shared__ float As[kTile][kTile];
  __shared__ float Bs[kTile][kTile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int i = blockIdx.y * kTile + ty, j = blockIdx.x * kTile + tx;
  float acc = 0;
  for (int k0 = 0; k0 < K; k0 += kTile) {
    As[ty][tx] = (i < M && k0 + tx < K) ? A[i * K + k0 + tx] : 0.0f;  // 0 past the edges
    Bs[ty][tx] = (k0 + ty < K && j < N) ? B[(k0 + ty) * N + j] : 0.0f;
    __syncthreads();  // the tiles are complete
    for (int k = 0; k < kTile; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();  // nobody still reads them when the next slice overwrites them
  }
  if (i < M && j < N) C[i * N + j] = acc;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("skipped: no CUDA device\n");
    return 0;
  }
  const int M = 37, N = 21, K = 45;  // not multiples of 16, to exercise the edges
  std::vector<float> A(M * K), B(K * N), ref(M * N), naive(M * N), tiled(M * N);
  for (int i = 0; i < M * K; ++i) A[i] = float(i % 7 - 3);  // small integers: every sum is
  for (int i = 0; i < K * N; ++i) B[i] = float(i % 5 - 2);  // exact, so all three agree
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0;
      for (int k = 0; k < K; ++k) acc += A[i * K + k] * B[k * N + j];
      ref[i * N + j] = acc;
    }
  float *dA, *dB, *dC;
  cudaMalloc(&dA, A.size() * sizeof(float));
  cudaMalloc(&dB, B.size() * sizeof(float));
  cudaMalloc(&dC, ref.size() * sizeof(float));
  cudaMemcpy(dA, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dB, B.data(), B.size() * sizeof(float), cudaMemcpyHostToDevice);
  const dim3 block(kTile, kTile), grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
  matmul_naive<<<grid, block>>>(M, N, K, dA, dB, dC);
  cudaMemcpy(naive.data(), dC, naive.size() * sizeof(float), cudaMemcpyDeviceToHost);
  matmul_tiled<<<grid, block>>>(M, N, K, dA, dB, dC);
  cudaMemcpy(tiled.data(), dC, tiled.size() * sizeof(float), cudaMemcpyDeviceToHost);
  const cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    std::printf("CUDA error: %s\n", cudaGetErrorString(err));
    return 1;
  }
  float dn = 0, dt = 0;
  for (int i = 0; i < M * N; ++i) {
    dn = std::fmax(dn, std::fabs(naive[i] - ref[i]));
    dt = std::fmax(dt, std::fabs(tiled[i] - ref[i]));
  }
  std::printf("grid %u x %u blocks of %d x %d threads\n", grid.x, grid.y, kTile, kTile);
  std::printf("C[0, 0:4] = %g %g %g %g\n", tiled[0], tiled[1], tiled[2], tiled[3]);
  std::printf("max |naive - cpu| = %g, max |tiled - cpu| = %g\n", dn, dt);
  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dC);
  return 0;
}
