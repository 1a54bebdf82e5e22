// The readable matmul kernel: tiled through shared memory. cuBLAS (matmul.cu) is what
// attic runs; this one shows how such a kernel works and is tested against it.
//
// The naive kernel (one thread per C(i, j), looping over k) reads every element of A and B
// from global memory N and M times. Here a 16 x 16 block of threads computes a 16 x 16 tile
// of C: for each 16-wide slice of k, the block loads one tile of A and one of B into shared
// memory (each thread loads one element of each), waits, and every thread then reads its
// row of the A tile and column of the B tile from shared memory. Global reads drop 16-fold.
#include <cuda_runtime.h>

#include "tensor/cuda/cuda_backend.h"
#include "tensor/cuda/launch.cuh"

namespace attic::cuda {

namespace {

constexpr int kTile = 16;

// C [batch, M, N] (contiguous) = A [batch, M, K] @ B [batch, K, N]:
//   C(z, i, j) = Σ_k A(z, i, k) B(z, k, j),  A(z, i, k) = A[z bsa + i rsa + k csa]
// Block (bx, by, bz) computes C's tile rows by·16.., columns bx·16.. of batch bz (and bz +
// gridDim.z, ...). Out-of-range tile elements load as 0, so M, N, K need not divide by 16.
template <class T>
__global__ void matmul_tiled_kernel(int64_t batch, int64_t M, int64_t N, int64_t K, const T* A,
                                    int64_t bsa, int64_t rsa, int64_t csa, const T* B,
                                    int64_t bsb, int64_t rsb, int64_t csb, T* C) {
  __shared__ T As[kTile][kTile];
  __shared__ T Bs[kTile][kTile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t i = blockIdx.y * int64_t(kTile) + ty;  // this thread's row of C
  const int64_t j = blockIdx.x * int64_t(kTile) + tx;  // and column
  for (int64_t z = blockIdx.z; z < batch; z += gridDim.z) {
    const T* a = A + z * bsa;
    const T* b = B + z * bsb;
    T acc = 0;
    for (int64_t k0 = 0; k0 < K; k0 += kTile) {
      As[ty][tx] = (i < M && k0 + tx < K) ? a[i * rsa + (k0 + tx) * csa] : T(0);
      Bs[ty][tx] = (k0 + ty < K && j < N) ? b[(k0 + ty) * rsb + j * csb] : T(0);
      __syncthreads();  // the tiles are loaded
      for (int k = 0; k < kTile; ++k) acc += As[ty][k] * Bs[k][tx];
      __syncthreads();  // everyone is done with them before the next load
    }
    if (i < M && j < N) C[(z * M + i) * N + j] = acc;
  }
}

}  // namespace

template <class T>
void matmul_tiled(int64_t batch, int64_t M, int64_t N, int64_t K, const T* A, int64_t bsa,
                  int64_t rsa, int64_t csa, const T* B, int64_t bsb, int64_t rsb, int64_t csb,
                  T* C) {
  if (batch == 0 || M == 0 || N == 0) return;
  const dim3 block(kTile, kTile);
  const dim3 grid(unsigned((N + kTile - 1) / kTile), unsigned((M + kTile - 1) / kTile),
                  unsigned(std::min<int64_t>(batch, 65535)));
  matmul_tiled_kernel<T><<<grid, block>>>(batch, M, N, K, A, bsa, rsa, csa, B, bsb, rsb, csb, C);
  check_launch("matmul_tiled_kernel");
}

template void matmul_tiled<float>(int64_t, int64_t, int64_t, int64_t, const float*, int64_t,
                                  int64_t, int64_t, const float*, int64_t, int64_t, int64_t,
                                  float*);
template void matmul_tiled<double>(int64_t, int64_t, int64_t, int64_t, const double*, int64_t,
                                   int64_t, int64_t, const double*, int64_t, int64_t, int64_t,
                                   double*);

}  // namespace attic::cuda
