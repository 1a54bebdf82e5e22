// Chapter 18: the first kernel. c[i] = a[i] + b[i], one GPU thread per element.
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

// __global__: runs on the GPU, launched from the host. Every thread runs this body; the
// built-in blockIdx, blockDim and threadIdx tell a thread which element is its own.
__global__ void add_kernel(int n, const float* a, const float* b, float* c) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];  // the last block may have threads past the end
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("skipped: no CUDA device\n");
    return 0;
  }
  const int n = 10;
  std::vector<float> a(n), b(n), c(n);
  for (int i = 0; i < n; ++i) {
    a[i] = float(i);
    b[i] = float(10 * i);
  }
  // Device memory is separate: allocate it, copy the inputs over, run, copy the result back.
  float *da, *db, *dc;
  cudaMalloc(&da, n * sizeof(float));
  cudaMalloc(&db, n * sizeof(float));
  cudaMalloc(&dc, n * sizeof(float));
  cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  const int threads = 256, blocks = (n + threads - 1) / threads;  // enough blocks to cover n
  add_kernel<<<blocks, threads>>>(n, da, db, dc);  // returns at once: the GPU runs it later
  cudaMemcpy(c.data(), dc, n * sizeof(float), cudaMemcpyDeviceToHost);  // waits for it
  const cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    std::printf("CUDA error: %s\n", cudaGetErrorString(err));
    return 1;
  }
  std::printf("%d blocks of %d threads for %d elements\nc =", blocks, threads, n);
  for (float v : c) std::printf(" %g", v);
  std::printf("\n");
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  return 0;
}
